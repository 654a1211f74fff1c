/**
 * Flink's legacy flink-conf.yaml reader, mirrored line by line (GlobalConfiguration.loadYAMLResource):
 * cut the comment at `^#|\s+#`, trim, split once on ": ", skip lines without it or with an empty key or value;
 * a later duplicate wins. The file is not YAML: `key: a: b` has the value `a: b`, `key:value` is skipped.
 */
import type { ConfigEntry, IgnoredLine } from "../../model";
import type { LineIndex, Range } from "../../text";
import { hasTemplate } from "../yaml/ast";

/** One line of configuration text and where it starts in the host file (embedded blocks are indented). */
export interface SourceLine {
  text: string;
  line: number;
  character: number;
  /** The last line of the host file: deleting it cannot take a line break after it. */
  last?: boolean;
  /** The text as the YAML parser is to read it, where it differs: Helm template actions masked. */
  parsed?: string;
}

export function fileLines(index: LineIndex): SourceLine[] {
  const out: SourceLine[] = [];
  for (let line = 0; line < index.lineCount; line++) {
    out.push({ text: index.lineText(line), line, character: 0, last: line === index.lineCount - 1 });
  }
  return out;
}

const COMMENT = /^#|\s+#/;

export interface LegacyReadResult {
  entries: ConfigEntry[];
  ignoredLines: IgnoredLine[];
}

export function readLegacyLines(lines: readonly SourceLine[]): LegacyReadResult {
  const entries: ConfigEntry[] = [];
  const ignoredLines: IgnoredLine[] = [];
  for (const src of lines) {
    const commentAt = src.text.search(COMMENT);
    const content = commentAt >= 0 ? src.text.slice(0, commentAt) : src.text;
    const lead = content.length - content.trimStart().length;
    const conf = content.trim();
    if (conf.length === 0) continue;
    const at = (from: number, to: number): Range => ({
      start: { line: src.line, character: src.character + from },
      end: { line: src.line, character: src.character + to },
    });
    const confRange = at(lead, lead + conf.length);
    const sep = conf.indexOf(": ");
    if (sep < 0) {
      ignoredLines.push({ range: confRange, reason: "no-separator", text: conf });
      continue;
    }
    const rawKey = conf.slice(0, sep);
    const rawValue = conf.slice(sep + 2);
    const key = rawKey.trim();
    const value = rawValue.trim();
    if (key.length === 0 || value.length === 0) {
      ignoredLines.push({ range: confRange, reason: key.length === 0 ? "empty-key" : "empty-value", text: conf });
      continue;
    }
    const keyStart = lead + (rawKey.length - rawKey.trimStart().length);
    const valueStart = lead + sep + 2 + (rawValue.length - rawValue.trimStart().length);
    entries.push({
      key,
      value,
      keyRange: at(keyStart, keyStart + key.length),
      valueRange: at(valueStart, valueStart + value.length),
      deleteRange: {
        start: { line: src.line, character: 0 },
        end: src.last
          ? { line: src.line, character: src.character + src.text.length }
          : { line: src.line + 1, character: 0 },
      },
      nested: false,
      templated: hasTemplate(value),
      valueKind: "scalar",
    });
  }
  return { entries, ignoredLines };
}

/** An indented line under `parent:` lines: written as nested YAML, which the line reader reads as a flat key. */
export interface NestedLine {
  /** The key as Flink reads it. */
  key: string;
  /** The key the author meant (`execution.checkpointing.interval`). */
  intended: string;
  keyRange: Range;
}

/** The first nested line under each top-level parent line (one report per block is enough to explain it). */
export function findNestedLines(lines: readonly SourceLine[]): NestedLine[] {
  const out: NestedLine[] = [];
  const parents: { indent: number; name: string }[] = [];
  let reported = false;
  for (const src of lines) {
    const commentAt = src.text.search(COMMENT);
    const content = (commentAt >= 0 ? src.text.slice(0, commentAt) : src.text).trimEnd();
    const conf = content.trim();
    if (conf.length === 0) continue;
    const indent = content.length - content.trimStart().length;
    while (parents.length > 0 && parents[parents.length - 1].indent >= indent) parents.pop();
    if (parents.length === 0) reported = false;
    if (conf.endsWith(":") && !conf.includes(": ")) {
      parents.push({ indent, name: conf.slice(0, -1).trim() });
      continue;
    }
    const sep = conf.indexOf(": ");
    if (parents.length === 0 || reported || sep <= 0) continue;
    const key = conf.slice(0, sep).trim();
    out.push({
      key,
      intended: [...parents.map((p) => p.name), key].join("."),
      keyRange: {
        start: { line: src.line, character: src.character + indent },
        end: { line: src.line, character: src.character + indent + key.length },
      },
    });
    reported = true;
  }
  return out;
}
