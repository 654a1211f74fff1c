/**
 * Values in Gradle scripts: strings with their interpolations, references to variables and properties
 * (`beamVersion`, `ext.beamVersion`, `property("x")`, `extra["x"]`, `libs.versions.beam.get()`), `+`
 * concatenations, map literals, and calls such as `platform(…)`. Anything else is a computed part.
 */
import type { LineIndex } from "../../../text";
import type { ValueExpr, ValuePart } from "../facts";
import { computedExpr, exprOf, literalText, textPart } from "../values";
import type { Dsl, StringSegment, Token } from "./tokenizer";

/** Calls whose argument is not an external module (project and file dependencies, Gradle's own). */
const NON_MODULE_CALLS = new Set([
  "project",
  "files",
  "fileTree",
  "gradleApi",
  "localGroovy",
  "gradleTestKit",
  "kotlin",
  "testFixtures",
  "variantOf",
  "npm",
]);
const PROPERTY_CALLS = new Set(["property", "findProperty", "getProperty", "gradleProperty"]);
/** Members that leave a value as it is: `libs.versions.beam.get()`, `x.toString()`, `x!!`. */
const TRANSPARENT_CALLS = new Set(["get", "toString"]);
const SCOPE_PREFIXES = new Set(["project", "rootProject", "ext", "extra", "properties", "providers"]);

/** What an expression turned out to be: a value, or a call the dependency notation cares about. */
export type Parsed =
  | { kind: "value"; value: ValueExpr }
  | { kind: "call"; name: string; args: Arg[]; start: number; end: number }
  | {
      kind: "map";
      entries: { key: string; keyStart: number; keyEnd: number; value: Parsed }[];
      start: number;
      end: number;
    };

export interface Arg {
  name?: string;
  value: Parsed;
}

/** Parentheses, calls and maps nest a few levels in a build script; deeper values are read as computed. */
const MAX_NESTING = 100;

export class ExpressionReader {
  private nesting = 0;

  constructor(
    protected readonly tokens: Token[],
    protected readonly index: LineIndex,
    protected readonly dsl: Dsl,
  ) {}

  /**
   * Arguments up to `closer` (`)`), or Groovy command arguments up to the end of the line (a trailing comma
   * continues them), a closure `{`, or a `}`.
   */
  protected argumentList(i: number, closer: string | undefined): { args: Arg[]; next: number } {
    const t = this.tokens;
    const args: Arg[] = [];
    let j = i;
    for (;;) {
      while (closer && t[j]?.kind === "newline") j++;
      const tok = t[j];
      if (
        !tok ||
        tok.text === closer ||
        (!closer && (tok.kind === "newline" || tok.text === "{" || tok.text === "}" || tok.text === ";"))
      )
        break;
      let name: string | undefined;
      const sep = t[j + 1]?.text;
      if ((tok.kind === "ident" || tok.kind === "string") && (sep === ":" || (sep === "=" && this.dsl === "kotlin"))) {
        name = tok.kind === "string" ? stringValue(tok) : tok.text;
        j += 2;
      }
      const { parsed, next } = this.expression(j);
      args.push(name ? { name, value: parsed } : { value: parsed });
      j = next;
      if (t[j]?.text !== ",") break;
      j++;
      while (t[j]?.kind === "newline") j++;
    }
    if (closer && t[j]?.text === closer) j++;
    return { args, next: j };
  }

  /** A value: strings, references, `+` concatenations, map literals, calls; anything else is computed. */
  protected expression(i: number): { parsed: Parsed; next: number } {
    if (this.nesting >= MAX_NESTING) {
      const end = this.skipRest(i);
      const start = this.tokens[i]?.start ?? this.index.text.length;
      const value = computedExpr(this.index, start, end > i ? this.tokens[end - 1].end : start);
      return { parsed: { kind: "value", value }, next: end };
    }
    this.nesting++;
    try {
      return this.operands(i);
    } finally {
      this.nesting--;
    }
  }

  private operands(i: number): { parsed: Parsed; next: number } {
    const t = this.tokens;
    const first = this.primary(i);
    let parsed = first.parsed;
    let j = first.next;
    while (t[j]?.text === "+" && parsed.kind === "value") {
      const rhs = this.primary(j + 1);
      if (rhs.parsed.kind !== "value") break;
      const parts = [...parsed.value.parts, ...rhs.parsed.value.parts];
      parsed = {
        kind: "value",
        value: { parts, range: { start: parsed.value.range.start, end: rhs.parsed.value.range.end } },
      };
      j = rhs.next;
    }
    const end = this.skipRest(j);
    if (end > j) {
      const start = this.tokens[i]?.start ?? 0;
      return { parsed: { kind: "value", value: computedExpr(this.index, start, t[end - 1].end) }, next: end };
    }
    return { parsed, next: j };
  }

