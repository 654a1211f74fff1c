import type { Fix } from "../../findings";
import {
  compareMinors,
  existsIn,
  isOptionKnown,
  lookupOption,
  type OptionInfo,
  optionsForAlias,
  removedIn,
} from "../../knowledge/options";
import type { ConfigEntry, FlinkConfig } from "../../model";
import { flinkMinorFor } from "../../project/configEntries";
import { contextFor, renameKeyEdit, singleFileFix } from "../configEdits";
import type { Rule, RuleContext } from "../types";

/** The options that read `key` as a deprecated key and exist in `minor` (undefined = the newest minor). */
function replacements(key: string, minor: string | undefined): OptionInfo[] {
  return optionsForAlias(key)
    .filter((m) => m.kind === "deprecated" && existsIn(m.option, minor))
    .map((m) => m.option);
}

/** The minor in which Flink stopped reading `key`, when it did before `minor` (or at all, with no minor). */
function removal(key: string, minor: string | undefined): string | undefined {
  const options = [lookupOption(key), ...optionsForAlias(key).map((m) => m.option)].filter(
    (o): o is OptionInfo => o !== undefined && !o.operator,
  );
  const removed = options.map(removedIn).filter((r): r is string => r !== undefined);
  if (removed.length === 0 || removed.length < options.length) return undefined;
  const last = removed.sort(compareMinors)[removed.length - 1];
  return minor === undefined || compareMinors(last, minor) <= 0 ? last : undefined;
}

/** The last entry of each key: the one Flink reads. */
function lastEntries(config: FlinkConfig): Map<string, ConfigEntry> {
  const last = new Map<string, ConfigEntry>();
  for (const e of config.entries) last.set(e.key, e);
  return last;
}

function reportDeprecated(
  ctx: RuleContext,
  config: FlinkConfig,
  lastByKey: ReadonlyMap<string, ConfigEntry>,
  entry: ConfigEntry,
  target: OptionInfo,
  minor?: string,
) {
  const file = config.file;
  const winner = lastByKey.get(target.key);
  if (winner) {
    // Flink reads the new key first, so this line has no effect; deleting it cannot change anything.
    ctx.report({
      file,
      range: entry.keyRange,
      message: `\`${entry.key}\` is deprecated and has no effect here: \`${target.key}\` is also set, and Flink uses that. Delete this line.`,
      tags: ["deprecated", "unnecessary"],
      related: [{ file, range: winner.keyRange, message: `\`${target.key}\` is set here` }],
      fixes: [
        singleFileFix(`Delete the deprecated \`${entry.key}\``, "safe", file, [
          { range: entry.deleteRange, newText: "" },
        ]),
      ],
    });
    return;
  }
  // Without a known version the new key may be too new for the cluster: say since when it exists, and leave the
  // rename to a person (it is not applied on save).
  const needsNewer = minor === undefined && target.since !== undefined;
  const since = target.since ? ` (Flink ${target.since} and later)` : "";
  const edit = renameKeyEdit(ctx.project, file, entry, target.key);
  const fixes: Fix[] = edit
    ? [singleFileFix(`Rename to \`${target.key}\``, needsNewer ? "unsafe" : "safe", file, [edit])]
    : [];
  ctx.report({
    file,
    range: entry.keyRange,
    message: `\`${entry.key}\` is deprecated; Flink reads it as \`${target.key}\`${since}. Rename it to \`${target.key}\` before a Flink upgrade drops the old key.`,
    tags: ["deprecated"],
    fixes,
  });
}

export const rule: Rule = {
  meta: {
    code: "BFL103",
    name: "deprecated-key",
    family: "flink-config",
    severity: "warning",
    description: "A deprecated Flink configuration key, or one the Flink version in use no longer reads.",
    fix: "safe",
    docs: {
      whatItDoes:
        "Reports configuration keys Flink still reads under a new name (`state.backend` → `state.backend.type`, `high-availability` → `high-availability.type`, `restart-strategy` → `restart-strategy.type`, `state.checkpoints.dir` → `execution.checkpointing.dir` from 1.20 …) and, as an error, keys the detected Flink version no longer reads at all (`jobmanager.heap.size` on Flink 2.0).",
      whyItMatters:
        "Deprecated keys are removed in a later release, and then the setting silently stops applying: after an upgrade to Flink 2.0 a cluster configured with `state.checkpoints.num-retained` keeps the default of one checkpoint. A removed key in use today means the setting already has no effect.",
      bad: {
        ".beam-flink-lint.yaml": 'flinkVersion: "1.20"\n',
        "flink-conf.yaml": "state.backend: rocksdb\nstate.checkpoints.dir: s3://bucket/checkpoints\n",
      },
      good: {
        ".beam-flink-lint.yaml": 'flinkVersion: "1.20"\n',
        "flink-conf.yaml": "state.backend.type: rocksdb\nexecution.checkpointing.dir: s3://bucket/checkpoints\n",
      },
      whenNotToFire:
        "When the detected Flink version predates the replacement key (`state.checkpoints.dir` on Flink 1.19, where `execution.checkpointing.dir` does not exist yet). Fallback keys that are options of their own (`rest.port` for `rest.bind-port`). With no detected Flink version, a rename to a key that needs a newer Flink is offered as an unsafe fix (not applied on save), and removed keys are warnings, not errors.",
      references: [
        "FLINK-29372 / apache/flink PR #20867 (`.type` suffixes for keys that clash with YAML)",
        "FLINK-34255 (checkpointing options moved to `execution.checkpointing.*` in 1.20)",
        "Flink 2.0 release notes: list of removed configuration options",
      ],
    },
  },
  check(ctx) {
    for (const config of ctx.project.flinkConfigs) {
      const cctx = contextFor(ctx, config);
      const minor = flinkMinorFor(ctx.project, config);
      const lastByKey = lastEntries(config);
      for (const entry of config.entries) {
        // `state: {backend: {type: …}}` has a `state.backend` parent that is not the deprecated option.
        if (entry.valueKind === "mapping") continue;
        const status = isOptionKnown(entry.key, minor);
        if (status === "current" || status === "alias") {
          const target = replacements(entry.key, minor)[0];
          if (target) reportDeprecated(cctx, config, lastByKey, entry, target, minor);
          continue;
        }
        if (status !== "other-version") continue;
        const removedAt = removal(entry.key, minor);
        if (removedAt === undefined) continue;
        cctx.report({
          file: config.file,
          range: entry.keyRange,
          severity: minor === undefined ? "warning" : "error",
          message:
            minor === undefined
              ? `Flink ${removedAt} removed \`${entry.key}\`: from that version on this setting is ignored.`
              : `Flink ${minor} no longer reads \`${entry.key}\` (removed in Flink ${removedAt}): this setting is ignored. Remove it or replace it with the current option.`,
          tags: ["deprecated"],
        });
      }
    }
  },
};
