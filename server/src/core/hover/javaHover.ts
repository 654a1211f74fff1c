/**
 * Hovers on job code. On a KafkaIO read: its consumer configuration as Beam merges it (each key with the value
 * that wins and where it is set) and the commit mode that results. On a checkpoint interval (Beam's
 * `setCheckpointingInterval` or a `--checkpointingInterval` flag, DataStream's `enableCheckpointing`): what in the
 * project depends on checkpointing, and the cluster configurations whose interval it takes the place of.
 */

import type { Location } from "../findings";
import {
  type BeamKafkaRead,
  type CheckpointingSetting,
  type CodeExpr,
  effectiveSetting,
  type JobCode,
  type KafkaSetting,
  type KafkaSettings,
  type KafkaSinkBuilder,
  type KafkaSourceBuilder,
  type LegacyKafkaClient,
  type StreamEnvironment,
  truthOf,
} from "../jobcode/facts";
import { literalOf } from "../jobcode/intents";
import { kafkaVersionConnector } from "../knowledge/kafkaConnector";
import { parseDuration } from "../knowledge/values";
import { jobReads, type OptionValue, optionValues } from "../project/beam";
import { findEntry } from "../project/configEntries";
import { AUTO_COMMIT, type BeamCommitMode, beamCommitMode } from "../project/consumers";
import { allCode, allReads, codeOf, productionCode } from "../project/jobCode";
import {
  checkpointingOf,
  environmentNamed,
  environmentOfBuilder,
  operatorReading,
  operatorWriting,
} from "../project/streams";
import { GROUP_ID } from "../rules/beam/pipelines";
import { comparePositions, type Position, type Range } from "../text";
import type { ProjectModel } from "../workspace/project";
import { type HoverText, relative, touches } from "./hoverText";
import { knownBugsSection } from "./knownBugs";

const INTERVAL_KEY = "execution.checkpointing.interval";
const BEAM_OPTION = "checkpointingInterval";

export function javaHover(project: ProjectModel, file: string, p: Position): HoverText | undefined {
  return (
    beamIntervalHover(project, file, p) ??
    streamIntervalHover(project, file, p) ??
    readHover(project, file, p) ??
    kafkaClientHover(project, file, p)
  );
}

// ---------------------------------------------------------------------------------------------
// Shared wording

/** `Orders.java` line 12: a place in the project. */
function at(project: ProjectModel, l: Location): string {
  return `\`${relative(project, l.file)}\` line ${l.range.start.line + 1}`;
}

/** Code as markdown, safe inside a table cell. */
function code(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
  return flat.includes("`") ? `\`\` ${flat} \`\`` : `\`${flat}\``;
}

/** `60000 ms (1 min)`. */
export function millisText(ms: number): string {
  const units: [number, string][] = [
    [3_600_000, "h"],
    [60_000, "min"],
    [1_000, "s"],
  ];
  const unit = units.find(([size]) => ms >= size && ms % size === 0);
  return unit ? `${ms} ms (${ms / unit[0]} ${unit[1]})` : `${ms} ms`;
}

function bullets(lines: string[]): string {
  return lines.map((l) => `- ${l}`).join("\n");
}

/** The cluster configurations' intervals, which an interval set by the job replaces for that job. */
function clusterIntervals(project: ProjectModel): string[] {
  return project.flinkConfigs.flatMap((config) => {
    const entry = findEntry(config, INTERVAL_KEY);
    return entry
      ? [`${code(`${entry.key}: ${entry.value}`)} in ${at(project, { ...config, range: entry.keyRange })}`]
      : [];
  });
}

// ---------------------------------------------------------------------------------------------
// KafkaIO reads

