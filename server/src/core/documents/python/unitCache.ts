/**
 * Lowered module-level functions and classes kept by their text, so that a keystroke in one function lowers that
 * function again and not the whole file (copying and lowering the tree is most of the cost of reading a Python
 * file; tree-sitter itself re-parses incrementally).
 *
 * A function or class is lowered the same wherever it is, given its text and the import aliases in force; what it
 * adds to the file's lists (the names it calls, the classes it declares) is kept with it. A unit that moved (typing
 * above it) gets a copy with every number under a key that names an offset (`start`, `end`, `dot`, `…Start`,
 * `…End`) shifted, as the syntax tree's contract (jobcode/ir.ts) promises; nothing that reads the tree changes it,
 * so one result serves every read.
 */
import type { Member } from "../../jobcode/ir";

export interface KeptUnit {
  member: Member;
  /** The offset the unit was lowered at. */
  base: number;
  /** The name the unit binds in the module. */
  name: string;
  /** Every name the unit calls as the file's own function (`called`), and `Owner.name` calls. */
  called: string[];
  qualified: [string, string][];
  classNames: string[];
}

/** Units kept: a few thousand functions is several large files being edited at once. */
const MAX_UNITS = 4000;

const cache = new Map<string, KeptUnit>();

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

/** The unit lowered from `key` before, moved to `base`; undefined when it is not kept. */
export function keptUnit(key: string, base: number): KeptUnit | undefined {
  let kept = cache.get(key);
  if (!kept) return undefined;
  // Most recently used last: the oldest entries go first when the cache is full.
  cache.delete(key);
  if (kept.base !== base) kept = { ...kept, member: shifted(kept.member, base - kept.base), base };
  cache.set(key, kept);
  return kept;
}

export function keepUnit(key: string, unit: KeptUnit): void {
  if (cache.size >= MAX_UNITS) cache.delete(cache.keys().next().value as string);
  cache.set(key, unit);
}

/** Forgets every kept unit (tests compare cold and warm reads). */
export function clearUnitCache(): void {
  cache.clear();
}
