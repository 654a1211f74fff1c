/**
 * One tokenizer for Gradle's Groovy and Kotlin DSLs: identifiers, numbers, strings with their interpolations,
 * punctuation, and line breaks (they end statements). Comments are dropped. It never fails: an unterminated
 * string ends at the end of its line (or of the file for triple quotes) and is reported.
 */

export type Dsl = "groovy" | "kotlin";

export interface TextSegment {
  kind: "text";
  text: string;
  start: number;
  end: number;
  /** False for an escape sequence or a line break, whose source differs from its text. */
  exact: boolean;
}

/** `$name`, `$a.b` (Groovy) or `${expression}`: `tokens` is the expression, `start`/`end` include `$` and braces. */
export interface InterpolationSegment {
  kind: "interpolation";
  tokens: Token[];
  start: number;
  end: number;
}

export type StringSegment = TextSegment | InterpolationSegment;

export interface Token {
  kind: "ident" | "number" | "string" | "punct" | "newline";
  /** Source text (for strings: including the quotes). */
  text: string;
  start: number;
  end: number;
  /** Strings: the content between the quotes. */
  segments?: StringSegment[];
  /** Strings: offsets of the content between the quotes. */
  contentStart?: number;
  contentEnd?: number;
}

export interface LexProblem {
  start: number;
  end: number;
  message: string;
}

const TWO_CHAR_PUNCT = new Set([
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "+=",
  "-=",
  "*=",
  "/=",
  "->",
  "?.",
  "?:",
  "!!",
  "..",
  "::",
  "++",
  "--",
  "=~",
  "*.",
]);

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0" };

function isIdentStart(c: string): boolean {
  return /[A-Za-z_$]/.test(c);
}

function isIdentPart(c: string): boolean {
  return /[\w$]/.test(c);
}

export function tokenize(text: string, dsl: Dsl): { tokens: Token[]; problems: LexProblem[] } {
  const lexer = new Lexer(text, dsl);
  const tokens = lexer.run(0, false).tokens;
  return { tokens, problems: lexer.problems };
}

class Lexer {
  readonly problems: LexProblem[] = [];

  constructor(
    private readonly text: string,
    private readonly dsl: Dsl,
  ) {}

  /** Tokens from `start`; with `untilBrace`, stops at the `}` that closes an interpolation (returned as `end`). */
  run(start: number, untilBrace: boolean): { tokens: Token[]; end: number } {
    const { text } = this;
    const tokens: Token[] = [];
    let depth = 0;
    let i = start;
    if (!untilBrace && text.startsWith("#!")) i = this.lineEnd(0);
    while (i < text.length) {
      const c = text[i];
      const next = text[i + 1];
      if (c === "\n" || c === "\r") {
        const last = tokens[tokens.length - 1];
        if (last?.kind !== "newline") tokens.push({ kind: "newline", text: "\n", start: i, end: i + 1 });
        i++;
      } else if (c === " " || c === "\t" || c === "\f") {
        i++;
      } else if (c === "\\" && (next === "\n" || next === "\r")) {
        i += 2; // a line continuation
      } else if (c === "/" && next === "/") {
        i = this.lineEnd(i);
      } else if (c === "/" && next === "*") {
        const close = text.indexOf("*/", i + 2);
        if (close < 0) {
          this.problems.push({ start: i, end: i + 2, message: "This comment is never closed (`*/` is missing)." });
          i = text.length;
        } else i = close + 2;
      } else if (c === '"' || c === "'") {
        const token = this.string(i);
        tokens.push(token);
        i = token.end;
      } else if (isIdentStart(c)) {
        let j = i + 1;
        while (j < text.length && isIdentPart(text[j])) j++;
        tokens.push({ kind: "ident", text: text.slice(i, j), start: i, end: j });
        i = j;
      } else if (c === "`" && this.dsl === "kotlin") {
        const close = text.indexOf("`", i + 1);
        const j = close < 0 || text.slice(i, close).includes("\n") ? i + 1 : close + 1;
        tokens.push({ kind: "ident", text: text.slice(i + 1, Math.max(i + 1, j - 1)), start: i, end: j });
        i = j;
      } else if (/[0-9]/.test(c)) {
        let j = i + 1;
        while (j < text.length && /[\w.]/.test(text[j]) && !(text[j] === "." && !/[0-9]/.test(text[j + 1] ?? ""))) j++;
        tokens.push({ kind: "number", text: text.slice(i, j), start: i, end: j });
        i = j;
      } else {
        if (untilBrace && c === "}" && depth === 0) return { tokens, end: i };
        if (c === "{") depth++;
        if (c === "}") depth--;
        const two = text.slice(i, i + 2);
        const len = TWO_CHAR_PUNCT.has(two) ? 2 : 1;
        tokens.push({ kind: "punct", text: text.slice(i, i + len), start: i, end: i + len });
        i += len;
      }
    }
    return { tokens, end: i };
  }

