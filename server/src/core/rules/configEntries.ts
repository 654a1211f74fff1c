/**
 * Which entry of a configuration Flink actually reads for an option. Flink looks up the option's own key first
 * and only then its deprecated and fallback keys, in order; within one key the last entry wins (legacy
 * flink-conf.yaml keeps the last duplicate).
 */

import type { Fix, FixSafety } from "../findings";
import {
  aliasReadIn,
  existsIn,
  isOptionKnown,
  lookupOption,
  type OptionInfo,
  optionForAlias,
  optionsForAlias,
} from "../knowledge/options";
import type { ConfigEntry, FileFacts, FlinkConfig } from "../model";
import { LineIndex, type Range, type TextEdit } from "../text";
import { type ProjectModel, parseMinor } from "../workspace/project";
import type { RuleContext } from "./types";

/** The option's keys in Flink's lookup order: the canonical key, then its deprecated and fallback keys. */
function lookupKeys(key: string): string[] {
  const option = lookupOption(key) ?? optionForAlias(key);
  if (!option || option.key.includes("<")) return [key];
  return [option.key, ...option.aliases];
}

/**
 * The option Flink `minor` (undefined = the newest) reads `key` as: the key's own option, or the option it is a
 * deprecated or fallback key of.
 */
export function optionReadAs(key: string, minor: string | undefined): OptionInfo | undefined {
  const own = lookupOption(key);
  if (own && existsIn(own, minor)) return own;
  return optionsForAlias(key).find((m) => aliasReadIn(m, minor))?.option;
}

/** Whether Flink `minor` reads this key at all (a key of another version is ignored). */
function readBy(key: string, minor: string | undefined): boolean {
  if (minor === undefined) return true;
  const status = isOptionKnown(key, minor);
  return status !== "other-version";
}

/** Every entry that sets the option `key` (under its own key or an alias), in source order. */
export function findEntries(config: FlinkConfig, key: string, minor?: string): ConfigEntry[] {
  const keys = new Set(lookupKeys(key).filter((k) => readBy(k, minor)));
  return config.entries.filter((e) => keys.has(e.key));
}

/**
 * The entry whose value Flink uses for the option `key`, or undefined when the option is unset. With `minor`,
 * keys that Flink version does not know are skipped.
 */
export function findEntry(config: FlinkConfig, key: string, minor?: string): ConfigEntry | undefined {
  for (const k of lookupKeys(key)) {
    if (!readBy(k, minor)) continue;
    const own = config.entries.filter((e) => e.key === k);
    if (own.length > 0) return own[own.length - 1];
  }
  return undefined;
}

/**
 * The Flink minor a configuration is read by: a FlinkDeployment's own `flinkVersion` for its flinkConfiguration,
 * otherwise the project's Flink version; undefined when nothing says.
 */
export function flinkMinorFor(project: ProjectModel, config: FlinkConfig): string | undefined {
  const deployment = project.flinkDeployments.find((d) => d.config === config || d.config.id === config.id);
  const own = deployment?.flinkVersion ? parseMinor(deployment.flinkVersion.value) : undefined;
  return own ? `${own.major}.${own.minor}` : project.flinkVersion?.minor;
}

/** Line indexes of the files rules read text from, kept while the file's facts are (one per version of the file). */
const lineIndexes = new WeakMap<FileFacts, LineIndex>();

/** The source text of a single-line range of a project file. */
export function textAt(project: ProjectModel, file: string, range: Range): string {
  const facts = project.fileFacts(file);
  if (!facts) return "";
  let index = lineIndexes.get(facts);
  if (!index) {
    // Building the index walks the whole file: once per file, not once per finding.
    index = new LineIndex(facts.text);
    lineIndexes.set(facts, index);
  }
  return facts.text.slice(index.offsetAt(range.start), index.offsetAt(range.end));
}

function unquote(written: string): { inner: string; wrap: (s: string) => string } {
  const m = /^(["'])(.*)\1$/.exec(written);
  return m ? { inner: m[2], wrap: (s) => `${m[1]}${s}${m[1]}` } : { inner: written, wrap: (s) => s };
}

/**
 * The edit that makes an entry's key `newKey`. A flat key is replaced whole; in nested YAML only the part written at
 * this level changes, which works when the new key keeps the parents (`state: {backend: x}` → `backend.type`).
 * Undefined when the new key would need other parents.
 */
export function renameKeyEdit(
  project: ProjectModel,
  file: string,
  entry: ConfigEntry,
  newKey: string,
): TextEdit | undefined {
  const { inner, wrap } = unquote(textAt(project, file, entry.keyRange));
  if (inner === entry.key) return { range: entry.keyRange, newText: wrap(newKey) };
  const parent = entry.key.slice(0, entry.key.length - inner.length);
  if (!entry.key.endsWith(`.${inner}`) || !newKey.startsWith(parent)) return undefined;
  return { range: entry.keyRange, newText: wrap(newKey.slice(parent.length)) };
}

/** The edit that makes an entry's value `newValue`, keeping YAML quotes where the value is quoted. */
export function replaceValueEdit(project: ProjectModel, file: string, entry: ConfigEntry, newValue: string): TextEdit {
  const written = textAt(project, file, entry.valueRange);
  const { inner, wrap } = unquote(written);
  return { range: entry.valueRange, newText: inner === entry.value && inner !== written ? wrap(newValue) : newValue };
}

export function singleFileFix(title: string, safety: FixSafety, file: string, edits: TextEdit[]): Fix {
  return { title, safety, changes: [{ file, edits }] };
}

/**
 * The rule context for findings about one configuration: where the configuration's ranges are approximate (text
 * folded or escaped by YAML), an edit could damage the file, so its findings carry no fixes.
 */
export function contextFor(ctx: RuleContext, config: FlinkConfig): RuleContext {
  if (!config.inexactRanges) return ctx;
  return { ...ctx, report: (r) => ctx.report({ ...r, fixes: [] }) };
}
