import {
  type AdvisoryMatch,
  advisoriesOfRule,
  firstUnaffectedVersion,
  matchPackage,
  rangeBounds,
  requirementsMet,
} from "../../knowledge/advisories";
import {
  CONNECTOR_RELEASES,
  type ConnectorVersion,
  parseConnectorVersion,
  releasesFor,
} from "../../knowledge/kafkaConnector";
import { compareMavenVersions } from "../../knowledge/mavenVersion";
import type { Rule, RuleContext } from "../types";
import { advisoryFacts } from "./advisoryFacts";
import { type AdvisorySite, reportSites, type SiteUpgrade } from "./advisoryFindings";
import { type ConnectorSite, connectorSites } from "./kafkaConnectors";

const POM = (version: string) => `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>orders</artifactId>
  <version>1.0.0</version>
  <properties>
    <flink.version>1.19.1</flink.version>
    <kafka.connector.version>${version}</kafka.connector.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.apache.flink</groupId>
      <artifactId>flink-streaming-java</artifactId>
      <version>\${flink.version}</version>
      <scope>provided</scope>
    </dependency>
    <dependency>
      <groupId>org.apache.flink</groupId>
      <artifactId>flink-connector-kafka</artifactId>
      <version>\${kafka.connector.version}</version>
    </dependency>
  </dependencies>
</project>
`;

/** Versions a connector version could move to for its Flink minor, oldest first. */
function candidates(version: ConnectorVersion, match: AdvisoryMatch): string[] {
  const minor = version.flinkMinor;
  if (minor === undefined) return [];
  const external = releasesFor(minor).filter((r) => version.bundled || compareMavenVersions(r, version.version) > 0);
  if (!version.bundled) return external;
  // A bundled connector can move to a later bundled release of its minor that a record names as fixed, or to an
  // external release for the same minor.
  const bundled = match.affected.ranges
    .map((r) => rangeBounds(r).fixed)
    .filter((f): f is string => f?.startsWith(`${minor}.`) === true && compareMavenVersions(f, version.connector) > 0)
    .sort(compareMavenVersions);
  return [...new Set(bundled), ...external];
}

/** The records (met for this project) that affect `artifact` at `version`. */
function bugsAt(ctx: RuleContext, artifact: string, version: string): AdvisoryMatch[] {
  const parsed = parseConnectorVersion(version);
  if (!parsed) return [];
  const facts = advisoryFacts(ctx.project);
  return matchPackage("Maven", `org.apache.flink:${artifact}`, parsed.connector, advisoriesOfRule("BFL306")).filter(
    (m) => requirementsMet(m, facts),
  );
}

/** "3.3.0 (for Flink 1.19 and 1.20)": the first external release with the fix and the Flink minors it is built for. */
function fixedReleases(fixed: string | undefined): string | undefined {
  if (fixed === undefined) return undefined;
  const release = CONNECTOR_RELEASES.find((r) => compareMavenVersions(r.version, fixed) >= 0);
  return release && `${release.version} (for Flink ${release.flinkMinors.join(" and ")})`;
}

function upgradeFor(ctx: RuleContext, site: ConnectorSite, match: AdvisoryMatch): SiteUpgrade {
  const { version } = site;
  const artifact = site.artifacts[0];
  const minor = version.flinkMinor ?? "this Flink version";
  const fixing = candidates(version, match).filter(
    (c) => !bugsAt(ctx, artifact, c).some((m) => m.advisory.id === match.advisory.id),
  );
  const target = fixing.find((c) => bugsAt(ctx, artifact, c).length === 0);
  if (!target) {
    if (fixing.length > 0) {
      const other = bugsAt(ctx, artifact, fixing[0])[0].advisory;
      return {
        advice: `${fixing[0]} fixes this bug, but it and every later release for Flink ${minor} have ${other.aliases.join(", ")} (${other.id}): ${other.database_specific.title}.`,
        noFix: `every release with the fix for Flink ${minor} has another known bug`,
      };
    }
    const first = fixedReleases(firstUnaffectedVersion(match.advisory));
    return {
      advice: first
        ? `No connector release with the fix is built for Flink ${minor}: the fix is in ${first} and later, so moving to it means upgrading Flink first.`
        : `No connector release with the fix is known for Flink ${minor}.`,
      noFix: `no release with the fix is built for Flink ${minor}`,
    };
  }
  const fix = site.rewrite(target);
  const where = fix ? " where the version is defined" : "";
  return {
    target,
    fix,
    advice: `Upgrade the connector to ${target}${where}; check the connector's release notes, since a connector upgrade can change the state it keeps in checkpoints and savepoints.`,
  };
}