/** The read under the cursor and the range to highlight: `KafkaIO.read()`, one of its calls, or the chain. */
function readAt(project: ProjectModel, file: string, p: Position): { read: BeamKafkaRead; range: Range } | undefined {
  const reads = allReads(project).filter((r) => r.file === file);
  const onRead = reads.find((r) => touches(r.readRange, p));
  if (onRead) return { read: onRead, range: onRead.readRange };
  for (const read of reads) {
    const call = read.calls.find((c) => touches(c.callRange, p));
    if (call) return { read, range: call.range };
  }
  const inChain = reads.filter((r) => touches(r.chainRange, p));
  const innermost = inChain.sort((a, b) => lineSpan(a.chainRange) - lineSpan(b.chainRange))[0];
  return innermost && { read: innermost, range: innermost.chainRange };
}

function lineSpan(r: Range): number {
  return r.end.line - r.start.line;
}

function readHover(project: ProjectModel, file: string, p: Position): HoverText | undefined {
  const found = readAt(project, file, p);
  if (!found) return undefined;
  const { read } = found;
  const parts = [`**KafkaIO read**${topicsText(read)}`, `Commit mode: ${commitModeText(project, read)}`];
  parts.push(configTable(project, read.consumerConfig));
  const unknown = read.consumerConfig.unknownParts;
  if (unknown.length > 0) {
    parts.push(
      `Parts of the configuration are only known at run time (${unknown.map((l) => `line ${l.range.start.line + 1}`).join(", ")}): keys not listed may still be set.`,
    );
  }
  const bugs = knownBugsSection(project, "beam");
  if (bugs) parts.push(bugs);
  return { markdown: parts.join("\n\n"), range: found.range };
}

function topicsText(read: BeamKafkaRead): string {
  if (read.withTopicPattern) return " of a topic pattern";
  if (read.withTopicPartitions) return " of explicit partitions";
  const names = read.topics.map((t) => (t.value.kind === "string" ? code(t.value.value) : code(t.raw)));
  return names.length > 0 ? ` of ${names.join(", ")}` : "";
}

export type CommitMode = BeamCommitMode;

/** The commit mode the rules use too (project/consumers.ts). */
export const commitModeOf = beamCommitMode;

function commitModeText(project: ProjectModel, read: BeamKafkaRead): string {
  const mode = commitModeOf(read);
  switch (mode) {
    case "finalize": {
      const config = read.consumerConfig;
      const noGroup =
        !effectiveSetting(config, GROUP_ID) && !config.hasUnknownParts
          ? ` The read has no \`${GROUP_ID}\`, so Beam rejects the pipeline when it is built (BFL402).`
          : "";
      return `**finalize**: offsets are committed to Kafka when a checkpoint completes.${noGroup} ${beamCheckpointingText(project)}`;
    }
    case "finalize and auto-commit":
      return "**finalize and auto-commit**: besides the commits in finalize, the Kafka client commits every fetched offset, ahead of what the pipeline has checkpointed (BFL401).";
    case "auto-commit":
      return "**auto-commit**: the Kafka client commits every fetched offset each `auto.commit.interval.ms`, whether or not the pipeline has processed and checkpointed it.";
    case "none":
      return "**none**: no offset is committed to Kafka; the read position lives only in checkpoints, and a start without them begins at `auto.offset.reset`.";
    case "decided at run time": {
      const why: string[] = [];
      if (read.commitOffsetsInFinalize?.conditional) why.push("`commitOffsetsInFinalize()` runs on some paths only");
      const auto = effectiveSetting(read.consumerConfig, AUTO_COMMIT);
      if (!auto && read.consumerConfig.hasUnknownParts)
        why.push(`\`${AUTO_COMMIT}\` may be set by the parts read at run time`);
      else if (auto?.conditional) why.push(`\`${AUTO_COMMIT}\` is set on some paths only`);
      else if (auto && truthOf(auto.value.value) === undefined)
        why.push(`\`${AUTO_COMMIT}\` is ${code(auto.value.raw)}`);
      return `**decided at run time**: ${why.join("; ")}.`;
    }
  }
}

