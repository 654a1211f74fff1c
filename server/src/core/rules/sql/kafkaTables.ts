/**
 * What the Flink SQL rules (BFL6xx) share: the Kafka connector version the project builds with, edits of a table's
 * `WITH (…)` options in the script's own layout (or of a Table API descriptor's `.option(…)` calls in the file's
 * language), and the wording of checkpointing evidence.
 */
import type { SqlTableOption } from "../../documents/sql/facts";
import { sqlString } from "../../documents/sql/reader";
import type { Fix, FixSafety, RelatedLocation } from "../../findings";
import { addChainCallEdit } from "../../jobcode/intents";
import { str } from "../../jobcode/render";
import type { ConnectorVersion } from "../../knowledge/kafkaConnector";
import { compareMinors } from "../../knowledge/options";
import type { KafkaTable, SqlJob } from "../../project/sqlJobs";
import type { TextEdit } from "../../text";
import { type ProjectModel, parseMinor } from "../../workspace/project";
import { connectorSites } from "../build/kafkaConnectors";
import { textAt } from "../configEdits";

const versions = new WeakMap<ProjectModel, { version?: ConnectorVersion }>();

/** The Kafka connector version of the project's build or images, when every place names the same one. */
export function connectorVersion(project: ProjectModel): ConnectorVersion | undefined {
  let found = versions.get(project);
  if (!found) {
    const sites = connectorSites(project);
    const distinct = new Set(sites.map((s) => s.version.connector));
    found = { version: distinct.size === 1 ? sites[0].version : undefined };
    versions.set(project, found);
  }
  return found.version;
}

/** The first Flink minor whose Kafka table source is the KafkaSource of FLIP-27 (FLINK-22914). */
const KAFKA_SOURCE_TABLES_SINCE = "1.14";

/**
 * Whether the project's Kafka tables are read by a connector bundled with Flink 1.13 or older: that table source is
 * built on the legacy FlinkKafkaConsumer, which, when the job takes no checkpoints, commits offsets with the Kafka
 * client's own auto-commit (on by default) rather than never. What such a source commits is not checked.
 */
export function legacyTableSource(project: ProjectModel): boolean {
  const v = connectorVersion(project);
  const minor = v ? (v.bundled ? v.flinkMinor : undefined) : project.flinkVersion?.minor;
  return minor !== undefined && compareMinors(minor, KAFKA_SOURCE_TABLES_SINCE) < 0;
}

/**
 * The Flink minor that reads the project's Kafka tables, when it no longer has the legacy table factories that read
 * the descriptor keys (`'connector.type' = 'kafka'`): Flink 1.14 removed them (FLINK-23513), and the connector
 * released apart from Flink (3.x and later) came after that. Undefined where they may still be read or the version
 * is not known.
 */
/** The first Flink minor without the legacy table factories (FLINK-23513, apache/flink#16638). */
const LEGACY_DESCRIPTORS_REMOVED_IN = "1.14";

export function legacyDescriptorsGone(project: ProjectModel): string | undefined {
  const v = connectorVersion(project);
  if (v && !v.bundled) return `Kafka connector ${v.version}`;
  const flink = project.flinkVersion;
  const minor = v ? v.flinkMinor : flink?.minor;
  if (minor === undefined || compareMinors(minor, LEGACY_DESCRIPTORS_REMOVED_IN) < 0) return undefined;
  // A project that also names an older Flink (examples of several releases side by side) may run the table there.
  const older = (flink?.others ?? []).some((o) => {
    const m = parseMinor(o.minor);
    return m !== undefined && compareMinors(`${m.major}.${m.minor}`, LEGACY_DESCRIPTORS_REMOVED_IN) < 0;
  });
  return older ? undefined : `Flink ${minor}`;
}

export function describeVersion(v: ConnectorVersion): string {
  return v.bundled
    ? `the Kafka connector bundled with Flink ${v.flinkMinor ?? v.version}`
    : `Kafka connector ${v.version}`;
}

/** The option's key renamed (inside its quotes). */
export function renameOption(option: SqlTableOption, key: string): TextEdit {
  return { range: option.keyRange, newText: key };
}

export function replaceOptionValue(option: SqlTableOption, value: string): TextEdit {
  return { range: option.valueRange, newText: value };
}

/** Removes an option with the comma that joins it to its neighbour. */
export function deleteOption(option: SqlTableOption): TextEdit {
  return { range: option.deleteRange, newText: "" };
}

/**
 * Adds `'key' = 'value'` after the table's last option: on a line of its own where the options stand one per line,
 * else on the same line; for a Table API descriptor, `.option("key", "value")` in the file's language before its
 * `.build()`. Undefined where the options' text cannot be edited safely (escapes, an incomplete list).
 */
export function insertOption(
  project: ProjectModel,
  table: KafkaTable,
  key: string,
  value: string,
): TextEdit | undefined {
  const t = table.facts;
  if (t.descriptor) {
    const at = t.descriptor.insertion;
    if (!at || t.like) return undefined;
    return addChainCallEdit({ language: t.descriptor.language, chainInsertion: at }, "option", [str(key), str(value)])
      .edit;
  }
  const last = t.options[t.options.length - 1];
  if (!last || !t.insertAt || !last.exact) return undefined;
  const file = t.file;
  const quoteEnd = { line: last.valueRange.end.line, character: last.valueRange.end.character + 1 };
  if (textAt(project, file, { start: last.valueRange.end, end: quoteEnd }) !== "'") return undefined;
  const text = `${sqlString(key)} = ${sqlString(value)}`;
  const previous = t.options[t.options.length - 2];
  const ownLines = !t.embedded && previous !== undefined && previous.keyRange.start.line !== last.keyRange.start.line;
  if (!ownLines) return { range: { start: quoteEnd, end: quoteEnd }, newText: `, ${text}` };
  const eol = project.fileFacts(file)?.text.includes("\r\n") ? "\r\n" : "\n";
  const indent = " ".repeat(Math.max(0, last.keyRange.start.character - 1));
  return { range: { start: quoteEnd, end: quoteEnd }, newText: `,${eol}${indent}${text}` };
}

export function tableFix(table: KafkaTable, title: string, safety: FixSafety, edits: (TextEdit | undefined)[]): Fix[] {
  if (edits.some((e) => e === undefined)) return [];
  return [{ title, safety, changes: [{ file: table.facts.file, edits: edits as TextEdit[] }] }];
}

/** Where the job's checkpointing is decided, as related information. */
export function checkpointingRelated(job: SqlJob): RelatedLocation[] {
  const c = job.checkpointing;
  if (c.kind !== "on") return [];
  const message =
    c.by === "script"
      ? "The script enables checkpointing here."
      : c.by === "cluster"
        ? "The cluster's configuration enables checkpointing here."
        : "The job code enables checkpointing here.";
  return c.where.map((l) => ({ ...l, message }));
}

/** "the table `orders`" */
export function tableName(table: KafkaTable): string {
  return `table ${table.facts.name}`;
}

/** Whether a streaming job runs the table's reads and never checkpoints. */
export function streamingWithoutCheckpoints(job: SqlJob): boolean {
  return !job.batch && job.checkpointing.kind === "off";
}
