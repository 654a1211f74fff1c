import { str } from "../../jobcode/render";
/**
 * What the Beam rules (BFL401–BFL408) read about a project's pipelines beyond single facts: where a Beam option is
 * set (setters in code and flags from any launcher), which runner the pipelines run on, whether they stream, and
 * the fixes several rules build the same way.
 */

import type { Fix, FixSafety, Location, RelatedLocation } from "../../findings";
import {
  type BeamArg,
  type BeamKafkaRead,
  type BeamOptionSetting,
  type CodeExpr,
  effectiveSetting,
  type KafkaSetting,
} from "../../jobcode/facts";
import { BEAM_GROUP, isFlinkRunner } from "../../knowledge/beamMatrix";
import { parseDuration } from "../../knowledge/values";
import type { ResolvedDependency } from "../../model";
import type { TextEdit } from "../../text";
import type { ProjectModel } from "../../workspace/project";

export const AUTO_COMMIT = "enable.auto.commit";
export const GROUP_ID = "group.id";
export const OFFSET_RESET = "auto.offset.reset";

/** Test code runs on the DirectRunner or against embedded clusters; deployment rules leave it alone. */
export function isTestSource(file: string): boolean {
  return /\/src\/(test|it|integrationTest)\//.test(file);
}

// ---------------------------------------------------------------------------------------------
// Where Beam options are set

/** One place that sets a Beam option: a setter in job code or a `--name=value` flag from any launcher. */
export interface OptionValue extends Location {
  /** The value as a known number (a flag only when it is a whole number, as Beam parses it). */
  number?: number;
  /** The value as written. */
  text: string;
  /** Only the running program knows the value: a variable, a shell or Helm substitution. */
  unknown: boolean;
  /** A setter that runs on some paths only. */
  conditional: boolean;
  setting?: BeamOptionSetting;
  arg?: BeamArg;
}

function fromSetting(setting: BeamOptionSetting): OptionValue {
  const { value } = setting;
  return {
    file: value.file,
    range: value.range,
    number: value.value.kind === "number" ? value.value.value : undefined,
    text: value.raw,
    unknown: value.value.kind === "unknown",
    conditional: setting.call.conditional,
    setting,
  };
}