/** Whether the project's pipelines checkpoint, which finalize commits wait for. */
function beamCheckpointingText(project: ProjectModel): string {
  const values = optionValues(project, BEAM_OPTION);
  const on = values.find((v) => v.unknown || (v.number !== undefined && v.number > 0));
  if (on) return `Checkpointing: ${optionValueText(project, on)}.`;
  return `Nothing in the project sets \`${BEAM_OPTION}\`, so the Flink runner takes no checkpoints and finalize never commits (BFL404).`;
}

function optionValueText(project: ProjectModel, v: OptionValue): string {
  const what = v.setting ? `${v.setting.call.method}(${v.text})` : `--${v.arg?.name}=${v.text}`;
  return `${code(what)} in ${at(project, v)}`;
}

function configTable(project: ProjectModel, config: KafkaSettings): string {
  if (config.entries.length === 0) return "No consumer configuration is set in code: KafkaIO's defaults apply.";
  const keys = [...new Set(config.entries.map((e) => e.key))];
  const rows = keys.map((key) => {
    const all = config.entries.filter((e) => e.key === key);
    const winner = all[all.length - 1];
    const overridden = all.slice(0, -1).map((e) => `line ${e.location.range.start.line + 1}`);
    const where = [setBy(project, winner), ...(overridden.length > 0 ? [`overrides ${overridden.join(", ")}`] : [])];
    return `| ${code(key)} | ${valueText(winner)} | ${where.join("; ")} |`;
  });
  return [
    "Consumer configuration, merged in call order (a later call overrides an earlier one):",
    "",
    "| Key | Value | Set by |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
}

function valueText(setting: KafkaSetting): string {
  const literal = literalOf(setting.value);
  const shown =
    literal === setting.value ? code(setting.value.raw) : `${code(setting.value.raw)} = ${code(literal.raw)}`;
  return setting.value.value.kind === "unknown" ? `${shown} (known at run time)` : shown;
}

function setBy(project: ProjectModel, setting: KafkaSetting): string {
  const via = setting.via.length > 0 ? ` via ${setting.via.join(", ")}` : "";
  const some = setting.conditional ? ", on some paths only" : "";
  const source = setting.source === "constructorProperties" ? "the constructor's Properties" : `\`${setting.source}\``;
  return `${source}, ${at(project, setting.location)}${via}${some}`;
}

// ---------------------------------------------------------------------------------------------
// Beam's checkpointingInterval

/** A `setCheckpointingInterval(…)` call or a `--checkpointingInterval` flag under the cursor. */
function beamIntervalAt(
  project: ProjectModel,
  file: string,
  p: Position,
): { value: OptionValue; range: Range } | undefined {
  for (const value of optionValues(project, BEAM_OPTION)) {
    if (value.file !== file) continue;
    const range = value.setting ? value.setting.call.range : value.arg?.range;
    if (range && touches(range, p)) return { value, range };
  }
  return undefined;
}

function beamIntervalHover(project: ProjectModel, file: string, p: Position): HoverText | undefined {
  const found = beamIntervalAt(project, file, p);
  if (!found) return undefined;
  const { value } = found;
  const parts = [`**Beam \`${BEAM_OPTION}\`**: ${beamValueText(value)}`];
  const dependents = jobReads(project).flatMap((read) => {
    const mode = commitModeOf(read);
    if (mode === "finalize" || mode === "finalize and auto-commit")
      return [
        `KafkaIO read in ${at(project, { file: read.file, range: read.readRange })} commits its offsets in finalize, when a checkpoint completes.`,
      ];
    if (mode === "auto-commit")
      return [
        `KafkaIO read in ${at(project, { file: read.file, range: read.readRange })} auto-commits: with checkpointing on, records fetched after the last completed checkpoint are committed before they are processed (BFL405).`,
      ];
    return [];
  });
  parts.push(
    dependents.length > 0
      ? `Depends on it:\n${bullets(dependents)}`
      : "No KafkaIO read of the project commits its offsets on checkpoints.",
  );
  const others = optionValues(project, BEAM_OPTION).filter(
    (v) => v.file !== value.file || comparePositions(v.range.start, value.range.start) !== 0,
  );
  if (others.length > 0) parts.push(`Also set:\n${bullets(others.map((v) => optionValueText(project, v)))}`);
  const clusters = clusterIntervals(project);
  if (clusters.length > 0) {
    parts.push(
      `Cluster configuration:\n${bullets(clusters)}\n\nWhen \`${BEAM_OPTION}\` is positive the Flink runner sets its own interval, which takes the place of the cluster's for this pipeline; the cluster's alone does not turn on Beam's checkpointing logic.`,
    );
  }
  return { markdown: parts.join("\n\n"), range: found.range };
}

function beamValueText(v: OptionValue): string {
  if (v.unknown) return "the interval is known only at run time.";
  if (v.number === -1) return "-1 turns checkpointing off (Beam's default).";
  if (v.number !== undefined && v.number > 0) return `the Flink runner checkpoints every ${millisText(v.number)}.`;
  return `${code(v.text)} is not a valid interval: Beam wants a positive number of milliseconds, or -1 (BFL406).`;
}

// ---------------------------------------------------------------------------------------------
// DataStream checkpointing

function streamIntervalAt(project: ProjectModel, file: string, p: Position): CheckpointingSetting | undefined {
  return allCode(project)
    .flatMap((c) => c.dataStream.checkpointing)
    .find(
      (s) =>
        s.call.file === file &&
        touches(s.call.range, p) &&
        (s.kind === "enableCheckpointing" || s.call.method === "setCheckpointInterval"),
    );
}

function streamIntervalHover(project: ProjectModel, file: string, p: Position): HoverText | undefined {
  const setting = streamIntervalAt(project, file, p);
  if (!setting) return undefined;
  const java = codeOf(project, file);
  const env = java && setting.environment ? environmentNamed(java, setting.environment) : undefined;
  const parts = [`**Flink checkpointing**: ${streamValueText(setting.interval)}`];
  const dependents = streamDependents(project, env);
  parts.push(
    dependents.length > 0
      ? `Depends on it:\n${bullets(dependents)}`
      : "No Kafka source or sink of this job commits on checkpoints.",
  );
  const clusters = clusterIntervals(project);
  if (clusters.length > 0) {
    parts.push(
      `Cluster configuration:\n${bullets(clusters)}\n\nAn interval set in the job's code takes the place of the cluster's for this job.`,
    );
  }
  return { markdown: parts.join("\n\n"), range: setting.call.range };
}

function streamValueText(interval: CodeExpr | undefined): string {
  if (!interval) return "every 500 ms (the no-argument `enableCheckpointing()`).";
  const v = interval.value;
  const ms = v.kind === "number" ? v.value : v.kind === "string" ? parseDuration(v.value.trim())?.millis : undefined;
  if (ms === undefined) return `${code(interval.raw)}, known only at run time.`;
  return ms > 0 ? `every ${millisText(ms)}.` : `${code(interval.raw)} leaves checkpointing off.`;
}

/** Whether a builder may belong to the job of `env` (either unknown counts: the code may wire them together). */
function sameJob(env: StreamEnvironment | undefined, builderEnv: StreamEnvironment | undefined): boolean {
  return !env || !builderEnv || env === builderEnv;
}

/** The Kafka sources and sinks of the job that commit on checkpoints. */
function streamDependents(project: ProjectModel, env: StreamEnvironment | undefined): string[] {
  const out: string[] = [];
  for (const java of productionCode(project)) {
    for (const sink of java.dataStream.kafkaSinks) {
      if (!sameJob(env, environmentOfBuilder(java, operatorWriting(java, sink)))) continue;
      const g = sink.deliveryGuarantee?.value;
      const guarantee = g?.kind === "string" ? g.value : undefined;
      if (guarantee === "EXACTLY_ONCE")
        out.push(
          `KafkaSink (EXACTLY_ONCE) in ${at(project, sink)} commits its Kafka transactions when a checkpoint completes: without checkpoints, read_committed consumers never see what it writes.`,
        );
      else if (guarantee === "AT_LEAST_ONCE")
        out.push(`KafkaSink (AT_LEAST_ONCE) in ${at(project, sink)} flushes its pending records on each checkpoint.`);
    }
    for (const source of java.dataStream.kafkaSources) {
      if (!sameJob(env, environmentOfBuilder(java, operatorReading(java, source)))) continue;
      const commit = effectiveSetting(source.properties, "commit.offsets.on.checkpoint");
      if (commit && truthOf(commit.value.value) === false) continue;
      const group = effectiveSetting(source.properties, GROUP_ID);
      out.push(
        group
          ? `KafkaSource in ${at(project, source)} commits its offsets for group ${valueText(group)} when a checkpoint completes.`
          : `KafkaSource in ${at(project, source)} would commit its offsets on checkpoints, but has no \`group.id\` (BFL504).`,
      );
    }
    for (const client of java.dataStream.legacyKafka) {
      if (!client.constructed || client.role !== "consumer" || (env && env.file !== java.file)) continue;
      const off = client.commitOffsetsOnCheckpoints?.args[0];
      if (off && truthOf(off.value) === false) continue;
      out.push(`${client.className} in ${at(project, client)} commits its offsets when a checkpoint completes.`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Flink Kafka sources, sinks and legacy clients

/** The Kafka client under the cursor: a KafkaSource or KafkaSink builder (its start or one of its calls), or a legacy client. */
function kafkaClientAt(
  project: ProjectModel,
  file: string,
  p: Position,
): { markdown: string[]; range: Range } | undefined {
  const java = codeOf(project, file);
  if (!java) return undefined;
  const onBuilder = (b: { range: Range; calls: { range: Range; callRange: Range }[] }): Range | undefined =>
    touches(b.range, p) ? b.range : b.calls.find((c) => touches(c.callRange, p))?.range;
  for (const source of java.dataStream.kafkaSources) {
    const range = onBuilder(source);
    if (range) return { markdown: sourceText(project, java, source), range };
  }
  for (const sink of java.dataStream.kafkaSinks) {
    const range = onBuilder(sink);
    if (range) return { markdown: sinkText(project, java, sink), range };
  }
  for (const client of java.dataStream.legacyKafka) {
    if (client.constructed && touches(client.range, p))
      return { markdown: legacyText(project, java, client), range: client.range };
  }
  return undefined;
}

function kafkaClientHover(project: ProjectModel, file: string, p: Position): HoverText | undefined {
  const found = kafkaClientAt(project, file, p);
  if (!found) return undefined;
  const parts = [...found.markdown];
  const bugs = knownBugsSection(project, "connector");
  if (bugs) parts.push(bugs);
  return { markdown: parts.join("\n\n"), range: found.range };
}

/** The checkpointing of the job a client belongs to, as a clause: "the job checkpoints (…)". */
function jobCheckpointingText(project: ProjectModel, env: StreamEnvironment | undefined): string {
  const view = checkpointingOf(project, env);
  const where = view.where[0];
  switch (view.evidence) {
    case "on":
      return `the job checkpoints${where ? ` (${at(project, where)})` : ""}`;
    case "maybe":
      return "whether the job checkpoints is decided at run time";
    case "off":
      return "nothing in the project turns checkpointing on for this job, so that never happens (BFL501)";
  }
}

function settingLine(project: ProjectModel, config: KafkaSettings, key: string): string {
  const setting = effectiveSetting(config, key);
  if (setting) return `\`${key}\`: ${valueText(setting)} (${setBy(project, setting)})`;
  return config.hasUnknownParts ? `\`${key}\`: not set in code; may be set at run time` : `\`${key}\`: not set`;
}

function topicList(topics: CodeExpr[]): string {
  const names = topics.map((t) => (t.value.kind === "string" ? code(t.value.value) : code(t.raw)));
  return names.length > 0 ? ` of ${names.join(", ")}` : "";
}

function sourceText(project: ProjectModel, java: JobCode, source: KafkaSourceBuilder): string[] {
  const env = environmentOfBuilder(java, operatorReading(java, source));
  const commit = effectiveSetting(source.properties, "commit.offsets.on.checkpoint");
  const group = effectiveSetting(source.properties, GROUP_ID);
  let commits: string;
  if (commit && truthOf(commit.value.value) === false)
    commits =
      "offsets are not committed to Kafka (`commit.offsets.on.checkpoint` is false); the read position lives in checkpoints only";
  else if (!group && !source.properties.hasUnknownParts)
    commits = `offsets would be committed when a checkpoint completes, but the source has no \`${GROUP_ID}\` (BFL504)`;
  else commits = `offsets are committed to Kafka when a checkpoint completes; ${jobCheckpointingText(project, env)}`;
  const starting = source.startingOffsets;
  const start = starting
    ? `Starting offsets: ${code(starting.call.args[0]?.raw ?? starting.initializer ?? starting.call.method)}`
    : "Starting offsets: `earliest` (the builder's default)";
  return [
    `**KafkaSource**${topicList(source.topics)}`,
    `Commit: ${commits}.`,
    bullets([settingLine(project, source.properties, GROUP_ID), start]),
  ];
}

function sinkText(project: ProjectModel, java: JobCode, sink: KafkaSinkBuilder): string[] {
  const env = environmentOfBuilder(java, operatorWriting(java, sink));
  const g = sink.deliveryGuarantee?.value;
  const guarantee = g?.kind === "string" ? g.value : sink.deliveryGuarantee ? undefined : "NONE";
  let what: string;
  if (guarantee === "EXACTLY_ONCE")
    what = `writes in Kafka transactions committed when a checkpoint completes; ${jobCheckpointingText(project, env)}`;
  else if (guarantee === "AT_LEAST_ONCE")
    what = `flushes its pending records on each checkpoint; ${jobCheckpointingText(project, env)}`;
  else if (guarantee === "NONE")
    what = "no delivery guarantee (the builder's default): records can be lost or written twice";
  else what = `the delivery guarantee ${code(sink.deliveryGuarantee?.raw ?? "")} is known only at run time`;
  const prefix = sink.setTransactionalIdPrefix
    ? `Transactional id prefix: ${code(sink.setTransactionalIdPrefix.args[0]?.raw ?? "")}`
    : "Transactional id prefix: not set";
  return [
    `**KafkaSink** (${guarantee ?? "delivery guarantee known at run time"})`,
    `Delivery: ${what}.`,
    bullets([prefix]),
  ];
}

function legacyText(project: ProjectModel, java: JobCode, client: LegacyKafkaClient): string[] {
  const versioned = kafkaVersionConnector(client.className);
  const parts = [
    versioned
      ? `**${client.className}**: the Kafka ${versioned.kafka} ${client.role} (${versioned.artifact}), gone from Flink since ${versioned.removedIn} (${versioned.issue}, BFL503).`
      : `**${client.className}**: the legacy Kafka ${client.role}, deprecated since Flink 1.14 and removed in flink-connector-kafka 4.0 (BFL503).`,
  ];
  if (client.role === "consumer") {
    const off = client.commitOffsetsOnCheckpoints?.args[0];
    const commits =
      off && truthOf(off.value) === false
        ? "offsets are not committed on checkpoints (`setCommitOffsetsOnCheckpoints(false)`)"
        : `offsets are committed to Kafka when a checkpoint completes; ${jobCheckpointingText(project, java.dataStream.environments.length === 1 ? java.dataStream.environments[0] : undefined)}`;
    parts.push(`Commit: ${commits}.`, bullets([settingLine(project, client.properties, GROUP_ID)]));
  }
  return parts;
}
