import type { ConfigEntry, FlinkConfig } from "../../model";
import { comparePositions } from "../../text";
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
    for (const group of sqlSegments(ctx, config, entries)) if (group.length >= 2) reportKey(ctx, config, key, group);
  }
}

/**
 * A SQL script's `SET` applies to the statements after it: a key set again after a query or an `INSERT` that ran
 * with the earlier value is not a duplicate (`SET 'execution.runtime-mode' = 'batch'; SELECT …; SET … 'streaming';`).
 * The entries, in groups that no such statement separates; every other configuration is one group.
 */
function sqlSegments(ctx: RuleContext, config: FlinkConfig, entries: ConfigEntry[]): ConfigEntry[][] {
  if (config.host !== "sql") return [entries];
  const script = ctx.project.fileFacts(config.file)?.sql;
  if (!script || script.config !== config) return [entries];
  const uses = [...script.reads, ...script.writes].map((u) => u.range.start);
  const ordered = [...entries].sort((a, b) => comparePositions(a.keyRange.start, b.keyRange.start));
  const groups: ConfigEntry[][] = [[ordered[0]]];
  for (let i = 1; i < ordered.length; i++) {
    const from = ordered[i - 1].keyRange.start;
    const to = ordered[i].keyRange.start;
    if (uses.some((u) => comparePositions(from, u) < 0 && comparePositions(u, to) < 0)) groups.push([ordered[i]]);
    else groups[groups.length - 1].push(ordered[i]);
  }
  return groups;
}

/** "line 3", "lines 2 and 3", "lines 2, 3 and 4", and past a handful "lines 2, 3, 4, … (36 more)". */
function lines(entries: ConfigEntry[]): string {
  const numbers = entries.map(line);
  if (numbers.length === 1) return `line ${numbers[0]}`;
  if (numbers.length > 5) return `lines ${numbers.slice(0, 3).join(", ")}, … (${numbers.length - 3} more)`;
  return `lines ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
}

/** The ignored values, as the message shows them: a few, then how many more. */
function values(entries: ConfigEntry[]): string {
  const shown = entries.slice(0, 3).map((e) => `\`${e.value}\``);
  return entries.length > 3 ? `${shown.join(", ")} and ${entries.length - 3} more` : shown.join(", ");
}

/**
 * One finding per duplicated key, at its first occurrence: every other occurrence is related information (the
 * one that counts, and the others that are ignored or clash), and the fix deletes every occurrence but the last.
 */
