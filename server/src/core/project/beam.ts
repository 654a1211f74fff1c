/**
 * What a project's Beam pipelines are, computed once for every rule and hover: where each Beam option is set (setters
 * in code in any language, and flags from every launcher), which runner the pipelines run on, whether they stream,
 * and their Kafka reads.
 */
import { addTo } from "../arrays";
import type { Location, RelatedLocation } from "../findings";
import type { BeamArg, BeamKafkaRead, BeamOptionSetting, JobCode } from "../jobcode/facts";
import { BEAM_GROUP, isFlinkRunner } from "../knowledge/beamMatrix";
import type { ResolvedDependency } from "../model";
import { LineIndex } from "../text";
import type { ProjectModel } from "../workspace/project";
import { isTestCode, namesFile, productionCode, wordPattern } from "./jobCode";

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

const optionCache = new WeakMap<ProjectModel, Map<string, OptionValue[]>>();

/** Every place the project sets Beam option `name`, in code (test sources left out) and in flags. */
export function optionValues(project: ProjectModel, name: string): OptionValue[] {
  let byName = optionCache.get(project);
  if (!byName) {
    byName = new Map();
    for (const s of productionCode(project).flatMap((c) => c.beamOptions.settings)) {
      addTo(byName, s.option, fromSetting(s));
    }
    for (const a of project.code.beamArgs) {
      if (isTestCode(project, a.file)) continue;
      addTo(byName, a.name, fromArg(a));
    }
    optionCache.set(project, byName);
  }
  return byName.get(name) ?? [];
}

