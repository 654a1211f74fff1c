/** A Flink configuration file on disk: legacy flink-conf.yaml (line reader) or config.yaml (standard YAML). */
import { type FileFacts, type FlinkConfig, emptyFacts } from "../../model";
import { LineIndex, type Position } from "../../text";
import { fileLines, readLegacyLines } from "./legacy";

export function readFlinkConfigFile(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "flinkConfig", text);
  const index = new LineIndex(text);
  const name = file.slice(file.lastIndexOf("/") + 1);
  const isConfigYaml = name === "config.yaml" || name === "config.yml";
  if (isConfigYaml) {
    // Standard YAML (Flink 1.19+): read by the YAML reader.
    facts.flinkConfigs.push(readConfigYamlPlaceholder(file, index));
    return facts;
  }
  const { entries, ignoredLines } = readLegacyLines(fileLines(index));
  const first = entries[0]?.keyRange ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const config: FlinkConfig = {
    id: file,
    file,
    host: "file",
    dialect: "legacy",
    logicalName: "flink-conf.yaml",
    entries,
    ignoredLines,
    anchor: first,
    insertEntry: (key, value) => appendLine(index, `${key}: ${value}`),
  };
  facts.flinkConfigs.push(config);
  return facts;
}

/** Appends a line at the end of a file, adding a line break first where the file does not end with one. */
export function appendLine(index: LineIndex, line: string) {
  const text = index.text;
  const end: Position = index.positionAt(text.length);
  const eol = index.eol;
  const needsBreak = text.length > 0 && !text.endsWith("\n") && !text.endsWith("\r");
  return { range: { start: end, end }, newText: `${needsBreak ? eol : ""}${line}${eol}` };
}

function readConfigYamlPlaceholder(file: string, _index: LineIndex): FlinkConfig {
  return {
    id: file,
    file,
    host: "file",
    dialect: "yaml",
    logicalName: "config.yaml",
    entries: [],
    ignoredLines: [],
    anchor: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    insertEntry: () => undefined,
  };
}
