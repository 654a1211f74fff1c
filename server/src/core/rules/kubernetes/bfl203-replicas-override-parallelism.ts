import type { RelatedLocation } from "../../findings";
import type { Located } from "../../model";
import { beamArg, type Cluster, clustersOf, slotsOf } from "../../project/clusters";
import { productionCode } from "../../project/jobCode";
import { type CodeParallelism, codeParallelism } from "../../project/parallelism";
import type { ProjectModel } from "../../workspace/project";
import { place } from "../beam/pipelines";
import { related } from "../clusterFixes";
import { fitting } from "../messages";
import type { Report, Rule } from "../types";

const MANIFEST = (taskManager: string) => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_19
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
  taskManager:
${taskManager}    resource:
      memory: 2048m
      cpu: 1
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
    parallelism: 8
`;

export const rule: Rule = {
  meta: {
    code: "BFL203",
    name: "replicas-override-parallelism",
    family: "kubernetes",
    severity: "warning",
    description:
      "A FlinkDeployment sets both taskManager.replicas and job.parallelism; the operator ignores job.parallelism.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports `job.parallelism` in a FlinkDeployment (or Confluent FlinkApplication) that also sets `taskManager.replicas`, and shows both numbers: the ignored parallelism and replicas × `taskmanager.numberOfTaskSlots`, the `parallelism.default` the operator writes instead. When the job sets its own default parallelism, the finding says that this setting, not replicas × slots, is what the job runs with: the environment's `setParallelism(n)` in the project's job code (Java, Scala, Kotlin `env.parallelism = n`, PyFlink `set_parallelism(n)`), Beam's `parallelism` option set in the code, or a Beam `--parallelism=n` in the FlinkDeployment's own `job.args`; the places are related information.",
      whyItMatters:
        'When `taskManager.replicas` is set, the operator sets the parallelism to replicas × slots and ignores `job.parallelism` (it only logs "Job parallelism setting is ignored as TaskManager replicas are set"). The job runs with a different parallelism than the manifest says, and raising `job.parallelism` to absorb more load changes nothing. When both numbers agree the finding is `info`: nothing is wrong yet, but the next change to `job.parallelism` will have no effect.',
      bad: { "flink-deployment.yaml": MANIFEST("    replicas: 3\n") },
      good: { "flink-deployment.yaml": MANIFEST("") },
      whenNotToFire:
        "Only one of the two set; FlinkSessionJobs (their session cluster's TaskManagers are not theirs). When the job sets its own default parallelism the finding stays, since `job.parallelism` is still ignored and says a number the job does not run with; it is `info` when the job's own setting equals `job.parallelism`. The job code counts only when it is in the project (a jar built elsewhere says nothing), when the call is not in a branch, a loop or a lambda, and when every job of the project (each file that creates a stream environment or a Beam pipeline) sets it, itself or through a helper it names; test code does not count. Otherwise the message says replicas × slots, as for a job whose code is not known.",
      references: [
        "apache/flink-kubernetes-operator FlinkConfigBuilder.getParallelism",
        "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/custom-resource/reference/#taskmanagerspec",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/execution/parallel/ (operator, environment, client and system levels)",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      const d = cluster.deployment;
      const replicas = d?.taskManagerReplicas;
      const parallelism = d?.jobParallelism;
      if (!replicas || !parallelism || parallelism.value <= 0) continue;
      const slots = slotsOf(cluster);
      const ownParallelism = jobOwnParallelism(ctx.project, cluster);
      const rel: RelatedLocation[] = [
        {
          file: replicas.file,
          range: replicas.range,
          message: ownParallelism
            ? `taskManager.replicas ${replicas.value} decides the parallelism.default the operator writes.`
            : `taskManager.replicas ${replicas.value} decides the parallelism.`,
        },
      ];
      if (slots?.setting) rel.push(related(slots.setting, `${slots.value} slots per TaskManager.`));
      if (ownParallelism) {
        ctx.report(codeDecides(parallelism, replicas.value, slots?.value, ownParallelism, rel));
        continue;
      }
      const head = `The operator ignores job.parallelism ${parallelism.value} because taskManager.replicas is set`;
      let message: string;
      let details: string;
      let severity: "info" | undefined;
      if (!slots) {
        message = `${head}: the job runs with replicas × slots.`;
        details = `The job runs with taskManager.replicas ${replicas.value} × taskmanager.numberOfTaskSlots. Remove job.parallelism, or remove taskManager.replicas to size the cluster from job.parallelism.`;
      } else {
        const effective = replicas.value * slots.value;
        const shape = `${replicas.value} replicas × ${slots.value} slots`;
        if (effective === parallelism.value) {
          severity = "info";
          message = `${head}; changing it alone has no effect.`;
          details = `Both give ${effective} today (${shape}). Remove one of the two.`;
        } else {
          message = `${head}: the job runs with parallelism ${effective}.`;
          details = `${shape} = ${effective}, not ${parallelism.value}. Remove job.parallelism, or remove taskManager.replicas to size the cluster from job.parallelism.`;
        }
      }
      ctx.report({ file: parallelism.file, range: parallelism.range, message, details, severity, related: rel });
    }
  },
};

interface OwnParallelism {
  /** Where the job sets it: calls in its code, or the FlinkDeployment's own `--parallelism=` job argument. */
  settings: CodeParallelism[];
  /** How the message names who sets it: "the job code's" or "the job argument". */
  by: string;
}

/**
 * The parallelism the job sets itself, which wins over the `parallelism.default` the operator writes: Beam's
 * `--parallelism=` in the deployment's own `job.args` (when the project's job code is a Beam pipeline), else the
 * project's job code, when every job of it sets its environment's (or Beam's) parallelism. The project's code is
 * the deployment's code only when it is in the project at all: a jar built elsewhere says nothing here.
 */
function jobOwnParallelism(project: ProjectModel, cluster: Cluster): OwnParallelism | undefined {
  const code = productionCode(project);
  if (code.length === 0) return undefined;
  const flag = code.some((c) => c.beamOptions.pipelines.length > 0) ? beamArg(cluster, "parallelism") : undefined;
  if (flag && flag.value > 0) {
    const setting = { file: flag.file, range: flag.range, value: flag.value, label: `--parallelism=${flag.value}` };
    return { settings: [setting], by: "the job argument" };
  }
  const own = codeParallelism(project);
  return own.everyJob ? { settings: own.settings, by: "the job code's" } : undefined;
}

function codeDecides(
  parallelism: Located<number>,
  replicas: number,
  slots: number | undefined,
  own: OwnParallelism,
  rel: RelatedLocation[],
): Report {
  const labels = [...new Set(own.settings.map((s) => s.label))];
  const values = new Set(own.settings.map((s) => s.value));
  const what = labels.length === 1 ? `${own.by} ${labels[0]}` : `${own.by} own parallelism settings`;
  const verb = labels.length === 1 ? "decides" : "decide";
  const ignored = `The operator ignores job.parallelism ${parallelism.value}`;
  const written =
    slots === undefined
      ? `taskManager.replicas ${replicas} × taskmanager.numberOfTaskSlots`
      : `${replicas} replicas × ${slots} slots = ${replicas * slots}`;
  const where = own.settings.map((s) => place(s));
  return {
    file: parallelism.file,
    range: parallelism.range,
    message: fitting(
      `${ignored}, and ${what} ${verb} the default parallelism.`,
      `${ignored}; ${what} ${verb} the parallelism.`,
      `${ignored}; the job sets its own parallelism, which decides the default parallelism.`,
    ),
    details: `Because taskManager.replicas is set, the operator writes parallelism.default = ${written} and never reads job.parallelism; the job's own setting (${where.join(", ")}) overrides parallelism.default for every operator that does not set its own. Remove job.parallelism: changing it has no effect.`,
    // The ignored number is misleading unless it is what the job sets anyway.
    severity: values.size === 1 && values.has(parallelism.value) ? "info" : undefined,
    related: [
      ...own.settings.map((s) => ({
        file: s.file,
        range: s.range,
        message: `${s.label} sets the job's default parallelism.`,
      })),
      ...rel,
    ],
  };
}
