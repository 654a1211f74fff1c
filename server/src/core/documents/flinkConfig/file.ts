/** A Flink configuration file on disk: legacy flink-conf.yaml (line reader) or config.yaml (standard YAML). */
import { isMap } from "yaml";
import { pushAll } from "../../arrays";
import { emptyFacts, type FileFacts, type FlinkConfig, type SyntaxProblem } from "../../model";
import { LineIndex, type Position, type Range } from "../../text";
import { parseYamlDocuments, type YamlDocument, YamlSource } from "../yaml/ast";
import { insertLinesAfter } from "./edits";
import { fileLines, findNestedLines, readLegacyLines, type SourceLine } from "./legacy";
import { isMainlyNested, planYamlInsert, readYamlEntries } from "./yamlEntries";

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function isConfigYamlName(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return name === "config.yaml" || name === "config.yml";
}

/**
 * `flink-conf.yaml` and the copies kept beside it for one environment (`flink-conf-prod.yaml`,
 * `flink-conf.local.yml`, `prod-flink-conf.yaml`), which a deployment mounts or copies in its place.
 */
export function isFlinkConfName(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return /^(?:flink-conf(?:[-_.][A-Za-z0-9][\w.-]*)?|[A-Za-z0-9][\w.-]*[-_.]flink-conf)\.ya?ml$/.test(name);
}

/** A flink-conf.yaml kept for one environment under another name (`flink-conf-prod.yaml`). */
export function isFlinkConfVariant(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return isFlinkConfName(file) && name !== "flink-conf.yaml" && name !== "flink-conf.yml";
}

/** Reads a configuration file; `docs` are the already parsed YAML documents of a config.yaml, if any. */
export function readFlinkConfigFile(file: string, text: string, docs?: YamlDocument[]): FileFacts {
  if (isConfigYamlName(file)) return readConfigYaml(file, text, docs ?? parseYamlDocuments(text));
  const facts = emptyFacts(file, "flinkConfig", text);
  const index = new LineIndex(text);
  const lines = fileLines(index);
  const { entries, ignoredLines } = readLegacyLines(lines);
  pushAll(facts.syntaxErrors, nestedYamlWarnings(lines));
  facts.flinkConfigs.push({
    id: file,
    file,
    host: "file",
    dialect: "legacy",
    logicalName: "flink-conf.yaml",
    ...(isFlinkConfVariant(file) ? { variant: true } : {}),
    entries,
    ignoredLines,
    anchor: entries[0]?.keyRange ?? START,
    insertEntry: (key, value) => appendLine(index, `${key}: ${value}`),
  });
  return facts;
}

/** Warnings for nested YAML in a legacy flink-conf.yaml, whose line reader reads each line as a flat key. */
export function nestedYamlWarnings(lines: readonly SourceLine[]): SyntaxProblem[] {
  return findNestedLines(lines).map((n) => ({
    range: n.keyRange,
    severity: "warning",
    message: `Flink reads this line of flink-conf.yaml as the key \`${n.key}\`, not \`${n.intended}\`.`,
    details:
      `Flink reads flink-conf.yaml line by line, not as YAML. Write the whole key on one line (\`${n.intended}: …\`), ` +
      "or use config.yaml (Flink 1.19+), which is standard YAML.",
  }));
}

function readConfigYaml(file: string, text: string, docs: YamlDocument[]): FileFacts {
  const facts = emptyFacts(file, "flinkConfig", text);
  const src = new YamlSource(file, text);
  for (const doc of docs) {
    pushAll(
      facts.syntaxErrors,
      src.problems(doc, "Flink cannot load this config.yaml and the cluster does not start."),
    );
  }
  const extra = docs[1];
  if (extra?.range) {
    const at = src.position(extra.range[0]);
    facts.syntaxErrors.push({
      range: { start: at, end: { line: at.line, character: at.character + 3 } },
      message: "Flink cannot load a config.yaml that holds more than one YAML document; keep a single document.",
    });
  }
  const root = docs[0]?.contents ?? null;
  const entries = readYamlEntries(src, root);
  if (root && !isMap(root) && src.raw(root).length > 0) {
    const r = root.range as [number, number, number];
    facts.syntaxErrors.push({
      range: singleLine(src.range(r[0], src.trimEnd(r[0], r[1])), src.host),
      message: "Flink cannot load this config.yaml: it must be a mapping of keys to values (`key: value`).",
    });
  }
  const config: FlinkConfig = {
    id: file,
    file,
    host: "file",
    dialect: "yaml",
    logicalName: "config.yaml",
    entries,
    ignoredLines: [],
    anchor: entries[0]?.keyRange ?? START,
    insertEntry(key, value) {
      const plan = planYamlInsert(src, root, key, value, { nested: isMainlyNested(entries), stringValues: false });
      return plan && insertLinesAfter(src.host, plan.afterLine, plan.lines);
    },
  };
  facts.flinkConfigs.push(config);
  return facts;
}

