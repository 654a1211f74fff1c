/**
 * The options of Flink's Kafka and upsert-kafka table connectors (kafka-table-options.json): which connector
 * versions read each option, its type, default and allowed values, and which option replaced a deprecated one.
 */
import data from "./kafka-table-options.json";
import type { ConnectorVersion } from "./kafkaConnector";
import { compareMavenVersions } from "./mavenVersion";
import { compareMinors, editDistance } from "./options";

export interface TableOption {
  key: string;
  type: string;
  default: string | null;
  /** First external connector release (3.0.0 and later) that reads it. */
  since: string;
  /** First Flink minor whose bundled connector (Flink ≤ 1.17) reads it; null when never bundled. */
  bundledSince: string | null;
  allowed?: string[];
  /** The option that replaced it (still read). */
  deprecated?: string;
  doc: string;
}

export type KafkaTableConnector = "kafka" | "upsert-kafka";

const CONNECTORS = data.connectors as Record<KafkaTableConnector, TableOption[]>;

export function isKafkaTableConnector(connector: string | undefined): connector is KafkaTableConnector {
  return connector === "kafka" || connector === "upsert-kafka";
}

export function tableOptions(connector: KafkaTableConnector): readonly TableOption[] {
  return CONNECTORS[connector];
}

export function tableOption(connector: KafkaTableConnector, key: string): TableOption | undefined {
  return CONNECTORS[connector].find((o) => o.key === key);
}

/** The first Flink minor the data holds for the bundled connectors: what older releases read is not known. */
const FIRST_BUNDLED = Object.values(CONNECTORS)
  .flat()
  .map((o) => o.bundledSince)
  .filter((m): m is string => m !== null)
  .reduce((a, b) => (compareMinors(a, b) <= 0 ? a : b));

/**
 * Whether a connector version reads the option; true when the version is not known, or is a connector bundled with
 * a Flink release older than the data (Flink 1.12's bundled connector already reads `scan.startup.mode`).
 */
export function readBy(option: TableOption, version: ConnectorVersion | undefined): boolean {
  if (!version) return true;
  if (version.bundled) {
    if (
      option.bundledSince !== null &&
      version.flinkMinor !== undefined &&
      compareMinors(version.flinkMinor, FIRST_BUNDLED) < 0
    )
      return true;
    if (option.bundledSince === null) return false;
    return version.flinkMinor === undefined || compareMinors(version.flinkMinor, option.bundledSince) >= 0;
  }
  return compareMavenVersions(version.connector, option.since) >= 0;
}

/** Prefixes of options a table may carry for its formats: `json.…`, `key.avro.…`, `value.json.…`. */
export function formatPrefixes(options: { key: string; value: string }[]): string[] {
  const out: string[] = [];
  for (const o of options) {
    const format = o.value.trim();
    if (format === "") continue;
    if (o.key === "format") out.push(`${format}.`, `value.${format}.`);
    else if (o.key === "value.format") out.push(`value.${format}.`, `${format}.`);
    else if (o.key === "key.format") out.push(`key.${format}.`);
  }
  return out;
}

/**
 * Keys every table accepts whatever its connector says: the Kafka client's own properties (`properties.*`) and
 * the planner's watermark options (`scan.watermark.*`, Flink 1.18, FLIP-296).
 */
export function isPassThrough(key: string): boolean {
  return key.startsWith("properties.") || key.startsWith("scan.watermark.");
}

/** Known options of the connector whose spelling is closest to `key` (at most two edits, or a case slip). */
export function suggestTableOptions(connector: KafkaTableConnector, key: string, version?: ConnectorVersion): string[] {
  const lower = key.toLowerCase();
  const scored = CONNECTORS[connector]
    .filter((o) => o.key !== key && readBy(o, version) && !o.deprecated)
    .map((o) => ({
      key: o.key,
      d: o.key === lower ? 0 : editDistance(lower.replaceAll("_", "-"), o.key, 3),
    }))
    .filter((s) => s.d <= 2)
    .sort((a, b) => a.d - b.d || a.key.localeCompare(b.key));
  return scored.map((s) => s.key);
}

/** `sink.semantic` values mapped onto `sink.delivery-guarantee` (the factory upper-cases and reads DeliveryGuarantee). */
export function deliveryGuaranteeOf(semantic: string): string | undefined {
  const v = semantic.trim().toLowerCase().replaceAll("_", "-");
  return v === "exactly-once" || v === "at-least-once" || v === "none" ? v : undefined;
}
