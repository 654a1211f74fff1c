/**
 * Lowered top-level items (objects, classes, definitions, script statements) kept by their text, so that a
 * keystroke lowers the item it is in again and not the whole file: walking tree-sitter nodes from JavaScript costs
 * a few microseconds per node, far more than the incremental re-parse itself.
 *
 * A result is kept with the offset it was lowered at. An item that moved (typing above it) gets a copy with every
 * number under a key that names an offset (`start`, `end`, `dot`, `…Start`, `…End`) shifted: the lowered tree keeps
 * offsets under such names only, and nothing that reads it changes it, so one result can serve every read.
 */
import type { Member, Stmt } from "../../jobcode/ir";
import type { Declarations } from "./lowering";

export interface ItemLowering {
  members: Member[];
  stmts: Stmt[];
  called: string[];
  tooDeepAt?: { start: number; end: number };
}

/** Items kept: several large files being edited at once. */
const MAX_ITEMS = 3000;

const lowerings = new Map<string, { result: ItemLowering; base: number }>();
const declarations = new Map<string, Declarations>();

const OFFSET_KEY = /^(start|end|dot)$|Start$|End$/;
const offsetKeys = new Map<string, boolean>();

function isOffsetKey(key: string): boolean {
  let yes = offsetKeys.get(key);
  if (yes === undefined) {
    yes = OFFSET_KEY.test(key);
    offsetKeys.set(key, yes);
  }
  return yes;
}

/** A copy with every offset moved by `by`; a node reached twice is copied once. */
function shifted<T>(value: T, by: number, copies: Map<object, unknown>): T {
  if (typeof value !== "object" || value === null) return value;
  const done = copies.get(value);
  if (done !== undefined) return done as T;
  if (Array.isArray(value)) {
    const list: unknown[] = new Array(value.length);
    copies.set(value, list);
    for (let i = 0; i < value.length; i++) list[i] = shifted(value[i], by, copies);
    return list as T;
  }
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const key in source) {
    const v = source[key];
    copy[key] = typeof v === "number" ? (isOffsetKey(key) ? v + by : v) : shifted(v, by, copies);
  }
  return copy as T;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_ITEMS) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/** What an item declares, kept by the item's text. */
export function cachedDeclarations(itemText: string, compute: () => Declarations): Declarations {
  const kept = declarations.get(itemText);
  if (kept) {
    remember(declarations, itemText, kept);
    return kept;
  }
  const d = compute();
  remember(declarations, itemText, d);
  return d;
}

/** The lowering of an item at `base`, from the cache when the same key was lowered before. */
export function cachedLowering(key: string, base: number, compute: () => ItemLowering): ItemLowering {
  const kept = lowerings.get(key);
  if (kept) {
    const entry = kept.base === base ? kept : { result: shifted(kept.result, base - kept.base, new Map()), base };
    remember(lowerings, key, entry);
    return entry.result;
  }
  const result = compute();
  remember(lowerings, key, { result, base });
  return result;
}

/** Forgets every kept result (tests compare cold and warm reads). */
export function clearScalaCache(): void {
  lowerings.clear();
  declarations.clear();
}
