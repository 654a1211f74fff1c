/**
 * Builds value expressions from source text with exact ranges, shared by the build-file readers.
 */
import { emptyFacts, type FileFacts, type FileKind, type SyntaxProblem } from "../../model";
import type { LineIndex } from "../../text";
import type { GradleFacts, RawDependency, SymbolDefinition, TextPart, ValueExpr, ValuePart } from "./facts";

/** Literal text at [start, end) of the source; exact unless the text differs from the source or spans lines. */
export function textPart(index: LineIndex, text: string, start: number, end: number, exact = true): TextPart {
  const range = index.rangeOf(start, end);
  return { text, range, exact: exact && range.start.line === range.end.line && end - start === text.length };
}

export function exprOf(index: LineIndex, parts: ValuePart[], start: number, end: number): ValueExpr {
  return { parts, range: index.rangeOf(start, end) };
}

export function computedExpr(index: LineIndex, start: number, end: number): ValueExpr {
  const range = index.rangeOf(start, end);
  return { parts: [{ computed: true, range }], range };
}

/**
 * Splits `a-${name}-b` into text and references (Maven properties, and the same syntax in catalogs). An unclosed
 * `${` is kept as text: Maven leaves it alone too.
 */
export function placeholderExpr(index: LineIndex, raw: string, start: number, exact = true): ValueExpr {
  const parts: ValuePart[] = [];
  let i = 0;
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) parts.push(textPart(index, raw.slice(textStart, end), start + textStart, start + end, exact));
  };
  while (i < raw.length) {
    const open = raw.indexOf("${", i);
    if (open < 0) break;
    const close = raw.indexOf("}", open + 2);
    if (close < 0) break;
    flushText(open);
    const name = raw.slice(open + 2, close).trim();
    parts.push({ ref: name, range: index.rangeOf(start + open, start + close + 1) });
    i = close + 1;
    textStart = i;
  }
  flushText(raw.length);
  return exprOf(index, parts, start, start + raw.length);
}

/** The text of an expression made only of literal parts; undefined when it holds references or computed parts. */
export function literalText(expr: ValueExpr | undefined): string | undefined {
  if (!expr) return undefined;
  let out = "";
  for (const p of expr.parts) {
    if (!("text" in p)) return undefined;
    out += p.text;
  }
  return out;
}

/**
 * The facts of a build file whose reader gives module IDs and string constants as a Gradle script's (sbt, Bazel),
 * with the reader's problems as warnings.
 */
export function moduleBuildFacts(
  file: string,
  kind: FileKind,
  text: string,
  dsl: GradleFacts["dsl"],
  read: { definitions: SymbolDefinition[]; dependencies: RawDependency[] },
  problems: { start: number; end: number; message: string }[],
  index: LineIndex,
): FileFacts {
  const facts = emptyFacts(file, kind, text);
  facts.build = { kind: "gradle", dsl, definitions: read.definitions, dependencies: read.dependencies, plugins: [] };
  facts.syntaxErrors = problems.map(
    (p): SyntaxProblem => ({ range: index.rangeOf(p.start, p.end), message: p.message, severity: "warning" }),
  );
  return facts;
}
