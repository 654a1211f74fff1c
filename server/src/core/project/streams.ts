/**
 * How a Flink DataStream job is wired, computed from job code in any language: which environment an operator, a
 * Kafka source or a Kafka sink belongs to, and whether that job checkpoints (in code, in a `Configuration` given to
 * the environment, or in the project's Flink configuration).
 *
 * Code is read statically, so every answer has a third value: "maybe" (a call on an `if` branch, an interval only
 * the running program knows, a configuration filled in at deploy time). Rules that report something missing stay
 * silent on "maybe"; rules that need a setting to be on do not count "maybe" as on.
 */

import { pushAll } from "../arrays";
import type { Location } from "../findings";
import type {
  CheckpointingSetting,
  CodeValue,
  JobCode,
  KafkaSinkBuilder,
  KafkaSourceBuilder,
  StreamEnvironment,
  StreamOperator,
} from "../jobcode/facts";
import { parseDuration } from "../knowledge/values";
import { rangeContains } from "../text";
import type { ProjectModel } from "../workspace/project";
import { checkpointing, clustersOf, mayBeCompleted } from "./clusters";
import { findEntry } from "./configEntries";
import { isTestCode, namesFile, productionCode, runsOnManagedFlink, wordPattern } from "./jobCode";

export type Evidence = "on" | "maybe" | "off";

const INTERVAL_KEY = "execution.checkpointing.interval";

/** A number read from a Java value, durations written as text included (`"1 min"`). */
function millisOf(value: CodeValue): number | undefined {
  if (value.kind === "number") return value.value;
  if (value.kind === "string") return parseDuration(value.value.trim())?.millis;
  return undefined;
}

/** A whole number read from a Java value (`8`, `"8"`), e.g. a parallelism. */
export function numberOf(value: CodeValue): number | undefined {
  const n = value.kind === "number" ? value.value : value.kind === "string" ? Number(value.value.trim()) : Number.NaN;
  return Number.isInteger(n) ? n : undefined;
}

function strongest(a: Evidence, b: Evidence): Evidence {
  return a === "on" || b === "on" ? "on" : a === "maybe" || b === "maybe" ? "maybe" : "off";
}

/** What one checkpointing call says about periodic checkpointing. */
function settingEvidence(s: CheckpointingSetting): Evidence {
  if (s.kind === "checkpointConfig" && s.call.method !== "setCheckpointInterval") return "off";
  if (s.kind === "configuration" && s.key !== INTERVAL_KEY) return "off";
  let evidence: Evidence;
  if (!s.interval) {
    // The no-argument enableCheckpointing() checkpoints every 500 ms.
    evidence = s.kind === "enableCheckpointing" ? "on" : "maybe";
  } else {
    const millis = millisOf(s.interval.value);
    evidence = millis === undefined ? "maybe" : millis > 0 ? "on" : "off";
  }
  return evidence === "on" && s.call.conditional ? "maybe" : evidence;
}

function environmentVariables(java: JobCode): Set<string> {
  return new Set(java.dataStream.environments.flatMap((e) => (e.variable ? [e.variable] : [])));
}

/**
 * Whether a checkpointing call may configure `env`. A call on an environment another part of the code creates
 * belongs to that job; a call on a parameter or a field may receive `env` from anywhere, so it counts.
 */
function mayConfigure(
  s: CheckpointingSetting,
  java: JobCode,
  env: StreamEnvironment | undefined,
  project: ProjectModel,
  sourceFile?: string,
): boolean {
  if (!env && sourceFile && s.environment && otherJob(project, java, s.environment, sourceFile)) return false;
  if (!env || !s.environment) return true;
  // A job whose environment the code creates gets a helper's settings only if something may call the helper.
  if (s.parameterOf && !mayBeCalled(project, java.file, s.parameterOf)) return false;
  if (java.file === env.file && s.environment === env.variable) return true;
  return !environmentVariables(java).has(s.environment);
}

