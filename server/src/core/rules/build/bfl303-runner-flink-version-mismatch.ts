import type { Location } from "../../findings";
import { isFlinkRunner, isRunnerPublished, runnerAvailability, runnerFlinkMinor } from "../../knowledge/beamMatrix";
import { compareMavenVersions, isConcreteVersion } from "../../knowledge/mavenVersion";
import type { FlinkVersionEvidence, ResolvedDependency } from "../../model";
import { type Cluster, clusterFiles, clustersOf, ownEvidence } from "../../project/clusters";
import type { VersionStrength } from "../../project/versions";
import { flinkEvidence } from "../../workspace/buildModel";
import type { ProjectModel } from "../../workspace/project";
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
const SOURCE_LABEL: Partial<Record<FlinkVersionEvidence["source"], string>> = {
  projectConfig: "flinkVersion in the project configuration",
  flinkDeployment: "FlinkDeployment flinkVersion",
  image: "the Flink image tag",
  dependency: "the Flink dependencies of the build",
};

/** How the messages name evidence: a FlinkApplication's flinkVersion as such. */
function sourceLabel(e: FlinkVersionEvidence): string | undefined {
  return e.source === "flinkDeployment" && e.kind ? `${e.kind} flinkVersion` : SOURCE_LABEL[e.source];
}

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
    const reported = new Set<string>();
    for (const dep of ctx.project.dependencies) {
      const runnerMinor = isFlinkRunner(dep.group, dep.artifact) ? runnerFlinkMinor(dep.artifact) : undefined;
      if (!runnerMinor) continue;
      const { file, range } = dep.declaration;
      const k = `${file}:${range.start.line}:${range.start.character}`;
      if (reported.has(k)) continue;
      const target = deploymentOf(ctx.project, dep);
      if (!target || target.minors.includes(runnerMinor)) continue;
      reported.add(k);
      const [decider] = target.evidence;
      const shown = `Flink ${decider.full ?? target.minors[0]}`;
      const label = sourceLabel(decider) ?? "the cluster";
      const where = target.where ? ` ${target.where}` : "";
      ctx.report({
        file,
        range,
        message: fitting(
          `${dep.artifact} is built for Flink ${runnerMinor}, but the cluster${where} runs ${shown}: the job fails there.`,
          `${dep.artifact} is built for Flink ${runnerMinor}, but the cluster runs ${shown}: the job fails there.`,
          `This runner is built for Flink ${runnerMinor}, but the cluster runs ${shown}: the job fails there.`,
        ),
        details: `The cluster${where} runs ${shown} (${label}). A Beam Flink runner only works on its own Flink minor: the job fails at submission or while running, with missing classes or incompatible serializers. ${advice(dep, runnerMinor, target.minors[0])}`,
        versionEvidence: { minor: target.minors[0], strength: target.strength, evidence: target.evidence },
        related: target.evidence
          .filter((e) => e.location)
          .map((e) => ({
            ...(e.location as Location),
            message: `The cluster${where} runs Flink ${e.full ?? e.minor} (${sourceLabel(e) ?? e.source}).`,
          })),
      });
    }
  },
};

/** What the job is deployed to: the Flink minor(s) it must match and the evidence, from one deployment only. */
interface Target {
  /** The deciding minor first. */
  minors: string[];
  evidence: FlinkVersionEvidence[];
  /**
   * `pinned`: the project configuration or the deployment's own layers name it; `conflicting`: equally near
   * deployments name different minors; `weak`: the module's Flink dependencies or the project-wide version.
   */
  strength: VersionStrength;
  /** How the message names the deployment, when it is one of several. */
  where?: string;
}

function minorOf(e: FlinkVersionEvidence): string | undefined {
  const m = /^(\d+)\.(\d+)/.exec(e.minor);
  return m ? `${m[1]}.${m[2]}` : undefined;
}

function targetOf(evidence: FlinkVersionEvidence[], strength: VersionStrength, where?: string): Target | undefined {
  const known = evidence.filter((e) => minorOf(e) !== undefined);
  if (known.length === 0) return undefined;
  const minors = [...new Set(known.map((e) => minorOf(e) as string))];
  const target: Target = { minors: [minors[0]], evidence: known, strength };
  if (where) target.where = where;
  return target;
}

function shared(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

const dirOf = (file: string) => file.slice(0, file.lastIndexOf("/"));

/**
 * The deployment a runner's job goes to, judged on that deployment's own evidence: the project configuration's
 * `flinkVersion` (the user's word); else the clusters with their own version evidence nearest to the module that
 * declares the runner (a job in `orders/` runs on the cluster under `orders/`, not on another example's); else the
 * module's own Flink dependencies; else, with no deployment in the project, the project-wide cluster version.
 * Several clusters equally near: the job matches when its minor is any of theirs.
 */
function deploymentOf(project: ProjectModel, dep: ResolvedDependency): Target | undefined {
  const pinned = project.flinkVersion;
  if (pinned?.evidence.source === "projectConfig") return targetOf([pinned.evidence], "pinned");
  const moduleDir = dirOf(dep.declaration.file);
  const candidates = clustersOf(project)
    .map((cluster) => ({ cluster, evidence: ownEvidence(project, cluster) }))
    .filter((c) => c.evidence.some((e) => minorOf(e) !== undefined && e.source !== "setting"));
  if (candidates.length > 0) {
    const depth = (c: (typeof candidates)[number]) =>
      clusterFiles(c.cluster).reduce(
        (most, f) => Math.max(most, shared(dirOf(f), moduleDir)),
        Number.NEGATIVE_INFINITY,
      );
    const best = candidates.reduce((most, c) => Math.max(most, depth(c)), Number.NEGATIVE_INFINITY);
    const nearest = candidates.filter((c) => depth(c) === best);
    const targets = nearest
      .map((c) =>
        targetOf(
          ordered(c.evidence),
          "pinned",
          candidates.length > 1 ? describeCluster(project, c.cluster) : undefined,
        ),
      )
      .filter((t): t is Target => t !== undefined);
    if (targets.length === 1) return targets[0];
    const minors = [...new Set(targets.flatMap((t) => t.minors))];
    return {
      minors,
      evidence: targets.flatMap((t) => t.evidence),
      strength: minors.length > 1 ? "conflicting" : "pinned",
      where: targets.map((t) => t.where).join(" and "),
    };
  }
  const module = flinkEvidence(project.dependencies.filter((d) => d.module === dep.module && !d.profile)).filter(
    (e) => e.source === "dependency",
  );
  if (module.length > 0) return targetOf(module, "weak");
  const cluster = project.flinkVersion;
  if (!cluster || !SOURCE_LABEL[cluster.evidence.source] || cluster.evidence.source === "runner") return undefined;
  return targetOf([cluster.evidence], "weak");
}

/** What the operator is told first, then the image, then the rest (as a deployment's version is decided). */
function ordered(evidence: FlinkVersionEvidence[]): FlinkVersionEvidence[] {
  const order: FlinkVersionEvidence["source"][] = ["projectConfig", "flinkDeployment", "image", "dependency"];
  return [...evidence].sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source));
}

function describeCluster(project: ProjectModel, cluster: Cluster): string {
  const rel = (file: string) => (file.startsWith(`${project.root}/`) ? file.slice(project.root.length + 1) : file);
  if (cluster.deployment)
    return `of ${cluster.deployment.kind} ${cluster.deployment.object.name ?? "?"} (${rel(cluster.config.file)})`;
  const [w] = cluster.workloads;
  return w ? `of ${rel(w.file)}` : `of ${rel(cluster.config.file)}`;
}
