/**
 * Flink configuration written as standard YAML (config.yaml, FlinkDeployment spec.flinkConfiguration, Helm values):
 * nested mappings are flattened with `.` the way Flink does (`a: {b: v}` is `a.b`), and a new key is inserted in
 * the style the text already uses.
 */
import { isMap, isScalar, isSeq, type Node, type Pair, parseDocument, type YAMLMap } from "yaml";
import type { ConfigEntry } from "../../model";
import type { Range } from "../../text";
import { hasTemplate, isTemplateNode, keyText, scalarText, withoutStackTraces, type YamlSource } from "../yaml/ast";

/**
 * Reads the entries of a mapping. A pair whose value is a mapping is an entry of kind `mapping` (so duplicated
 * parents and keys that are both a value and a parent can be reported) followed by its flattened children.
 * Rules that look at option keys and values skip entries whose valueKind is not `scalar`.
 */
export function readYamlEntries(src: YamlSource, map: unknown): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  if (isMap(map)) readMap(src, map, "", undefined, out);
  return out;
}

function readMap(src: YamlSource, map: YAMLMap, prefix: string, parentDelete: Range | undefined, out: ConfigEntry[]) {
  const items = map.items as Pair[];
  for (const pair of items) {
    const name = keyText(pair);
    const keyNode = pair.key as Node | null;
    if (name === undefined || !keyNode?.range) continue;
    const key = prefix ? `${prefix}.${name}` : name;
    // The only child of a parent goes with its parent: deleting it alone would leave `parent:` set to null.
    const deleteRange =
      items.length === 1 && parentDelete
        ? parentDelete
        : map.flow
          ? flowDeleteRange(src, map, pair)
          : pairLines(src, pair);
    const value = pair.value as Node | null;
    const keyRange = src.range(keyNode.range[0], keyNode.range[1]);
    const valueRange = value?.range
      ? src.range(value.range[0], src.trimEnd(value.range[0], value.range[1]))
      : { start: keyRange.end, end: keyRange.end };
    const entry: ConfigEntry = {
      key,
      value: "",
      keyRange,
      valueRange,
      deleteRange,
      nested: prefix !== "",
      templated: false,
      valueKind: "scalar",
    };
    if (isMap(value) && !isTemplateNode(src, value)) {
      out.push({ ...entry, value: src.raw(value), valueKind: "mapping" });
      readMap(src, value, key, deleteRange, out);
      continue;
    }
    if (isSeq(value)) {
      out.push({ ...entry, value: src.raw(value), valueKind: "sequence" });
      continue;
    }
    // Aliases (`*name`) stay as written: configuration files have no reason to use anchors.
    const text = isScalar(value) ? (scalarText(value) ?? "") : src.raw(value);
    const isNull = !value || (isScalar(value) && value.value === null);
    out.push({ ...entry, value: text, templated: hasTemplate(text), valueKind: isNull ? "null" : "scalar" });
  }
}

/** The whole lines of a block pair: from its key's line to the line where its value ends. */
function pairLines(src: YamlSource, pair: Pair): Range {
  const key = pair.key as Node;
  const value = pair.value as Node | null;
  const start = key.range?.[0] ?? 0;
  const end = value?.range ? src.trimEnd(start, value.range[1]) : (key.range?.[1] ?? start);
  return src.wholeLines(src.lineOf(start), src.lineOf(Math.max(start, end - 1)));
}

/** A pair of a flow mapping `{a: 1, b: 2}`: the pair and the comma that separates it from its neighbour. */
function flowDeleteRange(src: YamlSource, map: YAMLMap, pair: Pair): Range {
  const key = pair.key as Node;
  const value = pair.value as Node | null;
  let start = key.range?.[0] ?? 0;
  let end = value?.range ? value.range[1] : (key.range?.[1] ?? start);
  const text = src.text;
  const after = /^\s*,\s*/.exec(text.slice(end));
  if (after && map.items[map.items.length - 1] !== pair) end += after[0].length;
  else {
    const before = /\s*,\s*$/.exec(text.slice(map.range?.[0] ?? 0, start));
    if (before) start -= before[0].length;
  }
  return src.range(start, end);
}

/** Whether most scalar entries are written nested (Flink's own default config.yaml is fully nested). */
export function isMainlyNested(entries: readonly ConfigEntry[]): boolean {
  let nested = 0;
  let flat = 0;
  for (const e of entries) {
    if (e.valueKind === "mapping") continue;
    if (e.nested) nested++;
    else flat++;
  }
  return nested > flat;
}

/** New lines to insert after a line of the parsed text (-1: before the first line). */
export interface InsertPlan {
  afterLine: number;
  lines: string[];
}

export interface InsertOptions {
  /** Write the new key as nested mappings (`a:` / `  b: v`) rather than one flat line. */
  nested: boolean;
  /** Quote values that YAML would read as numbers or booleans (the operator's configuration is a string map). */
  stringValues: boolean;
  /** Where a container without a mapping yet takes its first line (`flinkConfiguration:` with no value). */
  empty?: { afterLine: number; indent: number };
}

