/**
 * The Beam APIs whose behaviour depends on the Beam version (KafkaIO's `commitOffsetsInFinalize`, `PubsubIO.read…`,
 * the `use_deprecated_read` experiment), read from a lowered Scala or Kotlin file: the calls and string literals of
 * the shared syntax tree, so comments never count and Scala's calls without parentheses do.
 */
import type { Location } from "../../findings";
import type { Expr } from "../../jobcode/ir";
import type { JobApiUsage } from "../../model";
import type { LineIndex } from "../../text";
import type { Lowered } from "./treeSitterReader";

const EXPERIMENT = "use_deprecated_read";

/** The names the APIs are written with: most files hold none, and then nothing is walked. */
const JOB_API_WORDS = /commitOffsetsInFinalize|PubsubIO|use_deprecated_read/g;

export function jobApiUsage(file: string, text: string, index: LineIndex, lowered: Lowered): JobApiUsage {
  const usage: JobApiUsage = { commitOffsetsInFinalize: [], pubsubRead: [], useDeprecatedRead: [] };
  // Only the parts of the tree that span one of the words are walked (most members of a large file hold none).
  const hits: number[] = [];
  for (const m of text.matchAll(JOB_API_WORDS)) hits.push(m.index);
  if (hits.length === 0) return usage;
  const at = (start: number, end: number): Location => ({ file, range: index.rangeOf(start, end) });
  // The lowered tree is walked without recursion: its depth is bounded by the lowering, its breadth is not.
  const found: { list: Location[]; start: number; end: number }[] = [];
  const record = (list: Location[], start: number, end: number) => found.push({ list, start, end });
  const spansHit = (start: number, end: number): boolean => {
    let lo = 0;
    let hi = hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (hits[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < hits.length && hits[lo] < end;
  };
  const stack: unknown[] = [lowered.members, lowered.stmts];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === "object") stack.push(item);
      continue;
    }
    if (!value || typeof value !== "object") continue;
    const node = value as Partial<Expr> & Record<string, unknown>;
    if (typeof node.start === "number" && typeof node.end === "number" && !spansHit(node.start, node.end)) continue;
    if (node.k === "literal" && (node.type === "string" || node.type === "text")) {
      const { image, start } = node as Expr & { k: "literal" };
      for (let from = image.indexOf(EXPERIMENT); from >= 0; from = image.indexOf(EXPERIMENT, from + 1)) {
        record(usage.useDeprecatedRead, start + from, start + from + EXPERIMENT.length);
      }
    } else if (node.k === "call" || (node.k === "field" && node.target !== undefined)) {
      // (A field member, `val x = …` of a class, has the same kind and no target.)
      const call = node as Expr & { k: "call" | "field" };
      const nameEnd = call.k === "call" ? call.nameEnd : call.nameStart + call.name.length;
      if (call.name === "commitOffsetsInFinalize") record(usage.commitOffsetsInFinalize, call.nameStart, nameEnd);
      else if (call.name.startsWith("read") && call.target?.k === "name" && call.target.name === "PubsubIO") {
        // `PubsubIO.readStrings` as one range when written on one line, else the method name alone.
        const sameLine = index.positionAt(call.target.start).line === index.positionAt(nameEnd).line;
        record(usage.pubsubRead, sameLine ? call.target.start : call.nameStart, nameEnd);
      }
    }
    for (const key in node) {
      const child = node[key];
      if (child && typeof child === "object") stack.push(child);
    }
  }
  // In file order, as the token scan of Java files gives them.
  found.sort((a, b) => a.start - b.start);
  for (const { list, start, end } of found) list.push(at(start, end));
  return usage;
}
