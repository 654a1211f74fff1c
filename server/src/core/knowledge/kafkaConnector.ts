/**
 * The Flink Kafka connector's versions (kafka-connector-releases.json): what a version such as `3.1.0-1.18` means
 * (connector 3.1.0 built for Flink 1.18), which Flink minors each release is for, and which release fixes a bug for
 * a given Flink minor; and the connectors Flink released for one Kafka version (`FlinkKafkaConsumer011`), with the
 * Flink release that dropped them.
 */
import data from "./kafka-connector-releases.json";
import { compareMavenVersions, isConcreteVersion } from "./mavenVersion";

export const FLINK_GROUP = "org.apache.flink";
export const KAFKA_CONNECTOR_ARTIFACTS: readonly string[] = ["flink-connector-kafka", "flink-sql-connector-kafka"];

export interface ConnectorRelease {
  version: string;
  flinkMinors: string[];
}

export const CONNECTOR_RELEASES: readonly ConnectorRelease[] = data.releases;
/** The last Flink minor whose releases bundled the connector under Flink's own version. */
export const BUNDLED_UNTIL: string = data.bundledUntil;

export function isKafkaConnector(group: string, artifact: string): boolean {
  return group === FLINK_GROUP && KAFKA_CONNECTOR_ARTIFACTS.includes(artifact);
}

export interface ConnectorVersion {
  /** As written: `3.1.0-1.18`, `1.17.2`. */
  version: string;
  /** The connector's own version: `3.1.0`; for a bundled connector, Flink's version. */
  connector: string;
  /** The Flink minor it is built for: the suffix (`1.18`), or the minor of a bundled connector's version. */
  flinkMinor?: string;
  /** Released with Flink itself (versions 1.x). */
  bundled: boolean;
}

const SUFFIXED = /^(\d+\.\d+\.\d+)-(\d+\.\d+)$/;
const BUNDLED = /^(1)\.(\d+)\.\d+$/;

/** Reads a connector version; undefined for versions that are not concrete (ranges, `+`, snapshots of a range). */
export function parseConnectorVersion(version: string): ConnectorVersion | undefined {
  const v = version.trim();
  if (!isConcreteVersion(v)) return undefined;
  const suffixed = SUFFIXED.exec(v);
  if (suffixed) return { version: v, connector: suffixed[1], flinkMinor: suffixed[2], bundled: false };
  const bundled = BUNDLED.exec(v);
  if (bundled) return { version: v, connector: v, flinkMinor: `${bundled[1]}.${bundled[2]}`, bundled: true };
  return { version: v, connector: v, bundled: false };
}

/** The Flink minors a connector release is documented for; undefined for releases the data does not list. */
export function documentedMinors(connector: string): string[] | undefined {
  return CONNECTOR_RELEASES.find((r) => compareMavenVersions(r.version, connector) === 0)?.flinkMinors;
}

/** The releases built for a Flink minor, oldest first, as Maven versions (`3.3.0-1.19`). */
export function releasesFor(flinkMinor: string): string[] {
  return CONNECTOR_RELEASES.filter((r) => r.flinkMinors.includes(flinkMinor)).map((r) => `${r.version}-${flinkMinor}`);
}

/** The first release at or after `fixed` that is built for `flinkMinor`, as a Maven version; undefined if none. */
export function fixedReleaseFor(fixed: string, flinkMinor: string): string | undefined {
  const release = CONNECTOR_RELEASES.find(
    (r) => compareMavenVersions(r.version, fixed) >= 0 && r.flinkMinors.includes(flinkMinor),
  );
  return release && `${release.version}-${flinkMinor}`;
}

/** A connector for one Kafka version (`flink-connector-kafka-0.11`), released with Flink itself and later dropped. */
export interface KafkaVersionConnector {
  /** What its class names end with: `011` in `FlinkKafkaConsumer011`. */
  classSuffix: string;
  /** The Kafka version: `0.11`. */
  kafka: string;
  artifact: string;
  /** The first Flink release without it. */
  removedIn: string;
  issue: string;
}

const KAFKA_VERSION_CONNECTORS: readonly KafkaVersionConnector[] = data.kafkaVersionConnectors.connectors;

/** The Kafka-version connector a legacy client class belongs to: `FlinkKafkaProducer010` → the 0.10 connector. */
export function kafkaVersionConnector(className: string): KafkaVersionConnector | undefined {
  const suffix = /^FlinkKafka(?:Consumer|Producer)(\d+)$/.exec(className)?.[1];
  return suffix === undefined ? undefined : KAFKA_VERSION_CONNECTORS.find((c) => c.classSuffix === suffix);
}
