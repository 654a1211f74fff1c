/**
 * The baseline: findings a repository has accepted for now, recorded in a file so that only new findings are
 * reported. The command line writes it (`--write-baseline`) and reads it (`--baseline`); the language server
 * reads the same file from the workspace root. Both match findings against it here.
 *
 * An entry is the file (relative to the folder that holds the baseline file), the rule, and a fingerprint of the
 * offending text: the text the finding marks, the whole line it is on, and the line that encloses it (the nearest
 * line above with less indentation: the YAML parent key, the statement or method around a call). Line numbers are
 * not part of it, so inserting or removing lines elsewhere, or moving a block, keeps a finding hidden; changing
 * the offending line (or its parent line) shows it again. Whitespace runs count as one space, so re-indenting
 * does not count as a change. Messages are kept for people to read and never matched: a rewording in a new
 * release does not bring accepted findings back. Several findings with the same fingerprint in one file are
 * counted: an entry with `count: 2` hides two of them, and a third is reported.
 */
import type { Finding } from "./findings";
import { LineIndex } from "./text";

/** The name the language server looks for in the root of each workspace folder. */
export const BASELINE_FILE_NAME = ".beam-flink-lint-baseline.json";
export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  /** Path relative to the baseline file's folder, with `/`. */
  file: string;
  rule: string;
  fingerprint: string;
  /** How many findings with this fingerprint the entry hides. */
  count: number;
  /** The message when the entry was written, for people reviewing the file. */
  message?: string;
}

export interface Baseline {
  version: typeof BASELINE_VERSION;
  entries: BaselineEntry[];
}

// ---------------------------------------------------------------------------------------------
// Fingerprints

/** FNV-1a, 64 bits, over UTF-16 code units, as 16 hex digits: stable across platforms and runs, no dependency. */
export function fnv1a64(text: string, seed = 0xcbf29ce484222325n): string {
  let hash = seed;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * prime) & mask;
  }
  return hash.toString(16).padStart(16, "0");
}

function normalize(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)?.[0].length ?? 0;
}

/** The nearest non-blank line above `line` that is indented less (the parent of a YAML key, the enclosing code). */
function enclosingLine(index: LineIndex, line: number): string {
  const own = index.lineText(line);
  const indent = indentOf(own);
  if (indent === 0 && own.trim() !== "") return "";
  for (let l = line - 1; l >= 0; l--) {
    const text = index.lineText(l);
    if (text.trim() === "") continue;
    if (indentOf(text) < indent || own.trim() === "") return text;
  }
  return "";
}

/** What a finding's fingerprint is computed from, given the text of its file. */
export function fingerprintSource(f: Finding, text: string, index = new LineIndex(text)): string {
  const { start, end } = f.range;
  const line = index.lineText(start.line);
  const marked = end.line === start.line ? line.slice(start.character, end.character) : line.slice(start.character);
  return [f.rule, normalize(marked), normalize(line), normalize(enclosingLine(index, start.line))].join("\n");
}

/** The fingerprint of a finding (16 hex digits), from the text of its file. */
export function fingerprint(f: Finding, text: string, index?: LineIndex): string {
  return fnv1a64(fingerprintSource(f, text, index));
}

// ---------------------------------------------------------------------------------------------
// Paths

/** `file` relative to `root` (both absolute, with `/`), with `..` when it is outside. */
export function baselinePath(root: string, file: string): string {
  const from = root.split("/").filter((s) => s !== "");
  const to = file.split("/").filter((s) => s !== "");
  if (from[0] !== to[0] && /^[A-Za-z]:$/.test(from[0] ?? "")) return file;
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => ".."), ...to.slice(common)].join("/");
}

// ---------------------------------------------------------------------------------------------
// Matching

export interface BaselineContext {
  /** The folder holding the baseline file (absolute, with `/`); entry paths are relative to it. */
  root: string;
  /** The text a finding's file has now (what the findings were computed from). */
  textOf(file: string): string | undefined;
}

function keyOf(file: string, rule: string, fp: string): string {
  return `${file}\u0000${rule}\u0000${fp}`;
}

/** Computes each finding's baseline key once per file text. */
function keyer(ctx: BaselineContext): (f: Finding) => { file: string; fingerprint: string; key: string } {
  const indexes = new Map<string, { text: string; index: LineIndex } | null>();
  return (f) => {
    let cached = indexes.get(f.file);
    if (cached === undefined) {
      const text = ctx.textOf(f.file);
      cached = text === undefined ? null : { text, index: new LineIndex(text) };
      indexes.set(f.file, cached);
    }
    const file = baselinePath(ctx.root, f.file);
    const fp = cached ? fingerprint(f, cached.text, cached.index) : fnv1a64(`${f.rule}\n(no text)`);
    return { file, fingerprint: fp, key: keyOf(file, f.rule, fp) };
  };
}

export interface BaselineMatch {
  /** The findings the baseline does not hide, in their order. */
  shown: Finding[];
  hidden: Finding[];
  /**
   * Entries (or parts of an entry's count) that matched no finding, among the entries `inScope` says were
   * analysed: what was fixed or changed since the baseline was written. `count` is how many are left over.
   */
  stale: BaselineEntry[];
}

