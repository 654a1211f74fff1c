import { clustersOf, intSetting, isTrue, knownValue, type Setting, settingOf } from "../../project/clusters";
import { related } from "../clusterFixes";
import type { Rule } from "../types";

const UNALIGNED = "execution.checkpointing.unaligned.enabled";

export const rule: Rule = {
  meta: {
    code: "BFL115",
    name: "unaligned-checkpoint-conflict",
    family: "flink-config",
    severity: "warning",
    description: "Unaligned checkpoints combined with settings they do not work with.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports `execution.checkpointing.unaligned.enabled: true` (older `execution.checkpointing.unaligned`) together with `execution.checkpointing.mode: AT_LEAST_ONCE` or `execution.checkpointing.max-concurrent-checkpoints` above 1.",
      whyItMatters:
        "Unaligned checkpoints exist only for exactly-once mode with one checkpoint at a time. With AT_LEAST_ONCE Flink logs a warning and quietly switches them off, so checkpoints under backpressure stay as slow as before and keep timing out; with several concurrent checkpoints the combination is documented as unsupported.",
      bad: {
        "flink-conf.yaml":
          "execution.checkpointing.interval: 1 min\nexecution.checkpointing.mode: AT_LEAST_ONCE\nexecution.checkpointing.unaligned.enabled: true\n",
      },
      good: {
        "flink-conf.yaml":
          "execution.checkpointing.interval: 1 min\nexecution.checkpointing.mode: EXACTLY_ONCE\nexecution.checkpointing.unaligned.enabled: true\n",
      },
      whenNotToFire: "Unaligned checkpoints off, or either value written as a template.",
      references: [
        'Flink StreamingJobGraphGenerator: "Unaligned checkpoints can only be used with checkpointing mode EXACTLY_ONCE"',
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/checkpointing_under_backpressure/",
        "Flink option docs of execution.checkpointing.unaligned.enabled",
      ],
    },
  },
  check(ctx) {
    for (const cluster of clustersOf(ctx.project)) {
      const unaligned = settingOf(cluster, UNALIGNED);
      if (!unaligned || !isTrue(cluster, UNALIGNED)) continue;
      const report = (message: string, details: string, other: Setting) =>
        ctx.report({
          file: unaligned.config.file,
          range: unaligned.entry.valueRange,
          message,
          details,
          related: [related(other, "The conflicting setting.")],
        });
      const mode = settingOf(cluster, "execution.checkpointing.mode");
      if (mode && knownValue(mode)?.toUpperCase() === "AT_LEAST_ONCE") {
        report(
          "Unaligned checkpoints work only in EXACTLY_ONCE mode: in AT_LEAST_ONCE mode Flink switches them off.",
          "With execution.checkpointing.mode AT_LEAST_ONCE Flink switches them off with a log warning, and checkpoints under backpressure stay slow. Use EXACTLY_ONCE, or drop the unaligned setting.",
          mode,
        );
      }
      const concurrent = intSetting(cluster, "execution.checkpointing.max-concurrent-checkpoints");
      if (concurrent && concurrent.value > 1) {
        report(
          `Unaligned checkpoints are supported only with one checkpoint at a time, but ${concurrent.value} may run at once.`,
          `execution.checkpointing.max-concurrent-checkpoints is ${concurrent.value}. Set it to 1, or drop the unaligned setting.`,
          concurrent.setting,
        );
      }
    }
  },
};
