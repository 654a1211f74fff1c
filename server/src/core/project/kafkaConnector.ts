/**
 * Which line of Flink's Kafka connector the project's DataStream code builds against: flink-connector-kafka 4.0 and
 * later (Flink 2.x: the legacy FlinkKafkaConsumer/Producer are gone, a KafkaSink set to EXACTLY_ONCE must be given a
 * transactional id prefix), or an older one (the connector bundled with Flink up to 1.17, the external 3.x releases).
 */
import type { RelatedLocation } from "../findings";
import { compareMavenVersions, isConcreteVersion } from "../knowledge/mavenVersion";
import type { ResolvedDependency } from "../model";
import { flinkAtLeast, type ProjectModel } from "../workspace/project";

export interface ConnectorLine {
  /** `four`: flink-connector-kafka 4.0 or later; `older`: before 4.0 (bundled with Flink 1.x, or 3.x). */
  line: "four" | "older";
  /** Where it is known from: the connector dependency, or the Flink version the project runs. */
  kind: "connector" | "flink";
  /** For messages: `flink-connector-kafka 4.0.0-2.0`, `Flink 1.18`. */
  what: string;
  where?: RelatedLocation;
}

const CONNECTOR = /^flink-(sql-)?connector-kafka(_2\.1[0-3])?$/;

const cache = new WeakMap<ProjectModel, ConnectorLine | null>();

/** The connector line of the project, from its Kafka connector dependency, else from its Flink version; or unknown. */
export function kafkaConnectorLine(project: ProjectModel): ConnectorLine | undefined {
  const known = cache.get(project);
  if (known !== undefined) return known ?? undefined;
  const line = computeLine(project);
  cache.set(project, line ?? null);
  return line;
}

function computeLine(project: ProjectModel): ConnectorLine | undefined {
  const connectors = project.dependencies.filter(
    (d) =>
      d.group === "org.apache.flink" &&
      CONNECTOR.test(d.artifact) &&
      d.version !== undefined &&
      isConcreteVersion(d.version),
  );
  const four = connectors.find((d) => compareMavenVersions(d.version ?? "", "4.0") >= 0);
  if (four) return fromDependency("four", four);
  if (connectors.length > 0) return fromDependency("older", connectors[0]);
  const modern = flinkAtLeast(project, "2.0");
  if (modern === undefined) return undefined;
  const version = project.flinkVersion;
  const location = version?.evidence.location;
  return {
    line: modern ? "four" : "older",
    kind: "flink",
    what: `Flink ${version?.minor}`,
    where: location
      ? { file: location.file, range: location.range, message: `The project runs Flink ${version?.minor}.` }
      : undefined,
  };
}

function fromDependency(line: ConnectorLine["line"], dep: ResolvedDependency): ConnectorLine {
  const at = dep.versionDefinition ?? dep.declaration;
  return {
    line,
    kind: "connector",
    what: `flink-connector-kafka ${dep.version}`,
    where: { file: at.file, range: at.range, message: `flink-connector-kafka ${dep.version} is used here.` },
  };
}
