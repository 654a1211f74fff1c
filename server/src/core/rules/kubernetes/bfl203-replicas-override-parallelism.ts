import type { RelatedLocation } from "../../findings";
import { clustersOf, slotsOf } from "../../project/clusters";
import { related } from "../clusterFixes";
import type { Rule } from "../types";

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
        "Reports `job.parallelism` in a FlinkDeployment that also sets `taskManager.replicas`, and shows both numbers: the ignored parallelism and replicas × `taskmanager.numberOfTaskSlots`, the parallelism the job gets.",
      whyItMatters:
        'When `taskManager.replicas` is set, the operator sets the parallelism to replicas × slots and ignores `job.parallelism` (it only logs "Job parallelism setting is ignored as TaskManager replicas are set"). The job runs with a different parallelism than the manifest says, and raising `job.parallelism` to absorb more load changes nothing. When both numbers agree the finding is `info`: nothing is wrong yet, but the next change to `job.parallelism` will have no effect.',
      bad: { "flink-deployment.yaml": MANIFEST("    replicas: 3\n") },
      good: { "flink-deployment.yaml": MANIFEST("") },
      whenNotToFire: "Only one of the two set; FlinkSessionJobs (their session cluster's TaskManagers are not theirs).",
      references: [
        "apache/flink-kubernetes-operator FlinkConfigBuilder.getParallelism",
        "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/custom-resource/reference/#taskmanagerspec",
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
      const rel: RelatedLocation[] = [
        {
          file: replicas.file,
          range: replicas.range,
          message: `taskManager.replicas ${replicas.value} decides the parallelism.`,
        },
      ];
      if (slots?.setting) rel.push(related(slots.setting, `${slots.value} slots per TaskManager.`));
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