function reportKey(ctx: RuleContext, config: FlinkConfig, key: string, entries: ConfigEntry[]) {
  const first = entries[0];
  const last = entries[entries.length - 1];
  const earlier = entries.slice(0, -1);
  const again = entries.slice(1);
  const related = [
    ...entries
      .slice(1, -1)
      .map((e) => ({ file: config.file, range: e.keyRange, message: `\`${key}\` is set again here` })),
    {
      file: config.file,
      range: last.keyRange,
      message:
        config.dialect === "legacy"
          ? `\`${key}\` is set for the last time here: this value counts`
          : `\`${key}\` is set again here`,
    },
  ];
  const deleteEarlier = (safety: "safe" | "unsafe") =>
    singleFileFix(
      earlier.length === 1
        ? `Delete this \`${key}\` (line ${line(first)})`
        : `Delete the earlier \`${key}\` (${lines(earlier)})`,
      safety,
      config.file,
      earlier.map((e) => ({ range: e.deleteRange, newText: "" })),
    );
  const times = entries.length === 2 ? "twice" : `${entries.length} times`;
  if (config.dialect === "legacy") {
    ctx.report({
      file: config.file,
      range: first.keyRange,
      severity: "warning",
      message:
        earlier.length === 1
          ? fitting(
              `\`${key}\` is set again on line ${line(last)}; Flink uses the last value (\`${last.value}\`) and ignores this one (\`${first.value}\`).`,
              `\`${key}\` is set again on line ${line(last)}; Flink uses the last value and ignores this one.`,
              `This key is set again on line ${line(last)}; Flink uses the last value and ignores this one.`,
            )
          : fitting(
              `\`${key}\` is set ${times} (again on ${lines(again)}); Flink uses the last value and ignores the others.`,
              `This key is set ${times} (again on ${lines(again)}); Flink uses the last value and ignores the others.`,
              `This key is set ${times}; Flink uses the last value and ignores the others.`,
            ),
      details: earlier.every((e) => e.value === last.value)
        ? `Every copy sets \`${last.value}\`. Delete the earlier lines.`
        : `Flink uses \`${last.value}\` (line ${line(last)}) and ignores ${values(earlier)}. Delete the earlier lines.`,
      related,
      tags: ["unnecessary"],
      // Safe: Flink ignores these lines today, so deleting them changes nothing.
      fixes: [deleteEarlier("safe")],
    });
  } else if (entries.some((e, i) => entries.some((o, j) => j > i && sameSpelling(ctx, config, e, o)))) {
    ctx.report({
      file: config.file,
      range: first.keyRange,
      message:
        config.logicalName === "config.yaml"
          ? fitting(
              `\`${key}\` appears ${times} in this config.yaml (again on ${lines(again)}): Flink fails at startup.`,
              `This key appears ${times} in this config.yaml (again on ${lines(again)}): Flink fails at startup.`,
              `This key appears ${times} in this config.yaml: Flink fails at startup.`,
            )
          : fitting(
              `\`${key}\` appears ${times} in the same YAML mapping (again on ${lines(again)}): the configuration is rejected.`,
              `This key appears ${times} in the same YAML mapping (again on ${lines(again)}): the configuration is rejected.`,
              `This key appears ${times} in the same YAML mapping: the configuration is rejected.`,
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
      range: first.keyRange,
      severity: "warning",
      message: fitting(
        `\`${key}\` is set ${times}, written in two forms (again on ${lines(again)}): only one of the values applies.`,
        `This key is set ${times}, written in two forms (again on ${lines(again)}): only one of the values applies.`,
        `This key is set ${times}, written in two forms: only one of the values applies.`,
      ),
      details: `One is flat, one nested; only one of the values (${values(entries)}) applies. Keep one of them.`,
      related,
      fixes: [deleteEarlier("unsafe")],
    });
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
        "Reports a key that a Flink configuration sets more than once, including the same key written flat (`state.backend.type: rocksdb`) and nested (`state: {backend: {type: hashmap}}`). One finding per duplicated key, at its first occurrence, with every other occurrence as related information (in a legacy file, the last one is the value that counts); the fix deletes every occurrence but the last.",
      whyItMatters:
        'In a legacy flink-conf.yaml the last occurrence silently wins (warning): someone edits the first `taskmanager.numberOfTaskSlots` and nothing changes. In standard YAML (config.yaml, Kubernetes manifests) a duplicate key is an error and the whole configuration is rejected when it is loaded: Flink 1.19 and later (including 2.x) read config.yaml with snakeyaml-engine, which refuses duplicate keys by default, and the JobManager, the TaskManagers and the command-line client stop at startup with "Error parsing YAML configuration."',
      bad: {
        "flink-conf.yaml":
          "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 2\ntaskmanager.numberOfTaskSlots: 4\n",
      },
      good: { "flink-conf.yaml": "parallelism.default: 2\ntaskmanager.numberOfTaskSlots: 4\n" },
      whenNotToFire:
        "A deprecated key next to its replacement (`state.backend` and `state.backend.type`) is not a duplicate: BFL103 reports the deprecated one. A key that is both duplicated and deprecated is not reported per line: this rule reports the copies once, and BFL103 reports the deprecation once, at the occurrence Flink reads (its fix renames that one and deletes the ignored copies); in a YAML configuration, where the duplicate stops the file from loading, only this rule reports the key. Keys in different files or different Kubernetes objects are separate configurations. In a SQL script a `SET` applies to the statements after it: a key set again after a query or an `INSERT` that ran with the earlier value (`SET 'execution.runtime-mode' = 'batch'; SELECT …; SET 'execution.runtime-mode' = 'streaming';`) is not a duplicate. Deleting the earlier line of a legacy file is safe (Flink ignores it today); in YAML the fix is unsafe because the file does not load at all and either value may have been meant.",
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
