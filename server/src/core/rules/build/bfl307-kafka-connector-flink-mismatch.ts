import type { RelatedLocation } from "../../findings";
import { BUNDLED_UNTIL, documentedMinors, releasesFor } from "../../knowledge/kafkaConnector";
import { compareMinors } from "../../knowledge/options";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { type ClusterMinor, type ConnectorSite, clusterMinorFor, connectorSites } from "./kafkaConnectors";

const DOCKERFILE = (jar: string) => `FROM flink:1.19.1-scala_2.12-java17
ADD https://repo1.maven.org/maven2/org/apache/flink/flink-sql-connector-kafka/${jar}/flink-sql-connector-kafka-${jar}.jar /opt/flink/lib/
`;

/**
 * Whether a connector version does not fit the cluster's Flink minor: neither built for it (its suffix, or the Flink
 * version a bundled connector was released with) nor documented for it.
 */
export function mismatch(site: ConnectorSite, cluster: ClusterMinor): boolean {
  const built = site.version.flinkMinor;
  if (built === undefined || built === cluster.minor) return false;
  if (site.version.bundled) return true;
  const documented = documentedMinors(site.version.connector);
  return documented === undefined || !documented.includes(cluster.minor);
}

function advice(cluster: ClusterMinor): string {
  const releases = releasesFor(cluster.minor);
  if (releases.length > 0) {
    return `Use a connector built for Flink ${cluster.minor}: ${releases.join(", ")}.`;
  }
  if (compareMinors(cluster.minor, BUNDLED_UNTIL) <= 0) {
    const shown = cluster.shown === cluster.minor ? `${cluster.minor}.x` : cluster.shown;
    return `Use the connector released with Flink itself: flink-connector-kafka ${shown}.`;
  }
  return `No connector release built for Flink ${cluster.minor} is known.`;
}

export const rule: Rule = {
  meta: {
    code: "BFL307",
    name: "kafka-connector-flink-mismatch",
    family: "build",
    severity: "error",
    description: "A Flink Kafka connector built for another Flink minor than the cluster the project deploys to.",
    fix: "none",
    docs: {
      whatItDoes:
        "Compares the Flink minor a Kafka connector version is built for with the Flink version of the project's cluster (a FlinkDeployment `flinkVersion`, a Flink image tag, the build's Flink dependencies, or `flinkVersion` in `.beam-flink-lint.yaml`). Of the build's dependencies, the core modules every job builds on (`flink-streaming-java`, `flink-clients`, `flink-table-api-java`…) give the job's Flink, also when the connector takes its version from the same property, rather than a format or another module pinned to another release (`flink-avro-confluent-registry` 1.17.0 beside a `flink.version` property of 1.16.1). The connector's minor is the suffix of its version (`3.1.0-1.18` is connector 3.1.0 for Flink 1.18) or, for the connector released with Flink itself up to 1.17, that Flink version (`1.17.2`). The version is read where it is defined: in the build or in the name of a jar a Dockerfile puts into the image (a jar the Dockerfile names more than once, such as a download URL and the name it is saved under, is reported once), or in the name of a jar a job, script or configuration loads (PyFlink's `add_jars` and `pipeline.jars`, a SQL script's `ADD JAR`). A PyFlink project's pinned `apache-flink==1.18.1` is the Flink its jobs are built and submitted with, as a core Flink dependency of a build is. A jar a Dockerfile puts into an image runs on the Flink of that image (`FROM flink:2.2.0` in the stage that adds it), whatever other Flink versions the repository's other examples name.",
      whyItMatters:
        "A connector release is compiled and tested against the Flink minors it is released for; on another minor it uses Flink internals that changed, and the job fails at submission or while running with missing classes or methods (a `3.1.0-1.18` jar in a Flink 1.19 image). Each connector release lists the Flink minors it supports (3.2.0: 1.18 and 1.19; 3.3.0: 1.19 and 1.20; 4.0.x: 2.0; 5.0.0: 2.1 and 2.2).",
      bad: { Dockerfile: DOCKERFILE("3.1.0-1.18") },
      good: { Dockerfile: DOCKERFILE("3.3.0-1.19") },
      whenNotToFire:
        "No cluster version is known (an editor setting or the connector's own suffix is not evidence of the cluster; a jar baked into an image built `FROM flink:latest` or `flink:java17` runs on whatever Flink is newest when the image is built); a connector release documented for the cluster's minor although its suffix names another (3.2.0-1.18 on Flink 1.19: 3.2.0 is released for 1.18 and 1.19); connector versions without a Flink suffix that are not Flink's own (the data cannot tell which minors they are for).",
      references: [
        "apache/flink-connector-kafka docs/data/kafka.yml (flink_compatibility) on the release branches v3.0 … v5.0",
        "apache/flink-web docs/data/flink_connectors.yml",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/ (dependency: the connector version for your Flink version)",
      ],
    },
  },
  check(ctx) {
    const sites = connectorSites(ctx.project);
    if (sites.length === 0) return;
    for (const site of sites) {
      const cluster = clusterMinorFor(ctx.project, sites, site);
      if (!cluster || !mismatch(site, cluster)) continue;
      const documented = site.version.bundled ? undefined : documentedMinors(site.version.connector);
      const related: RelatedLocation[] = [];
      // Known from the build's own Flink dependencies, the version is the one the job is built and run with.
      const runs =
        cluster.evidence.source === "dependency"
          ? `the job depends on Flink ${cluster.shown}`
          : `the cluster runs Flink ${cluster.shown}`;
      if (cluster.location) {
        const where = `${runs[0].toUpperCase()}${runs.slice(1)} (${cluster.label}).`;
        related.push({ ...cluster.location, message: where });
      }
      if (documented) {
        related.push({
          ...site.at,
          message: `Connector ${site.version.connector} is released for Flink ${documented.join(" and ")}.`,
        });
      }
      related.push({ ...site.at, message: advice(cluster) }, ...site.uses);
      const name = site.artifacts.length === 1 ? site.artifacts[0] : "The Kafka connector";
      ctx.report({
        file: site.at.file,
        range: site.at.range,
        message: fitting(
          `${name} ${site.version.version} is built for Flink ${site.version.flinkMinor}, but ${runs}: it can fail there.`,
          `This connector is built for Flink ${site.version.flinkMinor}, but ${runs}: it can fail there.`,
        ),
        details: "A connector built for another Flink minor can fail with missing classes or methods.",
        // The project-wide version: pinned only when the project configuration names it.
        versionEvidence: {
          minor: cluster.minor,
          strength: cluster.evidence.source === "projectConfig" ? "pinned" : "weak",
          evidence: [cluster.evidence],
        },
        related,
      });
    }
  },
};