function singleLine(r: Range, index: LineIndex): Range {
  if (r.start.line === r.end.line) return r;
  return { start: r.start, end: { line: r.start.line, character: index.lineText(r.start.line).length } };
}

/** Appends a line at the end of a file, adding a line break first where the file does not end with one. */
export function appendLine(index: LineIndex, line: string) {
  const text = index.text;
  const end: Position = index.positionAt(text.length);
  const eol = index.eol;
  const needsBreak = text.length > 0 && !text.endsWith("\n") && !text.endsWith("\r");
  return { range: { start: end, end }, newText: `${needsBreak ? eol : ""}${line}${eol}` };
}

/** First segments of Flink option keys. */
const FLINK_ROOTS = new Set([
  "akka",
  "blob",
  "classloader",
  "cluster",
  "containerized",
  "env",
  "execution",
  "fs",
  "heartbeat",
  "high-availability",
  "historyserver",
  "io",
  "jmx",
  "jobmanager",
  "jobstore",
  "kubernetes",
  "metrics",
  "parallelism",
  "pekko",
  "pipeline",
  "process",
  "python",
  "queryable-state",
  "resourcemanager",
  "rest",
  "restart-strategy",
  "s3",
  "security",
  "slot",
  "slotmanager",
  "sql-gateway",
  "state",
  "table",
  "taskmanager",
  "web",
  "yarn",
]);

/** Roots that only Flink uses: one of them makes a config.yaml Flink's. */
const DISTINCT_ROOTS = new Set([
  "jobmanager",
  "taskmanager",
  "parallelism",
  "high-availability",
  "restart-strategy",
  "pekko",
  "akka",
  "blob",
  "classloader",
  "slotmanager",
  "jobstore",
  "historyserver",
  "queryable-state",
  "execution.checkpointing",
  "state.backend",
  "state.checkpoints",
  "state.savepoints",
]);

/**
 * A config.yaml is Flink's when its top-level keys are Flink's: at least one key that only Flink uses
 * (`jobmanager…`, `taskmanager…`, `parallelism.default`, `state.backend…`), no fewer Flink keys than others, and
 * no `apiVersion`/`kind` of a manifest; other tools' config.yaml files are left alone.
 */
export function looksLikeFlinkConfig(text: string): boolean {
  let distinct = 0;
  let flink = 0;
  let other = 0;
  let parent: string | undefined;
  let childIndent = 0;
  const index = new LineIndex(text);
  for (let i = 0; i < index.lineCount; i++) {
    const line = index.lineText(i);
    const m = /^(\s*)([A-Za-z][\w.-]*)\s*:(?=\s|$)/.exec(line);
    if (!m) continue;
    const [, indent, key] = m;
    const isParent = /^\s*(#.*)?$/.test(line.slice(m[0].length));
    if (indent.length > 0) {
      // `state:` / `  backend: rocksdb` is `state.backend`: the first level under a parent names the option family.
      childIndent ||= indent.length;
      if (parent && indent.length === childIndent && isDistinct(`${parent}.${key}`, isParent)) distinct++;
      continue;
    }
    if (key === "apiVersion" || key === "kind") return false;
    parent = isParent ? key : undefined;
    childIndent = 0;
    if (isDistinct(key, isParent)) distinct++;
    if (FLINK_ROOTS.has(key.split(".")[0])) flink++;
    else other++;
  }
  return distinct > 0 && flink >= other;
}

function isDistinct(key: string, isParent: boolean): boolean {
  const parts = key.split(".");
  // `parallelism: 4` is many tools' setting; Flink's is `parallelism.default` (or a `parallelism:` block).
  if (parts[0] === "parallelism") return parts[1] === "default" || (parts.length === 1 && isParent);
  return DISTINCT_ROOTS.has(parts[0]) || DISTINCT_ROOTS.has(parts.slice(0, 2).join("."));
}