  /** Skips to the end of the current argument or statement (a `,`, a closing bracket, the end of the line). */
  protected skipRest(j: number): number {
    const t = this.tokens;
    let depth = 0;
    for (; j < t.length; j++) {
      const x = t[j].text;
      if (depth === 0 && (x === "," || x === ")" || x === "]" || x === "}" || x === ";" || t[j].kind === "newline"))
        break;
      if (depth === 0 && x === "{") break;
      if (x === "(" || x === "[" || x === "{") depth++;
      if (x === ")" || x === "]" || x === "}") depth--;
    }
    return j;
  }

  protected primary(i: number): { parsed: Parsed; next: number } {
    const t = this.tokens;
    const tok = t[i];
    if (!tok)
      return {
        parsed: { kind: "value", value: computedExpr(this.index, this.index.text.length, this.index.text.length) },
        next: i,
      };
    if (tok.kind === "string")
      return { parsed: { kind: "value", value: this.stringExpr(tok) }, next: this.postfix(i + 1) };
    if (tok.kind === "number") {
      return {
        parsed: {
          kind: "value",
          value: exprOf(this.index, [textPart(this.index, tok.text, tok.start, tok.end)], tok.start, tok.end),
        },
        next: i + 1,
      };
    }
    if (tok.text === "(") {
      const inner = this.expression(i + 1);
      return { parsed: inner.parsed, next: t[inner.next]?.text === ")" ? this.postfix(inner.next + 1) : inner.next };
    }
    if (tok.text === "[") return this.groovyMap(i);
    if (tok.kind === "ident") return this.chainExpression(i);
    return { parsed: { kind: "value", value: computedExpr(this.index, tok.start, tok.end) }, next: i + 1 };
  }

  /** `x.toString()`, `x.get()`, `x as String`, `x!!` leave the value as it is. */
  protected postfix(j: number): number {
    const t = this.tokens;
    for (;;) {
      if (t[j]?.text === "!!") j++;
      else if (t[j]?.text === "as" && t[j + 1]?.kind === "ident") j += 2;
      else if (
        t[j]?.text === "." &&
        TRANSPARENT_CALLS.has(t[j + 1]?.text ?? "") &&
        t[j + 2]?.text === "(" &&
        t[j + 3]?.text === ")"
      )
        j += 4;
      else return j;
    }
  }

  protected chainExpression(i: number): { parsed: Parsed; next: number } {
    const t = this.tokens;
    const chain = this.identChain(i) as { names: string[]; end: number };
    const start = t[i].start;
    let names = chain.names;
    let j = chain.end;
    const last = names[names.length - 1];
    if (t[j]?.text === "(") {
      // `property("x")`, `findProperty("x")`, `providers.gradleProperty("x").get()`
      if (PROPERTY_CALLS.has(last) && t[j + 1]?.kind === "string" && t[j + 2]?.text === ")") {
        const after = this.postfix(j + 3);
        if (last === "gradleProperty" && after === j + 3) return this.computedUpTo(i, after);
        return this.refValue(stringValue(t[j + 1]), start, t[after - 1].end, after);
      }
      if (last === "mapOf") return this.kotlinMap(i, j);
      const { args, next } = this.argumentList(j + 1, ")");
      const after = this.postfix(next);
      if (TRANSPARENT_CALLS.has(last) && args.length === 0 && names.length > 1) {
        names = names.slice(0, -1);
      } else {
        return { parsed: { kind: "call", name: names.join("."), args, start, end: t[next - 1].end }, next: after };
      }
      j = after;
    }
    // `extra["x"]`, `project.ext["x"]`
    if (t[j]?.text === "[" && t[j + 1]?.kind === "string" && t[j + 2]?.text === "]") {
      const scoped = stripScope(names);
      if (scoped.length === 0) {
        const after = this.postfix(j + 3);
        return this.refValue(stringValue(t[j + 1]), start, t[after - 1].end, after);
      }
      return this.computedUpTo(i, j + 3);
    }
    const after = this.postfix(j);
    const ref = stripScope(names).join(".");
    if (!ref || NON_MODULE_CALLS.has(ref)) return this.computedUpTo(i, after);
    return this.refValue(ref, start, t[after - 1].end, after);
  }

  protected refValue(ref: string, start: number, end: number, next: number): { parsed: Parsed; next: number } {
    const range = this.range(start, end);
    return { parsed: { kind: "value", value: { parts: [{ ref, range }], range } }, next };
  }

  protected computedUpTo(i: number, next: number): { parsed: Parsed; next: number } {
    return {
      parsed: { kind: "value", value: computedExpr(this.index, this.tokens[i].start, this.tokens[next - 1].end) },
      next,
    };
  }

