import { type OptionInfo, typesIn } from "../../knowledge/options";
import { parseDuration } from "../../knowledge/values";
import { flinkMinorFor } from "../../project/clusters";
import { optionReadAs } from "../../project/configEntries";
import { contextFor, replaceValueEdit, singleFileFix } from "../configEdits";
import { fitting } from "../messages";
import type { Rule } from "../types";

/** A bare number is only worth a word where every version in question reads the option as a Duration. */
function isDurationIn(option: OptionInfo, minor: string | undefined): boolean {
  const types = typesIn(option, minor);
  return types.length > 0 && types.every((t) => t.type === "Duration");
}

/** From one second up, a bare number is plausibly meant as milliseconds (`execution.checkpointing.interval: 60000`). */
const PLAUSIBLE_MILLIS = 1000;

export const rule: Rule = {
  meta: {
    code: "BFL106",
    name: "duration-without-unit",
    family: "flink-config",
    severity: "warning",
    description: "A duration written as a bare number, which Flink reads as milliseconds.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports Duration options whose value is a number without a unit, and offers to write the unit out: `180 ms` keeps today's meaning, `180 s` is what was probably meant when the number is small.",
      whyItMatters:
        "Flink reads a bare number as milliseconds. `restart-strategy.fixed-delay.delay: 180` waits 180 ms, not three minutes, so a failing job restarts in a tight loop and hammers Kafka and the state storage; `execution.checkpointing.timeout: 600` aborts every checkpoint after 0.6 s.",
      bad: { "flink-conf.yaml": "restart-strategy.type: fixed-delay\nrestart-strategy.fixed-delay.delay: 180\n" },
      good: { "flink-conf.yaml": "restart-strategy.type: fixed-delay\nrestart-strategy.fixed-delay.delay: 180 s\n" },
      whenNotToFire:
        "`0` (the same in every unit); templated values; options that are plain numbers in the detected version (`heartbeat.interval` is a Long of milliseconds up to Flink 1.19) or, with no detected version, in any version. Values of 1000 and more are plausibly meant as milliseconds and are reported as info only. Both fixes are unsafe, so fix-all and `--fix` apply neither: `ms` keeps what Flink does but removes the only sign that seconds were probably meant, and `s` changes the value; which one is right is the author's intent.",
      references: [
        "Flink TimeUtils.parseDuration (a number without a unit is milliseconds)",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/",
      ],
    },
  },
  check(ctx) {
    for (const config of ctx.project.flinkConfigs) {
      const cctx = contextFor(ctx, config);
      const minor = flinkMinorFor(ctx.project, config);
      for (const entry of config.entries) {
        if (entry.templated || entry.valueKind !== "scalar") continue;
        const option = optionReadAs(entry.key, minor);
        if (!option || !isDurationIn(option, minor)) continue;
        const parsed = parseDuration(entry.value);
        if (!parsed || parsed.hasUnit || parsed.millis === 0) continue;
        const n = parsed.number;
        const edit = (unit: string) => [replaceValueEdit(ctx.project, config.file, entry, `${n} ${unit}`)];
        cctx.report({
          file: config.file,
          range: entry.valueRange,
          severity: parsed.millis >= PLAUSIBLE_MILLIS ? "info" : undefined,
          message: fitting(
            `Flink reads \`${entry.value}\` as ${n} milliseconds for \`${entry.key}\`.`,
            `Flink reads \`${entry.value}\` as ${n} milliseconds for this option.`,
            "Flink reads this number as milliseconds for this option.",
          ),
          details: `Write the unit: \`${n} ms\` keeps this meaning; write \`${n} s\` if seconds were meant.`,
          // Both are unsafe: `ms` keeps what Flink does but erases the sign that seconds were probably meant, and
          // `s` changes it. Choosing is choosing the intent, which fix-all and `--fix` must not do.
          fixes: [
            singleFileFix(`Write \`${n} ms\` (keeps meaning)`, "unsafe", config.file, edit("ms")),
            singleFileFix(`Write \`${n} s\``, "unsafe", config.file, edit("s")),
          ],
        });
      }
    }
  },
};
