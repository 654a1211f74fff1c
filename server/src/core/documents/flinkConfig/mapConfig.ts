/**
 * A Flink configuration written as a YAML mapping inside another document: FlinkDeployment / FlinkSessionJob
 * `spec.flinkConfiguration`, or `flinkConfiguration:` in Helm values. The operator flattens nested keys with `.`
 * (FLINK-37406) and hands every value to Flink as a string, so new values are quoted where YAML would read a
 * number or a boolean.
 */
import { isMap, type Node, type Pair, type YAMLMap } from "yaml";
import type { ConfigHost, FlinkConfig, K8sObject } from "../../model";
import type { Range, TextEdit } from "../../text";
import { scalarText, type YamlSource } from "../yaml/ast";
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
  const entries = readYamlEntries(src, value);
  return {
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