/**
 * Splits findings into those the baseline hides and those it does not. `inScope` (default: every entry) says
 * which entries this run could have matched, by their path relative to the baseline's folder, so that linting
 * one folder does not report the entries of others as stale.
 */
export function applyBaseline(
  baseline: Baseline,
  findings: readonly Finding[],
  ctx: BaselineContext,
  inScope: (file: string) => boolean = () => true,
): BaselineMatch {
  const budget = new Map<string, number>();
  for (const e of baseline.entries) {
    const key = keyOf(e.file, e.rule, e.fingerprint);
    budget.set(key, (budget.get(key) ?? 0) + e.count);
  }
  const key = keyer(ctx);
  const shown: Finding[] = [];
  const hidden: Finding[] = [];
  for (const f of findings) {
    const k = key(f).key;
    const left = budget.get(k) ?? 0;
    if (left > 0) {
      budget.set(k, left - 1);
      hidden.push(f);
    } else shown.push(f);
  }
  const stale: BaselineEntry[] = [];
  const reported = new Set<string>();
  for (const e of baseline.entries) {
    const k = keyOf(e.file, e.rule, e.fingerprint);
    const left = budget.get(k) ?? 0;
    if (left <= 0 || reported.has(k) || !inScope(e.file)) continue;
    reported.add(k);
    stale.push({ ...e, count: left });
  }
  return { shown, hidden, stale };
}

/**
 * The baseline of `findings`: one entry per file, rule and fingerprint, with how many findings share it. Entries
 * of `previous` that `inScope` says this run did not analyse are kept as they are; the others are replaced by
 * what was found (so fixed findings are pruned).
 */
export function createBaseline(
  findings: readonly Finding[],
  ctx: BaselineContext,
  previous?: Baseline,
  inScope: (file: string) => boolean = () => true,
): Baseline {
  const entries = new Map<string, BaselineEntry>();
  for (const e of previous?.entries ?? []) {
    if (inScope(e.file)) continue;
    const k = keyOf(e.file, e.rule, e.fingerprint);
    const known = entries.get(k);
    if (known) known.count += e.count;
    else entries.set(k, { ...e });
  }
  const key = keyer(ctx);
  for (const f of findings) {
    const { file, fingerprint: fp, key: k } = key(f);
    const known = entries.get(k);
    if (known) known.count++;
    else entries.set(k, { file, rule: f.rule, fingerprint: fp, count: 1, message: f.message });
  }
  const sorted = [...entries.values()].sort(
    (a, b) => compare(a.file, b.file) || compare(a.rule, b.rule) || compare(a.fingerprint, b.fingerprint),
  );
  return { version: BASELINE_VERSION, entries: sorted };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// The file

/** The file's text: one entry per line, so that a review diff shows which findings came and went. */
export function formatBaseline(baseline: Baseline): string {
  const lines = baseline.entries.map((e) => {
    const { file, rule, fingerprint: fp, count, message } = e;
    return `    ${JSON.stringify(message === undefined ? { file, rule, fingerprint: fp, count } : { file, rule, fingerprint: fp, count, message })}`;
  });
  const body = lines.length > 0 ? `[\n${lines.join(",\n")}\n  ]` : "[]";
  return `{\n  "version": ${baseline.version},\n  "entries": ${body}\n}\n`;
}

export interface BaselineRead {
  /** What could be read (entries with problems are left out); undefined when the file is not a baseline at all. */
  baseline?: Baseline;
  problems: string[];
}

/** Reads a baseline file; never throws. */
export function parseBaseline(text: string): BaselineRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    return { problems: [`not valid JSON (${e instanceof Error ? e.message : String(e)})`] };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { problems: ["expected an object with `version` and `entries`"] };
  }
  const { version, entries } = raw as { version?: unknown; entries?: unknown };
  if (version !== BASELINE_VERSION) {
    return {
      problems: [`unsupported version ${JSON.stringify(version)} (this release reads version ${BASELINE_VERSION})`],
    };
  }
  if (!Array.isArray(entries)) return { problems: ["`entries` must be a list"] };
  const problems: string[] = [];
  const read: BaselineEntry[] = [];
  entries.forEach((e: unknown, i) => {
    const entry = e as Partial<Record<keyof BaselineEntry, unknown>> | null;
    const count = entry?.count === undefined ? 1 : entry.count;
    if (
      typeof entry !== "object" ||
      entry === null ||
      typeof entry.file !== "string" ||
      typeof entry.rule !== "string" ||
      typeof entry.fingerprint !== "string" ||
      !/^[0-9a-f]{16}$/.test(entry.fingerprint) ||
      typeof count !== "number" ||
      !Number.isInteger(count) ||
      count < 1
    ) {
      problems.push(`entry ${i + 1} is not {file, rule, fingerprint (16 hex digits), count (a positive whole number)}`);
      return;
    }
    read.push({
      file: entry.file,
      rule: entry.rule,
      fingerprint: entry.fingerprint,
      count,
      ...(typeof entry.message === "string" ? { message: entry.message } : {}),
    });
  });
  return { baseline: { version: BASELINE_VERSION, entries: read }, problems };
}
