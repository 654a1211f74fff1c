import { anchorsUsedOutside } from "../../documents/yaml/anchors";
import type { Fix, RelatedLocation } from "../../findings";
import {
  aliasReadIn,
  DEVELOPMENT_MINOR,
  existsIn,
  FLINK_MINORS,
  type KeyLifecycle,
  keyLifecycle,
  type OptionInfo,
  olderThanCatalogue,
  optionsForAlias,
} from "../../knowledge/options";
import type { ConfigEntry, FlinkConfig } from "../../model";
import { configVersion, flinkMinorFor } from "../../project/clusters";
import { optionReadAs } from "../../project/configEntries";
import { describeEvidence } from "../../project/versions";
import { relativeTo } from "../../workspace/workspace";
import { contextFor, renameKeyEdit, singleFileFix } from "../configEdits";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";

/** "2.0", or "2.4 (in development)" for the line after the newest release branch. */
function flinkLine(minor: string): string {
  return minor === DEVELOPMENT_MINOR ? `${minor} (in development)` : minor;
}

/** The minor after `minor` as messages name it ("Flink 2.0 no longer reads it"). */
function afterLast(lastMinor: string | undefined, next: (m: string) => string | undefined): string | undefined {
  return lastMinor === undefined ? undefined : next(lastMinor);
}

function nextMinorOf(minor: string): string | undefined {
  return FLINK_MINORS[FLINK_MINORS.indexOf(minor) + 1];
}

