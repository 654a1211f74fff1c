/**
 * A Flink configuration written as a YAML mapping inside another document: FlinkDeployment / FlinkSessionJob
 * `spec.flinkConfiguration`, or `flinkConfiguration:` in Helm values. The operator flattens nested keys with `.`
 * (FLINK-37406) and hands every value to Flink as a string, so new values are quoted where YAML would read a
 * number or a boolean.
 */
import { isMap, isScalar, type Node, type Pair, type YAMLMap } from "yaml";
import type { ConfigEntry, ConfigHost, FlinkConfig, K8sObject, TemplateFill } from "../../model";
import type { Range, TextEdit } from "../../text";
import { scalarText, type YamlSource } from "../yaml/ast";
import {
  firstActionAfter,
  outputColumn,
  templatedKeysAsFills,
  toYamlValuesPath,
  writesText,
} from "../yaml/helmTemplate";
import { insertLinesAfter } from "./edits";
import { isMainlyNested, keyLines, mapInsertPoint, planYamlInsert, readYamlEntries, yamlScalar } from "./yamlEntries";

export interface MapConfigSpec {
  src: YamlSource;
  /** The `flinkConfiguration:` pair, when present. */
  pair?: Pair;
  /** The mapping that holds (or would hold) the pair: where a missing `flinkConfiguration:` is created. */
  parent?: YAMLMap;
  /** The key name to create when the pair is missing. */
  keyName: string;
  id: string;
  host: ConfigHost;
  anchor: Range;
  owner?: K8sObject;
}

export function readMapConfig(spec: MapConfigSpec): FlinkConfig {
  const { src, pair } = spec;
  const value = pair?.value;
  const read = readYamlEntries(src, value);
  // In a Helm template, entries whose key is an action and the actions that write entries are fills.
  const { entries, fills } = src.template ? templatedKeysAsFills(read) : { entries: read, fills: [] };
  const templateFills = src.template && pair ? [...mappingFills(src, pair, entries), ...fills] : fills;
  const config: FlinkConfig = {
    id: spec.id,
    file: src.file,
    host: spec.host,
    dialect: "yaml",
    entries,
    ignoredLines: [],
    anchor: spec.anchor,
    owner: spec.owner,
    insertEntry: (key, v) => insert(spec, key, v, isMainlyNested(entries)),
  };
  if (templateFills.length > 0) config.templateFills = templateFills;
  return config;
}

/**
 * The actions of a Helm template that write entries of the mapping under `pair` when the chart is rendered: the
 * actions the parser was shown as blanks from the key to the end of its block (a line of its own,
 * `{{- toYaml .Values.flink | nindent 4 }}`, or the key's whole value when entries follow it), whose output starts
 * deeper than the key, and a value that is one action (`flinkConfiguration: {{ toYaml .Values.flink | nindent 4 }}`).
 * One that writes a chart value as YAML at the mapping's own indentation names it (`valuesPath`).
 */
function mappingFills(src: YamlSource, pair: Pair, entries: ConfigEntry[]): TemplateFill[] {
  const actions = src.template?.actions ?? [];
  const keyNode = pair.key as Node | null;
  if (actions.length === 0 || !keyNode?.range) return [];
  const keyColumn = src.position(keyNode.range[0]).character;
  const keyLine = src.lineOf(keyNode.range[0]);
  let last = keyLine;
  for (let line = keyLine + 1; line < src.index.lineCount; line++) {
    const parsed = src.parsedLine(line);
    const content = parsed.trimStart();
    // A line of actions belongs to the block; where its output goes is checked below.
    if (src.isActionLine(line)) last = line;
    if (content === "" || content.startsWith("#")) continue;
    if (parsed.length - content.length <= keyColumn) break;
    last = line;
  }
  const from = keyNode.range[1];
  const to = src.index.lineEnd(Math.max(last, keyLine));
  let entryColumn: number | undefined;
  for (const e of entries) {
    const column = e.keyRange.start.character;
    if (!e.nested && (entryColumn === undefined || column < entryColumn)) entryColumn = column;
  }
  const value = pair.value;
  const valueRange = isScalar(value) ? (value.range ?? undefined) : undefined;
  const out: TemplateFill[] = [];
  for (let i = firstActionAfter(actions, from); i < actions.length && actions[i].start < to; i++) {
    const a = actions[i];
    // An action that is the whole value: `flinkConfiguration: {{ toYaml .Values.flink | nindent 4 }}`.
    const whole =
      valueRange !== undefined && a.start === valueRange[0] && a.end === src.trimEnd(a.start, valueRange[1]);
    if (!a.blanked && !whole) continue;
    const text = src.text.slice(a.start, a.end);
    if (!writesText(text)) continue;
    const column = outputColumn(text, src.position(a.start).character);
    if (column <= keyColumn) continue;
    const fill: TemplateFill = { text, range: src.range(a.start, a.end) };
    const path = toYamlValuesPath(text);
    if (path && (entryColumn === undefined || column === entryColumn)) fill.valuesPath = path;
    out.push(fill);
  }
  return out;
}

function insert(spec: MapConfigSpec, key: string, value: string, nested: boolean): TextEdit | undefined {
  const { src, pair, parent } = spec;
  const options = { nested, stringValues: true };
  if (pair) {
    const map = pair.value;
    if (isMap(map) && map.flow) return flowInsert(src, map, `${key}: ${yamlScalar(value, true)}`);
    const keyNode = pair.key as Node | null;
    const empty =
      keyNode?.range && (!map || scalarText(map) === "")
        ? { afterLine: src.lineOf(keyNode.range[0]), indent: src.position(keyNode.range[0]).character + 2 }
        : undefined;
    const plan = planYamlInsert(src, map ?? null, key, value, { ...options, empty });
    return plan && insertLinesAfter(src.host, plan.afterLine, plan.lines);
  }
  if (!isMap(parent) || parent.flow || parent.items.length === 0) return undefined;
  const at = mapInsertPoint(src, parent);
  const pad = " ".repeat(at.indent);
  const lines = [`${pad}${spec.keyName}:`, ...keyLines(key, yamlScalar(value, true), at.indent + 2, 2, false)];
  return insertLinesAfter(src.host, at.afterLine, lines);
}

/** `{a: "1"}` → `{a: "1", key: value}`; `{}` → `{key: value}`. */
function flowInsert(src: YamlSource, map: YAMLMap, pairText: string): TextEdit | undefined {
  const r = map.range;
  if (!r) return undefined;
  const close = src.trimEnd(r[0], r[1]) - 1;
  if (src.text[close] !== "}") return undefined;
  const at = src.position(close);
  const newText = map.items.length > 0 ? `, ${pairText}` : pairText;
  return { range: { start: at, end: at }, newText };
}
