/**
 * docker-compose files: services that run a Flink JobManager or TaskManager (the official image, or a
 * `jobmanager` / `taskmanager` command), their replica count, and FLINK_PROPERTIES in map or list form:
 *
 *   environment:                         environment:
 *     FLINK_PROPERTIES: |                  - |
 *       taskmanager.numberOfTaskSlots: 2     FLINK_PROPERTIES=
 *                                             taskmanager.numberOfTaskSlots: 2
 */
import { isMap, isScalar, type Node, type Pair } from "yaml";
import { pushAll } from "../arrays";
import { type ConfigMount, emptyFacts, type FileFacts, type FlinkWorkload } from "../model";
import type { Range } from "../text";
import { argvWord, clientCommands, shellSplit, startCommands, type Word } from "./commandLine";
import { commandLineConfig } from "./flinkConfig/commandLine";
import { afterPrefix, readEmbeddedConfig } from "./flinkConfig/embedded";
import { flinkImageVersion, imageEvidence } from "./images";
import { jobClassName, jobManagerMode, roleFromArgs, roleFromName } from "./kubernetes/workload";
import { folderOf, resolvePath } from "./paths";
import {
  getIn,
  getMap,
  getPair,
  getValue,
  keyText,
  mapPairs,
  scalarStrings,
  scalarText,
  seqItems,
  type YamlDocument,
  YamlSource,
} from "./yaml/ast";
import { scalarChars } from "./yaml/scalarChars";
import { type ScalarLines, scalarLines } from "./yaml/scalarLines";

const PROPERTIES = "FLINK_PROPERTIES";

export function isComposeName(name: string): boolean {
  return /^(docker-)?compose([.-][^/]*)?\.ya?ml$/i.test(name);
}

/** A document with a top-level `services:` mapping. */
export function hasComposeServices(docs: readonly YamlDocument[]): boolean {
  return docs.some((d) => getMap(d.contents, "services") !== undefined);
}

export function readCompose(file: string, text: string, docs: YamlDocument[]): FileFacts {
  const facts = emptyFacts(file, "compose", text);
  const src = new YamlSource(file, text);
  const root = docs[0]?.contents;
  for (const pair of mapPairs(getMap(root, "services"))) readService(src, pair, facts);
  const hasFlink = facts.workloads.length > 0 || facts.flinkConfigs.length > 0;
  if (hasFlink) {
    const problems = docs.flatMap((d) =>
      src.problems(d, "Docker Compose cannot read this file, so no service starts."),
    );
    facts.syntaxErrors = [...problems, ...facts.syntaxErrors];
  }
  return facts;
}

function readService(src: YamlSource, pair: Pair, facts: FileFacts) {
  const name = keyText(pair);
  const keyNode = pair.key as Node | null;
  const service = pair.value;
  if (name === undefined || !keyNode?.range || !isMap(service)) return;
  const anchor = src.range(keyNode.range[0], keyNode.range[1]);
  const image = src.locatedString(getValue(service, "image"));
  const official = image !== undefined && flinkImageVersion(image.value) !== undefined;
  const flinkish = official || /(^|[/_-])flink/.test(image?.value ?? "");
  const role = roleFromArgs(scalarStrings(getValue(service, "command"))) ?? (flinkish ? roleFromName(name) : undefined);
  const configs = environmentProperties(src, getValue(service, "environment")).map((lines, i) =>
    readEmbeddedConfig({
      src,
      text: lines.text,
      id: `${src.file}#services.${name}.environment.${PROPERTIES}${i > 0 ? `.${i}` : ""}`,
      host: "envProperties",
      anchor: lines.anchor ?? anchor,
    }),
  );
  const commandLine = commandLineProperties(src, name, service, anchor);
  // A service that submits a job configures that job, not a cluster: it is no workload for it.
  if (commandLine?.host === "submission") facts.flinkConfigs.push(commandLine);
  else if (commandLine) configs.push({ config: commandLine, problems: [] });
  if (!official && role === undefined && configs.length === 0) return;
  const workload: FlinkWorkload = {
    file: src.file,
    source: "compose",
    name,
    role,
    replicas: src.locatedInt(getIn(service, ["deploy", "replicas"])) ?? src.locatedInt(getValue(service, "scale")),
    images: image ? [image] : [],
    anchor,
  };
  const command = scalarStrings(getValue(service, "command"));
  const mode = jobManagerMode(command);
  if (mode) workload.mode = mode;
  const jobClass = mode === "application" ? jobClassName(command) : undefined;
  if (jobClass) workload.jobClass = jobClass;
  const mounts = bindMounts(src, getValue(service, "volumes"));
  if (mounts.length > 0) workload.configMounts = mounts;
  const volumes = volumeMounts(src, getValue(service, "volumes"));
  if (volumes.length > 0) workload.volumes = volumes;
  const build = buildOf(src, service);
  if (build) workload.build = build;
  if (getValue(service, "command") !== undefined || getValue(service, "entrypoint") !== undefined)
    workload.setsCommand = true;
  facts.workloads.push(workload);
  for (const c of configs) {
    facts.flinkConfigs.push(c.config);
    pushAll(facts.syntaxErrors, c.problems);
  }
  const evidence = image && imageEvidence(image);
  if (evidence) facts.flinkVersions.push(evidence);
}

/**
 * The words of a `command` or `entrypoint`: a list gives one word per item; a string is split the way Compose
 * splits it (quotes and escapes as in a shell; no shell runs it, so it is one command).
 */
