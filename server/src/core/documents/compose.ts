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
import { emptyFacts, type FileFacts, type FlinkWorkload } from "../model";
import type { Range } from "../text";
import { afterPrefix, readEmbeddedConfig } from "./flinkConfig/embedded";
import { flinkImageVersion, imageEvidence } from "./images";
import { roleFromArgs, roleFromName } from "./kubernetes/workload";
import {
  getIn,
  getMap,
  getPair,
  getValue,
  keyText,
  mapPairs,
  scalarStrings,
  seqItems,
  type YamlDocument,
  YamlSource,
} from "./yaml/ast";
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
      src.problems(d, (m) => `Docker Compose cannot read this file, so no service starts: ${m}`),
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
  facts.workloads.push(workload);
  for (const c of configs) {
    facts.flinkConfigs.push(c.config);
    facts.syntaxErrors.push(...c.problems);
  }
  const evidence = image && imageEvidence(image);
  if (evidence) facts.flinkVersions.push(evidence);
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
