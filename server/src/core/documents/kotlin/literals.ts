/**
 * Kotlin literals as values: string escapes (`\t`, `\$`, `\u0041`), raw strings (`"""…"""`, no escapes), string
 * templates (`"$x"`, `"${x}"`: known only when nothing is interpolated), numbers with `_`, `L`, `f`, `u` suffixes and
 * hexadecimal or binary digits.
 */
import type { CodeValue } from "../../jobcode/facts";
import { parseNumber } from "../../jobcode/values";

const UNKNOWN: CodeValue = { kind: "unknown" };

const ESCAPES: Record<string, string> = {
  t: "\t",
  b: "\b",
  n: "\n",
  r: "\r",
  "'": "'",
  '"': '"',
  "\\": "\\",
  $: "$",
};

/** A string literal's value: undefined when a template interpolates something. */
export function stringValue(image: string): { type: "string" | "text"; value: CodeValue } {
  if (image.startsWith('"""')) {
    const body = image.slice(3, image.length >= 6 && image.endsWith('"""') ? -3 : undefined);
    return { type: "text", value: /\$[\p{L}_{`]/u.test(body) ? UNKNOWN : { kind: "string", value: body } };
  }
  const body = image.slice(1, image.length >= 2 && image.endsWith('"') ? -1 : undefined);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      const next = body[i + 1];
      if (next === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 2, i + 6))) {
        out += String.fromCharCode(Number.parseInt(body.slice(i + 2, i + 6), 16));
        i += 5;
        continue;
      }
      out += next !== undefined && ESCAPES[next] !== undefined ? ESCAPES[next] : (next ?? "");
      i++;
      continue;
    }
    if (c === "$" && /[\p{L}_{`]/u.test(body[i + 1] ?? "")) return { type: "string", value: UNKNOWN };
    out += c;
  }
  return { type: "string", value: { kind: "string", value: out } };
}

/** `'c'`, `'\n'`, `'\u0041'`. */
export function charValue(image: string): CodeValue {
  const v = stringValue(`"${image.slice(1, image.length >= 2 && image.endsWith("'") ? -1 : undefined)}"`);
  return v.value;
}

/** `60_000L`, `0xFF`, `1.5f`, `10u`. */
export function numberValue(image: string): CodeValue {
  const n = parseNumber(image.replace(/[uU][lL]?$/, ""));
  return n === undefined ? UNKNOWN : { kind: "number", value: n };
}
