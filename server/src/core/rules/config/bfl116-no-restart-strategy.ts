import { clustersOf, isTrue, knownValue, runsBatch, settingOf } from "../../project/clusters";
import type { Rule } from "../types";

/** The names Flink accepts for the strategy that never restarts (RestartStrategyOptions). */
const NO_RESTART = new Set(["none", "off", "disable"]);

export const rule: Rule = {
  meta: {
    code: "BFL116",
    name: "no-restart-strategy",
    family: "flink-config",
    severity: "info",
    description: "A streaming configuration that turns restarts off: the first failure ends the job.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports `restart-strategy.type` (older `restart-strategy`) set to `none`, `off` or `disable` in a configuration for streaming jobs.",
      whyItMatters:
        "Streaming jobs fail now and then for reasons that go away on their own: a TaskManager pod is evicted, a Kafka broker restarts, a request times out. With no restart strategy the first such failure moves the job to FAILED for good; nothing consumes until someone resubmits it, and without a retained checkpoint it starts over from the sources' start position.",
      bad: { "flink-conf.yaml": "execution.checkpointing.interval: 1 min\nrestart-strategy.type: none\n" },
      good: {
        "flink-conf.yaml": "execution.checkpointing.interval: 1 min\nrestart-strategy.type: exponential-delay\n",
      },
      whenNotToFire:
        "Batch configurations (`execution.runtime-mode: BATCH`), values written as templates, and FlinkDeployments with `kubernetes.operator.job.restart.failed: true`, where the operator resubmits a failed job.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/",
        "FLINK-33735 (exponential-delay is the default restart strategy from Flink 1.19)",
        "Flink Kubernetes Operator option kubernetes.operator.job.restart.failed",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      if (runsBatch(cluster)) continue;
      if (cluster.deployment && isTrue(cluster, "kubernetes.operator.job.restart.failed")) continue;
      const setting = settingOf(cluster, "restart-strategy.type");
      const value = knownValue(setting);
      if (!setting || value === undefined || !NO_RESTART.has(value.toLowerCase())) continue;
      ctx.report({
        file: setting.config.file,
        range: setting.entry.valueRange,
        message: `${setting.entry.key} ${value} turns restarts off: the first task failure fails the job for good.`,
        details:
          "A lost TaskManager or a broker timeout fails the job, and it stays down until someone resubmits it. Use exponential-delay or fixed-delay (without this setting Flink restarts only jobs that checkpoint).",
      });
    }
  },
};
