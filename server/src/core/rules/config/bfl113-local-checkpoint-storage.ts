import type { FlinkWorkload } from "../../model";
import { type Cluster, clustersOf, haOf, knownValue, settingOf } from "../../project/clusters";
import { fitting } from "../messages";
import type { Rule } from "../types";

const STORAGE: { key: string; what: string; readBy: string }[] = [
  { key: "execution.checkpointing.dir", what: "Checkpoints are", readBy: "restoring after a failure" },
  { key: "execution.checkpointing.savepoint-dir", what: "Savepoints are", readBy: "restoring from a savepoint" },
  {
    key: "high-availability.storageDir",
    what: "HA metadata is",
    readBy: "a JobManager failover",
  },
];

/** `file:` URIs, and bare paths unless `fs.default-scheme` points them at another file system. */
function isLocal(value: string, defaultScheme: string | undefined): boolean {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value)?.[1].toLowerCase();
  if (scheme) return scheme === "file";
  const fallback = defaultScheme && /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(defaultScheme)?.[1].toLowerCase();
  return !fallback || fallback === "file";
}

const MANIFEST = `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_19
  flinkConfiguration:
    execution.checkpointing.interval: 1 min
    state.checkpoints.dir: STORAGE
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
`;

export const rule: Rule = {
  meta: {
    code: "BFL113",
    name: "local-checkpoint-storage",
    family: "flink-config",
    severity: "warning",
    description:
      "Checkpoint, savepoint or high-availability storage on a local path in a Kubernetes or container deployment.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports a checkpoint directory, savepoint directory or `high-availability.storageDir` that is a `file://` URI or a bare path, in a configuration that runs on Kubernetes (FlinkDeployment, ConfigMap, or a configuration used by Kubernetes workloads). In a docker-compose setup, where all containers share one host, the finding is `info`.",
      whyItMatters:
        "Every pod writes such a path to its own disk. The checkpoint files a TaskManager writes are not visible to the JobManager or to a replacement pod, and a pod's disk is gone when the pod is rescheduled, so restoring after a failure finds an incomplete checkpoint or none and the job starts without state. Local storage works only when one shared (ReadWriteMany) volume is mounted at that path in every JobManager and TaskManager pod.",
      bad: { "flink-deployment.yaml": MANIFEST.replace("STORAGE", "file:///flink-data/checkpoints") },
      good: { "flink-deployment.yaml": MANIFEST.replace("STORAGE", "s3://flink-state/orders/checkpoints") },
      whenNotToFire:
        "Configurations whose deployment is unknown (a flink-conf.yaml with no Kubernetes or compose files around it: a single-machine cluster may use local disk), a docker-compose cluster whose JobManager and TaskManager services all mount one named volume or host folder at the path or above it (`checkpoints:/tmp/flink-checkpoints` in each), bare paths when `fs.default-scheme` names a distributed file system, values written as templates, and `high-availability.storageDir` while high availability is off. Suppress the finding where a shared ReadWriteMany volume is mounted at the path in every pod.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/checkpoints/#checkpoint-storage",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/ha/kubernetes_ha/",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/filesystems/overview/",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      if (cluster.platform === "unknown") continue;
      const defaultScheme = knownValue(settingOf(cluster, "fs.default-scheme"));
      for (const storage of STORAGE) {
        if (storage.key === "high-availability.storageDir" && haOf(cluster).kind === "none") continue;
        const setting = settingOf(cluster, storage.key);
        const value = knownValue(setting);
        if (!setting || value === undefined || !isLocal(value, defaultScheme)) continue;
        if (cluster.platform === "compose" && sharedVolumeAt(cluster, localPath(value))) continue;
        ctx.report({
          file: setting.config.file,
          range: setting.entry.valueRange,
          ...message(cluster, storage, value),
          severity: cluster.platform === "compose" ? "info" : undefined,
        });
      }
    }
  },
};

/** The folder a local URI or bare path names: `file:///flink/checkpoints` is `/flink/checkpoints`. */
function localPath(value: string): string {
  return (
    value
      .trim()
      .replace(/^file:(\/\/)?/, "")
      .replace(/\/+$/, "") || "/"
  );
}

/**
 * Whether every JobManager and TaskManager service of a compose cluster mounts one and the same volume (a named
 * volume or a host folder) at `path` or above it: then they all read and write the same files there.
 */
function sharedVolumeAt(cluster: Cluster, path: string): boolean {
  const services = cluster.workloads.filter((w) => w.source === "compose" && w.role !== undefined);
  if (!services.some((w) => w.role === "jobmanager") || !services.some((w) => w.role === "taskmanager")) return false;
  const under = (mount: string) => path === mount || path.startsWith(mount.endsWith("/") ? mount : `${mount}/`);
  const volumesOf = (w: FlinkWorkload) =>
    new Set((w.volumes ?? []).filter((v) => under(v.containerPath.replace(/\/+$/, "") || "/")).map((v) => v.volume));
  const [first, ...rest] = services.map(volumesOf);
  return [...first].some((v) => rest.every((r) => r.has(v)));
}

function message(
  cluster: Cluster,
  storage: (typeof STORAGE)[number],
  value: string,
): { message: string; details: string } {
  if (cluster.platform === "compose") {
    return {
      message: fitting(
        `${storage.what} written to ${value} on each container's own disk, so ${storage.readBy} may find nothing.`,
        `${storage.what} written to each container's own disk, so ${storage.readBy} may find nothing.`,
      ),
      details: `${storage.readBy[0].toUpperCase()}${storage.readBy.slice(1)} works only if every JobManager and TaskManager container mounts the same volume at this path. Mount one shared volume there, or use shared storage (s3://, gs://, hdfs://).`,
    };
  }
  return {
    message: fitting(
      `${storage.what} written to ${value} on each pod's own disk, so ${storage.readBy} finds nothing to restore.`,
      `${storage.what} written to each pod's own disk, so ${storage.readBy} finds nothing to restore.`,
    ),
    details:
      "Other pods cannot read a pod's own disk, and it vanishes with the pod. Use shared storage (s3://, gs://, hdfs://, abfss://), or mount one ReadWriteMany volume at this path in every JobManager and TaskManager pod.",
  };
}
