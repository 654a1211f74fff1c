import { type Cluster, clustersOf, haOf, intSetting, isSet, mayBeCompleted } from "../../project/clusters";
import { haTypeKey, insertFix, PLACEHOLDER } from "../clusterFixes";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";

const STORAGE_DIR = "high-availability.storageDir";

/** Standalone Kubernetes: Flink's own manifests (a ConfigMap and Deployments), not the operator or native mode. */
function standaloneOnKubernetes(cluster: Cluster): boolean {
  return !cluster.deployment && cluster.platform === "kubernetes";
}

export const rule: Rule = {
  meta: {
    code: "BFL114",
    name: "ha-incomplete",
    family: "flink-config",
    severity: "error",
    description: "High availability switched on without a setting it needs, or standby JobManagers without it.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports `high-availability.type` (or the older `high-availability`) set to ZooKeeper, Kubernetes or a factory class without `high-availability.storageDir`; ZooKeeper HA without `high-availability.zookeeper.quorum`; Kubernetes HA in a standalone Kubernetes setup without `kubernetes.cluster-id`; and `kubernetes.jobmanager.replicas` > 1 without high availability.",
      whyItMatters:
        'The JobManager refuses to start without the storage directory ("Configuration is missing the mandatory parameter: high-availability.storageDir") or the ZooKeeper quorum, and Kubernetes HA in standalone mode needs `kubernetes.cluster-id` to name its leader-election ConfigMaps. Standby JobManagers without high availability have no leader election: each one acts as the leader on its own.',
      bad: {
        "flink-conf.yaml": "high-availability.type: zookeeper\nhigh-availability.zookeeper.quorum: zk-0.zk:2181\n",
      },
      good: {
        "flink-conf.yaml":
          "high-availability.type: zookeeper\nhigh-availability.zookeeper.quorum: zk-0.zk:2181\nhigh-availability.storageDir: s3://flink-state/ha\n",
      },
      whenNotToFire:
        "High availability off (`NONE`) or written as a template, and configurations partly filled in by a Helm template. `kubernetes.cluster-id` is not required of FlinkDeployments (the operator sets it) nor of configurations whose deployment is unknown (native Kubernetes takes it from the command line). `kubernetes.jobmanager.replicas` in a FlinkDeployment is replaced by `jobManager.replicas` (BFL204). The fixes insert placeholders that must be replaced before deploying.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/ha/overview/",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/ha/kubernetes_ha/",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/resource-providers/standalone/kubernetes/#high-availability-with-standalone-kubernetes",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      if (mayBeCompleted(cluster)) continue;
      checkHaSettings(ctx, cluster);
      checkStandbyReplicas(ctx, cluster);
    }
  },
};

function checkHaSettings(ctx: RuleContext, cluster: Cluster): void {
  const ha = haOf(cluster);
  if (ha.kind === "none" || ha.kind === "unknown" || !ha.setting) return;
  const { entry, config } = ha.setting;
  const missing = (key: string, value: string, what: string, why: string) => {
    const fix = insertFix(cluster.config, `Add ${key} (placeholder)`, [[key, value]]);
    ctx.report({
      file: config.file,
      range: entry.valueRange,
      message: fitting(
        `High availability is on (${entry.value}) but ${key} is not set: ${what}.`,
        `High availability is on but ${key} is not set: ${what}.`,
      ),
      details: why,
      fixes: fix ? [fix] : [],
    });
  };
  if (!isSet(cluster, STORAGE_DIR)) {
    missing(
      STORAGE_DIR,
      PLACEHOLDER.haStorage,
      "the JobManager does not start",
      `The JobManager stops with "Configuration is missing the mandatory parameter". Set it to durable shared storage (s3://, gs://, hdfs://) where JobManagers keep job graphs and checkpoint metadata.`,
    );
  }
  if (ha.kind === "zookeeper" && !isSet(cluster, "high-availability.zookeeper.quorum")) {
    missing(
      "high-availability.zookeeper.quorum",
      PLACEHOLDER.zookeeperQuorum,
      "the JobManager does not start",
      "The JobManager has no ZooKeeper to elect a leader with. List the ZooKeeper servers (host:port, comma-separated).",
    );
  }
  if (ha.kind === "kubernetes" && standaloneOnKubernetes(cluster) && !isSet(cluster, "kubernetes.cluster-id")) {
    missing(
      "kubernetes.cluster-id",
      PLACEHOLDER.clusterId,
      "standalone JobManagers do not start",
      "Kubernetes HA names its leader-election ConfigMaps after it, and standalone JobManagers fail to start without it. Set it to a name unique to this cluster in the namespace.",
    );
  }
}

function checkStandbyReplicas(ctx: RuleContext, cluster: Cluster): void {
  if (cluster.deployment) return;
  const replicas = intSetting(cluster, "kubernetes.jobmanager.replicas");
  if (!replicas || replicas.value <= 1 || haOf(cluster).kind !== "none") return;
  const { entry, config } = replicas.setting;
  const entries: [string, string][] = [[haTypeKey(cluster), "kubernetes"]];
  if (!isSet(cluster, STORAGE_DIR)) entries.push([STORAGE_DIR, PLACEHOLDER.haStorage]);
  const fix = insertFix(cluster.config, "Enable Kubernetes high availability (placeholder storage)", entries);
  ctx.report({
    file: config.file,
    range: entry.valueRange,
    message: `${entry.key} ${replicas.value} starts standby JobManagers, but high availability is off: each one acts as the leader.`,
    details: `Without leader election the JobManagers do not coordinate. Enable Kubernetes high availability (${haTypeKey(cluster)}: kubernetes with ${STORAGE_DIR}) or set ${entry.key} to 1.`,
    fixes: fix ? [fix] : [],
  });
}
