/**
 * Suppression comments and annotations.
 *
 *   # beam-flink-lint-disable-next-line BFL101 -- reason      (YAML, properties, TOML, Dockerfile, shell)
 *   // beam-flink-lint-disable-next-line BFL401 -- reason     (Java, Gradle, Kotlin, launch.json)
 *   <!-- beam-flink-lint-disable-next-line BFL301: reason -->  (XML)
 *   beam-flink-lint-disable-line CODE      the same line (as a trailing comment)
 *   beam-flink-lint-disable-file CODE      the whole file
 *
 * Codes may be rule codes or names, separated by commas or spaces; none means every rule. The reason follows
 * `--` or `:` after the codes; XML comments must use the colon, because `--` may not appear inside them.
 * Only real comments of the file's syntax count (see comments.ts): text in a string that looks like a directive is
 * not one. Java, Gradle and Kotlin also take block comments: `/* beam-flink-lint-disable-line BFL401 *\/`.
 * Kubernetes objects may carry the annotation `beam-flink-lint.io/disable: "BFL101,BFL113"`, which covers that
 * object's document.
 */

import { type CommentSyntax, scanComments } from "./comments";
import { isFlinkConfName } from "./documents/flinkConfig/file";
import { isDockerfileName } from "./fileNames";
import type { Finding } from "./findings";
import type { K8sObject } from "./model";
import { type LineIndex, type Range, rangeContains } from "./text";

export type SuppressionScope = "next-line" | "line" | "file" | "object";

export interface Suppression {
  file: string;
  scope: SuppressionScope;
  /** Codes or names; empty = all rules. */
  rules: string[];
  reason?: string;
  /** The directive (comment or annotation) itself: where BFL001 points and what its fix removes. */
  range: Range;
  /** The range the suppression covers. */
  covers: Range;
  /** What removing the directive deletes: the whole line for a comment on its own line, else the comment. */
  removeRange: Range;
}

/** The directive at the start of a comment's text. */
const DIRECTIVE = /^\s*beam-flink-lint-disable-(next-line|line|file)\b/;

/** Where the codes end and the reason begins: the first `--` or `:` (codes and rule names contain neither). */
const REASON = /--|:/;

/** The comment syntax of a file, from its name; `legacy` for a flink-conf.yaml Flink reads line by line. */
export function commentSyntaxFor(file: string, legacy = isFlinkConfName(file)): CommentSyntax {
  const name = file.slice(file.lastIndexOf("/") + 1).toLowerCase();
  if (legacy) return "legacy";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
  if (name.endsWith(".xml")) return "xml";
  if (name.endsWith(".toml")) return "toml";
  if (name.endsWith(".properties")) return "properties";
  if (isDockerfileName(name)) return "dockerfile";
  if (name.endsWith(".sh")) return "shell";
  if (name.endsWith(".sql")) return "sql";
  if (/\.(java|gradle|kts|kt|scala|sbt|groovy|json|jsonc)$/.test(name)) return "c";
  return "yaml";
}

/**
 * The suppression directives of a file: comments (in the file's own syntax, so never text inside a string) whose
 * text starts with `beam-flink-lint-disable-…`.
 */
export function parseSuppressionComments(
  file: string,
  index: LineIndex,
  syntax: CommentSyntax = commentSyntaxFor(file),
): Suppression[] {
  const out: Suppression[] = [];
  const text = index.text;
  if (!text.includes("beam-flink-lint-disable")) return out;
  for (const comment of scanComments(text, syntax)) {
    const body = text.slice(comment.bodyStart, comment.bodyEnd);
    const m = DIRECTIVE.exec(body);
    if (!m) continue;
    const scope = m[1] as "next-line" | "line" | "file";
    // The codes and the reason are on the directive's line.
    let rest = body.slice(m[0].length).split(/\r?\n|\r/, 1)[0];
    let reason: string | undefined;
    const sep = REASON.exec(rest);
    if (sep) {
      reason = rest.slice(sep.index + sep[0].length).trim() || undefined;
      rest = rest.slice(0, sep.index);
    }
    const rules = rest
      .split(/[\s,]+/)
      .map((x) => x.trim())
      .filter(Boolean);
    const first = index.positionAt(comment.start);
    const last = index.positionAt(comment.end);
    const range: Range = { start: first, end: last };
    let covers: Range;
    if (scope === "file") covers = { start: { line: 0, character: 0 }, end: { line: index.lineCount, character: 0 } };
    else {
      const target = scope === "line" ? first.line : last.line + 1;
      covers = { start: { line: target, character: 0 }, end: { line: target, character: Number.MAX_SAFE_INTEGER } };
    }
    out.push({ file, scope, rules, reason, range, covers, removeRange: removal(index, comment.start, comment.end) });
  }
  return out;
}

/**
 * What removing a comment deletes: its whole lines when nothing else is on them; else the comment and the blanks
 * before it, so `key: 1  # …` becomes `key: 1` and `a /* … *\/ b` becomes `a b`.
 */
function removal(index: LineIndex, start: number, end: number): Range {
  const text = index.text;
  const first = index.positionAt(start);
  const last = index.positionAt(end);
  const lineStart = index.lineStarts[first.line];
  const lineEnd = index.lineEnd(last.line);
  const alone = text.slice(lineStart, start).trim() === "" && text.slice(end, lineEnd).trim() === "";
  if (alone) {
    const after = index.fullLineRange(last.line);
    return { start: { line: first.line, character: 0 }, end: after.end };
  }
  let from = start;
  while (from > lineStart && (text[from - 1] === " " || text[from - 1] === "\t")) from--;
  return { start: index.positionAt(from), end: last };
}

export function annotationSuppressions(objects: K8sObject[]): Suppression[] {
  const out: Suppression[] = [];
  for (const o of objects) {
    const d = o.disabledRules;
    if (!d) continue;
    out.push({
      file: o.file,
      scope: "object",
      rules: d.value,
      range: d.range,
      covers: o.range,
      removeRange: d.range,
    });
  }
  return out;
}

export function suppressionMatches(s: Suppression, f: Finding): boolean {
  if (s.file !== f.file) return false;
  if (s.rules.length > 0 && !s.rules.some((r) => r === f.rule || r === f.name)) return false;
  if (s.scope === "file") return true;
  if (s.scope === "object") return rangeContains(s.covers, f.range);
  return f.range.start.line === s.covers.start.line;
}
