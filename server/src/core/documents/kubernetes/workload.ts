/**
 * Deployments, StatefulSets and Jobs that run a Flink JobManager or TaskManager (standalone Kubernetes), the
 * FLINK_PROPERTIES environment variable of their containers, which the Flink image appends to its configuration,
 * and the `-Dkey=value` arguments of their start commands, which Flink sets over both.
 */
import type { Node } from "yaml";
import { pushAll } from "../../arrays";
import type { ConfigMount, FileFacts, FlinkConfig, FlinkRole, FlinkWorkload, K8sObject, Located } from "../../model";
import { argvWord, clientCommands, startCommands, type Word } from "../commandLine";
import { commandLineConfig } from "../flinkConfig/commandLine";
import { readEmbeddedConfig } from "../flinkConfig/embedded";
import { flinkImageVersion, imageEvidence } from "../images";
import { getIn, getPair, getValue, scalarStrings, scalarText, seqItems, type YamlSource } from "../yaml/ast";
import { scalarChars } from "../yaml/scalarChars";
import { scalarLines } from "../yaml/scalarLines";
import { objectKey } from "./objects";

/**
 * The words of a container's command line, with Flink's own start scripts named as the image's entry point names
 * them: `$FLINK_HOME/bin/jobmanager.sh start` (in a `bash -c "…; …"` line) is `jobmanager`, `start-cluster.sh` a
 * session JobManager, `standalone-job.sh` `standalone-job`, `taskmanager.sh` `taskmanager`.
 */