function fromArg(arg: BeamArg): OptionValue {
  const text = arg.value ?? "";
  const unknown = arg.value === undefined || /\$|\{\{/.test(text);
  return {
    file: arg.file,
    range: arg.valueRange ?? arg.range,
    number: !unknown && /^[+-]?\d+$/.test(text) ? Number(text) : undefined,
    text,
    unknown,
    conditional: false,
    arg,
  };
}

/** Every place the project sets Beam option `name`, in code (test sources left out) and in flags. */
export function optionValues(project: ProjectModel, name: string): OptionValue[] {
  return [
    ...project.code.optionSettings.filter((s) => s.option === name && !isTestSource(s.call.file)).map(fromSetting),
    ...project.code.beamArgs.filter((a) => a.name === name && !isTestSource(a.file)).map(fromArg),
  ];
}

/** Related information at a fact's location (without the fact's other fields). */
export function relatedAt(l: Location, message: string): RelatedLocation {
  return { file: l.file, range: l.range, message };
}

/** `file:line` for messages. */
export function place(l: Location): string {
  return `${l.file.slice(l.file.lastIndexOf("/") + 1)}:${l.range.start.line + 1}`;
}

/** How a message names where a value is set: `setCheckpointingInterval(60_000L) in Main.java:12`, `--parallelism=8 …`. */
export function describeValue(v: OptionValue): string {
  const what = v.setting ? `${v.setting.call.method}(${v.text})` : `--${v.arg?.name}=${v.text}`;
  return `${what} in ${place(v)}`;
}

// ---------------------------------------------------------------------------------------------
// Runner and mode

export type RunnerKind = "flink" | "other" | "unknown";

export interface Runner {
  kind: RunnerKind;
  /** Where the runner is chosen, when it is: the setter, the flag, or the runner dependency. */
  evidence?: RelatedLocation;
}

/** `FlinkRunner`, `org.apache.beam.runners.flink.FlinkRunner` and `flink` all name the Flink runner. */
function runnerKind(name: string): RunnerKind {
  const simple = (name.trim().split(".").pop() ?? "").toLowerCase().replace(/runner$/, "");
  return simple === "flink" || simple === "testflink" ? "flink" : "other";
}

/** Runner artifacts of other runners that Beam would pick instead of Flink when no runner is named. */
const OTHER_RUNNER =
  /^beam-runners-(direct-java|google-cloud-dataflow-java|spark|samza|jet|twister2|portability-java|prism)/;

/** The scope a dependency is declared with (Gradle configuration or Maven scope), when written. */
function declaredScope(project: ProjectModel, dep: ResolvedDependency): string | undefined {
  const build = project.fileFacts(dep.declaration.file)?.build;
  if (!build || (build.kind !== "gradle" && build.kind !== "maven")) return undefined;
  const raws =
    build.kind === "maven"
      ? [...build.dependencies, ...build.profiles.flatMap((p) => p.dependencies)]
      : build.dependencies;
  const at = dep.declaration.range.start;
  return raws.find((r) => r.range.start.line === at.line && r.range.start.character === at.character)?.scope;
}

/** Runner artifacts on the job's classpath: platforms and test-only dependencies do not count. */
function runnerDependencies(project: ProjectModel): ResolvedDependency[] {
  return project.dependencies.filter(
    (d) =>
      d.group === BEAM_GROUP &&
      !d.platform &&
      (isFlinkRunner(d.group, d.artifact) || OTHER_RUNNER.test(d.artifact)) &&
      !/test/i.test(declaredScope(project, d) ?? ""),
  );
}

/**
 * The runner the project's pipelines run on: a runner named in code (`setRunner(FlinkRunner.class)`) or in a flag
 * (`--runner=FlinkRunner`) decides, Flink first when several are named; when none is named (or only a computed
 * one), a Flink runner that is the only runner on the classpath is the one Beam uses.
 */
export function runnerOf(project: ProjectModel): Runner {
  const named: { kind: RunnerKind; at: RelatedLocation }[] = [];
  for (const s of project.code.optionSettings) {
    if (s.option !== "runner" || isTestSource(s.call.file)) continue;
    const v = s.value.value;
    if (v.kind !== "class" && v.kind !== "string") continue;
    const name = v.kind === "class" ? v.name : v.value;
    named.push({
      kind: runnerKind(name),
      at: { file: s.value.file, range: s.value.range, message: `The runner is set to ${name} here.` },
    });
  }
  for (const a of project.code.beamArgs) {
    if (a.name !== "runner" || a.value === undefined || isTestSource(a.file)) continue;
    named.push({
      kind: runnerKind(a.value),
      at: { file: a.file, range: a.range, message: `The runner is set to ${a.value} here.` },
    });
  }
  const flink = named.find((n) => n.kind === "flink");
  if (flink) return { kind: "flink", evidence: flink.at };
  if (named.length > 0) return { kind: "other", evidence: named[0].at };
  const deps = runnerDependencies(project);
  const flinkDeps = deps.filter((d) => isFlinkRunner(d.group, d.artifact));
  if (flinkDeps.length > 0 && flinkDeps.length === deps.length) {
    const d = flinkDeps[0];
    return {
      kind: "flink",
      evidence: {
        ...d.declaration,
        message: `${d.artifact} is the only Beam runner on the classpath, so the pipeline runs on Flink.`,
      },
    };
  }
  return { kind: deps.length > 0 ? "other" : "unknown" };
}

/** A read without `withMaxNumRecords` / `withMaxReadTime` is unbounded: the Flink runner then runs in streaming mode. */
function isUnbounded(read: BeamKafkaRead): boolean {
  return !read.calls.some((c) => c.method === "withMaxNumRecords" || c.method === "withMaxReadTime");
}

/** The reads of job code (test sources left out). */
export function jobReads(project: ProjectModel): BeamKafkaRead[] {
  return project.code.kafkaReads.filter((r) => !isTestSource(r.file));
}

/**
 * Whether the project's pipelines stream: `--streaming` / `setStreaming(true)`, or an unbounded source (a KafkaIO
 * read without a bound, a Pub/Sub read), which makes the Flink runner switch to streaming by itself.
 */
export function isStreaming(project: ProjectModel): boolean {
  const flag = optionValues(project, "streaming").some((v) =>
    v.setting
      ? v.setting.value.value.kind === "bool" && v.setting.value.value.value
      : v.arg?.value === undefined || v.text.toLowerCase() === "true",
  );
  return flag || jobReads(project).some(isUnbounded) || project.jobApi.pubsubRead.some((l) => !isTestSource(l.file));
}

// ---------------------------------------------------------------------------------------------
// Fixes

/** The checkpoint interval the fixes write, from the project configuration (default 1 min), in milliseconds. */
export function checkpointMillis(project: ProjectModel): number {
  const parsed = parseDuration(project.config.checkpointInterval);
  return parsed && parsed.millis >= 10 ? parsed.millis : 60_000;
}

/** A Java long literal with digit groups: `60_000L`. */
export function javaLong(n: number): string {
  return `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "_")}L`;
}

/** A placeholder consumer group for a read, named after its topic; fixes that add it are unsafe. */
export function groupIdPlaceholder(read: BeamKafkaRead): string {
  const topic = read.topics.find((t) => t.value.kind === "string");
  return topic && topic.value.kind === "string" ? `${topic.value.value}-consumer` : "beam-kafka-consumer";
}

/**
 * The edits that add a placeholder `group.id` to a read's consumer config when it has none: `[]` when one is set,
 * undefined when it is missing and cannot be added.
 */
export function groupIdEdits(read: BeamKafkaRead): TextEdit[] | undefined {
  const config = read.consumerConfig;
  if (effectiveSetting(config, GROUP_ID) || config.hasUnknownParts) return [];
  return config.insertEntry?.(GROUP_ID, str(groupIdPlaceholder(read)));
}

/** The innermost expression a value was initialised with: the literal a fix edits. */
export function literalOf(expr: CodeExpr): CodeExpr {
  let e = expr;
  while (e.origin) e = e.origin;
  return e;
}

/** A fix whose edits may touch several files (a constant defined in another part of the project). */
export function fixOf(title: string, safety: FixSafety, edits: { file: string; edit: TextEdit }[]): Fix {
  const byFile = new Map<string, TextEdit[]>();
  for (const { file, edit } of edits) byFile.set(file, [...(byFile.get(file) ?? []), edit]);
  return { title, safety, changes: [...byFile].map(([file, list]) => ({ file, edits: list })) };
}

/** How a message shows a Kafka setting's value and where it comes from: `AUTO_COMMIT = "true" (via method props())`. */
export function describeSetting(setting: KafkaSetting): string {
  const literal = literalOf(setting.value);
  const value = literal === setting.value ? setting.value.raw : `${setting.value.raw} = ${literal.raw}`;
  return setting.via.length > 0 ? `${value} (via ${setting.via.join(", ")})` : value;
}
