/**
 * The floor of each input: the parser the product chose for that kind of file, run alone on the same text, with
 * none of the product's own work (facts, project model, rules, protocol). Server latency divided by this is the
 * cost of everything the product adds.
 */
import { parse as parseXmlCst } from "@xml-tools/parser";
import { parseAllDocuments } from "yaml";
import { tokenize as tokenizeGradle } from "../server/src/core/documents/build/gradle/tokenizer";
import { fileLines, readLegacyLines } from "../server/src/core/documents/flinkConfig/legacy";
import { tokenize as tokenizeJava } from "../server/src/core/documents/java/tokens";
import { memberUnits, type Unit } from "../server/src/core/documents/java/units";
import { scanSql } from "../server/src/core/documents/sql/scanner";
import { LineIndex } from "../server/src/core/text";
import type { EditInput } from "./generate";

type JavaParser = { lexAndParse(text: string, rule: string): unknown };
let javaParser: JavaParser | undefined;

/** java-parser is an ES module; Node 20 loads it with require() like the product's bundle does. */
export function loadJavaParser(): JavaParser {
  javaParser ??= require("java-parser") as JavaParser;
  return javaParser;
}

/** The parts the Java reader hands to java-parser: its members (found by the reader's own splitter). */
export function javaUnits(text: string): Unit[] {
  return (
    memberUnits(tokenizeJava(text)) ?? [
      { start: 0, end: text.length, rule: "blockStatements", nameStart: 0, nameEnd: 0, what: "statement" },
    ]
  );
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
  if (name.endsWith(".sql")) return "sql";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
  return undefined;
}