/** A file's name without folder and extension: the class or module other code names it by. */
function baseName(file: string): string {
  const name = file.slice(file.lastIndexOf("/") + 1);
  const dot = name.indexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

function namesWord(text: string, word: string): boolean {
  return word !== "" && wordPattern(word).test(text);
}

/**
 * Whether an option value may apply to the pipelines of job file `job`. A setter in the job file itself does; one in
 * another file does unless that file is another job (it creates pipelines of its own) that `job` does not name:
 * a helper or options class may be shared, another job's `setCheckpointingInterval` is that job's, and so are the
 * flags another job file writes itself (`PipelineOptions(["--checkpointing_interval=5000"])`). A flag of a launch
 * script or job arguments does unless its file names other job files and not this one.
 */
export function optionAppliesTo(project: ProjectModel, value: OptionValue, job: JobCode): boolean {
  if (value.file === job.file) return true;
  const jobs = productionCode(project).filter((c) => c.beamOptions.pipelines.length > 0);
  const own = baseName(job.file);
  // What another job file sets, in code or in flags it writes itself, is that job's, unless this job names it.
  if (jobs.some((c) => c.file === value.file))
    return namesWord(project.fileFacts(job.file)?.text ?? "", baseName(value.file));
  if (value.setting) return true;
  const text = project.fileFacts(value.file)?.text ?? "";
  if (namesWord(text, own)) return true;
  return !jobs.some((c) => c.file !== job.file && namesWord(text, baseName(c.file)));
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
  let runner = runnerCache.get(project);
  if (!runner) {
    runner = findRunner(project);
    runnerCache.set(project, runner);
  }
  return runner;
}

const runnerCache = new WeakMap<ProjectModel, Runner>();

interface NamedRunner {
  kind: RunnerKind;
  at: RelatedLocation;
}

const namedCache = new WeakMap<ProjectModel, NamedRunner[]>();

/** Every runner production code or a flag names, in the project's order. */
function namedRunners(project: ProjectModel): NamedRunner[] {
  let named = namedCache.get(project);
  if (!named) {
    named = findNamedRunners(project);
    namedCache.set(project, named);
  }
  return named;
}

/**
 * The runner a job file names for its own pipelines (`options.setRunner(DirectRunner.class)`, a `--runner=…`
 * string of that file), when it names one: a project may run one pipeline on Flink and debug another locally.
 */
export function runnerNamedIn(project: ProjectModel, file: string): Runner | undefined {
  const own = namedRunners(project).filter((n) => n.at.file === file);
  if (own.length === 0) return undefined;
  const flink = own.find((n) => n.kind === "flink");
  return flink ? { kind: "flink", evidence: flink.at } : { kind: "other", evidence: own[0].at };
}

function findNamedRunners(project: ProjectModel): NamedRunner[] {
  const named: NamedRunner[] = [];
  for (const s of productionCode(project).flatMap((c) => c.beamOptions.settings)) {
    if (s.option !== "runner") continue;
    const v = s.value.value;
    if (v.kind !== "class" && v.kind !== "string") continue;
    const name = v.kind === "class" ? v.name : v.value;
    named.push({
      kind: runnerKind(name),
      at: { file: s.value.file, range: s.value.range, message: `The runner is set to ${name} here.` },
    });
  }
  for (const a of project.code.beamArgs) {
    if (a.name !== "runner" || a.value === undefined || isTestCode(project, a.file)) continue;
    named.push({
      kind: runnerKind(a.value),
      at: { file: a.file, range: a.range, message: `The runner is set to ${a.value} here.` },
    });
  }
  return named;
}

function findRunner(project: ProjectModel): Runner {
  const named = namedRunners(project);
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

/** The Beam Kafka reads of job code (test sources left out), KafkaIO and Beam Python's ReadFromKafka alike. */
export function jobReads(project: ProjectModel): BeamKafkaRead[] {
  return productionCode(project).flatMap((c) => c.kafkaReads);
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
  return (
    flag || jobReads(project).some(isUnbounded) || project.jobApi.pubsubRead.some((l) => !isTestCode(project, l.file))
  );
}

/**
 * Beam IOs whose reads are unbounded (or can be: `GenerateSequence` without `to`, `Watch`, a file match that
 * continues), named in Java, Scala or Kotlin job code. Their reads are not modelled; naming one is evidence enough.
 */
const UNBOUNDED_IO =
  /\b(?:KinesisIO|PubsubIO|PubsubLiteIO|SqsIO|MqttIO|JmsIO|AmqpIO|RabbitMqIO|PulsarIO|NatsIO|SolaceIO|GenerateSequence|PeriodicImpulse|Watch\s*\.\s*growthOf|continuously)\b/;

const streamingCache = new WeakMap<ProjectModel, Location[]>();

/**
 * Where the project's Beam pipelines show that they stream: `streaming` set, an unbounded KafkaIO read, a Pub/Sub
 * read, or an unbounded IO named in JVM job code (test code left out). Empty for a project of batch pipelines.
 */
export function streamingEvidence(project: ProjectModel): Location[] {
  let found = streamingCache.get(project);
  if (!found) {
    const out: Location[] = [];
    for (const v of optionValues(project, "streaming")) {
      const on = v.setting
        ? v.setting.value.value.kind !== "bool" || v.setting.value.value.value
        : v.arg?.value === undefined || v.unknown || v.text.toLowerCase() === "true";
      if (on) out.push({ file: v.file, range: v.range });
    }
    for (const r of jobReads(project)) if (isUnbounded(r)) out.push({ file: r.file, range: r.readRange });
    for (const l of project.jobApi.pubsubRead)
      if (!isTestCode(project, l.file)) out.push({ file: l.file, range: l.range });
    for (const code of productionCode(project)) {
      if (code.language === "python") continue;
      // The first one names the file as streaming: one place per file is evidence enough.
      const text = project.fileFacts(code.file)?.text ?? "";
      const m = UNBOUNDED_IO.exec(text);
      if (m) out.push({ file: code.file, range: new LineIndex(text).rangeOf(m.index, m.index + m[0].length) });
    }
    found = out;
    streamingCache.set(project, found);
  }
  return found;
}

/**
 * Whether the pipelines of one job file may stream, in a project that streams (`isStreaming`, the caller's test):
 * not when the file's own Kafka reads are all bounded (`withMaxNumRecords`, `withMaxReadTime`), it reads no Pub/Sub
 * and nothing that may apply to it sets `streaming` (another job's own options do not). A file that reads no Kafka
 * itself streams when it shows an unbounded source of its own, or names a file whose reads stream (its module,
 * class or object, or a top-level function: the source comes from there); a batch pipeline beside a Kafka helper it
 * never uses does not.
 */
export function fileMayStream(project: ProjectModel, code: JobCode): boolean {
  if (code.kafkaReads.some(isUnbounded)) return true;
  // `streaming` set where it may apply to this job: its own, a shared helper's or launcher's, not another job's.
  if (optionValues(project, "streaming").some((v) => optionAppliesTo(project, v, code))) return true;
  if (project.jobApi.pubsubRead.some((l) => l.file === code.file)) return true;
  if (code.kafkaReads.length > 0) return false;
  const sources = new Set(streamingEvidence(project).map((l) => l.file));
  if (sources.has(code.file)) return true;
  const text = project.fileFacts(code.file)?.text ?? "";
  for (const file of sources) {
    const other = project.fileFacts(file);
    if (other && namesFile(project, file, other.text, text)) return true;
  }
  return false;
}

/** Every Beam flag the project passes to its pipelines (code strings, launch files, scripts, FlinkDeployments). */
export function beamArgs(project: ProjectModel): BeamArg[] {
  return project.code.beamArgs;
}
