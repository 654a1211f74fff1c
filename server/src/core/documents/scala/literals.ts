/**
 * Scala literals as values: string escapes (`\t`, `\u0041`), triple-quoted strings (no escapes), interpolated
 * strings (`s"…"`, `f"…"`, `raw"…"`: known only when nothing is interpolated), numbers with `_`, `L`, `f`/`d`
 * suffixes and hexadecimal digits.
 */
import type { CodeValue } from "../../jobcode/facts";
import { parseNumber } from "../../jobcode/values";

const UNKNOWN: CodeValue = { kind: "unknown" };

const ESCAPES: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "'": "'", "\\": "\\" };

/** Decodes Scala's escape sequences (octal escapes of Scala 2 included). */
export function decodeEscapes(s: string): string {
  if (!s.includes("\\")) return s;
  return s.replace(/\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)/gs, (all, c: string) => {
    if (c[0] === "u") return String.fromCharCode(Number.parseInt(c.replace(/^u+/, ""), 16));
    if (/^[0-7]/.test(c)) return String.fromCharCode(Number.parseInt(c, 8));
    return ESCAPES[c] ?? all;
  });
}

/** The content between the quotes: `"…"` or `"""…"""` (an unterminated literal keeps what is there). */
function between(image: string): { body: string; triple: boolean } {
  if (image.startsWith('"""')) {
    const body = image.slice(3);
    return { body: body.endsWith('"""') ? body.slice(0, -3) : body, triple: true };
  }
  const body = image.slice(1);
  return { body: body.endsWith('"') && body.length > 0 ? body.slice(0, -1) : body, triple: false };
}

/** A plain string literal: `"a\tb"` has escapes, `"""a\tb"""` does not. */
export function stringLiteral(image: string): { type: "string" | "text"; value: CodeValue } {
  const { body, triple } = between(image);
  return triple ? { type: "text", value: { kind: "string", value: body } } : { type: "string", value: stringOf(body) };
}

function stringOf(body: string): CodeValue {
  return { kind: "string", value: decodeEscapes(body) };
}

/**
 * An interpolated string `s"…"`: its value when nothing is interpolated (`$$` is a dollar sign), else unknown.
 * `raw` keeps backslashes; `f` is known only without format specifiers; other interpolators are unknown.
 */
export function interpolatedLiteral(interpolator: string, image: string, hasParts: boolean): CodeValue {
  if (hasParts) return UNKNOWN;
  const { body, triple } = between(image);
  const plain = body.replace(/\$\$/g, "$");
  if (interpolator === "raw") return { kind: "string", value: plain };
  if (interpolator === "s") return triple ? { kind: "string", value: plain } : stringOf(plain);
  if (interpolator === "f" && !plain.includes("%")) return triple ? { kind: "string", value: plain } : stringOf(plain);
  return UNKNOWN;
}

/** `'c'`, `'\n'`, `'\u0041'`. */
export function charLiteral(image: string): CodeValue {
  const body = image.length >= 2 && image.endsWith("'") ? image.slice(1, -1) : image.slice(1);
  return { kind: "string", value: decodeEscapes(body) };
}

/** `5_000L`, `0xFF`, `-5`, `1.5e3f`. */
export function numberLiteral(image: string): CodeValue {
  const n = parseNumber(image);
  return n === undefined ? UNKNOWN : { kind: "number", value: n };
}
