/**
 * SQL strings in job code: the arguments of `executeSql`, `sqlQuery`, `sqlUpdate`, `addInsertSql` (Java, Scala,
 * Kotlin) and `execute_sql`, `sql_query`, `add_insert_sql` (Python), decoded with the host offset of every
 * character, so that findings point at the exact characters of the host file.
 *
 * Decoded: Java strings and text blocks (escapes, incidental indentation, `\<newline>`), Scala and Kotlin strings
 * (raw triple-quoted strings too, with `.stripMargin`, `.trimIndent()`, `.trimMargin()`; Scala `s"…"` and Kotlin
 * templates), Python strings (all quote forms, `r` and `f` prefixes, escapes), parts joined by `+` (or written side
 * by side, in Python), and formatting (`String.format`, `.formatted`, `.format`, Python's `%`). A name is followed
 * to its definition in the same file. What is not a literal (a parameter, a call, a template's expression, a
 * format conversion) becomes `${…}` over its own text: the SQL reads it as a value filled in at run time. An
 * argument with no literal part at all is not read: its SQL is not known.
 */
import { withoutComments } from "../../comments";
import { type Token, tokenize } from "../java/tokens";
import type { SqlPiece } from "./reader";
import { scanSql } from "./scanner";

const JVM_METHODS = new Set(["executeSql", "sqlQuery", "sqlUpdate", "addInsertSql"]);

/** A quick test before tokenizing a whole file: does it name any of the methods? */
export function mayHoldSql(text: string, python: boolean): boolean {
  return python
    ? /\b(execute_sql|sql_query|sql_update|add_insert_sql)\s*\(/.test(text)
    : /\b(executeSql|sqlQuery|sqlUpdate|addInsertSql)\s*\(/.test(text);
}

interface Decoded {
  chars: string[];
  starts: number[];
  ends: number[];
}

function emptyDecoded(): Decoded {
  return { chars: [], starts: [], ends: [] };
}

function push(d: Decoded, ch: string, start: number, end: number): void {
  d.chars.push(ch);
  d.starts.push(start);
  d.ends.push(end);
}

function append(into: Decoded, from: Decoded): void {
  for (let i = 0; i < from.chars.length; i++) push(into, from.chars[i], from.starts[i], from.ends[i]);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  b: "\b",
  r: "\r",
  f: "\f",
  s: " ",
  "0": "\0",
  '"': '"',
  "'": "'",
  "\\": "\\",
};

/**
 * Decodes `text[from, to)` of a host string with C-style escapes into `out`. Returns false on an escape it does not
 * know (the piece is then not read rather than mapped wrongly).
 */
function decodeEscapes(text: string, from: number, to: number, out: Decoded, python: boolean): boolean {
  let i = from;
  while (i < to) {
    const c = text[i];
    if (c !== "\\") {
      push(out, c, i, i + 1);
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      push(out, String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16)), i, i + 6);
      i += 6;
    } else if (e >= "0" && e <= "7") {
      let j = i + 1;
      while (j < i + 4 && j < to && text[j] >= "0" && text[j] <= "7") j++;
      push(out, String.fromCharCode(Number.parseInt(text.slice(i + 1, j), 8)), i, j);
      i = j;
    } else if (e in SIMPLE_ESCAPES && !(python && e === "s")) {
      push(out, SIMPLE_ESCAPES[e], i, i + 2);
      i += 2;
    } else if (e === "\n") {
      i += 2; // a line continuation
    } else if (python) {
      // Python keeps an unknown escape as written.
      push(out, "\\", i, i + 1);
      i++;
    } else return false;
  }
  return true;
}

/** Lines of `text[from, to)` as [start, end) offsets, without their line breaks. */
function lineSpans(text: string, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  let s = from;
  for (let i = from; i < to; i++) {
    if (text[i] !== "\n") continue;
    out.push([s, i > s && text[i - 1] === "\r" ? i - 1 : i]);
    s = i + 1;
  }
  out.push([s, to]);
  return out;
}

function indentOf(text: string, s: number, e: number): number {
  let i = s;
  while (i < e && (text[i] === " " || text[i] === "\t")) i++;
  return i - s;
}

/** A Java text block `"""…"""`: incidental indentation and trailing spaces stripped, then escapes (JLS 3.10.6). */
function javaTextBlock(text: string, t: Token): Decoded | undefined {
  const open = text.indexOf("\n", t.start + 3);
  const close = t.end - 3;
  if (open < 0 || open >= close || !text.startsWith('"""', close)) return undefined;
  const lines = lineSpans(text, open + 1, close);
  const last = lines[lines.length - 1];
  const closingLineBlank = text.slice(last[0], last[1]).trim() === "";
  let min = Number.POSITIVE_INFINITY;
  for (const [s, e] of lines) {
    const blank = text.slice(s, e).trim() === "";
    if (!blank || (closingLineBlank && s === last[0])) min = Math.min(min, indentOf(text, s, e));
  }
  if (!Number.isFinite(min)) min = 0;
  const out = emptyDecoded();
  for (let li = 0; li < lines.length; li++) {
    const [s, e] = lines[li];
    const isLast = li === lines.length - 1;
    if (isLast && closingLineBlank) break;
    let end = e;
    while (end > s && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
    const from = Math.min(s + min, end);
    const continued = end > from && text[end - 1] === "\\" && (end - from < 2 || text[end - 2] !== "\\");
    if (!decodeEscapes(text, from, continued ? end - 1 : end, out, false)) return undefined;
    if (!isLast && !continued) push(out, "\n", e, e + 1);
  }
  return out;
}

/** A raw triple-quoted string (Scala, Kotlin): its characters as written. */
function rawString(text: string, t: Token): Decoded {
  const out = emptyDecoded();
  for (let i = t.start + 3; i < t.end - 3; i++) push(out, text[i], i, i + 1);
  return out;
}

/** `.stripMargin` (Scala), `.trimMargin()` (Kotlin): per line, leading blanks and the `|` after them go. */
function stripMargin(d: Decoded, margin = "|"): Decoded {
  const out = emptyDecoded();
  let lineStart = true;
  for (let i = 0; i < d.chars.length; i++) {
    if (lineStart) {
      let j = i;
      while (j < d.chars.length && (d.chars[j] === " " || d.chars[j] === "\t")) j++;
      if (d.chars[j] === margin) i = j + 1;
      lineStart = false;
      if (i >= d.chars.length) break;
    }
    push(out, d.chars[i], d.starts[i], d.ends[i]);
    if (d.chars[i] === "\n") lineStart = true;
  }
  return out;
}

/** Kotlin `.trimIndent()`: blank first and last lines dropped, the common indentation of the other lines removed. */
function trimIndent(d: Decoded): Decoded {
  const lines: [number, number][] = [];
  let s = 0;
  for (let i = 0; i <= d.chars.length; i++) {
    if (i === d.chars.length || d.chars[i] === "\n") {
      lines.push([s, i]);
      s = i + 1;
    }
  }
  const blank = ([a, b]: [number, number]) => d.chars.slice(a, b).every((c) => c === " " || c === "\t");
  if (lines.length > 0 && blank(lines[0])) lines.shift();
  if (lines.length > 0 && blank(lines[lines.length - 1])) lines.pop();
  let min = Number.POSITIVE_INFINITY;
  for (const l of lines) {
    if (blank(l)) continue;
    let k = l[0];
    while (k < l[1] && (d.chars[k] === " " || d.chars[k] === "\t")) k++;
    min = Math.min(min, k - l[0]);
  }
  if (!Number.isFinite(min)) min = 0;
  const out = emptyDecoded();
  lines.forEach(([a, b], li) => {
    for (let k = Math.min(a + min, b); k < b; k++) push(out, d.chars[k], d.starts[k], d.ends[k]);
    if (li < lines.length - 1) push(out, "\n", d.starts[b] ?? d.ends[b - 1], d.ends[b] ?? d.ends[b - 1]);
  });
  return out;
}

function toPiece(d: Decoded): SqlPiece {
  return { text: d.chars.join(""), starts: d.starts, ends: d.ends };
}

/**
 * SQL strings passed to the SQL methods in Java, Scala or Kotlin code, then the SQL statements the file defines for
 * code elsewhere to run ({@link jvmDefinitions}).
 */
export function jvmSqlPieces(text: string, language: "java" | "scala" | "kotlin"): SqlPiece[] {
  const calls = mayHoldSql(text, false);
  const defines = mayDefineSql(text);
  if (!calls && !defines) return [];
  const ctx = jvmContext(text, language);
  const { tokens } = ctx;
  const pieces = new Pieces(text.length);
  if (calls)
    for (let i = 0; i + 1 < tokens.length; i++) {
      const t = tokens[i];
      if (t.kind !== "identifier" || !JVM_METHODS.has(t.text) || tokens[i + 1].text !== "(") continue;
      pieces.add(jvmExpression(ctx, i + 2, i, "argument", 0));
    }
  if (defines) pieces.addDefinitions(jvmDefinitions(ctx));
  return pieces.out;
}

/**
 * A quick test before reading a file's definitions: does a string of it define a table with a connector? A file of
 * SQL constants (`SqlConstants.SOURCE_DDL`) or of methods that build the statements (`KafkaDdl.ordersTable(topic)`)
 * holds Flink SQL that a job in another file runs.
 */
function mayDefineSql(text: string): boolean {
  return /\bCREATE\s+(?:TEMPORARY\s+)?TABLE\b/i.test(text) && /'connector'/i.test(text);
}

/** A text that is a SQL statement a Flink job runs: a table definition or an INSERT (comments before it allowed). */
const SQL_STATEMENT =
  /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:CREATE\s+(?:TEMPORARY\s+)?TABLE|INSERT\s+(?:INTO|OVERWRITE))\b/i;

