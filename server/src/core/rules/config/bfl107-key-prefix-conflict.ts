import type { Fix } from "../../findings";
import { compareMinors, optionsForAlias } from "../../knowledge/options";
import type { ConfigEntry, FlinkConfig } from "../../model";
import { flinkMinorFor } from "../../project/clusters";
import { contextFor, renameKeyEdit, singleFileFix } from "../configEdits";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";

/**
 * Configurations that end up as standard YAML: config.yaml, and what the Kubernetes Operator writes as config.yaml
 * for Flink 2.x. A legacy flink-conf.yaml is a list of lines and can hold both keys.
 */
function isStandardYaml(config: FlinkConfig, minor: string | undefined): boolean {
  if (config.dialect !== "yaml") return false;
  if (config.logicalName === "config.yaml") return true;
  return minor !== undefined && compareMinors(minor, "2.0") >= 0;
}

/** The key that replaced `key` by adding a suffix (`state.backend` → `state.backend.type`), if any. */
function suffixedReplacement(key: string): string | undefined {
  return optionsForAlias(key).find((m) => m.kind === "deprecated" && m.option.key.startsWith(`${key}.`))?.option.key;
}

function fixesFor(ctx: RuleContext, config: FlinkConfig, entry: ConfigEntry): Fix[] {
  const target = suffixedReplacement(entry.key);
  if (!target) return [];
  if (config.entries.some((e) => e.key === target)) {
    // Flink reads the suffixed key first, so the old one has no effect and can go.
    return [
      singleFileFix(`Delete \`${entry.key}\` (\`${target}\` is set)`, "safe", config.file, [
        { range: entry.deleteRange, newText: "" },
      ]),
    ];
  }
  const edit = renameKeyEdit(ctx.project, config.file, entry, target);
  return edit ? [singleFileFix(`Rename to \`${target}\``, "safe", config.file, [edit])] : [];
}

export const rule: Rule = {
  meta: {
    code: "BFL107",
    name: "key-prefix-conflict",
    family: "flink-config",
    severity: "error",
    description: "A key that has a value and is also the parent of other keys, which standard YAML cannot hold.",
    fix: "safe",
    docs: {
      whatItDoes:
        "In configurations read as standard YAML (config.yaml; FlinkDeployment `flinkConfiguration` for Flink 2.x), reports a key that holds a value while other keys continue it: `state.backend` next to `state.backend.incremental`, `high-availability` next to `high-availability.storageDir`. Offers to rename the key to its `.type` form where Flink has one.",
      whyItMatters:
        'Nested YAML cannot make `state.backend` both a value and a mapping. The Flink Kubernetes Operator rejects such a FlinkDeployment for Flink 2.x ("Overlapping key prefixes detected … please replace with Flink v2 compatible, non-deprecated keys"), and Flink 1.17 renamed these keys (`state.backend.type`, `high-availability.type`, `restart-strategy.type`) for exactly this reason.',
      bad: {
        "config.yaml": "state.backend: rocksdb\nstate.backend.incremental: true\n",
      },
      good: {
        "config.yaml": "state.backend.type: rocksdb\nstate.backend.incremental: true\n",
      },
      whenNotToFire:
        "Legacy flink-conf.yaml files (Flink's line reader keeps both keys). FlinkDeployments for Flink 1.x, whose configuration the operator still writes as flink-conf.yaml. The rename is safe: Flink reads the `.type` key the same way as the old one.",
      references: [
        "FLINK-37405 / apache/flink-kubernetes-operator commit 679b0337 (Overlapping key prefixes detected)",
        "FLINK-29372 / apache/flink PR #20867 (suffixes for options that conflict with YAML)",
        "FLIP-366 (config.yaml is standard YAML)",
      ],
    },
  },
  check(ctx) {
    for (const config of ctx.project.flinkConfigs) {
      if (!isStandardYaml(config, flinkMinorFor(ctx.project, config))) continue;
      const cctx = contextFor(ctx, config);
      const reported = new Set<string>();
      for (const entry of config.entries) {
        if (entry.valueKind !== "scalar" || reported.has(entry.key)) continue;
        const children = config.entries.filter((e) => e.valueKind !== "mapping" && e.key.startsWith(`${entry.key}.`));
        if (children.length === 0) continue;
        reported.add(entry.key);
        const target = suffixedReplacement(entry.key);
        const hint = target ? ` Use \`${target}\` instead.` : " Keep only one of them.";
        const child = children[0].key;
        cctx.report({
          file: config.file,
          range: entry.keyRange,
          message: fitting(
            `\`${entry.key}\` has a value and is also the parent of \`${child}\`, so a nested YAML deployment fails.`,
            `\`${entry.key}\` has a value and is also the parent of other keys, so a nested YAML deployment fails.`,
            "This key has a value and is also the parent of other keys, so a nested YAML deployment fails.",
          ),
          details: `Nested YAML cannot hold both \`${entry.key}\` and \`${child}\`, so where the configuration is written out as nested YAML (Flink 2.x on Kubernetes, the Kubernetes Operator: "Overlapping key prefixes detected") the deployment fails.${hint}`,
          related: children.slice(0, 3).map((c) => ({
            file: config.file,
            range: c.keyRange,
            message: `\`${c.key}\` continues \`${entry.key}\``,
          })),
          fixes: fixesFor(cctx, config, entry),
        });
      }
    }
  },
};
