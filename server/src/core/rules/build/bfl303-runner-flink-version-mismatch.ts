import { isFlinkRunner, isRunnerPublished, runnerAvailability, runnerFlinkMinor } from "../../knowledge/beamMatrix";
import { compareMavenVersions, isConcreteVersion } from "../../knowledge/mavenVersion";
import type { FlinkVersionEvidence, ResolvedDependency } from "../../model";
import { fitting } from "../messages";
import type { Rule } from "../types";

const BUILD = (runner: string) => `plugins {
    id 'java'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-core:2.64.0"
    runtimeOnly "org.apache.beam:${runner}:2.64.0"
}
`;

const DEPLOYMENT = `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  image: registry.example.com/orders:1.4.0
  flinkVersion: v1_18
  serviceAccount: flink
  jobManager:
    resource: { memory: 2048m, cpu: 1 }
  taskManager:
    resource: { memory: 2048m, cpu: 1 }
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
    upgradeMode: stateless
`;

/** Sources that say what the cluster runs; the runner artifact itself and editor settings do not. */
const CLUSTER_SOURCES: Partial<Record<FlinkVersionEvidence["source"], string>> = {
  projectConfig: "flinkVersion in the project configuration",
  flinkDeployment: "FlinkDeployment flinkVersion",
  image: "the Flink image tag",
  dependency: "the Flink dependencies of the build",
};

function advice(dep: ResolvedDependency, runnerMinor: string, clusterMinor: string): string {
  const switchTo = `beam-runners-flink-${clusterMinor}`;
  const orCluster = `or run the job on a Flink ${runnerMinor} cluster`;
  const version = dep.version;
  if (version === undefined || !isConcreteVersion(version)) return `Switch to ${switchTo}, ${orCluster}.`;
  if (isRunnerPublished(version, clusterMinor))
    return `Switch to ${switchTo}, which Beam ${version} publishes, ${orCluster}.`;
  const availability = runnerAvailability(clusterMinor);
  if (availability && compareMavenVersions(version, availability.since) < 0) {
    return `Beam ${version} has no runner for Flink ${clusterMinor} yet (it arrives in ${availability.since}): upgrade Beam and switch to ${switchTo}, ${orCluster}.`;
  }
  return `Beam ${version} has no runner for Flink ${clusterMinor}: run the job on a Flink ${runnerMinor} cluster, or move Beam and the cluster to a pair the runner matrix has.`;
}

export const rule: Rule = {
  meta: {
    code: "BFL303",
    name: "runner-flink-version-mismatch",
    family: "build",
    severity: "error",
    description: "The Beam Flink runner is built for another Flink minor than the cluster the project deploys to.",
    fix: "none",
    docs: {
      whatItDoes:
        "Compares the Flink minor in the runner artifact's name (`beam-runners-flink-1.17` needs Flink 1.17) with the Flink version the project's cluster runs: a FlinkDeployment `flinkVersion`, a Flink image tag (`flink:1.18.1`), the build's Flink dependencies, or `flinkVersion` in `.beam-flink-lint.yaml`. It reports the runner artifact, with the place that names the cluster's version as related information.",
      whyItMatters:
        "Beam's documentation says \"the Flink cluster version has to match the minor version used by the FlinkRunner\": each runner is compiled against its own Flink minor. On another minor the job fails at submission or while running, with missing classes, changed method signatures or incompatible serializers (for example apache/beam#32944: a job built for one minor failing with another Flink's classes on the cluster).",
      bad: { "build.gradle": BUILD("beam-runners-flink-1.17"), "k8s/flink-deployment.yaml": DEPLOYMENT },
      good: { "build.gradle": BUILD("beam-runners-flink-1.18"), "k8s/flink-deployment.yaml": DEPLOYMENT },
      whenNotToFire:
        "No cluster version is known in the project (the Flink version assumed by an editor setting or CLI flag is not evidence of the cluster); `-job-server` artifacts (they run in their own container next to the cluster); runner artifacts whose name the build computes.",
      references: [
        "https://beam.apache.org/documentation/runners/flink/ (Flink version compatibility)",
        "https://github.com/apache/beam/issues/32944",
      ],
    },
  },
  check(ctx) {
    const cluster = ctx.project.flinkVersion;
    const label = cluster && CLUSTER_SOURCES[cluster.evidence.source];
    if (!cluster || !label) return;
    const shown = `Flink ${cluster.evidence.full ?? cluster.minor}`;
    const reported = new Set<string>();
    for (const dep of ctx.project.dependencies) {
      const runnerMinor = isFlinkRunner(dep.group, dep.artifact) ? runnerFlinkMinor(dep.artifact) : undefined;
      if (!runnerMinor || runnerMinor === cluster.minor) continue;
      const { file, range } = dep.declaration;
      const k = `${file}:${range.start.line}:${range.start.character}`;
      if (reported.has(k)) continue;
      reported.add(k);
      const location = cluster.evidence.location;
      ctx.report({
        file,
        range,
        message: fitting(
          `${dep.artifact} is built for Flink ${runnerMinor}, but the cluster runs ${shown}: the job fails there.`,
          `This runner is built for Flink ${runnerMinor}, but the cluster runs ${shown}: the job fails there.`,
        ),
        details: `The cluster runs ${shown} (${label}). A Beam Flink runner only works on its own Flink minor: the job fails at submission or while running, with missing classes or incompatible serializers. ${advice(dep, runnerMinor, cluster.minor)}`,
        related: location ? [{ ...location, message: `The cluster runs ${shown} (${label}).` }] : [],
      });
    }
  },
};