  /** `a.b.c` (also `a?.b`): the names and the index after the chain. */
  protected identChain(i: number): { names: string[]; end: number } | undefined {
    const t = this.tokens;
    if (t[i]?.kind !== "ident") return undefined;
    const names = [t[i].text];
    let j = i + 1;
    while ((t[j]?.text === "." || t[j]?.text === "?.") && t[j + 1]?.kind === "ident") {
      names.push(t[j + 1].text);
      j += 2;
    }
    return { names, end: j };
  }

  /** Groovy `[key: value, …]` (a map); lists and anything else are computed. */
  protected groovyMap(i: number): { parsed: Parsed; next: number } {
    const t = this.tokens;
    const entries: { key: string; keyStart: number; keyEnd: number; value: Parsed }[] = [];
    let j = i + 1;
    for (;;) {
      while (t[j]?.kind === "newline") j++;
      const key = t[j];
      if (!key || key.text === "]" || (key.kind !== "ident" && key.kind !== "string") || t[j + 1]?.text !== ":") break;
      const { parsed, next } = this.expression(j + 2);
      entries.push({
        key: key.kind === "string" ? stringValue(key) : key.text,
        keyStart: key.start,
        keyEnd: key.end,
        value: parsed,
      });
      j = next;
      while (t[j]?.kind === "newline") j++;
      if (t[j]?.text !== ",") break;
      j++;
    }
    while (t[j]?.kind === "newline") j++;
    if (t[j]?.text === "]" && entries.length > 0) {
      return { parsed: { kind: "map", entries, start: t[i].start, end: t[j].end }, next: j + 1 };
    }
    return this.computedUpTo(i, this.closing(i) + 1);
  }

  /** Kotlin `mapOf("key" to value, …)` with `open` at the `(`. */
  protected kotlinMap(i: number, open: number): { parsed: Parsed; next: number } {
    const t = this.tokens;
    const entries: { key: string; keyStart: number; keyEnd: number; value: Parsed }[] = [];
    let j = open + 1;
    for (;;) {
      while (t[j]?.kind === "newline") j++;
      const key = t[j];
      if (key?.kind !== "string" || t[j + 1]?.text !== "to") break;
      const { parsed, next } = this.expression(j + 2);
      entries.push({ key: stringValue(key), keyStart: key.start, keyEnd: key.end, value: parsed });
      j = next;
      while (t[j]?.kind === "newline") j++;
      if (t[j]?.text !== ",") break;
      j++;
    }
    while (t[j]?.kind === "newline") j++;
    if (t[j]?.text === ")" && entries.length > 0) {
      return { parsed: { kind: "map", entries, start: t[i].start, end: t[j].end }, next: j + 1 };
    }
    return this.computedUpTo(i, this.closing(open) + 1);
  }

  /** Index of the bracket closing the one at `open` (or the last token). */
  protected closing(open: number): number {
    const t = this.tokens;
    let depth = 0;
    for (let j = open; j < t.length; j++) {
      if (t[j].text === "(" || t[j].text === "[" || t[j].text === "{") depth++;
      else if ((t[j].text === ")" || t[j].text === "]" || t[j].text === "}") && --depth === 0) return j;
    }
    return t.length - 1;
  }

  protected stringExpr(tok: Token): ValueExpr {
    const parts = (tok.segments ?? []).map((s) => this.segmentPart(s));
    return exprOf(this.index, parts, tok.contentStart ?? tok.start, tok.contentEnd ?? tok.end);
  }

  protected segmentPart(s: StringSegment): ValuePart {
    if (s.kind === "text") return textPart(this.index, s.text, s.start, s.end, s.exact);
    const range = this.range(s.start, s.end);
    // Interpolations hold their own tokens: read them with a reader of their own.
    const inner = new ExpressionReader(s.tokens, this.index, this.dsl);
    const { parsed, next } = inner.expression(0);
    if (parsed.kind === "value" && next === s.tokens.length && parsed.value.parts.length === 1) {
      const part = parsed.value.parts[0];
      if ("ref" in part) return { ref: part.ref, range };
      if ("text" in part) return { ...part };
    }
    return { computed: true, range };
  }

  protected range(start: number, end: number) {
    return this.index.rangeOf(start, end);
  }
}

/** `project.ext.x` → `x`: scope qualifiers do not change which property is meant. */
function stripScope(names: string[]): string[] {
  let k = 0;
  while (k < names.length && SCOPE_PREFIXES.has(names[k])) k++;
  return names.slice(k);
}

export function stringValue(tok: Token): string {
  return (tok.segments ?? [])
    .map((s) => (s.kind === "text" ? s.text : tok.text.slice(s.start - tok.start, s.end - tok.start)))
    .join("");
}

export function literalOf(p: Parsed): string | undefined {
  return p.kind === "value" ? literalText(p.value) : undefined;
}

export function toValue(p: Parsed, index: LineIndex): ValueExpr {
  if (p.kind === "value") return p.value;
  return computedExpr(index, p.start, p.end);
}
