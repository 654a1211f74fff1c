/**
 * A Flink configuration held in a string value of another YAML file: a ConfigMap's `flink-conf.yaml: |` or
 * `config.yaml: |` data entry, a Helm chart's `defaultConfiguration`, a FLINK_PROPERTIES environment variable.
 * The text is read by the reader Flink would use (line reader for flink-conf.yaml and FLINK_PROPERTIES, YAML for
 * config.yaml), with every range in the host file's own lines and columns.
 */
import type {
  ConfigEntry,
  ConfigHost,
  FlinkConfig,
  IgnoredLine,
  K8sObject,
  SyntaxProblem,
  TemplateFill,
} from "../../model";
import type { Range } from "../../text";
import { parseYamlDocuments, YamlSource } from "../yaml/ast";
import { templatedKeysAsFills } from "../yaml/helmTemplate";
import type { ScalarLines } from "../yaml/scalarLines";
import { insertLinesAfter } from "./edits";
import { nestedYamlWarnings } from "./file";
import { readLegacyLines, type SourceLine } from "./legacy";
import { isMainlyNested, planYamlInsert, readYamlEntries } from "./yamlEntries";

export interface EmbeddedConfigSpec {
  /** The host file. */
  src: YamlSource;
  /** The lines of the string value (see scalarLines). */
  text: ScalarLines;
  id: string;
  host: ConfigHost;
  /** config.yaml is read as YAML; flink-conf.yaml and FLINK_PROPERTIES by the line reader. */
  logicalName?: "flink-conf.yaml" | "config.yaml";
  /** The key that holds the text: where findings about the configuration as a whole point. */
  anchor: Range;
  owner?: K8sObject;
  /** Says what a YAML error in an embedded config.yaml means for the user. */
  yamlErrorMessage?: string;
}

export interface EmbeddedConfig {
  config: FlinkConfig;
  problems: SyntaxProblem[];
}

export function readEmbeddedConfig(spec: EmbeddedConfigSpec): EmbeddedConfig {
  const { src, text } = spec;
  // YAML is parsed from whole lines, so only a literal block maps back column for column.
  const exact = text.exact && (spec.logicalName !== "config.yaml" || text.block !== undefined);
  const base = {
    id: spec.id,
    file: src.file,
    host: spec.host,
    logicalName: spec.logicalName,
    anchor: spec.anchor,
    owner: spec.owner,
    ...(text.fills ? { templateFills: text.fills } : {}),
  };
  const block = exact ? text.block : undefined;
  const indent = block?.indent ?? spec.anchor.start.character + 2;
  const afterLine = block?.lastContentLine ?? block?.headerLine;

  if (spec.logicalName !== "config.yaml") {
    const read = readLegacyLines(text.lines);
    const { ignoredLines } = read;
    const entries = src.template ? inTemplate(base, read.entries) : read.entries;
    if (!block) for (const e of entries) e.deleteRange = segmentDeleteRange(text.lines, e);
    const problems = nestedYamlWarnings(text.lines);
    const config: FlinkConfig = {
      ...base,
      dialect: "legacy",
      entries,
      ignoredLines,
      insertEntry: (key, value) =>
        afterLine === undefined
          ? undefined
          : insertLinesAfter(src.host, afterLine, [`${" ".repeat(indent)}${key}: ${value}`]),
    };
    return exact ? { config, problems } : anchored(config, problems, spec.anchor);
  }

  const content = new YamlSource(
    src.file,
    text.lines.map((l) => l.text).join("\n"),
    exact && text.lines.length > 0 ? { host: src.host, line: text.lines[0].line, character: indent } : undefined,
  );
  // In a Helm template, the lines are parsed with their actions masked, as the template itself was.
  const docs = parseYamlDocuments(
    text.lines.some((l) => l.parsed !== undefined)
      ? text.lines.map((l) => l.parsed ?? l.text).join("\n")
      : content.text,
  );
  const root = docs[0]?.contents ?? null;
  const entries = src.template ? inTemplate(base, readYamlEntries(content, root)) : readYamlEntries(content, root);
  const yamlError = spec.yamlErrorMessage ?? "Flink cannot load this config.yaml.";
  const problems = docs.flatMap((d) => content.problems(d, yamlError));
  const config: FlinkConfig = {
    ...base,
    dialect: "yaml",
    entries,
    ignoredLines: [],
    insertEntry(key, value) {
      if (afterLine === undefined) return undefined;
      const plan = planYamlInsert(content, root, key, value, { nested: isMainlyNested(entries), stringValues: false });
      if (!plan) return undefined;
      const hostLine = text.lines.length > 0 ? content.hostLine(plan.afterLine) : afterLine;
      return insertLinesAfter(
        src.host,
        hostLine,
        plan.lines.map((l) => " ".repeat(indent) + l),
      );
    },
  };
  return exact ? { config, problems } : anchored(config, problems, spec.anchor);
}

/** A template's entries with templated keys taken out, as fills of the configuration. */
function inTemplate(base: { templateFills?: TemplateFill[] }, all: ConfigEntry[]): ConfigEntry[] {
  const { entries, fills } = templatedKeysAsFills(all);
  if (fills.length > 0) base.templateFills = [...(base.templateFills ?? []), ...fills];
  return entries;
}

/**
 * Lines of a one-line string (`"a: 1\nb: 2"`) share a host line: deleting an entry removes its segment and one
 * `\n` escape next to it, not the host line.
 */
function segmentDeleteRange(lines: readonly SourceLine[], entry: ConfigEntry): Range {
  const at = entry.keyRange.start;
  const i = lines.findIndex(
    (l) => l.line === at.line && l.character <= at.character && at.character <= l.character + l.text.length,
  );
  const seg = lines[i];
  if (!seg) return entry.deleteRange;
  const line = seg.line;
  let start = seg.character;
  let end = seg.character + seg.text.length;
  if (i + 1 < lines.length) end += 2;
  else if (i > 0) start -= 2;
  return { start: { line, character: start }, end: { line, character: end } };
}

/** Points every range at the holding key when the text's own columns are not known. */
function anchored(config: FlinkConfig, problems: SyntaxProblem[], anchor: Range): EmbeddedConfig {
  const entries: ConfigEntry[] = config.entries.map((e) => ({
    ...e,
    keyRange: anchor,
    valueRange: anchor,
    deleteRange: { start: anchor.start, end: anchor.start },
  }));
  const ignoredLines: IgnoredLine[] = config.ignoredLines.map((l) => ({ ...l, range: anchor }));
  return {
    config: { ...config, entries, ignoredLines, inexactRanges: true, insertEntry: () => undefined },
    problems: problems.map((p) => ({ ...p, range: anchor })),
  };
}

/** Lines of a text that start with `NAME=` (a compose list entry), from just after the prefix. */
export function afterPrefix(lines: readonly SourceLine[], prefix: string): SourceLine[] | undefined {
  const first = lines.findIndex((l) => l.text.trim().length > 0);
  if (first < 0) return undefined;
  const line = lines[first];
  const lead = line.text.length - line.text.trimStart().length;
  if (!line.text.startsWith(prefix, lead)) return undefined;
  const cut = lead + prefix.length;
  return [{ ...line, text: line.text.slice(cut), character: line.character + cut }, ...lines.slice(first + 1)];
}
