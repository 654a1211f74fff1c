/**
 * Fixes in job code are asked for as intents ("add setting group.id", "enable checkpointing every 60 s", "set Beam
 * option checkpointingInterval") on facts that know where they stand; this module writes them in the file's own
 * language. Rules never write source text themselves, so a rule written once fixes Java, Scala, Kotlin and Python.
 */
import type { TextEdit } from "../text";
import type { CodeLanguage } from "./facts";
import type { MapLitForm } from "./ir";

/** A value a fix writes: rendered as a literal of the file's language. */
export type CodeLiteral =
  | { kind: "string"; value: string }
  | { kind: "bool"; value: boolean }
  /** A Java `long` (`60_000L`): Beam's `setCheckpointingInterval(Long)`, Kafka timeouts. */
  | { kind: "long"; value: number }
  | { kind: "int"; value: number };

export const str = (value: string): CodeLiteral => ({ kind: "string", value });
export const long = (value: number): CodeLiteral => ({ kind: "long", value });
export const int = (value: number): CodeLiteral => ({ kind: "int", value });
export const bool = (value: boolean): CodeLiteral => ({ kind: "bool", value });

/** How one language writes what fixes insert. */
export interface Dialect {
  language: CodeLanguage;
  literal(v: CodeLiteral): string;
  /** A Java API method name as this language calls it (`setGroupId`, Python `set_group_id`). */
  method(javaName: string): string;
  /** An expression written as a statement of its own (Java adds `;`). */
  statement(expression: string): string;
  /** `receiver.method(args)`. */
  call(receiver: string, javaName: string, args: string[]): string;
  /**
   * Sets a Java bean property: `receiver.setName(value)`; Kotlin writes the property (`receiver.name = value`).
   */
  setter(receiver: string, property: string, value: string): string;
  /** One entry of a map literal in `form`, or of the language's own map literal when `form` is undefined. */
  mapEntry(key: string, value: string, form?: MapLitForm): string;
  /**
   * A `java.util.Map<String, Object>` holding one entry, as an argument of a Java API call
   * (`withConsumerConfigUpdates(…)`), with the imports it needs (`java.util.Map` in Java).
   */
  javaMapOf(key: string, value: string): { text: string; imports: string[] };
  /** A named argument (Python `commit_offset_in_finalize=True`); undefined where the language has none to use. */
  namedArgument?(name: string, value: string): string;
}

/** `60000` → `60_000` (Java and Kotlin digit groups). */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "_");
}

function javaString(s: string): string {
  return JSON.stringify(s);
}

const java: Dialect = {
  language: "java",
  literal: (v) =>
    v.kind === "string"
      ? javaString(v.value)
      : v.kind === "bool"
        ? String(v.value)
        : v.kind === "long"
          ? `${grouped(v.value)}L`
          : grouped(v.value),
  method: (name) => name,
  statement: (e) => `${e};`,
  call: (r, m, args) => `${r}.${m}(${args.join(", ")})`,
  setter: (r, p, v) => `${r}.set${p[0].toUpperCase()}${p.slice(1)}(${v})`,
  mapEntry: (k, v) => `${k}, ${v}`,
  javaMapOf: (k, v) => ({ text: `Map.of(${k}, ${v})`, imports: ["java.util.Map"] }),
};

const scala: Dialect = {
  language: "scala",
  literal: (v) => (v.kind === "string" ? javaString(v.value) : v.kind === "long" ? `${v.value}L` : String(v.value)),
  method: (name) => name,
  statement: (e) => e,
  call: (r, m, args) => `${r}.${m}(${args.join(", ")})`,
  setter: (r, p, v) => `${r}.set${p[0].toUpperCase()}${p.slice(1)}(${v})`,
  mapEntry: (k, v) => `${k} -> ${v}`,
  javaMapOf: (k, v) => ({ text: `java.util.Map.of[String, AnyRef](${k}, ${v})`, imports: [] }),
};

const kotlin: Dialect = {
  language: "kotlin",
  literal: (v) =>
    v.kind === "string"
      ? javaString(v.value).replace(/\$/g, "\\$")
      : v.kind === "bool"
        ? String(v.value)
        : v.kind === "long"
          ? `${grouped(v.value)}L`
          : grouped(v.value),
  method: (name) => name,
  statement: (e) => e,
  call: (r, m, args) => `${r}.${m}(${args.join(", ")})`,
  setter: (r, p, v) => `${r}.${p} = ${v}`,
  mapEntry: (k, v) => `${k} to ${v}`,
  javaMapOf: (k, v) => ({ text: `mapOf<String, Any>(${k} to ${v})`, imports: [] }),
};

/** Python's snake_case spelling of a Java API name (PyFlink mirrors the Java API that way). */
export function pythonName(javaName: string): string {
  return javaName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

const python: Dialect = {
  language: "python",
  literal: (v) =>
    v.kind === "string" ? javaString(v.value) : v.kind === "bool" ? (v.value ? "True" : "False") : String(v.value),
  method: pythonName,
  statement: (e) => e,
  call: (r, m, args) => `${r}.${pythonName(m)}(${args.join(", ")})`,
  setter: (r, p, v) => `${r}.set_${pythonName(p)}(${v})`,
  mapEntry: (k, v) => `${k}: ${v}`,
  javaMapOf: (k, v) => ({ text: `{${k}: ${v}}`, imports: [] }),
  namedArgument: (name, value) => `${name}=${value}`,
};

const DIALECTS: Record<CodeLanguage, Dialect> = { java, scala, kotlin, python };

export function dialectOf(language: CodeLanguage): Dialect {
  return DIALECTS[language];
}

/** Renders a literal for a language (shorthand for rules that build messages). */
export function literalIn(language: CodeLanguage, v: CodeLiteral): string {
  return DIALECTS[language].literal(v);
}

/** An insertion at one position. */
export function insertAt(at: TextEdit["range"]["start"], newText: string): TextEdit {
  return { range: { start: at, end: at }, newText };
}