function commandWords(src: YamlSource, node: unknown): Word[] {
  const items = seqItems(node);
  if (items.length > 0)
    return items.flatMap((item) => {
      const text = scalarChars(src, item);
      return text ? [argvWord(text)] : [];
    });
  const text = scalarChars(src, node);
  return text ? (shellSplit(text, "blank")[0] ?? []) : [];
}

/**
 * The dynamic properties of a service's Flink start command: `command: standalone-job -Dk=v` (run by the image's
 * entry point unless the service sets its own `entrypoint`), or a start script, also inside `bash -c "…"`; else those
 * of a job the service submits (`command: flink run -d -D… /jobs/orders.jar`), a configuration of the `submission`
 * host: the job's, no cluster's.
 */
function commandLineProperties(src: YamlSource, name: string, service: unknown, anchor: Range) {
  const entrypoint = commandWords(src, getValue(service, "entrypoint"));
  const argv = [...entrypoint, ...commandWords(src, getValue(service, "command"))];
  const [start] = startCommands(argv, entrypoint.length === 0);
  const command = start ?? clientCommands(argv)[0];
  if (!command) return undefined;
  const key = (getPair(service, "command")?.key as Node | null)?.range;
  return commandLineConfig({
    file: src.file,
    id: `${src.file}#services.${name}.${start ? "command" : "submit"}`,
    command,
    position: (offset) => src.position(offset),
    anchor: key ? src.range(key[0], key[1]) : anchor,
  });
}

/** Where Flink reads its configuration files in the official image. */
export const FLINK_CONF_DIR = "/opt/flink/conf";

/**
 * Bind mounts into Flink's configuration folder: `./conf:/opt/flink/conf[:ro]`,
 * `./flink-conf.yaml:/opt/flink/conf/flink-conf.yaml`, or the long form `{type: bind, source, target}`. Named
 * volumes are not files of the project and are left out.
 */
function bindMounts(src: YamlSource, volumes: unknown): ConfigMount[] {
  const dir = folderOf(src.file);
  const out: ConfigMount[] = [];
  for (const item of seqItems(volumes)) {
    let source: string | undefined;
    let target: string | undefined;
    const text = scalarText(item);
    if (text !== undefined) {
      const parts = text.split(":");
      if (parts.length < 2) continue;
      [source, target] = parts;
    } else if (isMap(item)) {
      source = scalarText(getValue(item, "source"));
      target = scalarText(getValue(item, "target"));
    }
    if (!source || !target || !/^[.~/]/.test(source) || !target.startsWith(FLINK_CONF_DIR)) continue;
    const node = item as Node;
    const range = node.range ? src.range(node.range[0], src.trimEnd(node.range[0], node.range[1])) : undefined;
    if (!range) continue;
    out.push({
      hostPath: resolvePath(dir, source),
      containerPath: target,
      location: { file: src.file, range },
    });
  }
  return out;
}

/**
 * Every mount of a service: `name:/path[:mode]`, `./host:/path`, or the long form `{type, source, target}`. An
 * anonymous volume (`/path` alone, or no source) is the container's own and is left out.
 */
function volumeMounts(src: YamlSource, volumes: unknown): NonNullable<FlinkWorkload["volumes"]> {
  const dir = folderOf(src.file);
  const out: NonNullable<FlinkWorkload["volumes"]> = [];
  for (const item of seqItems(volumes)) {
    let source: string | undefined;
    let target: string | undefined;
    const text = scalarText(item);
    if (text !== undefined) [source, target] = text.split(":");
    else if (isMap(item)) {
      if (scalarText(getValue(item, "type")) === "tmpfs") continue;
      source = scalarText(getValue(item, "source"));
      target = scalarText(getValue(item, "target"));
    }
    if (!source || !target?.startsWith("/") || source.includes("$")) continue;
    const host = /^[.~/]/.test(source);
    out.push({ volume: host ? `host:${resolvePath(dir, source)}` : `volume:${source}`, containerPath: target });
  }
  return out;
}

/** `build: ./job` or `build: {context: ., dockerfile: docker/Dockerfile.flink}`. */
function buildOf(src: YamlSource, service: unknown): FlinkWorkload["build"] {
  const build = getValue(service, "build");
  const node = build as Node | undefined;
  if (!node?.range) return undefined;
  const context = scalarText(build) ?? scalarText(getValue(build, "context")) ?? ".";
  const dockerfile = scalarText(getValue(build, "dockerfile")) ?? "Dockerfile";
  const root = resolvePath(folderOf(src.file), context);
  return {
    context: root,
    dockerfile: resolvePath(root, dockerfile),
    location: { file: src.file, range: src.range(node.range[0], src.trimEnd(node.range[0], node.range[1])) },
  };
}

interface PropertiesText {
  text: ScalarLines;
  anchor?: Range;
}

function environmentProperties(src: YamlSource, env: unknown): PropertiesText[] {
  if (isMap(env)) {
    const pair = getPair(env, PROPERTIES);
    const text = scalarLines(src, pair?.value);
    const key = (pair?.key as Node | null)?.range;
    return text && key ? [{ text, anchor: src.range(key[0], key[1]) }] : [];
  }
  const out: PropertiesText[] = [];
  for (const item of seqItems(env)) {
    if (!isScalar(item)) continue;
    const lines = scalarLines(src, item);
    const rest = lines && afterPrefix(lines.lines, `${PROPERTIES}=`);
    if (!lines || !rest) continue;
    const first = rest[0];
    const at = { line: first.line, character: first.character - PROPERTIES.length - 1 };
    const anchor = lines.exact
      ? { start: at, end: { line: at.line, character: at.character + PROPERTIES.length } }
      : undefined;
    out.push({ text: { ...lines, lines: rest }, anchor });
  }
  return out;
}