/**
 * Whether the environment `variable` of `java` is another job's, for sources of `sourceFile` that run on an
 * environment their file does not create: `java` creates it, reads its own sources from it, and names nothing of
 * `sourceFile` (so it does not hand the environment over to that code).
 */
function otherJob(project: ProjectModel, java: JobCode, variable: string, sourceFile: string): boolean {
  if (java.file === sourceFile || !environmentVariables(java).has(variable)) return false;
  if (!java.dataStream.operators.some((o) => o.role === "source" && o.environment === variable)) return false;
  const source = project.fileFacts(sourceFile);
  const text = project.fileFacts(java.file)?.text;
  return source !== undefined && text !== undefined && !namesFile(project, sourceFile, source.text, text);
}

const mentions = new WeakMap<ProjectModel, Map<string, boolean>>();

/**
 * Whether production code may call the method `name` declared in `file`: its name appears again in that file, or in
 * another file of the project that is not test code, as a word. Comments and strings count too (a method reference,
 * a call by reflection): what cannot be told apart counts as a call.
 */
function mayBeCalled(project: ProjectModel, file: string, name: string): boolean {
  let known = mentions.get(project);
  if (!known) {
    known = new Map();
    mentions.set(project, known);
  }
  const key = `${file}\u0000${name}`;
  let answer = known.get(key);
  if (answer === undefined) {
    answer = false;
    const word = wordPattern(name, "g");
    for (const f of project.files) {
      if (f.file !== file && (!f.code || isTestCode(project, f.file))) continue;
      const count = f.text.match(word)?.length ?? 0;
      if (count > (f.file === file ? 1 : 0)) {
        answer = true;
        break;
      }
    }
    known.set(key, answer);
  }
  return answer;
}

export interface CheckpointingView {
  evidence: Evidence;
  /** The code or configuration that turns checkpointing on, for related information. */
  where: Location[];
}

/**
 * Checkpointing of the job built on `env` (undefined: an environment the code of `sourceFile` does not create, which
 * any other code may have set up, except another job's own), from code and configuration.
 */
export function checkpointingOf(
  project: ProjectModel,
  env: StreamEnvironment | undefined,
  sourceFile?: string,
): CheckpointingView {
  let evidence: Evidence = "off";
  const where: Location[] = [];
  for (const java of productionCode(project)) {
    for (const s of java.dataStream.checkpointing) {
      if (!mayConfigure(s, java, env, project, sourceFile)) continue;
      const e = settingEvidence(s);
      evidence = strongest(evidence, e);
      if (e === "on") where.push({ file: s.call.file, range: s.call.range });
    }
  }
  const files = [env?.file, sourceFile].filter((f): f is string => f !== undefined);
  const config = configCheckpointing(project, files);
  pushAll(where, config.where);
  // Amazon Managed Service for Apache Flink checkpoints the application unless its configuration says otherwise.
  if (files.some((f) => runsOnManagedFlink(project, f))) evidence = strongest(evidence, "maybe");
  return { evidence: strongest(evidence, config.evidence), where };
}

/**
 * Checkpointing set in the workspace's Flink configuration: any configuration of the project (files, ConfigMaps,
 * FlinkDeployments, Helm values, FLINK_PROPERTIES; SQL `SET`s only in the job's own files) with a positive interval,
 * or a FlinkDeployment the operator gives one (last-state upgrade mode).
 */
function configCheckpointing(project: ProjectModel, jobFiles: readonly string[]): CheckpointingView {
  let evidence: Evidence = "off";
  const where: Location[] = [];
  for (const config of project.flinkConfigs) {
    // A SQL script's `SET` configures the statements of that script (a SQL client session), not a DataStream job
    // of another file; SQL in the job's own file may share its environment.
    if (config.host === "sql" && !jobFiles.includes(config.file)) continue;
    const entry = findEntry(config, INTERVAL_KEY);
    if (!entry) continue;
    const millis =
      entry.templated || entry.valueKind !== "scalar" ? undefined : parseDuration(entry.value.trim())?.millis;
    if (millis === undefined) evidence = strongest(evidence, "maybe");
    else if (millis > 0) {
      evidence = "on";
      where.push({ file: config.file, range: entry.keyRange });
    }
  }
  for (const cluster of clustersOf(project)) {
    const state = checkpointing(cluster);
    if (state.kind === "on" && !state.setting && cluster.deployment?.upgradeMode) {
      evidence = "on";
      where.push({ file: cluster.deployment.upgradeMode.file, range: cluster.deployment.upgradeMode.range });
    } else if (state.kind === "off" && !state.setting && mayBeCompleted(cluster)) {
      evidence = strongest(evidence, "maybe");
    }
  }
  return { evidence, where };
}

