/**
 * SQL strings in job code: the literal arguments of `executeSql`, `sqlQuery`, `sqlUpdate`, `addInsertSql` (Java,
 * Scala, Kotlin) and `execute_sql`, `sql_query`, `add_insert_sql` (Python), decoded with the host offset of every
 * character, so that findings point at the exact characters of the host file. An argument built from anything
 * but literals (a variable, an interpolated string, a call) is not read: its SQL is not known.
 *
 * Decoded: Java strings and text blocks (escapes, incidental indentation, `\<newline>`), Scala and Kotlin strings
 * (raw triple-quoted strings too, with `.stripMargin`, `.trimIndent()`, `.trimMargin()`), Python strings (all quote
 * forms, `r` prefixes, escapes), and literal parts joined by `+` (or written side by side, in Python).
 */
import { type Token, tokenize } from "../java/tokens";
import type { SqlPiece } from "./reader";

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

/** SQL strings passed to the SQL methods in Java, Scala or Kotlin code. */
export function jvmSqlPieces(text: string, language: "java" | "scala" | "kotlin"): SqlPiece[] {
  if (!mayHoldSql(text, false)) return [];
  const tokens = tokenize(text);
  const out: SqlPiece[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== "identifier" || !JVM_METHODS.has(t.text) || tokens[i + 1].text !== "(") continue;
    const arg = jvmArgument(text, tokens, i + 2, language);
    if (arg) out.push(toPiece(arg));
  }
  return out;
}

/** The literal parts of one argument from `tokens[at]`, joined by `+`; undefined when any part is not a literal. */
function jvmArgument(
  text: string,
  tokens: Token[],
  at: number,
  language: "java" | "scala" | "kotlin",
): Decoded | undefined {
  const out = emptyDecoded();
  let i = at;
  for (;;) {
    const t = tokens[i];
    if (t?.kind !== "string") return undefined;
    // Scala `s"…"`, `f"…"`: an interpolator written against the quote.
    const before = tokens[i - 1];
    if (before?.kind === "identifier" && before.end === t.start) return undefined;
    let part: Decoded | undefined;
    const triple = t.text.startsWith('"""') && t.text.length >= 6;
    if (triple) part = language === "java" ? javaTextBlock(text, t) : rawString(text, t);
    else if (t.text.length >= 2 && t.text.endsWith('"')) {
      part = emptyDecoded();
      if (!decodeEscapes(text, t.start + 1, t.end - 1, part, false)) return undefined;
    }
    if (!part) return undefined;
    if (language === "kotlin" && part.chars.includes("$")) return undefined; // a string template
    i++;
    // `.stripMargin`, `.trimIndent()`, `.trimMargin()` on the literal.
    if (tokens[i]?.text === "." && tokens[i + 1]?.kind === "identifier") {
      const name = tokens[i + 1].text;
      if (name === "stripMargin" || name === "trimMargin") {
        part = stripMargin(part);
        i += 2;
        if (tokens[i]?.text === "(" && tokens[i + 1]?.text === ")") i += 2;
      } else if (name === "trimIndent") {
        part = trimIndent(part);
        i += 2;
        if (tokens[i]?.text === "(" && tokens[i + 1]?.text === ")") i += 2;
      } else return undefined;
    }
    append(out, part);
    const next = tokens[i];
    if (next?.text === "+") {
      i++;
      continue;
    }
    if (next?.text === ")" || next?.text === ",") return out;
    return undefined;
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
      for (let x = k; x <= close; x++) push(out, text[x], x, x + 1);
      k = close + 1;
      run = k;
    } else k++;
  }
  return literal(run, to);
}

/** SQL strings passed to the SQL methods in Python code (PyFlink's TableEnvironment, StatementSet). */
export function pythonSqlPieces(text: string): SqlPiece[] {
  if (!mayHoldSql(text, true)) return [];
  const out: SqlPiece[] = [];
  const call = /\b(execute_sql|sql_query|sql_update|add_insert_sql)\s*\(/g;
  const code = pythonCode(text);
  let m = call.exec(text);
  while (m) {
    // A call written in a comment or inside a string (a help text, a docstring) is not a call.
    if (code[m.index] === 1) {
      const arg = pythonArgument(text, m.index + m[0].length);
      if (arg) out.push(toPiece(arg));
    }
    m = call.exec(text);
  }
  return out;
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

function pythonArgument(text: string, from: number): Decoded | undefined {
  const out = emptyDecoded();
  let i = skipBlank(text, from);
  let parts = 0;
  for (;;) {
    const s = pythonString(text, i);
    if (!s) break;
    if (!s.decoded) return undefined;
    append(out, s.decoded);
    parts++;
    i = skipBlank(text, s.end);
    if (text[i] === "+") i = skipBlank(text, i + 1);
  }
  if (parts === 0) return undefined;
  return text[i] === ")" || text[i] === "," ? out : undefined;
}

/** A table the Table API names in code: its name (the last part of a dotted path) and where the name is written. */
export interface TableApiUse {
  name: string;
  start: number;
  end: number;
}

// `table.executeInsert("sink")`, `table.insertInto("sink")` (Java, Scala, Kotlin), `execute_insert`, `insert_into`.
const TABLE_API_WRITE = /\.(?:executeInsert|insertInto|execute_insert|insert_into)\s*\(\s*(["'])([^"'\\\r\n]+)\1/g;
// `tableEnv.from("orders")`, `fromPath`, `scan` (older releases), `from_path`.
const TABLE_API_READ = /\.(?:from|fromPath|from_path|scan)\s*\(\s*(["'])([^"'\\\r\n]+)\1/g;

function tableUses(text: string, pattern: RegExp): TableApiUse[] {
  const out: TableApiUse[] = [];
  for (const m of text.matchAll(pattern)) {
    const literal = m[2];
    const dot = literal.lastIndexOf(".");
    const name = literal.slice(dot + 1).replace(/^`|`$/g, "");
    if (!/^[\w$]+$/.test(name)) continue;
    const end = (m.index ?? 0) + m[0].length - 1;
    out.push({ name, start: end - literal.length + dot + 1, end });
  }
  return out;
}

/**
 * The tables job code writes and reads through the Table API with a literal name. A Kafka table that code writes
 * with `execute_insert("page_counts")` is a sink, even when its definition carries `scan.*` options.
 */
export function tableApiUses(text: string): { writes: TableApiUse[]; reads: TableApiUse[] } {
  return { writes: tableUses(text, TABLE_API_WRITE), reads: tableUses(text, TABLE_API_READ) };
}
