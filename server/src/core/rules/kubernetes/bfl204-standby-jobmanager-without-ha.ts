import { clustersOf, haOf, mayBeCompleted } from "../../project/clusters";
import type { Rule } from "../types";

const MANIFEST = (ha: string) => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_19
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
${ha}  jobManager:
    replicas: 2
    resource:
      memory: 2048m
      cpu: 1
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
`;

export const rule: Rule = {
  meta: {
    code: "BFL204",
    name: "standby-jobmanager-without-ha",
    family: "kubernetes",
    severity: "error",
    description: "More than one JobManager without high availability.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports `jobManager.replicas` > 1 in a FlinkDeployment (or Confluent FlinkApplication), and JobManager Deployments, StatefulSets or compose services with more than one replica, when the cluster's configuration leaves high availability off.",
      whyItMatters:
        'Standby JobManagers rely on leader election, which only high-availability services provide. The operator refuses such a FlinkDeployment ("High availability should be enabled when starting standby JobManagers."). In a standalone cluster every replica acts as the leader on its own: TaskManagers register with whichever one the Service routes them to, and an application-mode job is started by each of them.',
      bad: { "flink-deployment.yaml": MANIFEST("") },
      good: {
        "flink-deployment.yaml": MANIFEST(
          "    high-availability.type: kubernetes\n    high-availability.storageDir: s3://flink-state/orders/ha\n",
        ),
      },
      whenNotToFire:
        "One replica; high availability set in the configuration, in the operator's default configuration from the project's Helm values, or as a template, and configurations partly filled in by a Helm template. HA set in a Confluent FlinkApplication's Flink environment counts. A FlinkApplication whose Flink environment the project does not show (no FlinkEnvironment, several and none named, or the named one missing) is not reported: the environment may set what is missing. `kubernetes.jobmanager.replicas` in a standalone configuration is BFL114's.",
      references: [
        "apache/flink-kubernetes-operator DefaultValidator.validateJmReplicas",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/ha/overview/",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      if (mayBeCompleted(cluster)) continue;
      const d = cluster.deployment;
      // The operator checks with its own Flink classes, which read every spelling of the HA key.
      if (haOf(cluster, d !== undefined).kind !== "none") continue;
      const replicas = d?.jobManagerReplicas;
      if (replicas && replicas.value > 1) {
        ctx.report({
          file: replicas.file,
          range: replicas.range,
          message: `jobManager.replicas ${replicas.value} asks for standby JobManagers, but high availability is off: the operator rejects it.`,
          details:
            'The operator says "High availability should be enabled when starting standby JobManagers.". Enable high availability (high-availability.type: kubernetes and high-availability.storageDir) or set replicas to 1.',
        });
      }
      for (const w of cluster.workloads) {
        if (w.role !== "jobmanager" || !w.replicas || w.replicas.value <= 1) continue;
        ctx.report({
          file: w.replicas.file,
          range: w.replicas.range,
          message: `${w.replicas.value} JobManager replicas run without high availability: each one acts as the leader.`,
          details:
            "With no leader election TaskManagers register with whichever JobManager the Service routes them to, and an application-mode job runs once per replica. Enable high availability in the cluster's configuration or set replicas to 1.",
        });
      }
    }
  },
};