/** The pieces of a file, each once: one constant passed to two calls is one piece of SQL in the file. */
class Pieces {
  readonly out: SqlPiece[] = [];
  private readonly seen = new Set<string>();
  /** Per host character, whether a piece already holds it. */
  private readonly taken: Uint8Array;

  constructor(length: number) {
    this.taken = new Uint8Array(length);
  }

  /** Adds an argument's SQL when any of it comes from a literal. */
  add(arg: { decoded: Decoded; literal: boolean } | undefined, defined = false): void {
    if (!arg?.literal) return;
    const key = `${arg.decoded.starts[0]}:${arg.decoded.chars.length}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const { starts, ends } = arg.decoded;
    for (let i = 0; i < starts.length; i++) this.taken.fill(1, starts[i], Math.max(starts[i], ends[i]));
    this.out.push(defined ? { ...toPiece(arg.decoded), defined: true } : toPiece(arg.decoded));
  }

  /**
   * Statements the file defines (constants, returned values): those that are SQL, when one of them defines a table
   * with a connector (a file of JDBC statements is not Flink SQL). The longest first, and none whose characters a
   * piece already holds: `ddl` passed to `executeSql`, or `base` inside `full = base + "…"`, is read once.
   */
  addDefinitions(candidates: Expression[]): void {
    const sql = candidates
      .filter((c) => c.literal)
      .map((c) => ({ c, text: c.decoded.chars.join("") }))
      .filter((x) => SQL_STATEMENT.test(x.text))
      .sort((a, b) => b.text.length - a.text.length);
    if (!sql.some((x) => /'connector'/i.test(x.text))) return;
    for (const { c } of sql) {
      const { starts, ends } = c.decoded;
      let free = true;
      for (let i = 0; i < starts.length && free; i++) if (ends[i] > starts[i] && this.taken[starts[i]]) free = false;
      if (free) this.add(c, true);
    }
  }
}

/**
 * The values a Java, Scala or Kotlin file defines for other code: fields and constants (`name = …` at the top level
 * or in the body of a class, object or interface; a method's locals are its own), every `return …`, and Scala's
 * and Kotlin's functions with an expression body (`def ddl(topic: String): String = s"""…"""`).
 */
function jvmDefinitions(ctx: JvmContext): Expression[] {
  const { tokens } = ctx;
  const { blockOf } = blocks(ctx);
  const out: Expression[] = [];
  const read = (at: number) => {
    const value = jvmExpression(ctx, at, at, "definition", 0);
    if (value) out.push(value);
  };
  for (const list of definitions(ctx).values())
    for (const at of list) if (at >= 0 && (blockOf[at] < 0 || classBody(tokens, blockOf[at]))) read(at);
  for (let k = 0; k + 1 < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind !== "identifier") continue;
    if (t.text === "return" && tokens[k + 1].kind === "string") read(k + 1);
    else if ((t.text === "def" || t.text === "fun") && ctx.language !== "java") {
      const body = expressionBody(tokens, k + 1);
      if (body !== undefined) read(body);
    }
  }
  return out;
}

/** Whether the `{` at `open` opens the body of a class, object, interface, trait or enum (not of a method). */
function classBody(tokens: Token[], open: number): boolean {
  for (let k = open - 1; k >= 0 && k > open - 64; k--) {
    const t = tokens[k];
    if (t.kind === "identifier" && /^(class|object|interface|trait|enum)$/.test(t.text)) return true;
    if (t.text === ")" || t.text === ";" || t.text === "{" || t.text === "}" || t.text === "=") return false;
  }
  return false;
}

/** After `def` / `fun`: the token after the `=` of `name[T](params): Type =`, when the function has that form. */
function expressionBody(tokens: Token[], at: number): number | undefined {
  let k = at;
  if (tokens[k]?.kind !== "identifier") return undefined;
  k++;
  while (tokens[k]?.text === "(" || tokens[k]?.text === "[") k = afterParens(tokens, k);
  if (tokens[k]?.text === ":") {
    k++;
    let depth = 0;
    while (tokens[k]) {
      const c = tokens[k].text;
      if (c === "[" || c === "<") depth++;
      else if ((c === "]" || c === ">") && depth > 0) depth--;
      else if (depth === 0 && tokens[k].kind !== "identifier" && c !== "." && c !== "?") break;
      k++;
    }
  }
  return tokens[k]?.text === "=" && tokens[k + 1]?.text !== "=" ? k + 1 : undefined;
}

interface JvmContext {
  text: string;
  tokens: Token[];
  language: "java" | "scala" | "kotlin";
  /** Per name, the token indices of `name = …` (and of `name += …`, negated minus one: the value then is unknown). */
  defs?: Map<string, number[]>;
  /** Per token, the index of the `{` of the innermost block it stands in (-1 at the top). */
  blockOf?: Int32Array;
  /** Per `{` token, the index of its `}` (the last token when it is not closed). */
  closeOf?: Int32Array;
  resolving: Set<number>;
  nesting: number;
}

interface Expression {
  decoded: Decoded;
  /** The token just after the expression. */
  next: number;
  /** Whether any of it comes from a string literal (a variable alone says nothing about its SQL). */
  literal: boolean;
}

function jvmContext(text: string, language: "java" | "scala" | "kotlin"): JvmContext {
  return { text, tokens: tokenize(text), language, resolving: new Set(), nesting: 0 };
}

/**
 * A character of a `${…}` field as the SQL sees it: a single quote would end the SQL string the field stands in
 * (`'${cfg['topic']}'`), so it reads as a double quote; a line break as a space.
 */
function fieldChar(c: string): string {
  return c === "'" ? '"' : c === "\n" || c === "\r" ? " " : c;
}

/** Nothing known about the text of `text[from, to)`: `${…}` over it, the form of a value filled in at run time. */
function placeholder(text: string, from: number, to: number, out: Decoded): void {
  push(out, "$", from, from);
  push(out, "{", from, from);
  for (let k = from; k < to; k++) push(out, fieldChar(text[k]), k, k + 1);
  push(out, "}", to, to);
}

/** How many names deep a definition is followed (`ddl = base + "…"`, `base = …`). */
const MAX_DEPTH = 4;
/** How many parentheses deep an argument is read. */
const MAX_NESTING = 64;

/**
 * An expression of string parts joined by `+` from `tokens[at]`. In an argument it must end at `)` or `,`; in a
 * definition at `;`, at the end of its line (Scala, Kotlin), or at the end of the enclosing block. A part that is
 * not a literal (a parameter, a call) becomes `${…}`: options written that way count as set, to a value nobody knows.
 */
function jvmExpression(
  ctx: JvmContext,
  at: number,
  site: number,
  mode: "argument" | "definition",
  depth: number,
): Expression | undefined {
  const { tokens } = ctx;
  const out = emptyDecoded();
  let literal = false;
  let i = at;
  for (;;) {
    const part = jvmPart(ctx, i, site, mode, depth);
    if (!part) return undefined;
    append(out, part.decoded);
    literal ||= part.literal;
    i = part.next;
    const next = tokens[i];
    const ends = mode === "definition" && statementBreak(ctx, i);
    if (next?.text === "+" && tokens[i + 1]?.text !== "=" && !ends) {
      i++;
      continue;
    }
    if (mode === "argument")
      return next?.text === ")" || next?.text === "," ? { decoded: out, next: i, literal } : undefined;
    if (!next || next.text === ";" || next.text === "}" || next.text === ")" || ends)
      return { decoded: out, next: i, literal };
    return undefined;
  }
}

/** Scala and Kotlin end a statement at a line break: whether one stands before `tokens[k]`. */
function statementBreak(ctx: JvmContext, k: number): boolean {
  const { tokens } = ctx;
  if (ctx.language === "java" || k === 0 || !tokens[k]) return false;
  return ctx.text.slice(tokens[k - 1].end, tokens[k].start).includes("\n");
}

/** The token after the `)` that closes the `(` at `open`. */
function afterParens(tokens: Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const c = tokens[k].text;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) return k + 1;
    }
  }
  return tokens.length;
}

function jvmPart(
  ctx: JvmContext,
  start: number,
  site: number,
  mode: "argument" | "definition",
  depth: number,
): Expression | undefined {
  const { tokens, text } = ctx;
  let at = start;
  const first = tokens[at];
  if (!first) return undefined;
  // Scala `s"…"`: the interpolator written against the quote.
  const interpolated =
    first.kind === "identifier" && tokens[at + 1]?.kind === "string" && tokens[at + 1].start === first.end;
  if (interpolated) at++;
  const t = tokens[at];
  if (t.kind === "string") {
    const part = jvmLiteral(ctx, at);
    return part && jvmSuffixes(tokens, part, at + 1);
  }
  // `String.format("…", …)`.
  if (
    t.text === "String" &&
    tokens[at + 1]?.text === "." &&
    tokens[at + 2]?.text === "format" &&
    tokens[at + 3]?.text === "("
  ) {
    const inner = jvmExpression(ctx, at + 4, site, "argument", depth);
    if (!inner) return undefined;
    return { decoded: formatted(inner.decoded), next: afterParens(tokens, at + 3), literal: inner.literal };
  }
  if (t.text === "(") {
    // Nesting is bounded: a file of ten thousand `(` must not exhaust the stack.
    if (ctx.nesting >= MAX_NESTING) return undefined;
    ctx.nesting++;
    const inner = jvmExpression(ctx, at + 1, site, "argument", depth);
    ctx.nesting--;
    if (!inner || tokens[inner.next]?.text !== ")") return undefined;
    return { ...inner, next: inner.next + 1 };
  }
  // A name (`ddl`, `this.ddl`, `Queries.DDL`): its definition in this file when there is one.
  if (t.kind === "identifier") {
    let last = at;
    while (
      tokens[last + 1]?.text === "." &&
      tokens[last + 2]?.kind === "identifier" &&
      !STRING_METHODS.has(tokens[last + 2].text)
    )
      last += 2;
    const after = tokens[last + 1]?.text;
    if (after !== "(" && after !== "[" && after !== "{") {
      const value = depth < MAX_DEPTH ? resolveName(ctx, tokens[last].text, site, depth + 1) : undefined;
      const read = value && jvmSuffixes(tokens, value, last + 1);
      if (read) return read;
    }
  }
  // Anything else up to the next `+`, `,` or `)` at its own depth: a value filled in at run time.
  let i = at;
  let open = 0;
  while (i < tokens.length) {
    const c = tokens[i].text;
    if (open === 0 && (c === "+" || c === "," || c === ")" || c === ";" || c === "}")) break;
    if (open === 0 && mode === "definition" && i > at && statementBreak(ctx, i)) break;
    if (c === "(" || c === "[" || c === "{") open++;
    else if (c === ")" || c === "]" || c === "}") open--;
    i++;
  }
  if (i === at || open !== 0) return undefined;
  const decoded = emptyDecoded();
  placeholder(text, tokens[at].start, tokens[i - 1].end, decoded);
  return { decoded, next: i, literal: false };
}

const STRING_METHODS = new Set(["stripMargin", "trimMargin", "trimIndent", "format", "formatted", "trim", "strip"]);

/**
 * `.stripMargin`, `.trimIndent()`, `.trimMargin()`, `.format(…)`, `.formatted(…)`, `.trim()` applied to a string
 * from `tokens[at]` on; undefined at any other method (its result is not known).
 */
function jvmSuffixes(tokens: Token[], value: Decoded, at: number): Expression | undefined {
  let part = value;
  let i = at;
  while (tokens[i]?.text === "." && tokens[i + 1]?.kind === "identifier") {
    const name = tokens[i + 1].text;
    const call = tokens[i + 2]?.text === "(";
    if (name === "stripMargin" || name === "trimMargin") part = stripMargin(part);
    else if (name === "trimIndent") part = trimIndent(part);
    else if ((name === "format" || name === "formatted") && call) part = formatted(part);
    else if (name !== "trim" && name !== "strip") return undefined; // trimmed blanks: the SQL reads the same
    i = call ? afterParens(tokens, i + 2) : i + 2;
  }
  return { decoded: part, next: i, literal: true };
}

/** The string literal at `tokens[at]`, decoded, with Scala `s"…"` and Kotlin templates as `${…}`. */
function jvmLiteral(ctx: JvmContext, at: number): Decoded | undefined {
  const { tokens, text, language } = ctx;
  const t = tokens[at];
  const before = tokens[at - 1];
  const interpolator = before?.kind === "identifier" && before.end === t.start ? before.text : undefined;
  // Scala `f"…"`, `raw"…"` and custom interpolators: not read.
  if (interpolator !== undefined && (language !== "scala" || interpolator !== "s")) return undefined;
  let part: Decoded | undefined;
  const triple = t.text.startsWith('"""') && t.text.length >= 6;
  if (triple) part = language === "java" ? javaTextBlock(text, t) : rawString(text, t);
  else if (t.text.length >= 2 && t.text.endsWith('"')) {
    part = emptyDecoded();
    const escapes =
      language === "kotlin"
        ? kotlinEscapes(text, t.start + 1, t.end - 1, part)
        : decodeEscapes(text, t.start + 1, t.end - 1, part, false);
    if (!escapes) return undefined;
  }
  if (!part) return undefined;
  if (language === "kotlin" || interpolator === "s") return templates(text, part, language === "scala");
  return part;
}

/** Kotlin's escapes: those of Java without octal ones, and `\$` for a dollar sign. */
function kotlinEscapes(text: string, from: number, to: number, out: Decoded): boolean {
  let run = from;
  for (let k = from; k < to; k++) {
    if (text[k] !== "\\") continue;
    if (text[k + 1] === "$") {
      if (!decodeEscapes(text, run, k, out, false)) return false;
      push(out, "$", k, k + 2);
      run = k + 2;
      k++;
    } else k++;
  }
  return decodeEscapes(text, run, to, out, false);
}

/**
 * Templates in a decoded Kotlin string or Scala `s"…"`: `$name` and `${expr}` written as such in the source become
 * `${…}` (a dollar sign that came from an escape stays one). Scala's `$$` is a dollar sign.
 */
function templates(text: string, d: Decoded, scala: boolean): Decoded {
  const out = emptyDecoded();
  const n = d.chars.length;
  const written = (k: number) => d.ends[k] - d.starts[k] === 1 && text[d.starts[k]] === d.chars[k];
  for (let k = 0; k < n; k++) {
    const c = d.chars[k];
    if (c !== "$" || !written(k)) {
      push(out, c, d.starts[k], d.ends[k]);
      continue;
    }
    const next = d.chars[k + 1];
    if (scala && next === "$") {
      push(out, "$", d.starts[k], d.ends[k + 1]);
      k++;
    } else if (!scala && d.chars.slice(k + 1, k + 6).join("") === "{'$'}") {
      push(out, "$", d.starts[k], d.ends[k + 5]); // Kotlin's way to write a dollar sign in a raw string
      k += 5;
    } else if (next === "{") {
      let depth = 0;
      let close = k + 1;
      for (; close < n; close++) {
        if (d.chars[close] === "{") depth++;
        else if (d.chars[close] === "}" && --depth === 0) break;
      }
      for (let x = k; x <= Math.min(close, n - 1); x++) push(out, fieldChar(d.chars[x]), d.starts[x], d.ends[x]);
      if (close >= n) push(out, "}", d.ends[n - 1], d.ends[n - 1]);
      k = close;
    } else if (next !== undefined && /[A-Za-z_]/.test(next)) {
      let end = k + 1;
      while (end < n && /\w/.test(d.chars[end])) end++;
      push(out, "$", d.starts[k], d.ends[k]);
      push(out, "{", d.ends[k], d.ends[k]);
      for (let x = k + 1; x < end; x++) push(out, d.chars[x], d.starts[x], d.ends[x]);
      push(out, "}", d.ends[end - 1], d.ends[end - 1]);
      k = end - 1;
    } else push(out, c, d.starts[k], d.ends[k]);
  }
  return out;
}

/**
 * printf-style conversions as `${…}`: Java's `String.format` (`%s`, `%1$d`, `%-10s`; `%n` is a line break) and
 * Python's `%` operator (`%s`, `%(topic)s`); `%%` is a percent sign in both.
 */
function formatted(d: Decoded, python = false): Decoded {
  const out = emptyDecoded();
  const n = d.chars.length;
  const flags = python ? /[-#+ 0\d.*]/ : /[-#+ 0,(\d.$<]/;
  for (let k = 0; k < n; k++) {
    if (d.chars[k] !== "%") {
      push(out, d.chars[k], d.starts[k], d.ends[k]);
      continue;
    }
    const next = d.chars[k + 1];
    if (next === "%" || (next === "n" && !python)) {
      push(out, next === "%" ? "%" : "\n", d.starts[k], d.ends[k + 1]);
      k++;
      continue;
    }
    let end = k + 1;
    if (python && d.chars[end] === "(") {
      while (end < n && d.chars[end] !== ")") end++;
      end++;
    }
    while (end < n && flags.test(d.chars[end])) end++;
    if (end >= n || !/[a-zA-Z]/.test(d.chars[end])) {
      push(out, "%", d.starts[k], d.ends[k]);
      continue;
    }
    push(out, "$", d.starts[k], d.starts[k]);
    push(out, "{", d.starts[k], d.starts[k]);
    for (let x = k; x <= end; x++) push(out, d.chars[x], d.starts[x], d.ends[x]);
    push(out, "}", d.ends[end], d.ends[end]);
    k = end;
  }
  return out;
}

/** Where each token stands: the innermost block's `{` per token, and each `{`'s `}`. */
function blocks(ctx: JvmContext): { blockOf: Int32Array; closeOf: Int32Array } {
  if (ctx.blockOf && ctx.closeOf) return { blockOf: ctx.blockOf, closeOf: ctx.closeOf };
  const { tokens } = ctx;
  const blockOf = new Int32Array(tokens.length).fill(-1);
  const closeOf = new Int32Array(tokens.length).fill(tokens.length - 1);
  const stack: number[] = [];
  for (let k = 0; k < tokens.length; k++) {
    blockOf[k] = stack.length > 0 ? stack[stack.length - 1] : -1;
    const c = tokens[k].text;
    if (c === "{") stack.push(k);
    else if (c === "}" && stack.length > 0) closeOf[stack.pop() as number] = k;
  }
  ctx.blockOf = blockOf;
  ctx.closeOf = closeOf;
  return { blockOf, closeOf };
}

/** `name = …`, `val name: String = …`, `const val NAME = …` and `name += …` (negated minus one), per name. */
function definitions(ctx: JvmContext): Map<string, number[]> {
  if (ctx.defs) return ctx.defs;
  const { tokens } = ctx;
  const defs = new Map<string, number[]>();
  const add = (name: string, k: number) => {
    const list = defs.get(name);
    if (list) list.push(k);
    else defs.set(name, [k]);
  };
  for (let k = 0; k + 1 < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind !== "identifier") continue;
    const prev = tokens[k - 1];
    if (prev?.text === "." && tokens[k - 2]?.text !== "this") continue;
    let j = k + 1;
    if (tokens[j].text === ":" && tokens[j + 1]?.text !== ":") {
      j++;
      while (tokens[j] && (tokens[j].kind === "identifier" || tokens[j].text === "." || tokens[j].text === "?")) j++;
    }
    const eq = tokens[j];
    if (eq?.text === "=" && tokens[j + 1]?.text !== "=" && tokens[j + 1]?.text !== ">") add(t.text, j + 1);
    else if (j === k + 1 && eq?.text === "+" && tokens[j + 1]?.text === "=" && tokens[j + 1].start === eq.end)
      add(t.text, -(j + 1) - 1);
  }
  ctx.defs = defs;
  return defs;
}

/**
 * The value of `name` as seen at token `site`: the nearest definition before it in a block that holds the site, else
 * the first such definition after it (a constant declared below its use). Undefined when the value is changed with
 * `+=` in between, or it is not strings.
 */
function resolveName(ctx: JvmContext, name: string, site: number, depth: number): Decoded | undefined {
  const list = definitions(ctx).get(name);
  if (!list) return undefined;
  const { blockOf, closeOf } = blocks(ctx);
  const visible = (value: number) => {
    const b = blockOf[value];
    return b < 0 || (b < site && closeOf[b] > site);
  };
  let chosen: number | undefined;
  for (const v of list) {
    const at = v < 0 ? -v - 1 : v;
    if (!visible(at)) continue;
    if (at < site) chosen = v;
    else if (chosen === undefined) {
      chosen = v;
      break;
    } else break;
  }
  if (chosen === undefined || chosen < 0 || ctx.resolving.has(chosen)) return undefined;
  if (chosen < site && list.some((v) => v < 0 && -v - 1 > chosen && -v - 1 < site)) return undefined;
  ctx.resolving.add(chosen);
  try {
    const value = jvmExpression(ctx, chosen, chosen, "definition", depth);
    return value?.literal ? value.decoded : undefined;
  } finally {
    ctx.resolving.delete(chosen);
  }
}

// ---------------------------------------------------------------------------------------------
// Python

interface PyString {
  start: number;
  end: number;
  decoded?: Decoded;
}

/** The Python string literal at `i` (with its prefix), or undefined. */
function pythonString(text: string, i: number): PyString | undefined {
  const m = /^([rRuUbBfF]{0,2})('''|"""|'|")/.exec(text.slice(i, i + 5));
  if (!m) return undefined;
  const prefix = m[1].toLowerCase();
  const quote = m[2];
  const bodyStart = i + m[0].length;
  let j = bodyStart;
  while (j < text.length) {
    if (text[j] === "\\") j += 2;
    else if (text.startsWith(quote, j)) break;
    else if (quote.length === 1 && text[j] === "\n") return { start: i, end: j };
    else j++;
  }
  const end = Math.min(text.length, j + quote.length);
  if (prefix.includes("b") || j >= text.length) return { start: i, end };
  const out = emptyDecoded();
  const literal = (from: number, to: number): boolean => {
    if (prefix.includes("r")) for (let k = from; k < to; k++) push(out, text[k], k, k + 1);
    else return decodeEscapes(text, from, to, out, true);
    return true;
  };
  if (!prefix.includes("f")) return literal(bodyStart, j) ? { start: i, end, decoded: out } : { start: i, end };
  if (!fString(text, bodyStart, j, out, literal)) return { start: i, end };
  return { start: i, end, decoded: out };
}

/**
 * The body of an f-string: `{{` and `}}` are braces, and each replacement field (`{topic}`, `{cfg['group']!r:>10}`)
 * becomes `${…}` over the field's own text, the form a value filled in at run time has in a SQL script: options
 * written that way count as set, with a value nobody knows.
 */
function fString(
  text: string,
  from: number,
  to: number,
  out: Decoded,
  literal: (from: number, to: number) => boolean,
): boolean {
  let run = from;
  let k = from;
  while (k < to) {
    const c = text[k];
    if ((c === "{" || c === "}") && text[k + 1] === c) {
      if (!literal(run, k)) return false;
      push(out, c, k, k + 2);
      k += 2;
      run = k;
    } else if (c === "{") {
      if (!literal(run, k)) return false;
      let depth = 1;
      let close = k + 1;
      while (close < to && depth > 0) {
        if (text[close] === "{") depth++;
        else if (text[close] === "}") depth--;
        if (depth > 0) close++;
      }
      if (depth > 0) return false;
      push(out, "$", k, k + 1);
      for (let x = k; x <= close; x++) push(out, fieldChar(text[x]), x, x + 1);
      k = close + 1;
      run = k;
    } else k++;
  }
  return literal(run, to);
}

/** SQL strings passed to the SQL methods in Python code (PyFlink's TableEnvironment, StatementSet). */
export function pythonSqlPieces(text: string): SqlPiece[] {
  const calls = mayHoldSql(text, true);
  const defines = mayDefineSql(text);
  if (!calls && !defines) return [];
  const call = /\b(execute_sql|sql_query|sql_update|add_insert_sql)\s*\(/g;
  const ctx: PyContext = { text, code: pythonCode(text), resolving: new Set(), nesting: 0 };
  const pieces = new Pieces(text.length);
  let m = calls ? call.exec(text) : null;
  while (m) {
    // A call written in a comment or inside a string (a help text, a docstring) is not a call.
    if (ctx.code[m.index] === 1) pieces.add(pyExpression(ctx, m.index + m[0].length, m.index, "argument", 0));
    m = call.exec(text);
  }
  if (defines) pieces.addDefinitions(pythonDefinitions(ctx));
  return pieces.out;
}

/**
 * The values a Python file defines for other code: module constants and class attributes (a function's locals are
 * its own) and every `return …`.
 */
function pythonDefinitions(ctx: PyContext): PyExpression[] {
  const out: PyExpression[] = [];
  const read = (at: number) => {
    const value = pyExpression(ctx, at, at, "definition", 0);
    if (value) out.push(value);
  };
  const members = classBodyLines(ctx);
  const lineStart = (at: number) => ctx.text.lastIndexOf("\n", at - 1) + 1;
  for (const list of pyDefinitions(ctx).values())
    for (const d of list) if (!d.augmented && (d.indent === 0 || members.has(lineStart(d.value)))) read(d.value);
  for (const m of ctx.text.matchAll(/\breturn[ \t]+(?=[rRuUfF]{0,2}['"(])/g)) {
    const at = m.index ?? 0;
    if (ctx.code[at] === 1) read(at + m[0].length);
  }
  return out;
}

interface PyContext {
  text: string;
  code: Uint8Array;
  /** Per name: `name = …` at value offset, the indentation of its line; `+=` marked `augmented`. */
  defs?: Map<string, { value: number; indent: number; augmented: boolean }[]>;
  resolving: Set<number>;
  nesting: number;
}

interface PyExpression {
  decoded: Decoded;
  next: number;
  literal: boolean;
}

/** Blanks; in an argument (inside brackets) line breaks and comments too, in a statement only `\`-continued lines. */
function pySkip(text: string, i: number, mode: "argument" | "definition"): number {
  if (mode === "argument") return skipBlank(text, i);
  let j = i;
  for (;;) {
    while (j < text.length && (text[j] === " " || text[j] === "\t")) j++;
    if (text[j] === "\\" && text[j + 1] === "\n") j += 2;
    else if (text[j] === "\\" && text[j + 1] === "\r" && text[j + 2] === "\n") j += 3;
    else return j;
  }
}

/** After the bracket opened at `open`, strings and comments skipped. */
function pyAfterBrackets(ctx: PyContext, open: number): number {
  let depth = 0;
  for (let k = open; k < ctx.text.length; k++) {
    if (ctx.code[k] !== 1) continue;
    const c = ctx.text[k];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) return k + 1;
    }
  }
  return ctx.text.length;
}

/**
 * String parts joined by `+` (or written side by side) from `from`: literals, names defined in this module, and
 * anything else as `${…}`. In an argument it ends at `)` or `,`, in an assignment at the end of its line.
 */
function pyExpression(
  ctx: PyContext,
  from: number,
  site: number,
  mode: "argument" | "definition",
  depth: number,
): PyExpression | undefined {
  const { text } = ctx;
  const out = emptyDecoded();
  let literal = false;
  let i = pySkip(text, from, mode);
  let parts = 0;
  for (;;) {
    const part = pyPart(ctx, i, site, mode, depth);
    if (!part) break;
    append(out, part.decoded);
    literal ||= part.literal;
    parts++;
    i = pySkip(text, part.next, mode);
    if (text[i] === "+" && text[i + 1] !== "=") i = pySkip(text, i + 1, mode);
    else if (!(text[i] === '"' || text[i] === "'" || /[rRuUbBfF]/.test(text[i] ?? ""))) break;
  }
  if (parts === 0) return undefined;
  const c = text[i];
  if (mode === "argument") return c === ")" || c === "," ? { decoded: out, next: i, literal } : undefined;
  const ends = c === undefined || c === "\n" || c === "\r" || c === ";" || c === "#";
  return ends ? { decoded: out, next: i, literal } : undefined;
}

function pyPart(
  ctx: PyContext,
  at: number,
  site: number,
  mode: "argument" | "definition",
  depth: number,
): PyExpression | undefined {
  const { text } = ctx;
  const s = ctx.code[at] === 1 || /[rRuUbBfF'"]/.test(text[at] ?? "") ? pythonString(text, at) : undefined;
  if (s) return s.decoded && pySuffixes(ctx, s.decoded, s.end, mode);
  const c = text[at];
  if (c === "(") {
    if (ctx.nesting >= MAX_NESTING) return undefined;
    ctx.nesting++;
    const inner = pyExpression(ctx, at + 1, site, "argument", depth);
    ctx.nesting--;
    if (!inner || text[inner.next] !== ")") return undefined;
    return { ...inner, next: inner.next + 1 };
  }
  const name = /^[A-Za-z_]\w*(?:\.(?!format\b|strip\b)[A-Za-z_]\w*)*/.exec(text.slice(at, at + 200));
  if (name) {
    const after = text[pySkip(text, at + name[0].length, mode)];
    if (after !== "(" && after !== "[" && depth < MAX_DEPTH) {
      const last = name[0].slice(name[0].lastIndexOf(".") + 1);
      const value = resolvePython(ctx, last, site, depth + 1);
      const read = value && pySuffixes(ctx, value, at + name[0].length, mode);
      if (read) return read;
    }
  }
  return pyOpaque(ctx, at, mode);
}

/** `.format(…)`, `.strip()` and `% operand` applied to a string from `from` on. */
function pySuffixes(
  ctx: PyContext,
  value: Decoded,
  from: number,
  mode: "argument" | "definition",
): PyExpression | undefined {
  const { text } = ctx;
  let part = value;
  let i = from;
  for (;;) {
    const j = pySkip(text, i, mode);
    const suffix = /^\.\s*(format|strip)\s*\(/.exec(text.slice(j, j + 20));
    if (suffix) {
      const open = j + suffix[0].length - 1;
      if (suffix[1] === "format") part = pyFormatFields(part);
      i = pyAfterBrackets(ctx, open);
      continue;
    }
    // `"… %s …" % (a, b)`, `"… %(topic)s …" % cfg`.
    if (text[j] === "%" && text[j + 1] !== "=") {
      const operand = pySkip(text, j + 1, mode);
      const end = /[([{]/.test(text[operand] ?? "")
        ? pyAfterBrackets(ctx, operand)
        : operand + (/^[\w.]+/.exec(text.slice(operand, operand + 200))?.[0].length ?? 0);
      if (end === operand) return undefined;
      part = formatted(part, true);
      i = end;
      continue;
    }
    break;
  }
  return { decoded: part, next: i, literal: true };
}

/** Anything else up to the next `+`, `,` or `)` at its own depth: a value filled in at run time. */
function pyOpaque(ctx: PyContext, at: number, mode: "argument" | "definition"): PyExpression | undefined {
  const { text } = ctx;
  let i = at;
  let open = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ctx.code[i] === 1) {
      if (open === 0 && (ch === "+" || ch === "," || ch === ")" || ch === ";" || ch === "#")) break;
      if (open === 0 && mode === "definition" && (ch === "\n" || ch === "\r") && text[i - 1] !== "\\") break;
      if (ch === "(" || ch === "[" || ch === "{") open++;
      else if (ch === ")" || ch === "]" || ch === "}") open--;
    }
    i++;
  }
  let end = i;
  while (end > at && /\s/.test(text[end - 1])) end--;
  if (end === at || open !== 0) return undefined;
  const decoded = emptyDecoded();
  placeholder(text, at, end, decoded);
  return { decoded, next: end, literal: false };
}

/** `str.format` fields (`{}`, `{0}`, `{topic}`) as `${…}`; `{{` and `}}` are braces. */
function pyFormatFields(d: Decoded): Decoded {
  const out = emptyDecoded();
  const n = d.chars.length;
  for (let k = 0; k < n; k++) {
    const c = d.chars[k];
    if ((c === "{" || c === "}") && d.chars[k + 1] === c) {
      push(out, c, d.starts[k], d.ends[k + 1]);
      k++;
    } else if (c === "{") {
      let close = k + 1;
      while (close < n && d.chars[close] !== "}") close++;
      push(out, "$", d.starts[k], d.starts[k]);
      for (let x = k; x < Math.min(close + 1, n); x++) push(out, fieldChar(d.chars[x]), d.starts[x], d.ends[x]);
      if (close >= n) push(out, "}", d.ends[n - 1], d.ends[n - 1]);
      k = close;
    } else push(out, c, d.starts[k], d.ends[k]);
  }
  return out;
}

function pyDefinitions(ctx: PyContext): Map<string, { value: number; indent: number; augmented: boolean }[]> {
  if (ctx.defs) return ctx.defs;
  const defs = new Map<string, { value: number; indent: number; augmented: boolean }[]>();
  const assignment = /^([ \t]*)((?:self\.)?[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?(\+?)=(?!=)[ \t]*/gm;
  for (const m of ctx.text.matchAll(assignment)) {
    const at = (m.index ?? 0) + m[1].length;
    if (ctx.code[at] !== 1) continue;
    const name = m[2].replace(/^self\./, "");
    const entry = { value: (m.index ?? 0) + m[0].length, indent: m[1].length, augmented: m[3] === "+" };
    const list = defs.get(name);
    if (list) list.push(entry);
    else defs.set(name, [entry]);
  }
  ctx.defs = defs;
  return defs;
}

/**
 * The starts of the lines that stand directly in a class body (the nearest code line above them that is indented
 * less opens with `class`), found in one pass over the lines.
 */
function classBodyLines(ctx: PyContext): Set<number> {
  const { text } = ctx;
  const out = new Set<number>();
  const open: { indent: number; isClass: boolean }[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    let k = start;
    while (k < end && (text[k] === " " || text[k] === "\t")) k++;
    if (k < end && text[k] !== "\r" && ctx.code[k] === 1 && text[k] !== "#") {
      const indent = k - start;
      while (open.length > 0 && open[open.length - 1].indent >= indent) open.pop();
      if (open[open.length - 1]?.isClass) out.add(start);
      open.push({ indent, isClass: /^class\s/.test(text.slice(k, k + 6)) });
    }
    start = end + 1;
  }
  return out;
}

/** Whether every code line in `[from, to)` is indented at least `indent` (the block of a definition goes on). */
function pyStaysInBlock(ctx: PyContext, from: number, to: number, indent: number): boolean {
  const { text } = ctx;
  let line = text.indexOf("\n", from);
  while (line >= 0 && line < to) {
    let k = line + 1;
    while (k < text.length && (text[k] === " " || text[k] === "\t")) k++;
    if (k < to && ctx.code[k] === 1 && text[k] !== "\n" && text[k] !== "\r" && k - line - 1 < indent) return false;
    line = text.indexOf("\n", k);
  }
  return true;
}

/**
 * The value of `name` at `site`: the nearest assignment before it whose block goes on to the site, else a
 * module-level assignment after it (the module is read before its functions run). Undefined when `+=` changes it
 * in between or it is not strings.
 */
function resolvePython(ctx: PyContext, name: string, site: number, depth: number): Decoded | undefined {
  const list = pyDefinitions(ctx).get(name);
  if (!list) return undefined;
  let chosen: { value: number; indent: number; augmented: boolean } | undefined;
  for (const d of list) {
    if (d.value < site) {
      if (pyStaysInBlock(ctx, d.value, site, d.indent)) chosen = d;
    } else {
      if (!chosen && d.indent === 0) chosen = d;
      break;
    }
  }
  if (!chosen || chosen.augmented || ctx.resolving.has(chosen.value)) return undefined;
  ctx.resolving.add(chosen.value);
  try {
    const value = pyExpression(ctx, chosen.value, chosen.value, "definition", depth);
    if (!value?.literal) return undefined;
    if (chosen.value < site && !pyStaysInBlock(ctx, value.next, site, chosen.indent)) return undefined;
    return value.decoded;
  } finally {
    ctx.resolving.delete(chosen.value);
  }
}

/** Per character of `text`: 1 in code, 0 inside a comment or a string literal (prefixes and quotes included). */
function pythonCode(text: string): Uint8Array {
  const code = new Uint8Array(text.length).fill(1);
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "#") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      code.fill(0, i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      // The prefix letters (r, b, f, u) before the quote belong to the literal but are not calls either.
      const quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < text.length) {
        if (text[j] === "\\") j += 2;
        else if (text.startsWith(quote, j)) break;
        else if (quote.length === 1 && text[j] === "\n") break;
        else j++;
      }
      const stop = Math.min(text.length, j + (text.startsWith(quote, j) ? quote.length : 0));
      code.fill(0, i, stop);
      i = stop;
    } else i++;
  }
  return code;
}

function skipBlank(text: string, i: number): number {
  let j = i;
  for (;;) {
    while (j < text.length && /\s/.test(text[j])) j++;
    if (text[j] === "\\" && text[j + 1] === "\n") j += 2;
    else if (text[j] === "#") while (j < text.length && text[j] !== "\n") j++;
    else return j;
  }
}

/** A table the Table API names in code: its name (the last part of a dotted path) and where the name is written. */
export interface TableApiUse {
  name: string;
  start: number;
  end: number;
  /** The table written is made of literal rows (`tableEnv.fromValues(…).executeInsert("t")`). */
  literal?: true;
  /** The write runs in a batch environment (`batchEnv.from("t").insertInto("s")`, made with `inBatchMode()`). */
  batch?: true;
  /** The tables the written rows are read from, by name, when the code shows all of them. */
  sources?: string[];
}

// `table.executeInsert("sink")`, `table.insertInto("sink")` (Java, Scala, Kotlin), `execute_insert`, `insert_into`.
const TABLE_API_WRITE = /\.(?:executeInsert|insertInto|execute_insert|insert_into)\s*\(\s*(["'])([^"'\\\r\n]+)\1/g;
// `tableEnv.from("orders")`, `fromPath`, `scan` (older releases), `from_path`.
const TABLE_API_READ = /\.(?:from|fromPath|from_path|scan)\s*\(\s*(["'])([^"'\\\r\n]+)\1/g;

function tableUses(text: string, pattern: RegExp, writes = false): TableApiUse[] {
  const out: TableApiUse[] = [];
  for (const m of text.matchAll(pattern)) {
    const literal = m[2];
    const dot = literal.lastIndexOf(".");
    const name = tableName(literal);
    if (!/^[\w$]+$/.test(name)) continue;
    const end = (m.index ?? 0) + m[0].length - 1;
    const use: TableApiUse = { name, start: end - literal.length + dot + 1, end };
    if (writes) {
      const rows = rowsOf(text, expressionBefore(text, m.index ?? 0), 0);
      if (rows.batch) use.batch = true;
      if (rows.sources) {
        use.sources = rows.sources;
        if (rows.sources.length === 0 && rows.literal) use.literal = true;
      }
    }
    out.push(use);
  }
  return out;
}

/** The table a Table API call names: the last part of a dotted path, without backticks (`cat.db.t` → t). */
function tableName(literal: string): string {
  return literal.slice(literal.lastIndexOf(".") + 1).replace(/^`|`$/g, "");
}

/** The Table API's batch and streaming environments, and the DataStream runtime mode, as job code names them. */
/**
 * Code that runs its Table API or SQL jobs in batch mode: a batch `EnvironmentSettings`, the runtime mode, or the
 * legacy batch environments of Flink 1.13 and older (`BatchTableEnvironment`, the DataSet API's
 * `ExecutionEnvironment`, which is not the `StreamExecutionEnvironment`).
 */
export const BATCH_CODE =
  /\b(?:inBatchMode|in_batch_mode)\s*\(|\bRuntimeExecutionMode\.BATCH\b|\bBatchTableEnvironment\b|(?<![\w.])ExecutionEnvironment\s*\.\s*(?:getExecutionEnvironment|get_execution_environment)\s*\(/;
export const STREAMING_CODE =
  /\b(?:inStreamingMode|in_streaming_mode)\s*\(|\bRuntimeExecutionMode\.(?:STREAMING|AUTOMATIC)\b/;

// Table API calls that make a table of literal rows; calls that read rows from somewhere the code does not name as
// a table (a query, a stream, a table not named by a literal); calls that start a chain on an environment.
const LITERAL_TABLE = /\.(?:fromValues|from_elements)\s*\(/;
const UNNAMED_READ =
  /\.(?:from|fromPath|from_path|scan|sqlQuery|sql_query|fromDataStream|from_data_stream|fromChangelogStream|from_changelog_stream|fromTableSource)\s*\(/;
const ENVIRONMENT_CALL =
  /^\s*\.\s*(?:from|fromPath|from_path|scan|fromValues|from_elements|sqlQuery|sql_query|fromDataStream|from_data_stream|fromChangelogStream|from_changelog_stream|fromTableSource)\s*\(/;
// A table combined with another one held in a variable: the other's rows are not followed.
const COMBINED_VARIABLE =
  /\.(?:join|leftOuterJoin|left_outer_join|rightOuterJoin|right_outer_join|fullOuterJoin|full_outer_join|union|unionAll|union_all|intersect|intersectAll|intersect_all|minus|minusAll|minus_all)\s*\(\s*(?!\w+\s*\.)[\w$]+\s*[,)]/;

/** `.sqlQuery("…")`, `.sql_query('…')` (triple quotes too) with one literal string and nothing joined to it. */
const QUERY_CALL = /\.(?:sqlQuery|sql_query)\s*\(\s*("""|'''|"|')((?:(?!\1)[^\\])*)\1\s*\)/g;

/** The tables a query reads, by the statement reader's own rules (common table expressions are not tables). */
function queryRows(query: string): { sources?: string[]; literal: boolean } {
  if (query.includes("${") || /%[sd]|\{\w*\}/.test(query)) return { literal: false };
  const insert = scanSql(`INSERT INTO q ${query}`).inserts[0];
  return insert?.sources ? { sources: insert.sources, literal: insert.literal === true } : { literal: false };
}

interface Rows {
  /** The names of the tables the rows are read from; undefined when some rows come from elsewhere. */
  sources?: string[];
  literal: boolean;
  batch: boolean;
}

/**
 * Where the rows of a Table API chain come from. A chain that starts on a variable holding a table
 * (`Table t = env.fromValues(…); t.executeInsert("s")`) is followed to that variable's one assignment; a chain that
 * starts on an environment made in batch mode runs in a batch job.
 */
function rowsOf(text: string, expression: string, depth: number): Rows {
  const receiver = /^\s*(?:(?:this|self)\s*\.\s*)?([A-Za-z_$][\w$]*)/.exec(expression);
  if (!receiver) return { literal: false, batch: false };
  const rest = expression.slice(receiver[0].length);
  let literal = LITERAL_TABLE.test(rest);
  // `sqlQuery("SELECT … FROM customers")`: the tables the query reads, when its whole text is one literal.
  const queries = [...rest.matchAll(QUERY_CALL)].map((q) => queryRows(q[2]));
  const unnamed = rest.replace(TABLE_API_READ, "").replace(QUERY_CALL, "");
  let sources: string[] | undefined =
    UNNAMED_READ.test(unnamed) || COMBINED_VARIABLE.test(rest) || queries.some((q) => q.sources === undefined)
      ? undefined
      : [...[...rest.matchAll(TABLE_API_READ)].map((n) => tableName(n[2])), ...queries.flatMap((q) => q.sources ?? [])];
  literal ||= queries.length > 0 && queries.every((q) => q.literal);
  let batch = false;
  const values = assignedValues(text, receiver[1]);
  if (ENVIRONMENT_CALL.test(rest))
    batch = values.length > 0 && values.every((v) => environmentMode(text, v) === "batch");
  else if (values.length === 1 && depth < 3) {
    // A variable holding a table: its rows are those of the expression assigned to it.
    const held = rowsOf(text, values[0], depth + 1);
    batch = held.batch;
    literal ||= held.literal;
    sources = sources && held.sources ? [...sources, ...held.sources] : undefined;
  } else sources = undefined;
  return { ...(sources ? { sources: [...new Set(sources)] } : {}), literal, batch };
}

/** The mode of the environment an expression makes: from its own call or from a settings variable it is given. */
function environmentMode(text: string, value: string): "batch" | "streaming" | undefined {
  if (STREAMING_CODE.test(value)) return "streaming";
  if (BATCH_CODE.test(value)) return "batch";
  // `TableEnvironment.create(settings)`, `StreamTableEnvironment.create(env, settings)`.
  const args = /\bcreate\s*\(([^()]*)\)/.exec(value);
  if (!args) return undefined;
  const modes = new Set<string | undefined>();
  for (const name of args[1].split(",").map((a) => a.trim())) {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) continue;
    for (const v of assignedValues(text, name))
      modes.add(STREAMING_CODE.test(v) ? "streaming" : BATCH_CODE.test(v) ? "batch" : undefined);
  }
  return modes.size === 1 && modes.has("batch") ? "batch" : modes.has("streaming") ? "streaming" : undefined;
}

/**
 * What code assigns to a variable named `name` (`val x = …`, `Table x = …;`, `x = …` in Python): each value up to
 * the end of its statement. Assignments of a field of another object (`other.x = …`) are not the variable's.
 */
function assignedValues(text: string, name: string): string[] {
  const out: string[] = [];
  const escaped = name.replace(/\$/g, "\\$");
  const pattern = new RegExp(`(?<![\\w$.])${escaped}\\s*(?::\\s*[\\w$.<>\\[\\], ]+?)?\\s*=(?![=>])`, "g");
  for (const m of text.matchAll(pattern)) {
    const start = (m.index ?? 0) + m[0].length;
    out.push(statementText(text, start));
  }
  return out;
}

/**
 * The statement that goes on at `from`: up to a `;`, or a line break outside brackets that continues no chain.
 * Brackets inside strings are not counted.
 */
function statementText(text: string, from: number): string {
  let depth = 0;
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const close = triple ? text.indexOf(c.repeat(3), i + 3) : lineStringEnd(text, i, c);
      if (close === -1) break;
      i = triple ? close + 2 : close;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) break;
      depth--;
    } else if (depth > 0) continue;
    else if (c === ";") break;
    else if (c === "\n") {
      let n = i + 1;
      while (n < text.length && /\s/.test(text[n])) n++;
      const last = text.slice(from, i).trimEnd().slice(-1);
      if (text[n] !== "." && last !== "." && last !== "\\" && last !== "=") break;
    }
  }
  return text.slice(from, i);
}

/** The index of the quote that closes a one-line string opened at `open`, or -1. */
function lineStringEnd(text: string, open: number, quote: string): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === quote) return i;
    else if (c === "\n") return -1;
  }
  return -1;
}

/**
 * The expression a call at `end` is chained to: back over balanced brackets to the statement's start (a `;`, a
 * brace, an assignment, or a line break that continues no chain). A table made in another statement is not seen.
 */
function expressionBefore(text: string, end: number): string {
  let depth = 0;
  let i = end - 1;
  for (; i >= 0; i--) {
    const c = text[i];
    if (c === ")" || c === "]") depth++;
    else if (c === "(" || c === "[") {
      if (depth === 0) break;
      depth--;
    } else if (depth > 0) continue;
    else if (c === ";" || c === "{" || c === "}") break;
    else if (c === "=" && !/[=>]/.test(text[i + 1] ?? "") && !/[=!<>]/.test(text[i - 1] ?? "")) break;
    else if (c === "\n") {
      // A chain goes on over a line break when the next line starts with `.` or the line ends in `.` or `\\`.
      let n = i + 1;
      while (n < end && /\s/.test(text[n])) n++;
      let p = i - 1;
      while (p >= 0 && /[ \t\r]/.test(text[p])) p--;
      if (text[n] !== "." && text[p] !== "." && text[p] !== "\\") break;
    }
  }
  return text.slice(i + 1, end);
}

/**
 * The tables job code writes and reads through the Table API with a literal name. A Kafka table that code writes
 * with `execute_insert("page_counts")` is a sink, even when its definition carries `scan.*` options.
 */
export function tableApiUses(text: string, python: boolean): { writes: TableApiUse[]; reads: TableApiUse[] } {
  // Comments blanked out, offsets kept: a call in a comment (`// tbl.insertInto("sink");`) is code that does not run,
  // and a comment beside an assignment is not part of the value.
  const code = withoutComments(text, python ? "shell" : "c");
  return { writes: tableUses(code, TABLE_API_WRITE, true), reads: tableUses(code, TABLE_API_READ) };
}
