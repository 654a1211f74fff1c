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
 * Kubernetes objects may carry the annotation `beam-flink-lint.io/disable: "BFL101,BFL113"`, which covers that
 * object's document.
 */
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

const DIRECTIVE = /(#|\/\/|<!--)\s*beam-flink-lint-disable-(next-line|line|file)\b([^\n\r]*?)(?:\s*-->)?\s*$/;

/** Where the codes end and the reason begins: the first `--` or `:` (codes and rule names contain neither). */
const REASON = /--|:/;

export function parseSuppressionComments(file: string, index: LineIndex): Suppression[] {
  const out: Suppression[] = [];
  const text = index.text;
  if (!text.includes("beam-flink-lint-disable")) return out;
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    if (!lineText.includes("beam-flink-lint-disable")) continue;
    const m = DIRECTIVE.exec(lineText);
    if (!m) continue;
    const scope = m[2] as "next-line" | "line" | "file";
    // An XML comment ends at its `-->`, even when the line goes on.
    let rest = m[1] === "<!--" ? m[3].split("-->")[0] : m[3];
    let reason: string | undefined;
    const sep = REASON.exec(rest);
    if (sep) {
      reason = rest.slice(sep.index + sep[0].length).trim() || undefined;
      rest = rest.slice(0, sep.index);
    }
    const rules = rest
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    const start = m.index;
    const directiveRange: Range = { start: { line, character: start }, end: { line, character: lineText.length } };
    const ownLine = lineText.slice(0, start).trim() === "";
    const removeRange = ownLine
      ? index.fullLineRange(line)
      : {
          start: { line, character: lineText.slice(0, start).replace(/\s+$/, "").length },
          end: { line, character: lineText.length },
        };
    let covers: Range;
    if (scope === "file") covers = { start: { line: 0, character: 0 }, end: { line: index.lineCount, character: 0 } };
    else {
      const target = scope === "line" ? line : line + 1;
      covers = { start: { line: target, character: 0 }, end: { line: target, character: Number.MAX_SAFE_INTEGER } };
    }
    out.push({ file, scope, rules, reason, range: directiveRange, covers, removeRange });
  }
  return out;
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
