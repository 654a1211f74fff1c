/**
 * Edits the configuration rules share: renaming a key or replacing a value in the file's own quoting, reading the
 * source text of a range, and dropping fixes where a configuration's ranges are approximate.
 */
import type { Fix, FixSafety } from "../findings";
import type { ConfigEntry, FileFacts, FlinkConfig } from "../model";
import { comparePositions, LineIndex, type Range, type TextEdit } from "../text";
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

// ---------------------------------------------------------------------------------------------
// Edits inside command lines

/** Text that stays one word of a command line in any quoting (shell, YAML list item, JSON string): a key, a value. */
const KEY_WORD = /^[A-Za-z0-9_.-]+$/;
const VALUE_WORD = /^[A-Za-z0-9_./:@%+=][A-Za-z0-9_./:@%+=-]*$/;

const commandLines = new WeakMap<ProjectModel, Map<string, FlinkConfig[]>>();

function commandLinesByFile(project: ProjectModel): Map<string, FlinkConfig[]> {
  let byFile = commandLines.get(project);
  if (!byFile) {
    byFile = new Map();
    for (const c of project.flinkConfigs) {
      if (c.host !== "commandLine" && c.host !== "submission") continue;
      const list = byFile.get(c.file) ?? [];
      list.push(c);
      byFile.set(c.file, list);
    }
    commandLines.set(project, byFile);
  }
  return byFile;
}

function same(a: Range, b: Range): boolean {
  return comparePositions(a.start, b.start) === 0 && comparePositions(a.end, b.end) === 0;
}

function isEmpty(r: Range): boolean {
  return comparePositions(r.start, r.end) === 0;
}

/** Whether an edit changes characters of `r` or writes next to them (which would join the text to them). */
function touches(edit: Range, r: Range): boolean {
  if (isEmpty(edit)) return comparePositions(r.start, edit.start) <= 0 && comparePositions(edit.start, r.end) <= 0;
  if (isEmpty(r)) return comparePositions(edit.start, r.start) < 0 && comparePositions(r.start, edit.end) < 0;
  return comparePositions(edit.start, r.end) < 0 && comparePositions(r.start, edit.end) < 0;
}

function editFits(edit: TextEdit, configs: readonly FlinkConfig[]): boolean {
  for (const config of configs) {
    for (const e of config.entries) {
      if (![e.keyRange, e.valueRange, e.deleteRange].some((r) => touches(edit.range, r))) continue;
      if (config.inexactRanges) return false;
      if (same(edit.range, e.keyRange) && KEY_WORD.test(edit.newText)) continue;
      if (same(edit.range, e.valueRange) && VALUE_WORD.test(edit.newText)) continue;
      if (!isEmpty(e.deleteRange) && same(edit.range, e.deleteRange) && edit.newText === "") continue;
      return false;
    }
  }
  return true;
}

/**
 * The fixes that edit `-Dkey=value` arguments of command lines safely: by replacing a key or a value with text that
 * stays one word (no blank, quote, `$`, `#` or list punctuation that a shell, YAML or JSON would read), or by deleting
 * a whole property written in a split string. Any other edit there (a duration with a blank, `180 ms`; an inserted
 * line; a deletion that would leave an empty list item) could change how the command line is split, so fixes with
 * one are dropped; the finding stays. The engine applies this to every rule's fixes.
 */
export function commandLineSafeFixes(project: ProjectModel, fixes: readonly Fix[]): Fix[] {
  const byFile = commandLinesByFile(project);
  if (byFile.size === 0) return [...fixes];
  return fixes.filter((fix) =>
    fix.changes.every((change) => {
      const configs = byFile.get(change.file);
      return !configs || change.edits.every((edit) => editFits(edit, configs));
    }),
  );
}
