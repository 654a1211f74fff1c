import { type Amount, amountOf, beamArg, type Cluster, clustersOf, intSetting, slotsOf } from "../../project/clusters";
import { fitting } from "../messages";
import type { Rule } from "../types";

/**
 * The parallelism jobs of the cluster run with. For a FlinkDeployment: Beam's `--parallelism=` wins, then
 * taskManager.replicas × slots (the operator ignores job.parallelism then), then job.parallelism, which the
 * operator writes over parallelism.default.
 */
function parallelismOf(cluster: Cluster): Amount | undefined {
  const d = cluster.deployment;
  const fromArgs = beamArg(cluster, "parallelism");
  if (fromArgs && fromArgs.value > 0) return fromArgs;
  if (d?.taskManagerReplicas) {
    const slots = slotsOf(cluster);
    if (!slots) return undefined;
    const r = d.taskManagerReplicas;
    return { value: r.value * slots.value, label: "taskManager.replicas × slots", file: r.file, range: r.range };
  }
  if (d?.jobParallelism) {
    const p = d.jobParallelism;
    return { value: p.value, label: "job.parallelism", file: p.file, range: p.range };
  }
  const p = intSetting(cluster, "parallelism.default");
  return p ? amountOf(p.setting, p.value) : undefined;
}

/** Beam's `--maxParallelism=` (when > 0) wins over pipeline.max-parallelism. */
function maxParallelismOf(cluster: Cluster): Amount | undefined {
  const fromArgs = beamArg(cluster, "maxParallelism");
  if (fromArgs && fromArgs.value > 0) return fromArgs;
  const m = intSetting(cluster, "pipeline.max-parallelism");
  return m ? amountOf(m.setting, m.value) : undefined;
}

export const rule: Rule = {
  meta: {
    code: "BFL111",
    name: "max-parallelism-below-parallelism",
    family: "flink-config",
    severity: "error",
    description: "A maximum parallelism below the parallelism the job runs with.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports `pipeline.max-parallelism` (or Beam's `--maxParallelism=` in FlinkDeployment `job.args`) that is set (> 0) and smaller than the parallelism: `parallelism.default`, FlinkDeployment `job.parallelism`, `taskManager.replicas` × slots, or Beam's `--parallelism=`.",
      whyItMatters:
        'The maximum parallelism is the number of key groups keyed state is split into; no operator can run more subtasks than that. Flink refuses to build the job ("Vertex …\'s parallelism (8) is higher than the max parallelism (4)") and it never starts. Raising the maximum later is not free either: keyed state taken with one maximum parallelism cannot be restored with another.',
      bad: { "flink-conf.yaml": "parallelism.default: 8\npipeline.max-parallelism: 4\n" },
      good: { "flink-conf.yaml": "parallelism.default: 8\npipeline.max-parallelism: 128\n" },
      whenNotToFire:
        "`pipeline.max-parallelism` unset or -1 (Flink derives it from the parallelism, at least 128), values written as templates, and parallelism set only in job code (`setParallelism`), which the configuration cannot show.",
      references: [
        'Flink ExecutionJobVertex: "parallelism (…) is higher than the max parallelism (…)"',
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/execution/parallel/#setting-the-maximum-parallelism",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/production_ready/#set-an-explicit-max-parallelism",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      const max = maxParallelismOf(cluster);
      if (!max || max.value <= 0) continue;
      const parallelism = parallelismOf(cluster);
      if (!parallelism || parallelism.value <= max.value) continue;
      ctx.report({
        file: max.file,
        range: max.range,
        message: fitting(
          `${max.label} ${max.value} is below the parallelism ${parallelism.value} (${parallelism.label}): Flink refuses to start the job.`,
          `${max.label} ${max.value} is below the parallelism ${parallelism.value}: Flink refuses to start the job.`,
          `The max parallelism ${max.value} is below the parallelism ${parallelism.value}: Flink refuses to start the job.`,
        ),
        details: `No operator can run more subtasks than its max parallelism. Raise ${max.label} to at least ${parallelism.value} (before state exists: keyed state does not restore under a different max parallelism), or lower the parallelism.`,
        related: [
          {
            file: parallelism.file,
            range: parallelism.range,
            message: `The parallelism is ${parallelism.value} here.`,
          },
        ],
      });
    }
  },
};