/**
 * Plans the lines that add `key: value` to a mapping: under the deepest existing parent mapping of the key
 * (`interval: 1 min` under `execution:` → `checkpointing:`), in that mapping's indentation, after its last line.
 */
export function planYamlInsert(
  src: YamlSource,
  root: unknown,
  key: string,
  value: string,
  options: InsertOptions,
): InsertPlan | undefined {
  const scalar = yamlScalar(value, options.stringValues);
  const unit = indentUnit(src, root);
  if (isMap(root) && root.flow) return undefined;
  if (!isMap(root) || root.items.length === 0) {
    if (root && !isMap(root) && scalarText(root) !== "") return undefined;
    const at = options.empty ?? { afterLine: lastContentLine(src), indent: 0 };
    return { afterLine: at.afterLine, lines: keyLines(key, scalar, at.indent, unit, options.nested) };
  }
  let map: YAMLMap = root;
  let rest = key;
  for (;;) {
    const next = deeperParent(map, rest);
    if (!next) break;
    map = next.map;
    rest = next.rest;
  }
  const at = mapInsertPoint(src, map);
  const firstPart = rest.split(".")[0];
  // A nested `a:` next to an existing `a: value` would be a duplicate key: write such a key flat.
  const clash = map.items.some((p) => keyText(p as Pair) === firstPart);
  return { afterLine: at.afterLine, lines: keyLines(rest, scalar, at.indent, unit, options.nested && !clash) };
}

/** Where a new pair of a non-empty block mapping goes: after its last pair, at its pairs' indentation. */
export function mapInsertPoint(src: YamlSource, map: YAMLMap): { afterLine: number; indent: number } {
  const first = map.items[0] as Pair;
  const indent = src.index.positionAt((first.key as Node).range?.[0] ?? 0).character;
  const last = map.items[map.items.length - 1] as Pair;
  return { afterLine: src.lineOf(endOfPair(src, last)), indent };
}

function deeperParent(map: YAMLMap, rest: string): { map: YAMLMap; rest: string } | undefined {
  let best: { map: YAMLMap; rest: string } | undefined;
  for (const pair of map.items as Pair[]) {
    const name = keyText(pair);
    if (name === undefined || !rest.startsWith(`${name}.`)) continue;
    const value = pair.value;
    if (!isMap(value) || value.flow || value.items.length === 0) continue;
    const candidate = { map: value, rest: rest.slice(name.length + 1) };
    if (!best || candidate.rest.length < best.rest.length) best = candidate;
  }
  return best;
}

function endOfPair(src: YamlSource, pair: Pair): number {
  const key = pair.key as Node;
  const value = pair.value as Node | null;
  const start = key.range?.[0] ?? 0;
  const end = value?.range ? src.trimEnd(start, value.range[1]) : (key.range?.[1] ?? start);
  return Math.max(start, end - 1);
}

export function keyLines(key: string, scalar: string, indent: number, unit: number, nested: boolean): string[] {
  const split = key.split(".").filter((p) => p.length > 0);
  const parts = nested && split.length > 0 ? split : [key];
  return parts.map((part, i) => {
    const pad = " ".repeat(indent + i * unit);
    return i === parts.length - 1 ? `${pad}${part}: ${scalar}` : `${pad}${part}:`;
  });
}

function lastContentLine(src: YamlSource): number {
  const end = src.trimEnd(0, src.text.length);
  return end === 0 ? -1 : src.lineOf(end - 1);
}

/** The indentation step the text uses (the first nested block mapping's offset from its parent), else 2. */
function indentUnit(src: YamlSource, root: unknown): number {
  if (!isMap(root) || root.flow) return 2;
  for (const pair of root.items as Pair[]) {
    const child = pair.value;
    const k = (pair.key as Node | null)?.range;
    if (!k || !isMap(child) || child.flow || child.items.length === 0) continue;
    const ck = ((child.items[0] as Pair).key as Node | null)?.range;
    if (!ck) continue;
    const d = src.index.positionAt(ck[0]).character - src.index.positionAt(k[0]).character;
    if (d > 0) return d;
  }
  return 2;
}

/** The value as a YAML scalar that reads back as the same text: plain where possible, else double-quoted. */
export function yamlScalar(value: string, stringValues: boolean): string {
  const doc = withoutStackTraces(() => parseDocument(`k: ${value}`, { prettyErrors: false }));
  const node = isMap(doc.contents) ? (doc.contents.items[0] as Pair | undefined)?.value : undefined;
  const plain =
    doc.errors.length === 0 &&
    isScalar(node) &&
    node.type === "PLAIN" &&
    node.source === value &&
    (!stringValues || typeof node.value === "string");
  return plain ? value : JSON.stringify(value);
}
