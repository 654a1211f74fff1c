import type { Fix } from "../../findings";
import { editDistance, type OptionInfo, typesIn } from "../../knowledge/options";
import { validateValue } from "../../knowledge/values";
import type { ConfigEntry, FlinkConfig } from "../../model";
import { flinkMinorFor } from "../../project/clusters";
import { optionReadAs } from "../../project/configEntries";
import { contextFor, replaceValueEdit, singleFileFix } from "../configEdits";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";

function enumFixes(ctx: RuleContext, config: FlinkConfig, entry: ConfigEntry, values: string[]): Fix[] {
  const written = entry.value.toUpperCase();
  return [...values]
    .sort((a, b) => editDistance(written, a.toUpperCase()) - editDistance(written, b.toUpperCase()))
    .map((v) =>
      // Unsafe: which value was meant is a guess, and each one makes the cluster behave differently.
      singleFileFix(`Set to \`${v}\``, "unsafe", config.file, [replaceValueEdit(ctx.project, config.file, entry, v)]),
    );
}

/** Legacy flink-conf.yaml keeps quotes as part of the value; the value without them may be what was meant. */
function quotesProblem(config: FlinkConfig, entry: ConfigEntry, option: OptionInfo, minor: string | undefined) {
  if (config.dialect !== "legacy") return undefined;
  const m = /^(["'])(.*)\1$/.exec(entry.value);
  if (!m || validateValue(option, m[2], minor) !== undefined) return undefined;
  return m[2];
}

export const rule: Rule = {
  meta: {
    code: "BFL104",
    name: "invalid-value",
    family: "flink-config",
    severity: "error",
    description: "A configuration value that Flink cannot read as the option's type.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Checks each value against the type of its option in the detected Flink version, with Flink's own parsing rules: whole numbers for Integer and Long options, `true`/`false` for Boolean, a number with an optional unit for Duration (`30 s`, `5 min`, `500 ms`, `1h`) and MemorySize (`1600m`, `2 gb`, `1024 kb`), and one of the listed values for Enum options (case does not matter).",
      whyItMatters:
        "Flink fails with an IllegalArgumentException when it reads the option: the cluster does not start or the job is rejected at submission, often far from the line that caused it. `taskmanager.memory.process.size: 1.5g` or `execution.checkpointing.interval: 30 secs` stop a deployment.",
      bad: {
        "flink-conf.yaml":
          "taskmanager.memory.process.size: 1.5g\nexecution.checkpointing.mode: exactly-once\nparallelism.default: four\n",
      },
      good: {
        "flink-conf.yaml":
          "taskmanager.memory.process.size: 1536m\nexecution.checkpointing.mode: EXACTLY_ONCE\nparallelism.default: 4\n",
      },
      whenNotToFire:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text shows what a placeholder looks like
        "Values with `${…}` placeholders or Helm `{{ … }}` templates (only known at deploy time); String, List and Map options; keys of other Flink versions. Where the option's type changed between versions (Long in 1.19, Duration in 1.20) and no Flink version is detected, a value that either version accepts passes. Enum fixes are unsafe: each allowed value means something different.",
      references: [
        "Flink TimeUtils.parseDuration and MemorySize.parse (accepted units)",
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
        if (!option) continue;
        const problem = validateValue(option, entry.value, minor);
        if (problem === undefined) continue;
        const unquoted = quotesProblem(config, entry, option, minor);
        if (unquoted !== undefined) {
          cctx.report({
            file: config.file,
            range: entry.valueRange,
            message: fitting(
              `flink-conf.yaml keeps quotes as part of the value, so Flink reads \`${entry.value}\` for \`${entry.key}\` and fails.`,
              `flink-conf.yaml keeps quotes as part of the value, so Flink reads \`${entry.value}\` and fails.`,
              "flink-conf.yaml keeps quotes as part of the value, so Flink cannot read this value and fails.",
            ),
            details: `${problem}. Remove the quotes.`,
            fixes: [
              // Safe: the unquoted text is the only reading that works; today the value makes Flink fail.
              singleFileFix("Remove the quotes", "safe", config.file, [{ range: entry.valueRange, newText: unquoted }]),
            ],
          });
          continue;
        }
        const enumValues = typesIn(option, minor).find((t) => t.type === "Enum")?.enumValues;
        cctx.report({
          file: config.file,
          range: entry.valueRange,
          message: fitting(
            `Flink cannot read \`${entry.value}\` as the value of \`${entry.key}\` and fails when it reads this option.`,
            `Flink cannot read \`${entry.value}\` as the value of \`${entry.key}\` and fails.`,
            `Flink cannot read \`${entry.value}\` as the value of this option and fails.`,
            "Flink cannot read this value of the option and fails.",
          ),
          details: `${problem}.`,
          fixes: enumValues ? enumFixes(cctx, config, entry, enumValues) : [],
        });
      }
    }
  },
};