/** The operators that feed `op`, transitively, `op` excluded. */
function upstreamOf(java: JobCode, op: StreamOperator): StreamOperator[] {
  const seen = new Set<number>([op.id]);
  const out: StreamOperator[] = [];
  const queue = [...op.inputs];
  while (queue.length > 0) {
    const id = queue.shift() as number;
    if (seen.has(id)) continue;
    seen.add(id);
    const input = java.dataStream.operators[id];
    if (!input) continue;
    out.push(input);
    pushAll(queue, input.inputs);
  }
  return out;
}

/** The environment an operator's job is built on: the environment of the sources upstream of it. */
export function environmentOfOperator(java: JobCode, op: StreamOperator): StreamEnvironment | undefined {
  const sources = [op, ...upstreamOf(java, op)].filter((o) => o.role === "source");
  for (const source of sources) {
    const env = environmentNamed(java, source.environment);
    if (env) return env;
  }
  return undefined;
}

/** The environment created in this file under `variable`, or the only one when the variable is not known. */
export function environmentNamed(java: JobCode, variable: string | undefined): StreamEnvironment | undefined {
  const envs = java.dataStream.environments;
  if (variable === undefined) return envs.length === 1 ? envs[0] : undefined;
  return envs.find((e) => e.variable === variable);
}

/** The operator that reads from this KafkaSource (`env.fromSource(source, …)`), in the builder's file. */
export function operatorReading(java: JobCode, source: KafkaSourceBuilder): StreamOperator | undefined {
  return java.dataStream.operators.find(
    (o) =>
      o.kafkaSource?.kind === "kafkaSource" &&
      ((source.variable !== undefined && o.kafkaSource.variable === source.variable) ||
        rangeContains(o.kafkaSource.range, source.range)),
  );
}

/** The KafkaSource builder a `fromSource` operator reads (in this file, or another file's factory), when it can be told. */
export function sourceBuilderOf(java: JobCode, op: StreamOperator): KafkaSourceBuilder | undefined {
  const ref = op.kafkaSource;
  if (ref?.kind !== "kafkaSource") return undefined;
  if (ref.builder) return ref.builder;
  return java.dataStream.kafkaSources.find(
    (b) => (ref.variable !== undefined && b.variable === ref.variable) || rangeContains(ref.range, b.range),
  );
}

/** The operator that writes to this KafkaSink (`stream.sinkTo(sink)`), in the builder's file. */
export function operatorWriting(java: JobCode, sink: KafkaSinkBuilder): StreamOperator | undefined {
  return java.dataStream.operators.find(
    (o) =>
      o.kafkaSink?.kind === "kafkaSink" &&
      ((sink.variable !== undefined && o.kafkaSink.variable === sink.variable) ||
        rangeContains(o.kafkaSink.range, sink.range)),
  );
}

/**
 * The environment of the job a builder belongs to: through the operator that uses it, else the only environment
 * of its file. Undefined when the builder is made elsewhere (a factory class) and any job may use it.
 */
export function environmentOfBuilder(
  java: JobCode,
  operator: StreamOperator | undefined,
): StreamEnvironment | undefined {
  const env = operator ? environmentOfOperator(java, operator) : undefined;
  if (env) return env;
  const envs = java.dataStream.environments;
  return envs.length === 1 ? envs[0] : undefined;
}
