import type { FlinkWorkload, PodVolume } from "../../model";
import { type Cluster, clustersOf, haOf, knownValue, settingOf } from "../../project/clusters";
import type { ProjectModel } from "../../workspace/project";
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
        "Reports a checkpoint directory, savepoint directory or `high-availability.storageDir` that is a `file://` URI or a bare path, in a configuration that runs on Kubernetes (FlinkDeployment, ConfigMap, a configuration used by Kubernetes workloads, or the `-D` properties of a submit command that starts a native Kubernetes cluster in application mode: `flink run-application -t kubernetes-application`). Such a command with its own pod templates (`-Dkubernetes.pod-template-file…`, not read) gets `info`. In a docker-compose setup, where all containers share one host, the finding is `info`. A FlinkDeployment whose pod templates mount a volume at the path in its JobManager and TaskManager pods is judged by that volume: a `hostPath` (a folder of each node: fine on a single-node cluster) or a claim whose access mode is not in the project is `info`, a ReadWriteOnce claim or an `emptyDir` a warning; so is a volume that names no source, which Kubernetes makes an `emptyDir` (outside Helm templates, where the source may come from the values).",
      whyItMatters:
        "Every pod writes such a path to its own disk. The checkpoint files a TaskManager writes are not visible to the JobManager or to a replacement pod, and a pod's disk is gone when the pod is rescheduled, so restoring after a failure finds an incomplete checkpoint or none and the job starts without state. Local storage works only when one shared (ReadWriteMany) volume is mounted at that path in every JobManager and TaskManager pod.",
      bad: { "flink-deployment.yaml": MANIFEST.replace("STORAGE", "file:///flink-data/checkpoints") },
      good: { "flink-deployment.yaml": MANIFEST.replace("STORAGE", "s3://flink-state/orders/checkpoints") },
      whenNotToFire:
        "Configurations whose deployment is unknown (a flink-conf.yaml with no Kubernetes or compose files around it: a single-machine cluster may use local disk), a docker-compose cluster whose JobManager and TaskManager services all mount one named volume or host folder at the path or above it (`checkpoints:/tmp/flink-checkpoints` in each), a FlinkDeployment whose JobManager and TaskManager pods mount a network file system (`nfs`, `cephfs`, `glusterfs`, `azureFile`) or a ReadWriteMany PersistentVolumeClaim of the project at the path or above it, bare paths when `fs.default-scheme` names a distributed file system, values written as templates, and `high-availability.storageDir` while high availability is off. Suppress the finding where a shared ReadWriteMany volume is mounted at the path in every pod.",
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
        const mounted = podVolumeAt(cluster, localPath(value));
        if (mounted) {
          const judged = onPodVolume(ctx.project, mounted, storage, value);
          if (judged) ctx.report({ file: setting.config.file, range: setting.entry.valueRange, ...judged });
          continue;
        }
        // A native Kubernetes cluster started with pod templates of its own: they may mount a shared volume there.
        const template = podTemplateFile(cluster);
        const said = message(cluster, storage, value);
        ctx.report({
          file: setting.config.file,
          range: setting.entry.valueRange,
          ...said,
          ...(template
            ? {
                details: `${said.details} The pods are built from ${template}, which the analysis does not read: if it mounts such a volume at this path, this is fine.`,
              }
            : {}),
          severity: cluster.platform === "compose" || template ? "info" : undefined,
        });
      }
    }
  },
};

/** The pod template file a cluster a submit command starts builds its pods from (`-Dkubernetes.pod-template-file…`). */
function podTemplateFile(cluster: Cluster): string | undefined {
  if (cluster.config.host !== "submission") return undefined;
  return cluster.config.entries.find((e) => e.key.startsWith("kubernetes.pod-template-file"))?.value;
}

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

/**
 * The volume a FlinkDeployment's pod templates mount at `path` or above it in the Flink container of both its
 * JobManager and its TaskManager pods (the deepest such mount), or undefined.
 */
