/** Small helpers for reader tests: ranges as `line:char-line:char`, the text under a range, insert-and-reread. */
import { readDocument } from "../../server/src/core/documents/index";
import type { ConfigEntry, FileFacts, FlinkConfig } from "../../server/src/core/model";
import { applyEdits, LineIndex, type Range } from "../../server/src/core/text";

export function span(r: Range | undefined): string {
  return r ? `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}` : "none";
}

export function textAt(text: string, r: Range): string {
  const index = new LineIndex(text);
  return text.slice(index.offsetAt(r.start), index.offsetAt(r.end));
}

export function entry(config: FlinkConfig, key: string): ConfigEntry {
  const found = config.entries.filter((e) => e.key === key);
  if (found.length !== 1) throw new Error(`${found.length} entries named ${key}: ${config.entries.map((e) => e.key)}`);
  return found[0];
}

/** Key → value of the scalar entries, in source order. */
export function scalars(config: FlinkConfig): [string, string][] {
  return config.entries.filter((e) => e.valueKind === "scalar").map((e) => [e.key, e.value]);
}

/** Applies insertEntry of the configuration with this id and reads the file again. */
export function insertAndReread(
  file: string,
  text: string,
  id: string,
  key: string,
  value: string,
): { text: string; facts: FileFacts; config: FlinkConfig } {
  const before = readDocument(file, text).flinkConfigs.find((c) => c.id === id);
  if (!before) throw new Error(`no configuration ${id}`);
  const edit = before.insertEntry(key, value);
  if (!edit) throw new Error(`configuration ${id} cannot take ${key}`);
  const after = applyEdits(text, [edit]);
  const facts = readDocument(file, after);
  const config = facts.flinkConfigs.find((c) => c.id === id);
  if (!config) throw new Error(`configuration ${id} gone after the insert:\n${after}`);
  return { text: after, facts, config };
}