  private lineEnd(i: number): number {
    let j = i;
    while (j < this.text.length && this.text[j] !== "\n" && this.text[j] !== "\r") j++;
    return j;
  }

  private string(start: number): Token {
    const { text } = this;
    const quote = text[start];
    const triple = text.startsWith(quote.repeat(3), start);
    const delimiter = triple ? quote.repeat(3) : quote;
    // Groovy interpolates "…" and """…"""; Kotlin interpolates every string (its '…' is a character literal).
    const interpolates = quote === '"' || this.dsl === "kotlin";
    const segments: StringSegment[] = [];
    const contentStart = start + delimiter.length;
    let i = contentStart;
    let segStart = i;
    let segText = "";
    const flush = (end: number) => {
      if (end > segStart) segments.push({ kind: "text", text: segText, start: segStart, end, exact: true });
      segText = "";
    };
    const pushSpecial = (s: number, e: number, t: string) => {
      flush(s);
      segments.push({ kind: "text", text: t, start: s, end: e, exact: false });
      segStart = e;
    };
    while (i < text.length) {
      if (text.startsWith(delimiter, i)) {
        flush(i);
        return this.stringToken(start, i + delimiter.length, segments, contentStart, i);
      }
      const c = text[i];
      if ((c === "\n" || c === "\r") && !triple) break;
      if (c === "\n" || c === "\r") {
        const e = c === "\r" && text[i + 1] === "\n" ? i + 2 : i + 1;
        pushSpecial(i, e, text.slice(i, e));
        i = e;
      } else if (c === "\\" && i + 1 < text.length) {
        const n = text[i + 1];
        pushSpecial(i, i + 2, ESCAPES[n] ?? n);
        i += 2;
      } else if (c === "$" && interpolates && text[i + 1] === "{") {
        flush(i);
        const inner = this.run(i + 2, true);
        const end = Math.min(text.length, inner.end + 1);
        segments.push({ kind: "interpolation", tokens: inner.tokens, start: i, end });
        i = end;
        segStart = i;
      } else if (c === "$" && interpolates && isIdentStart(text[i + 1] ?? "") && text[i + 1] !== "$") {
        flush(i);
        const { tokens, end } = this.dollarPath(i + 1);
        segments.push({ kind: "interpolation", tokens, start: i, end });
        i = end;
        segStart = i;
      } else {
        segText += c;
        i++;
      }
    }
    flush(i);
    this.problems.push({
      start,
      end: i,
      message: `This string is never closed (\`${delimiter}\` is missing), so the build script does not compile.`,
    });
    return this.stringToken(start, i, segments, contentStart, i);
  }

  /** `$name` in Kotlin; `$a.b.c` in Groovy, where the dots are property accesses. */
  private dollarPath(start: number): { tokens: Token[]; end: number } {
    const { text } = this;
    const tokens: Token[] = [];
    let i = start;
    for (;;) {
      let j = i + 1;
      while (j < text.length && /[\w]/.test(text[j])) j++;
      tokens.push({ kind: "ident", text: text.slice(i, j), start: i, end: j });
      i = j;
      if (this.dsl === "groovy" && text[i] === "." && isIdentStart(text[i + 1] ?? "") && text[i + 1] !== "$") {
        tokens.push({ kind: "punct", text: ".", start: i, end: i + 1 });
        i++;
      } else return { tokens, end: i };
    }
  }

  private stringToken(
    start: number,
    end: number,
    segments: StringSegment[],
    contentStart: number,
    contentEnd: number,
  ): Token {
    return { kind: "string", text: this.text.slice(start, end), start, end, segments, contentStart, contentEnd };
  }
}
