/**
 * Parse results of Java units (class members, statements) kept by their text, so that a keystroke in one method
 * parses that method again and not the whole class: java-parser is most of the cost of reading a Java file.
 *
 * A result is kept with the offset it was parsed at and handed out as it is while the unit stays there; a unit
 * that moved (typing above it) gets a copy with every number under a key that names an offset (`start`, `end`,
 * `dot`, `…Start`, `…End`) shifted. The syntax tree keeps its offsets under such names only, and nothing that
 * reads it changes it, so one result can serve every read.
 */
import { type ParseResult, type ParseRule, parseUnit } from "./syntax";

/** Units kept: a few thousand members is several large files being edited at once. */
const MAX_UNITS = 4000;

interface Kept {
  result: ParseResult;
  base: number;
}

const cache = new Map<string, Kept>();

const OFFSET_KEY = /^(start|end|dot)$|Start$|End$/;

/** A copy with every offset moved by `by`; a node reached twice is copied once, so identities stay as they were. */
function shifted<T>(value: T, by: number, copies = new Map<object, unknown>()): T {
  if (typeof value !== "object" || value === null) return value;
  const done = copies.get(value);
  if (done) return done as T;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    copies.set(value, out);
    for (const v of value) out.push(shifted(v, by, copies));
    return out as T;
  }
  const out: Record<string, unknown> = {};
  copies.set(value, out);
  for (const [k, v] of Object.entries(value)) {
    out[k] = typeof v === "number" && OFFSET_KEY.test(k) ? v + by : shifted(v, by, copies);
  }
  return out as T;
}

/** parseUnit, answered from the cache when the same text was parsed with the same rule before. */
export function cachedParseUnit(text: string, rule: ParseRule, base: number): ParseResult {
  const key = `${rule}\n${text}`;
  let kept = cache.get(key);
  if (kept) {
    // Most recently used last: the oldest entries go first when the cache is full.
    cache.delete(key);
    if (kept.base !== base) {
      kept = { result: kept.result.ok ? shifted(kept.result, base - kept.base) : kept.result, base };
    }
  } else {
    kept = { result: parseUnit(text, rule, base), base };
    if (cache.size >= MAX_UNITS) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, kept);
  return kept.result;
}

/** Forgets every kept result (tests compare cold and warm reads). */
export function clearParseCache(): void {
  cache.clear();
}