function commandWords(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    for (const raw of arg.split(/[\s;&|]+/)) {
      const base = raw.replace(/^["']|["']$/g, "").replace(/^.*\//, "");
      if (base === "jobmanager.sh" || base === "start-cluster.sh") out.push("jobmanager");
      else if (base === "standalone-job.sh") out.push("standalone-job");
      else if (base === "taskmanager.sh") out.push("taskmanager");
      else out.push(raw);
    }
  }
  return out;
}

/** The role a container's command line starts (`jobmanager`, `standalone-job`, `taskmanager`). */
export function roleFromArgs(args: readonly string[]): FlinkRole | undefined {
  for (const word of commandWords(args)) {
    if (word === "jobmanager" || word === "standalone-job") return "jobmanager";
    if (word === "taskmanager") return "taskmanager";
  }
  return undefined;
}

/**
 * How a JobManager's command line runs jobs: `standalone-job` runs one application (its job is in the image),
 * `jobmanager` starts a session cluster that takes jobs submitted from elsewhere.
 */
export function jobManagerMode(args: readonly string[]): FlinkWorkload["mode"] {
  for (const word of commandWords(args)) {
    if (word === "standalone-job") return "application";
    if (word === "jobmanager") return "session";
  }
  return undefined;
}

/**
 * The job class an application cluster's command names (`standalone-job --job-classname com.example.Job`, `-j X`);
 * undefined when the command names none (the entry point then takes the class from the jar in `usrlib`).
 */
export function jobClassName(args: readonly string[]): string | undefined {
  const words = commandWords(args).map((w) => w.replace(/^["']|["']$/g, ""));
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const joined = /^--job-classname=(.+)$/.exec(w)?.[1];
    const value = joined ?? (w === "--job-classname" || w === "-j" ? words[i + 1] : undefined);
    if (value && /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(value)) return value;
  }
  return undefined;
}

/** `flink-taskmanager`, `component: jobmanager`: the role a name or label mentions. */
export function roleFromName(name: string | undefined): FlinkRole | undefined {
  const lower = (name ?? "").toLowerCase();
  if (lower.includes("taskmanager")) return "taskmanager";
  if (lower.includes("jobmanager")) return "jobmanager";
  return undefined;
}

export function readWorkload(src: YamlSource, root: unknown, object: K8sObject, facts: FileFacts): void {
  const podSpec = getIn(root, ["spec", "template", "spec"]);
  const containers = [...seqItems(getValue(podSpec, "containers")), ...seqItems(getValue(podSpec, "initContainers"))];
  const main = seqItems(getValue(podSpec, "containers"));
  const images: Located<string>[] = [];
  let role: FlinkRole | undefined;
  let mode: FlinkWorkload["mode"];
  let jobClass: string | undefined;
  for (const c of main) {
    const args = [...scalarStrings(getValue(c, "command")), ...scalarStrings(getValue(c, "args"))];
    role ??= roleFromArgs(args);
    mode ??= jobManagerMode(args);
    if (mode === "application") jobClass ??= jobClassName(args);
    const image = src.locatedString(getValue(c, "image"));
    if (image) images.push(image);
  }
  const labels = [getIn(root, ["metadata", "labels"]), getIn(root, ["spec", "template", "metadata", "labels"])];
  for (const l of labels) {
    role ??= roleFromName(scalarText(getValue(l, "component")));
    role ??= roleFromName(scalarText(getValue(l, "app.kubernetes.io/component")));
  }
  const commandLines = main.flatMap((c, i) => commandLineProperties(src, c, i, object) ?? []);
  // A container that submits a job (`flink run -D… job.jar`, typically a Job) configures that job, not a cluster.
  for (const c of commandLines) if (c.host === "submission") facts.flinkConfigs.push(c);
  // A Job (the JobManager of an application cluster) counts only when its command or a component label says so: a
  // Job with a Flink image may as well submit a job to a cluster elsewhere.
  if (object.kind === "Job" && role === undefined) return;
  role ??= roleFromName(object.name);
  for (const c of main) role ??= roleFromName(scalarText(getValue(c, "name")));

  const configs = [
    ...containers.flatMap((c, i) => flinkProperties(src, c, i, object, facts)),
    ...commandLines.filter((c) => c.host === "commandLine"),
  ];
  const isFlink =
    role !== undefined || images.some((i) => flinkImageVersion(i.value) !== undefined) || configs.length > 0;
  if (!isFlink) return;
  const workload: FlinkWorkload = {
    file: src.file,
    source: object.kind === "StatefulSet" ? "statefulset" : object.kind === "Job" ? "job" : "deployment",
    name: object.name,
    role,
    replicas: src.locatedInt(getIn(root, ["spec", "replicas"])),
    images,
    anchor: object.kindRange,
    object,
  };
  if (mode) workload.mode = mode;
  if (jobClass) workload.jobClass = jobClass;
  const mounts = configMapMounts(src, podSpec, main);
  if (mounts.length > 0) workload.configMounts = mounts;
  facts.workloads.push(workload);
  pushAll(facts.flinkConfigs, configs);
  for (const image of images) {
    const evidence = imageEvidence(image);
    if (evidence) facts.flinkVersions.push(evidence);
  }
}

/**
 * ConfigMaps mounted into Flink's configuration folder: a pod volume `{name, configMap: {name}}` and a container
 * `volumeMounts` entry `{name, mountPath: /opt/flink/conf}` naming it.
 */
function configMapMounts(src: YamlSource, podSpec: unknown, containers: unknown[]): ConfigMount[] {
  const volumes = new Map<string, { configMap: string; node: Node }>();
  for (const v of seqItems(getValue(podSpec, "volumes"))) {
    const name = scalarText(getValue(v, "name"));
    const configMap = scalarText(getIn(v, ["configMap", "name"]));
    if (name && configMap) volumes.set(name, { configMap, node: getIn(v, ["configMap", "name"]) as Node });
  }
  const out: ConfigMount[] = [];
  for (const c of containers) {
    for (const m of seqItems(getValue(c, "volumeMounts"))) {
      const volume = volumes.get(scalarText(getValue(m, "name")) ?? "");
      const path = scalarText(getValue(m, "mountPath"));
      if (!volume || !path?.startsWith("/opt/flink/conf") || !volume.node.range) continue;
      const [start, end] = volume.node.range;
      out.push({
        configMap: volume.configMap,
        containerPath: path,
        location: { file: src.file, range: src.range(start, src.trimEnd(start, end)) },
      });
    }
  }
  return out;
}

/** `env: [{name: FLINK_PROPERTIES, value: |…}]` of one container. */
function flinkProperties(
  src: YamlSource,
  container: unknown,
  index: number,
  object: K8sObject,
  facts: FileFacts,
): FlinkConfig[] {
  const out: FlinkConfig[] = [];
  for (const env of seqItems(getValue(container, "env"))) {
    if (scalarText(getValue(env, "name")) !== "FLINK_PROPERTIES") continue;
    const value = getPair(env, "value");
    const lines = scalarLines(src, value?.value);
    const nameNode = getValue(env, "name") as Node;
    if (!lines || !nameNode.range) continue;
    const containerName = scalarText(getValue(container, "name")) ?? String(index);
    const { config, problems } = readEmbeddedConfig({
      src,
      text: lines,
      id: `${src.file}#${objectKey(object)}/containers/${containerName}/FLINK_PROPERTIES`,
      host: "envProperties",
      anchor: src.range(nameNode.range[0], src.trimEnd(nameNode.range[0], nameNode.range[1])),
      owner: object,
    });
    pushAll(facts.syntaxErrors, problems);
    out.push(config);
  }
  return out;
}

/** The words of a container's `command` or `args` list: one per item, each character at its place in the file. */
function listWords(src: YamlSource, list: unknown): Word[] {
  return seqItems(list).flatMap((item) => {
    const text = scalarChars(src, item);
    return text ? [argvWord(text)] : [];
  });
}

/**
 * The dynamic properties of a container's Flink start command: `args: ["standalone-job", "-Dk=v"]` (the image's
 * entry point runs them when the container sets no `command`), or a start script in `command`/`args`, also inside
 * `bash -c "…"`; else those of a job the container submits (`flink run -D… job.jar`, typically in a Job), a
 * configuration of the `submission` host. Only the first start command of a container is read.
 */
function commandLineProperties(
  src: YamlSource,
  container: unknown,
  index: number,
  object: K8sObject,
): FlinkConfig | undefined {
  const command = getValue(container, "command");
  const args = getValue(container, "args");
  const argv = [...listWords(src, command), ...listWords(src, args)];
  const [start] = startCommands(argv, seqItems(command).length === 0);
  const found = start ?? clientCommands(argv)[0];
  if (!found) return undefined;
  const containerName = scalarText(getValue(container, "name")) ?? String(index);
  const key = (getPair(container, seqItems(args).length > 0 ? "args" : "command")?.key as Node | null)?.range;
  return commandLineConfig({
    file: src.file,
    id: `${src.file}#${objectKey(object)}/containers/${containerName}/${start ? "command" : "submit"}`,
    command: found,
    position: (offset) => src.position(offset),
    anchor: key ? src.range(key[0], key[1]) : object.kindRange,
    owner: object,
  });
}