function advisorySite(ctx: RuleContext, site: ConnectorSite): AdvisorySite {
  return {
    label: site.artifacts.length === 1 ? site.artifacts[0] : "The Kafka connector",
    version: site.version.version,
    matchVersion: site.version.connector,
    at: site.at,
    packages: site.artifacts.map((artifact, i) => ({
      ecosystem: "Maven",
      name: `org.apache.flink:${artifact}`,
      uses: i === 0 ? site.uses : [],
    })),
    upgrade: (match) => upgradeFor(ctx, site, match),
  };
}

export const rule: Rule = {
  meta: {
    code: "BFL306",
    name: "kafka-connector-known-bug",
    family: "build",
    severity: "error",
    description:
      "A Flink Kafka connector version with a known bug that loses records, leaks resources or keeps a job from finishing.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Matches the versions of `org.apache.flink:flink-connector-kafka` and `flink-sql-connector-kafka` against the advisory records (docs/advisories.md), where the version is defined: in the build (a literal, a Maven property, a Gradle variable or property, a version catalog entry) or in the name of a jar a Dockerfile puts into an image (`ADD …/flink-sql-connector-kafka-3.1.0-1.18.jar /opt/flink/lib/`, `curl`/`wget` downloads, `COPY` of a jar, or an `ARG` the name is built from; a jar the Dockerfile names more than once, such as the URL `curl` fetches and the name `-o` saves it under, or a download moved into `lib/` by a later instruction, is one jar, reported once, and the upgrade rewrites the version in every name), or in the name of a jar a job, script or configuration loads (PyFlink's `env.add_jars(\"file:///…/flink-sql-connector-kafka-1.16.0.jar\")` and `pipeline.jars`, a SQL script's `ADD JAR`, `sql-client.sh -j` in a script or a compose command: reported where it is named, with no upgrade fix, since the jar file itself must be replaced; a jar a Dockerfile of the project also puts into an image is reported at the Dockerfile only). The records: KafkaSink dropping records after Kafka was unavailable (FLINK-35749, up to 3.2.x and the connector bundled with Flink 1.16.2–1.17.x; an error when the job builds a KafkaSink, information when the project's job code uses Kafka only through sources or consumers), checkpoints completing although records failed (FLINK-31305, bundled 1.16.0–1.16.1 and 1.17.0), a bounded KafkaSource never finishing on transactional or compacted topics (FLINK-34470, when the job reads with setBounded), a FlinkKafkaProducer leaking its producer (FLINK-36441, when the job uses one), records skipped after an early failover with latest offsets (FLINK-28303, 3.0.0), and offset commits failing after a broker restart (FLINK-28060, bundled 1.15.0).",
      whyItMatters:
        "These bugs fail silently: the job keeps running while records are dropped, or committed offsets stand still, or a bounded job never ends. The fixes are in later connector releases, but a connector release is built for particular Flink minors: FLINK-35749 is fixed only from 3.3.0, which exists for Flink 1.19 and 1.20, so a Flink 1.18 job has no fixed connector at all and the message says so. The upgrade fix writes, where the version is defined, the first release for the same Flink minor that has the fix and none of the other known bugs; it is unsafe, because a connector upgrade can change the state the job keeps in its checkpoints and savepoints.",
      bad: { "pom.xml": POM("3.2.0-1.19") },
      good: { "pom.xml": POM("3.3.0-1.19") },
      whenNotToFire:
        "Fixed versions; versions the build computes (ranges, dynamic versions); records that need something the project's job code does not show (a bounded KafkaSource, a FlinkKafkaProducer, a source starting at the latest offsets). There is no fix where no release with the fix exists for the Flink minor, where the definition also sets the version of something else, for a jar copied from the build context (it has to be replaced, not renamed), or for a version from an `ARG` that may be Flink's own.",
      references: [
        "https://issues.apache.org/jira/browse/FLINK-35749 and apache/flink-connector-kafka PR #107 (fixed in 3.3.0)",
        "https://issues.apache.org/jira/browse/FLINK-31305 (Flink 1.16.2 and 1.17.1 release notes)",
        "https://issues.apache.org/jira/browse/FLINK-34470, https://issues.apache.org/jira/browse/FLINK-36441 (fixed in 3.3.0)",
        "https://issues.apache.org/jira/browse/FLINK-28303 (fixed in 3.0.1), https://issues.apache.org/jira/browse/FLINK-28060 (Flink 1.15.1)",
        "apache/flink-connector-kafka: git history of the tags v3.0.0 … v5.0.0; docs/data/kafka.yml for the Flink minors of each release",
      ],
    },
  },
  check(ctx) {
    reportSites(
      ctx,
      "BFL306",
      connectorSites(ctx.project).map((site) => advisorySite(ctx, site)),
    );
  },
};
