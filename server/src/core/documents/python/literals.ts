/**
 * The values of Python literals as the interpreter reads them: string escapes (`\n`, `\x41`, `\u00e9`, octal, a
 * backslash at the end of a line), raw, byte and f-string prefixes, and integer and float spellings (`60_000`,
 * `0x1F`, `0o17`, `1e3`). What cannot be known without running the program is `unknown`.
 */
import type { CodeValue } from "../../jobcode/facts";

export const UNKNOWN: CodeValue = { kind: "unknown" };

/** `r`, `b`, `f`, `u` and their combinations, from the text before the opening quote. */
export interface StringPrefix {
  raw: boolean;
  bytes: boolean;
  formatted: boolean;
}

export function stringPrefix(start: string): StringPrefix {
  const p = start.replace(/["']+$/, "").toLowerCase();
  return { raw: p.includes("r"), bytes: p.includes("b"), formatted: p.includes("f") || p.includes("t") };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/**
 * The characters a part of a string literal stands for, or undefined when they cannot be known here (a `\N{…}`
 * character name). `formatted` also turns `{{` and `}}` into single braces.
 */
export function decodeStringPart(content: string, prefix: StringPrefix): string | undefined {
  let s = content;
  if (!prefix.raw) {
    if (/\\N\{/.test(s)) return undefined;
    s = s.replace(
      /\\(\r\n|\n|\r|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\s\S])/g,
      (all, c: string) => {
        if (c === "\n" || c === "\r" || c === "\r\n") return "";
        if (SIMPLE_ESCAPES[c] !== undefined) return SIMPLE_ESCAPES[c];
        if (/^[0-7]/.test(c)) return String.fromCharCode(Number.parseInt(c, 8));
        if (c[0] === "x" && c.length === 3) return String.fromCharCode(Number.parseInt(c.slice(1), 16));
        if (!prefix.bytes && (c[0] === "u" || c[0] === "U") && c.length > 1) {
          const code = Number.parseInt(c.slice(1), 16);
          return code <= 0x10ffff ? String.fromCodePoint(code) : all;
        }
        // Python keeps unknown escapes as written (`"\d"` is a backslash and a d).
        return all;
      },
    );
  }
  if (prefix.formatted) s = s.replace(/\{\{/g, "{").replace(/\}\}/g, "}");
  return s;
}

/** An integer or float literal: `60_000`, `0x1F`, `0o17`, `0b101`, `1.5e3`. Imaginary numbers are unknown. */
export function numberValue(image: string): CodeValue {
  const s = image.replace(/_/g, "");
  let n: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(s)) n = Number.parseInt(s.slice(2), 16);
  else if (/^0[oO][0-7]+$/.test(s)) n = Number.parseInt(s.slice(2), 8);
  else if (/^0[bB][01]+$/.test(s)) n = Number.parseInt(s.slice(2), 2);
  else if (/^[0-9]+[lL]$/.test(s)) n = Number(s.slice(0, -1));
  else if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) n = Number(s);
  else return UNKNOWN;
  return Number.isFinite(n) ? { kind: "number", value: n } : UNKNOWN;
}

/**
 * The characters one string literal stands for, read from its text (`r"\d"`, triple-quoted, `f"{{a}}"`); undefined
 * for a byte string, an f-string with replacement fields, or a `\N{…}` escape.
 */
export function stringLiteralValue(literal: string): string | undefined {
  const open = /^([A-Za-z]*)("""|'''|"|')/.exec(literal);
  if (!open) return undefined;
  const prefix = stringPrefix(open[1]);
  if (prefix.bytes) return undefined;
  const quote = open[2];
  const closed = literal.length >= open[0].length + quote.length && literal.endsWith(quote);
  const body = literal.slice(open[0].length, closed ? literal.length - quote.length : undefined);
  if (prefix.formatted && body.replace(/\{\{|\}\}/g, "").includes("{")) return undefined;
  return decodeStringPart(body, prefix);
}
