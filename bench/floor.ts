/**
 * The floor of each input: the parser the product chose for that kind of file, run alone on the same text, with
 * none of the product's own work (facts, project model, rules, protocol). Server latency divided by this is the
 * cost of everything the product adds. For Scala, Kotlin and Python the parser is tree-sitter, and the floor of an
 * edit is what an editor that keeps the tree pays: the tree edited and re-parsed incrementally
 * ({@link IncrementalFloor}); the CLI's floor parses each file whole.
 */
import { readFileSync } from "node:fs";
import { parse as parseXmlCst } from "@xml-tools/parser";
import type * as TreeSitter from "web-tree-sitter";
import { parseAllDocuments } from "yaml";
import { tokenize as tokenizeGradle } from "../server/src/core/documents/build/gradle/tokenizer";
import { fileLines, readLegacyLines } from "../server/src/core/documents/flinkConfig/legacy";
import { tokenize as tokenizeJava } from "../server/src/core/documents/java/tokens";
import { memberUnits, snippetUnits, type Unit } from "../server/src/core/documents/java/units";
import { scanSql } from "../server/src/core/documents/sql/scanner";
import { GRAMMAR_FILES, type TreeSitterLanguage } from "../server/src/core/jobcode/treeSitter";
import { LineIndex } from "../server/src/core/text";
import { wasmPath } from "../server/src/node/parsers";
import type { Edit } from "./edits";
import type { EditInput } from "./generate";

type JavaParser = { lexAndParse(text: string, rule: string): unknown };
let javaParser: JavaParser | undefined;

/** java-parser is an ES module; Node 20 loads it with require() like the product's bundle does. */
export function loadJavaParser(): JavaParser {
  javaParser ??= require("java-parser") as JavaParser;
  return javaParser;
}

/**
 * The parts the Java reader hands to java-parser: its members (found by the reader's own splitter), or a snippet's
 * statements; not those it keeps from the parser (`hazard`).
 */
export function javaUnits(text: string): Unit[] {
  const tokens = tokenizeJava(text);
  return (memberUnits(tokens) ?? snippetUnits(tokens)).filter((u) => u.hazard === undefined);
}

type Runtime = typeof TreeSitter;
let runtime: Runtime | undefined;
const treeSitterParsers = new Map<TreeSitterLanguage, TreeSitter.Parser>();

function wasmBytes(name: string): Uint8Array {
  const path = wasmPath(name);
  if (!path) throw new Error(`${name} not found: run npm ci`);
  return readFileSync(path);
}

/** Starts web-tree-sitter in this process, with the same runtime and grammar files the product loads. */
export async function loadTreeSitter(): Promise<void> {
  if (runtime) return;
  const module = require("web-tree-sitter") as Runtime;
  await module.Parser.init({ wasmBinary: wasmBytes("web-tree-sitter.wasm") });
  for (const language of ["scala", "kotlin", "python"] as const) {
    const parser = new module.Parser();
    parser.setLanguage(await module.Language.load(wasmBytes(GRAMMAR_FILES[language])));
    treeSitterParsers.set(language, parser);
  }
  runtime = module;
}

function treeSitterParser(language: TreeSitterLanguage): TreeSitter.Parser {
  const parser = treeSitterParsers.get(language);
  if (!parser) throw new Error("loadTreeSitter() first");
  return parser;
}

/** Characters per read, as the product hands them to the parser (a whole string is copied at every read). */
const CHUNK = 4096;

function chunks(text: string): TreeSitter.ParseCallback {
  return (index) => (index < text.length ? text.slice(index, index + CHUNK) : undefined);
}

function fullParse(language: TreeSitterLanguage, text: string): TreeSitter.Tree {
  const tree = treeSitterParser(language).parse(chunks(text));
  if (!tree) throw new Error(`tree-sitter gave no ${language} tree`);
  return tree;
}

/**
 * An editor's tree-sitter floor: one tree kept for the file; each edit is applied to it (`tree.edit` with the
 * edit's own offsets, nothing compared) and the text re-parsed from it.
 */
export class IncrementalFloor {
  private tree: TreeSitter.Tree;

  constructor(
    private readonly language: TreeSitterLanguage,
    text: string,
  ) {
    this.tree = fullParse(language, text);
  }

  /** Applies one digit edit (one character replaced) and re-parses. */
  reparse(edit: Edit): void {
    const start = edit.change.range.start;
    const point = { row: start.line, column: start.character };
    const end = { row: start.line, column: start.character + 1 };
    this.tree.edit({
      startIndex: edit.offset,
      oldEndIndex: edit.offset + 1,
      newEndIndex: edit.offset + edit.change.text.length,
      startPosition: point,
      oldEndPosition: end,
      newEndPosition: { row: start.line, column: start.character + edit.change.text.length },
    } as TreeSitter.Edit);
    const next = treeSitterParser(this.language).parse(chunks(edit.text), this.tree);
    if (!next) throw new Error(`tree-sitter gave no ${this.language} tree`);
    this.tree.delete();
    this.tree = next;
  }

  dispose(): void {
    this.tree.delete();
  }
}

export function isTreeSitterFloor(kind: EditInput["floor"]): kind is TreeSitterLanguage {
  return kind === "scala" || kind === "kotlin" || kind === "python";
}

/** Parses `text` the way the floor of `kind` does; `units` are the Java members (computed outside the timing). */
export function parseFloor(kind: EditInput["floor"], file: string, text: string, units?: Unit[]): void {
  switch (kind) {
    case "legacyLines":
      readLegacyLines(fileLines(new LineIndex(text)));
      return;
    case "yaml":
      parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false, keepSourceTokens: false });
      return;
    case "xml":
      parseXmlCst(text);
      return;
    case "gradle":
      tokenizeGradle(text, file.endsWith(".kts") ? "kotlin" : "groovy");
      return;
    case "scala":
    case "kotlin":
    case "python":
      fullParse(kind, text).delete();
      return;
    case "sql":
      scanSql(text);
      return;
    case "java": {
      const parser = loadJavaParser();
      for (const u of units ?? javaUnits(text)) {
        try {
          parser.lexAndParse(text.slice(u.start, u.end), u.rule);
        } catch {
          // A member that does not parse costs what it cost until the error, as it does in the reader.
        }
      }
      return;
    }
  }
}

/** The floor kind of a workspace file, by name; undefined for files the product does not parse. */
export function floorKindOf(file: string): EditInput["floor"] | undefined {
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (name === "flink-conf.yaml" || name === "flink-conf.yml") return "legacyLines";
  if (name === "pom.xml") return "xml";
  if (name.startsWith("build.gradle") || name.startsWith("settings.gradle")) return "gradle";
  if (name.endsWith(".java")) return "java";
  if (name.endsWith(".scala") || name.endsWith(".sc")) return "scala";
  if (name.endsWith(".kt")) return "kotlin";
  if (name.endsWith(".py")) return "python";
  if (name.endsWith(".sql")) return "sql";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
  return undefined;
}