function code(keys: string[]): string {
  const quoted = keys.map((k) => `\`${k}\``);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

/** Whether some Flink minor reads the old key differently from the new one (as another option, or not at all). */
/**
 * Whether Flink `minor` reads the value the same way before and after renaming `key` to `target`: the old key
 * already reaches the target option (as its own key or an alias Flink still reads), or, where the target does not
 * exist, nothing reads the old key either.
 */
function renameKeeps(key: string, target: OptionInfo, minor: string): boolean {
  if (!existsIn(target, minor)) return optionReadAs(key, minor) === undefined;
  if (optionReadAs(key, minor)?.key === target.key) return true;
  return optionsForAlias(key).some((a) => a.option.key === target.key && aliasReadIn(a, minor));
}

function versionDependent(key: string, target: OptionInfo): boolean {
  return FLINK_MINORS.some((m) => !renameKeeps(key, target, m));
}

/**
 * A fix that renames or deletes a deprecated key is safe when it keeps what Flink reads under every version the
 * configuration may run with: when no minor reads the two keys differently, or when the configuration's version is
 * pinned (its deployment, or the project configuration) to one that has the new key. Otherwise it is unsafe, and
 * its title says which versions were considered.
 */
function fixSafety(
  ctx: RuleContext,
  config: FlinkConfig,
  key: string,
  target: OptionInfo,
): { safety: "safe" | "unsafe"; why: string } {
  const version = configVersion(ctx.project, config);
  // A release older than the catalogue: which keys it reads is not known, so no rename or deletion is safe there.
  const older = [version.minor, ...version.evidence.map((e) => e.minor)].find((m) => olderThanCatalogue(m));
  if (older !== undefined)
    return { safety: "unsafe", why: ` (Flink ${older} is older than the releases whose keys are known)` };
  if (!versionDependent(key, target)) return { safety: "safe", why: "" };
  if (version.strength === "pinned" && version.minor && renameKeeps(key, target, version.minor)) {
    return { safety: "safe", why: "" };
  }
  const range = target.since ? `Flink reads it from ${target.since}` : "not every Flink version reads it";
  const considered = describeEvidence(version, (f) => relativeTo(ctx.project.root, f));
  return { safety: "unsafe", why: ` (${range}; ${considered})` };
}

/** The last entry of each key: the one Flink reads. */
function lastEntries(config: FlinkConfig): Map<string, ConfigEntry> {
  const last = new Map<string, ConfigEntry>();
  for (const e of config.entries) last.set(e.key, e);
  return last;
}

/**
 * For a key a legacy flink-conf.yaml sets more than once: the earlier copies are related information, and every
 * fix also deletes them (Flink ignores them today, so deleting them changes nothing), so that the fix leaves one
 * key and no copy of the old one behind.
 */
function withEarlierCopies(ctx: RuleContext, config: FlinkConfig, earlier: ConfigEntry[]): RuleContext {
  const file = config.file;
  return {
    ...ctx,
    report: (r) =>
      ctx.report({
        ...r,
        related: [
          ...(r.related ?? []),
          ...earlier.map((e) => ({ file, range: e.keyRange, message: `Also set here; Flink ignores this line.` })),
        ],
        fixes: (r.fixes ?? []).map((fix) => ({
          ...fix,
          changes: fix.changes.map((ch) =>
            ch.file === file
              ? { ...ch, edits: [...ch.edits, ...earlier.map((e) => ({ range: e.deleteRange, newText: "" }))] }
              : ch,
          ),
        })),
      }),
  };
}

function reportDeprecated(
  ctx: RuleContext,
  config: FlinkConfig,
  lastByKey: ReadonlyMap<string, ConfigEntry>,
  entry: ConfigEntry,
  target: OptionInfo,
  minor: string | undefined,
  droppedIn?: string,
) {
  const file = config.file;
  const winner = lastByKey.get(target.key);
  // A release older than the catalogue, for a rename the catalogue already finds at its first minor: whether that
  // release knows the new key at all is not known (`taskmanager.memory.network.fraction` is new in Flink 1.10).
  const first = FLINK_MINORS[0];
  if (minor !== undefined && olderThanCatalogue(minor) && (target.since === undefined || target.since === first)) {
    const fix = winner ? deleteFix(ctx, config, entry, target) : renameFix(ctx, config, entry, target);
    ctx.report({
      file,
      range: entry.keyRange,
      severity: "info",
      message: fitting(
        `\`${entry.key}\` is deprecated by Flink ${first} at the latest (maybe not yet in ${minor}), which reads it as \`${target.key}\`.`,
        `\`${entry.key}\` is deprecated by Flink ${first} at the latest (maybe not yet in ${minor}).`,
        `This key is deprecated by Flink ${first} at the latest (maybe not yet in ${minor}).`,
      ),
      details: `Flink ${first} and later read it as \`${target.key}\`${winner ? ", which is also set here and wins" : ""}. Whether Flink ${minor} knows \`${target.key}\` is not known: check before renaming.`,
      tags: ["deprecated"],
      related: winner ? [{ file, range: winner.keyRange, message: `\`${target.key}\` is set here` }] : [],
      fixes: fix ? [fix] : [],
    });
    return;
  }
  if (winner) {
    // Flink reads the new key first, so this line has no effect; deleting it cannot change anything.
    ctx.report({
      file,
      range: entry.keyRange,
      message: fitting(
        `\`${entry.key}\` is deprecated and has no effect here: \`${target.key}\` is also set, and Flink uses that.`,
        `\`${entry.key}\` is deprecated and has no effect here: Flink uses \`${target.key}\`, also set.`,
        `\`${entry.key}\` is deprecated and has no effect here: its replacement is also set.`,
      ),
      tags: ["deprecated", "unnecessary"],
      related: [{ file, range: winner.keyRange, message: `\`${target.key}\` is set here` }],
      fixes: [deleteFix(ctx, config, entry, target)],
    });
    return;
  }
  // Unless the configuration's own deployment pins a version that has the new key, the new key may be too new for
  // the cluster: say since when it exists, and leave the rename to a person (it is not applied on save).
  const since = target.since ? ` (Flink ${target.since} and later)` : "";
  const rename = renameFix(ctx, config, entry, target);
  const fixes: Fix[] = rename ? [rename] : [];
  const later = droppedIn
    ? `Flink ${flinkLine(droppedIn)} no longer reads \`${entry.key}\`: rename it to \`${target.key}\` before upgrading.`
    : `Rename it to \`${target.key}\` before a Flink upgrade drops the old key.`;
  const full = `\`${entry.key}\` is deprecated; Flink reads it as \`${target.key}\`${since}.`;
  const message = fitting(
    full,
    `\`${entry.key}\` is deprecated; Flink reads it as \`${target.key}\`.`,
    `\`${entry.key}\` is deprecated; Flink reads it as its replacement.`,
  );
  ctx.report({
    file,
    range: entry.keyRange,
    message,
    details: message === full ? undefined : `Flink reads it as \`${target.key}\`${since}.`,
    tags: ["deprecated"],
    related: [{ file, range: entry.keyRange, message: later }],
    fixes,
  });
}

/** Renaming a deprecated key to the option Flink reads it as; its safety says which versions were considered. */
function renameFix(ctx: RuleContext, config: FlinkConfig, entry: ConfigEntry, target: OptionInfo): Fix | undefined {
  const edit = renameKeyEdit(ctx.project, config.file, entry, target.key);
  if (!edit) return undefined;
  const rename = fixSafety(ctx, config, entry.key, target);
  return singleFileFix(`Rename to \`${target.key}\`${rename.why}`, rename.safety, config.file, [edit]);
}

/**
 * Deleting a deprecated key that its replacement overrides: safe when no Flink version reads the two differently
 * (or the version is pinned) and the entry defines no YAML anchor that an alias elsewhere uses.
 */
function deleteFix(ctx: RuleContext, config: FlinkConfig, entry: ConfigEntry, target: OptionInfo): Fix {
  const file = config.file;
  const removal = fixSafety(ctx, config, entry.key, target);
  const anchors = anchorsUsedOutside(ctx.project.fileFacts(file)?.text ?? "", entry.deleteRange);
  const safety = anchors.length > 0 ? "unsafe" : removal.safety;
  const why =
    anchors.length > 0 ? ` (it defines ${anchors.map((a) => `&${a}`).join(", ")}, which an alias uses)` : removal.why;
  return singleFileFix(`Delete the deprecated \`${entry.key}\`${why}`, safety, file, [
    { range: entry.deleteRange, newText: "" },
  ]);
}

/** What replaces a deprecated or removed key, and what else is known about it, as related information. */
function replacementNotes(
  file: string,
  entry: ConfigEntry,
  life: { replacedBy: string[]; note?: string },
): RelatedLocation[] {
  const out: RelatedLocation[] = [];
  if (life.replacedBy.length > 0) {
    const one = life.replacedBy.length === 1;
    out.push({
      file,
      range: entry.keyRange,
      message: `Use ${code(life.replacedBy)} instead${one ? "" : " (none of them takes the value as it is)"}.`,
    });
  }
  if (life.note) out.push({ file, range: entry.keyRange, message: life.note });
  return out;
}

function reportLifecycle(
  ctx: RuleContext,
  config: FlinkConfig,
  lastByKey: ReadonlyMap<string, ConfigEntry>,
  entry: ConfigEntry,
  life: KeyLifecycle,
  minor: string | undefined,
  next: (m: string) => string | undefined,
) {
  const file = config.file;
  if (life.kind === "renamed") {
    reportDeprecated(ctx, config, lastByKey, entry, life.option, minor, afterLast(life.lastMinor, next));
    return;
  }
  if (life.kind === "deprecated") {
    const droppedIn = afterLast(life.lastMinor, next);
    const still = minor === undefined ? "Flink still reads it" : `Flink ${minor} still reads it`;
    // A release older than the catalogue's first minor, for a key deprecated by then: whether that release had
    // deprecated it already is not known (`jobmanager.heap.size` is current on Flink 1.10).
    const unknownThen = minor !== undefined && olderThanCatalogue(minor) && life.since === FLINK_MINORS[0];
    ctx.report({
      file,
      range: entry.keyRange,
      ...(unknownThen ? { severity: "info" as const } : {}),
      message: unknownThen
        ? fitting(
            `\`${entry.key}\` is deprecated by Flink ${life.since} at the latest (maybe not yet in ${minor})${droppedIn ? `; Flink ${flinkLine(droppedIn)} ignores it` : ""}.`,
            `This key is deprecated by Flink ${life.since} at the latest (maybe not yet in ${minor}).`,
          )
        : droppedIn
          ? fitting(
              `\`${entry.key}\` is deprecated: ${still}, Flink ${flinkLine(droppedIn)} ignores it.`,
              `This key is deprecated: ${still}, Flink ${flinkLine(droppedIn)} ignores it.`,
            )
          : fitting(
              `\`${entry.key}\` is deprecated: ${still}, a later release may ignore it.`,
              `This key is deprecated: ${still}, a later release may ignore it.`,
            ),
      tags: ["deprecated"],
      related: [
        {
          file,
          range: entry.keyRange,
          // The catalogue starts at its first minor: an option deprecated there may have been deprecated long before.
          message: `Deprecated since Flink ${life.since}${life.since === FLINK_MINORS[0] ? " or earlier" : ""}; no key takes its value as it is, so it is not renamed.`,
        },
        ...replacementNotes(file, entry, life),
      ],
    });
    return;
  }
  const listed =
    life.inFlink2List === undefined
      ? []
      : [
          {
            file,
            range: entry.keyRange,
            message: life.inFlink2List
              ? "Flink 2.0's release notes list it among the removed configuration options."
              : "Flink 2.0's release notes do not list it, but no option of the 2.0 sources reads it any more.",
          },
        ];
  ctx.report({
    file,
    range: entry.keyRange,
    severity: minor === undefined ? "warning" : "error",
    message:
      minor === undefined
        ? fitting(
            `Flink ${flinkLine(life.removedIn)} removed \`${entry.key}\`: from that version on this setting is ignored.`,
            `Flink ${flinkLine(life.removedIn)} removed this key: from that version on this setting is ignored.`,
          )
        : fitting(
            `Flink ${minor} no longer reads \`${entry.key}\` (removed in Flink ${flinkLine(life.removedIn)}): this setting is ignored.`,
            `Flink ${minor} no longer reads \`${entry.key}\`: this setting is ignored.`,
            `Flink ${minor} no longer reads this key (removed in Flink ${flinkLine(life.removedIn)}): this setting is ignored.`,
          ),
    tags: ["deprecated"],
    related: [...replacementNotes(file, entry, life), ...listed],
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
        "Gives one of three answers for an old key, for the Flink version in use. **Renamed and still read** (warning, with a rename fix): Flink reads the key as an old name of a newer option (`state.backend` → `state.backend.type` and `restart-strategy` → `restart-strategy.type` from 1.17, `execution.checkpointing.unaligned` → `.enabled` from 1.17, `pipeline.operator-chaining` → `.enabled` from 1.18, `state.checkpoints.dir` → `execution.checkpointing.dir` from 1.20, `web.port` → `rest.port`, still read by Flink 2.x). **Deprecated, no replacement under a new name** (warning, no fix): Flink still reads the key as its own deprecated option, and the options that replace it do not take its value as it is (`jobmanager.heap.size`, `state.backend.async`, `cluster.evenly-spread-out-slots`, `pipeline.time-characteristic` on Flink 1.19–1.20). **Removed** (error): no option of that Flink version reads the key, so the setting is ignored (those keys on Flink 2.0; `security.kerberos.fetch.delegation-token` after 2.3; reporters configured with `metrics.reporter.<name>.class` from 1.17, where Flink only logs a warning and loads no reporter). On a release older than the option catalogue's first minor (1.15), a key the catalogue already finds deprecated or renamed there is only information: when that release deprecated it, and whether it knows the new key, is not known (`jobmanager.heap.size` is still the current key on Flink 1.10; `taskmanager.memory.network.fraction`, the new name of `taskmanager.network.memory.fraction`, is new in 1.10). On such a release no rename or deletion is a safe fix.",
      whyItMatters:
        "Deprecated keys are removed in a later release, and then the setting silently stops applying: Flink logs at most a line and starts without it. Flink 2.0's release notes list 101 removed keys, but 25 of them are still read as deprecated names of newer options (`web.port`, `state.backend.local-recovery`, `taskmanager.network.memory.fraction` …), while others are gone for good, some without being listed (`pipeline.time-characteristic`, `execution.checkpointing.force`). Telling these apart per version is the difference between a rename that keeps the setting and a setting that has already been lost.",
      bad: {
        ".beam-flink-lint.yaml": 'flinkVersion: "1.20"\n',
        "flink-conf.yaml": "state.backend: rocksdb\nstate.checkpoints.dir: s3://bucket/checkpoints\n",
      },
      good: {
        ".beam-flink-lint.yaml": 'flinkVersion: "1.20"\n',
        "flink-conf.yaml": "state.backend.type: rocksdb\nexecution.checkpointing.dir: s3://bucket/checkpoints\n",
      },
      whenNotToFire:
        "When the detected Flink version predates the replacement key (`state.checkpoints.dir` on Flink 1.19, where `execution.checkpointing.dir` does not exist yet) or predates the deprecation (`cluster.evenly-spread-out-slots` on 1.18, `execution.buffer-timeout` before 1.18). Fallback keys that are options of their own (`rest.port` for `rest.bind-port`). `state.backend.type`, although Flink 2.0's list names it: only a duplicate declaration was removed and the option is still read. A deprecated key set more than once is reported once, at the occurrence Flink reads, with the ignored copies as related information (the fix also deletes them; BFL105 reports the duplication); in a YAML configuration, where the duplicate stops the file from loading, only BFL105 reports it. With no detected Flink version, removed keys are warnings, not errors. The rename (and the deletion of an old key next to its replacement) is a safe fix only where it cannot change what Flink reads: when every Flink version reads both keys alike, or when the configuration's version is pinned, by `flinkVersion` in `.beam-flink-lint.yaml` or by the deployment that runs it (a FlinkDeployment's own `flinkVersion` or image, the image of the compose service or pod that mounts it, the Helm chart's values), to one that has the new key. With a version that is only inferred from other files, the editor setting or `--flink-version`, or a deployment whose layers name different minors, the fix is unsafe (not applied on save or by `--fix`), and its title says which versions were considered.",
      references: [
        "FLINK-29372 / apache/flink PR #20867 (`.type` suffixes for keys that clash with YAML, 1.17)",
        "FLINK-31996 (`pipeline.operator-chaining.enabled`, 1.18), FLINK-32468 (`akka.*` → `pekko.*`, 1.18)",
        "FLINK-34255 (checkpointing options moved to `execution.checkpointing.*` in 1.20)",
        "Flink 2.0 release notes: list of removed configuration options; the 2.0.2, 2.1.2, 2.2.1 and 2.3 sources for which of them are still read as deprecated keys",
        "FLINK-27206 and FLINK-24235 (reporters configured by class: deprecated in 1.16, not loaded from 1.17)",
        "The key-by-key data and its sources: scripts/gen-options.mjs and the removal table it reads",
      ],
    },
  },
  check(ctx) {
    for (const config of ctx.project.flinkConfigs) {
      const cctx = contextFor(ctx, config);
      const minor = flinkMinorFor(ctx.project, config);
      const lastByKey = lastEntries(config);
      const copies = new Map<string, ConfigEntry[]>();
      for (const e of config.entries) {
        if (e.valueKind === "mapping") continue;
        const list = copies.get(e.key);
        if (list) list.push(e);
        else copies.set(e.key, [e]);
      }
      for (const entry of config.entries) {
        // `state: {backend: {type: …}}` has a `state.backend` parent that is not the deprecated option.
        if (entry.valueKind === "mapping") continue;
        const life = keyLifecycle(entry.key, minor);
        if (!life) continue;
        // A key set more than once is reported once, at the occurrence Flink reads (BFL105 reports the copies).
        const all = copies.get(entry.key) ?? [entry];
        if (all.length > 1 && (config.dialect !== "legacy" || all[all.length - 1] !== entry)) continue;
        const rctx = all.length > 1 ? withEarlierCopies(cctx, config, all.slice(0, -1)) : cctx;
        reportLifecycle(rctx, config, lastByKey, entry, life, minor, nextMinorOf);
      }
    }
  },
};
