import type { ConfigEntry, FlinkConfig } from "../../model";
import { contextFor, singleFileFix, textAt } from "../configEdits";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";

function line(entry: ConfigEntry): number {
  return entry.keyRange.start.line + 1;
}

/** In YAML, the same key spelled the same way in the same mapping is a duplicate mapping key, which YAML rejects. */
function sameSpelling(ctx: RuleContext, config: FlinkConfig, a: ConfigEntry, b: ConfigEntry): boolean {
  return (
    a.nested === b.nested &&
    textAt(ctx.project, config.file, a.keyRange) === textAt(ctx.project, config.file, b.keyRange)
  );
}

function checkConfig(ctx: RuleContext, config: FlinkConfig) {
  // One list per key, and one count per spelling of a key: linear in the entries, however many repeat.
  const byKey = new Map<string, ConfigEntry[]>();
  for (const e of config.entries) {
    const list = byKey.get(e.key);
    if (list) list.push(e);
    else byKey.set(e.key, [e]);
  }
  for (const [key, all] of byKey) {
    // Parent mappings written in two places merge (`state.backend: {type: x}` and `state: {backend: {…}}`); only
    // the same parent spelled twice in one mapping is a duplicate.
    const spellings = new Map<string, number>();
    const spelling = (e: ConfigEntry) => `${e.nested}\n${textAt(ctx.project, config.file, e.keyRange)}`;
    for (const e of all)
      if (e.valueKind === "mapping") spellings.set(spelling(e), (spellings.get(spelling(e)) ?? 0) + 1);
    const entries = all.filter((e) => e.valueKind !== "mapping" || (spellings.get(spelling(e)) ?? 0) > 1);
    if (entries.length < 2) continue;
    const last = entries[entries.length - 1];
    for (let i = 0; i < entries.length - 1; i++) {
      const earlier = entries[i];
      const related = [{ file: config.file, range: last.keyRange, message: `\`${key}\` is set again here` }];
      const deleteEarlier = (safety: "safe" | "unsafe") =>
        singleFileFix(`Delete this \`${key}\` (line ${line(earlier)})`, safety, config.file, [
          { range: earlier.deleteRange, newText: "" },
        ]);
      if (config.dialect === "legacy") {
        ctx.report({
          file: config.file,
          range: earlier.keyRange,
          severity: "warning",
          message: fitting(
            `\`${key}\` is set again on line ${line(last)}; Flink uses the last value (\`${last.value}\`) and ignores this one (\`${earlier.value}\`).`,
            `\`${key}\` is set again on line ${line(last)}; Flink uses the last value and ignores this one.`,
            `This key is set again on line ${line(last)}; Flink uses the last value and ignores this one.`,
          ),
          details: `Flink uses \`${last.value}\` (line ${line(last)}) and ignores \`${earlier.value}\`. Delete this line.`,
          related,
          tags: ["unnecessary"],
          // Safe: Flink ignores this line today, so deleting it changes nothing.
          fixes: [deleteEarlier("safe")],
        });
      } else if (sameSpelling(ctx, config, earlier, last)) {
        ctx.report({
          file: config.file,
          range: earlier.keyRange,
          message:
            config.logicalName === "config.yaml"
              ? fitting(
                  `\`${key}\` appears twice in this config.yaml (again on line ${line(last)}): Flink fails at startup.`,
                  `This key appears twice in this config.yaml (again on line ${line(last)}): Flink fails at startup.`,
                )
              : fitting(
                  `\`${key}\` appears twice in the same YAML mapping (again on line ${line(last)}): the configuration is rejected.`,
                  `This key appears twice in the same YAML mapping (again on line ${line(last)}): the configuration is rejected.`,
                ),
          details:
            config.logicalName === "config.yaml"
              ? 'Duplicate keys are a YAML error: Flink stops with "Error parsing YAML configuration". Keep one of them.'
              : "Duplicate keys are a YAML error: the configuration is rejected when it is loaded. Keep one of them.",
          related,
          // Unsafe: the file does not load at all today, so which value was meant is a guess.
          fixes: [deleteEarlier("unsafe")],
        });
      } else {
        ctx.report({
          file: config.file,
          range: earlier.keyRange,
          severity: "warning",
          message: fitting(
            `\`${key}\` is set twice, written in two forms (again on line ${line(last)}): only one of the values applies.`,
            `This key is set twice, written in two forms (again on line ${line(last)}): only one of the values applies.`,
          ),
          details: `One is flat, one nested; only one of the values (\`${earlier.value}\`, \`${last.value}\`) applies. Keep one of them.`,
          related,
          fixes: [deleteEarlier("unsafe")],
        });
      }
    }
  }
}

export const rule: Rule = {
  meta: {
    code: "BFL105",
    name: "duplicate-key",
    family: "flink-config",
    severity: "error",
    description: "The same configuration key is set more than once.",
    fix: "safe",
    docs: {
      whatItDoes:
        "Reports a key that a Flink configuration sets more than once, including the same key written flat (`state.backend.type: rocksdb`) and nested (`state: {backend: {type: hashmap}}`). Points at the earlier occurrences, with the one that counts as related information.",
      whyItMatters:
        'In a legacy flink-conf.yaml the last occurrence silently wins (warning): someone edits the first `taskmanager.numberOfTaskSlots` and nothing changes. In standard YAML (config.yaml, Kubernetes manifests) a duplicate key is an error and the whole configuration is rejected when it is loaded: Flink 1.19 and later (including 2.x) read config.yaml with snakeyaml-engine, which refuses duplicate keys by default, and the JobManager, the TaskManagers and the command-line client stop at startup with "Error parsing YAML configuration."',
      bad: {
        "flink-conf.yaml":
          "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 2\ntaskmanager.numberOfTaskSlots: 4\n",
      },
      good: { "flink-conf.yaml": "parallelism.default: 2\ntaskmanager.numberOfTaskSlots: 4\n" },
      whenNotToFire:
        "A deprecated key next to its replacement (`state.backend` and `state.backend.type`) is not a duplicate: BFL103 reports the deprecated one. Keys in different files or different Kubernetes objects are separate configurations. Deleting the earlier line of a legacy file is safe (Flink ignores it today); in YAML the fix is unsafe because the file does not load at all and either value may have been meant.",
      references: [
        "Flink GlobalConfiguration (legacy reader: later lines overwrite earlier ones)",
        "FLIP-366 / FLINK-33297 (config.yaml is standard YAML)",
        'Flink GlobalConfiguration.loadYAMLResource and YamlParserUtils (release-1.20.4, release-2.0.2): a parse failure becomes RuntimeException("Error parsing YAML configuration."); snakeyaml-engine LoadSettingsBuilder: allowDuplicateKeys is false by default',
      ],
    },
  },
  check(ctx) {
    for (const config of ctx.project.flinkConfigs) checkConfig(contextFor(ctx, config), config);
  },
};
