/**
 * What the Beam rules (BFL401–BFL408) share beyond the derived project facts (project/beam.ts): Kafka key names,
 * how messages name places and values, and the fixes several rules build the same way.
 */

import { addTo } from "../../arrays";
import type { Fix, FixSafety, Location, RelatedLocation } from "../../findings";
import { type BeamKafkaRead, type CodeExpr, callText, effectiveSetting, type KafkaSetting } from "../../jobcode/facts";
import { str } from "../../jobcode/render";
import type { OptionValue } from "../../project/beam";
import type { TextEdit } from "../../text";

export const AUTO_COMMIT = "enable.auto.commit";

/** How a message names the finalize commit of a read: `.commitOffsetsInFinalize()`, `commit_offset_in_finalize=True`. */
export function finalizeCall(read: BeamKafkaRead): string {
  return read.api === "ReadFromKafka" ? "commit_offset_in_finalize=True" : ".commitOffsetsInFinalize()";
}
/** How a message names where a read's consumer config goes: `withConsumerConfigUpdates`, `consumer_config`. */
export function consumerConfigCall(read: BeamKafkaRead): string {
  return read.api === "ReadFromKafka" ? "consumer_config" : "withConsumerConfigUpdates";
}

/** The finalize commit as a message names it without the leading dot: `commitOffsetsInFinalize()`. */
export function finalizeName(read: BeamKafkaRead): string {
  return read.api === "ReadFromKafka" ? "commit_offset_in_finalize=True" : "commitOffsetsInFinalize()";
}
export const GROUP_ID = "group.id";
export const OFFSET_RESET = "auto.offset.reset";

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
  const what = v.setting
    ? callText({ ...v.setting.call, args: [{ ...v.setting.value, raw: v.text }] })
    : `--${v.arg?.name}=${v.text}`;
  return `${what} in ${place(v)}`;
}

// ---------------------------------------------------------------------------------------------
// Fixes

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
  for (const { file, edit } of edits) addTo(byFile, file, edit);
  return { title, safety, changes: [...byFile].map(([file, list]) => ({ file, edits: list })) };
}

/** How a message shows a Kafka setting's value and where it comes from: `AUTO_COMMIT = "true" (via method props())`. */
export function describeSetting(setting: KafkaSetting): string {
  const literal = literalOf(setting.value);
  const value = literal === setting.value ? setting.value.raw : `${setting.value.raw} = ${literal.raw}`;
  return setting.via.length > 0 ? `${value} (via ${setting.via.join(", ")})` : value;
}
