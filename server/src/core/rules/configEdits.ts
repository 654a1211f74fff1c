/**
 * Edits the configuration rules share: renaming a key or replacing a value in the file's own quoting, reading the
 * source text of a range, and dropping fixes where a configuration's ranges are approximate.
 */
import type { Fix, FixSafety } from "../findings";
import type { ConfigEntry, FileFacts, FlinkConfig } from "../model";
import { LineIndex, type Range, type TextEdit } from "../text";
import type { ProjectModel } from "../workspace/project";
import type { RuleContext } from "./types";

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
