/** Helpers for Java reader tests: read a class body or a whole file, show facts as `range text`, apply edits. */

import { readJava } from "../../server/src/core/documents/java/reader";
import type { CodeExpr, JobCode, KafkaSettings } from "../../server/src/core/jobcode/facts";
import { applyEdits, type Range, type TextEdit } from "../../server/src/core/text";
import { span, textAt } from "../readers/helpers";

export const FILE = "/p/src/main/java/com/example/Job.java";

export function java(text: string): JobCode {
  return readJava(FILE, text);
}

/** `line:char-line:char text` of a range. */
export function at(text: string, r: Range | undefined): string {
  return r ? `${span(r)} ${textAt(text, r)}` : "none";
}

/** `key=value` of each setting in merge order, values as read (`?` when unknown). */
export function settings(s: KafkaSettings): string[] {
  return s.entries.map((e) => `${e.key}=${shown(e.value)}`);
}

export function shown(e: CodeExpr): string {
  const v = e.value;
  switch (v.kind) {
    case "string":
      return JSON.stringify(v.value);
    case "bool":
    case "number":
      return String(v.value);
    case "class":
      return `${v.name}.class`;
    case "list":
      return `[${v.items.map(shown).join(", ")}]`;
    default:
      return "?";
  }
}

export function edited(text: string, edits: TextEdit[] | TextEdit | undefined): string {
  if (!edits) throw new Error("no edit");
  return applyEdits(text, Array.isArray(edits) ? edits : [edits]);
}

/** Wraps statements in a class and method, 4-space indented. */
export function inMain(...lines: string[]): string {
  return ["class Job {", "  void run(String[] args) {", ...lines.map((l) => `    ${l}`), "  }", "}", ""].join("\n");
}
