import type { RelatedLocation } from "../../findings";
import type { Located } from "../../model";
import {
  type Amount,
  amountOf,
  beamArg,
  type Cluster,
  clustersOf,
  intSetting,
  knownValue,
  settingOf,
  slotsOf,
  taskManagerReplicas,
} from "../../project/clusters";
import { related } from "../clusterFixes";
import { fitting } from "../messages";
import type { Rule } from "../types";

const COMPOSE = `services:
  jobmanager:
    image: flink:1.19
    command: jobmanager
  taskmanager:
    image: flink:1.19
    command: taskmanager
    deploy:
      replicas: 2
`;

/** Schedulers that fit the job to the slots there are instead of waiting for the ones it asks for. */
function adaptsToSlots(cluster: Cluster): boolean {
  const scheduler = knownValue(settingOf(cluster, "jobmanager.scheduler"))?.toLowerCase();
  const mode = knownValue(settingOf(cluster, "scheduler-mode"))?.toLowerCase();
  return scheduler === "adaptive" || mode === "reactive";
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

interface Capacity {
  taskManagers: number;
  slots: number;
  related: RelatedLocation[];
}

/** Slots of a standalone cluster whose TaskManager count is fixed by its workloads or its FlinkDeployment. */
function capacityOf(cluster: Cluster): Capacity | undefined {
  const slots = slotsOf(cluster);
  if (!slots) return undefined;
  let replicas: Located<number>[];
  const d = cluster.deployment;
  if (d) {
    // Native mode starts TaskManagers on demand; only standalone mode runs exactly taskManager.replicas.
    if (d.mode?.value.trim().toLowerCase() !== "standalone" || !d.taskManagerReplicas) return undefined;
    replicas = [d.taskManagerReplicas];
  } else {
    const tms = taskManagerReplicas(cluster);
    if (!tms) return undefined;
    replicas = tms.sources;
  }
  const taskManagers = replicas.reduce((n, r) => n + r.value, 0);
  const out: RelatedLocation[] = replicas.map((r) => ({
    file: r.file,
    range: r.range,
    message: `${plural(r.value, "TaskManager", "TaskManagers")} here.`,
  }));
  if (slots.setting) out.push(related(slots.setting, `${plural(slots.value, "slot", "slots")} per TaskManager.`));
  return { taskManagers, slots: slots.value, related: out };
}

function parallelismOf(cluster: Cluster): Amount | undefined {
  if (cluster.deployment) return beamArg(cluster, "parallelism");
  const p = intSetting(cluster, "parallelism.default");
  return p ? amountOf(p.setting, p.value) : undefined;
}

export const rule: Rule = {
  meta: {
    code: "BFL110",
    name: "parallelism-exceeds-slots",
    family: "flink-config",
    severity: "error",
    description: "The job's parallelism needs more task slots than the cluster's fixed number of TaskManagers offers.",
    fix: "none",
    docs: {
      whatItDoes:
        "Compares the parallelism (`parallelism.default`, or Beam's `--parallelism=` in a standalone FlinkDeployment's `job.args`) with `taskmanager.numberOfTaskSlots` × the number of TaskManagers, where that number is fixed: the replicas of the TaskManager Deployments, StatefulSets or compose services, or `taskManager.replicas` of a standalone-mode FlinkDeployment.",
      whyItMatters:
        "With default slot sharing a job needs as many slots as its highest operator parallelism. A standalone cluster never starts more TaskManagers than it was given, so the job waits for slots that never come and fails with NoResourceAvailableException once the slot request times out; it restarts and fails again in a loop.",
      bad: {
        "flink-conf.yaml": "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 8\n",
        "docker-compose.yaml": COMPOSE,
      },
      good: {
        "flink-conf.yaml": "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 4\n",
        "docker-compose.yaml": COMPOSE,
      },
      whenNotToFire:
        "When the number of TaskManagers is not fixed: native Kubernetes and YARN start TaskManagers on demand, a Deployment or compose service without `replicas` may be scaled from outside (`kubectl scale`, `docker compose --scale`), and a FlinkDeployment in native mode allocates what the job asks for. A FlinkDeployment with `taskManager.replicas` sets the parallelism itself to replicas × slots (BFL203 reports an ignored `job.parallelism`). The adaptive scheduler and reactive mode fit the job to the slots there are. Parallelism written as a template is not compared.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/concepts/flink-architecture/#task-slots-and-resources",
        "apache/flink-kubernetes-operator FlinkConfigBuilder (parallelism = taskManager.replicas × slots)",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/elastic_scaling/",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      if (adaptsToSlots(cluster)) continue;
      const capacity = capacityOf(cluster);
      if (!capacity || capacity.taskManagers === 0) continue;
      const parallelism = parallelismOf(cluster);
      const total = capacity.taskManagers * capacity.slots;
      if (!parallelism || parallelism.value <= total) continue;
      const shape = `${plural(capacity.taskManagers, "TaskManager", "TaskManagers")} × ${plural(capacity.slots, "slot", "slots")}`;
      ctx.report({
        file: parallelism.file,
        range: parallelism.range,
        message: fitting(
          `${parallelism.label} ${parallelism.value} needs ${parallelism.value} task slots, but the cluster has ${total} (${shape}): the job never starts.`,
          `${parallelism.label} ${parallelism.value} needs ${parallelism.value} task slots, but the cluster has ${total}: the job never starts.`,
          `The parallelism ${parallelism.value} needs more task slots than the cluster's ${total}: the job never starts.`,
        ),
        details: `The job waits for slots that never come and fails with NoResourceAvailableException (${shape}). Lower the parallelism to ${total}, or add TaskManagers or slots.`,
        related: capacity.related,
      });
    }
  },
};