function podVolumeAt(cluster: Cluster, path: string): PodVolume | undefined {
  const volumes = cluster.deployment?.volumes ?? [];
  const under = (v: PodVolume) => {
    const mount = v.containerPath.replace(/\/+$/, "") || "/";
    return path === mount || path.startsWith(mount === "/" ? "/" : `${mount}/`);
  };
  const deepest = (role: "jobmanager" | "taskmanager") =>
    volumes
      .filter((v) => (v.pods === "both" || v.pods === role) && under(v))
      .sort((a, b) => b.containerPath.length - a.containerPath.length)[0];
  const jm = deepest("jobmanager");
  const tm = deepest("taskmanager");
  return jm && tm && jm.volume === tm.volume && jm.source === tm.source ? jm : undefined;
}

/**
 * Storage on a volume every JobManager and TaskManager pod mounts: shared when it is a network file system or a
 * ReadWriteMany claim (no finding); a folder of each node (`hostPath`) or a claim whose access mode is not in the
 * project, information; a claim only one node can mount or the pod's scratch space, a warning.
 */
function onPodVolume(
  project: ProjectModel,
  volume: PodVolume,
  storage: (typeof STORAGE)[number],
  value: string,
): { message: string; details: string; severity?: "info" } | undefined {
  const readBy = storage.readBy;
  switch (volume.source) {
    case "network":
      return undefined;
    case "persistentVolumeClaim": {
      const claim = project.k8sObjects.find((o) => o.kind === "PersistentVolumeClaim" && o.name === volume.claimName);
      const modes = claim?.accessModes;
      if (modes?.includes("ReadWriteMany")) return undefined;
      const name = volume.claimName ?? volume.volume;
      if (modes && modes.length > 0)
        return {
          message: fitting(
            `${storage.what} written to claim ${name} (${modes.join(", ")}), which pods on other nodes cannot mount, so ${readBy} may fail.`,
            `${storage.what} written to a claim that pods on other nodes cannot mount, so ${readBy} may fail.`,
          ),
          details: `Every JobManager and TaskManager pod mounts ${name}, but ${modes.join(" and ")} lets only pods of one node use it: pods scheduled elsewhere cannot start, or write files the others do not see. Use a ReadWriteMany claim or shared storage (s3://, gs://, hdfs://).`,
        };
      return {
        message: fitting(
          `${storage.what} written to claim ${name}: ${readBy} works only if it is ReadWriteMany.`,
          `${storage.what} written to a claim: ${readBy} works only if it is ReadWriteMany.`,
        ),
        details: `The claim's access mode is not in this project. Every JobManager and TaskManager pod must be able to mount it at once (ReadWriteMany), or use shared storage (s3://, gs://, hdfs://).`,
        severity: "info",
      };
    }
    case "hostPath": {
      const folder = volume.hostPath ? ` ${volume.hostPath}` : "";
      return {
        message: fitting(
          `${storage.what} written to the host folder${folder} of each pod's node, so ${readBy} may find nothing on another node.`,
          `${storage.what} written to a folder of each pod's node, so ${readBy} may find nothing on another node.`,
        ),
        details:
          "A hostPath volume is a folder of the node the pod runs on: it works on a single-node cluster (minikube, kind), but on several nodes each pod sees its own node's files. Use a ReadWriteMany claim or shared storage (s3://, gs://, hdfs://).",
        severity: "info",
      };
    }
    case "emptyDir":
      return {
        message: fitting(
          `${storage.what} written to ${value} on an emptyDir volume, deleted with its pod, so ${readBy} finds nothing to restore.`,
          `${storage.what} written to an emptyDir volume, deleted with its pod, so ${readBy} finds nothing.`,
        ),
        details:
          "An emptyDir volume belongs to one pod and is deleted with it; other pods never see it. Use shared storage (s3://, gs://, hdfs://, abfss://), or a ReadWriteMany claim mounted in every pod.",
      };
    default:
      return {
        message: fitting(
          `${storage.what} written to volume ${volume.volume}: ${readBy} works only if every pod shares it.`,
          `${storage.what} written to a volume: ${readBy} works only if every pod shares it.`,
        ),
        details:
          "Every JobManager and TaskManager pod mounts this volume at the path; whether they see the same files depends on what backs it. Shared storage (s3://, gs://, hdfs://) avoids the question.",
        severity: "info",
      };
  }
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
