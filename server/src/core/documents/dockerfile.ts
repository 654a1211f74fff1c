/**
 * Dockerfiles: the Flink version of `FROM flink:1.19.1-scala_2.12-java17` (also `apache/flink`, `--platform=…`
 * flags, and tags built from an `ARG` with a default). Where the version comes from an ARG, the evidence points at
 * the ARG's default, which is where the version is defined.
 */
import { emptyFacts, type FileFacts, type FlinkConfig } from "../model";
import { LineIndex, type Range } from "../text";
import { readLegacyLines, type SourceLine } from "./flinkConfig/legacy";
import { flinkImageVersion } from "./images";

interface ArgDefault {
  value: string;
  line: number;
  character: number;
}

export function readDockerfile(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "dockerfile", text);
  const index = new LineIndex(text);
  const args = new Map<string, ArgDefault>();
  const appended: Appended = { lines: [] };
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    const arg = /^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)=("?)([^"\s]*)\2/i.exec(lineText);
    if (arg) {
      const valueStart = lineText.indexOf("=", arg.index) + 1 + arg[2].length;
      args.set(arg[1], { value: arg[3], line, character: valueStart });
      continue;
    }
    appendedLines(lineText, line, appended);
    const from = /^(\s*FROM\s+(?:--\S+\s+)*)(\S+)/i.exec(lineText);
    if (!from) continue;
    const found = fromImage(from[2], args);
    if (!found) continue;
    const { version, resolved, used } = found;
    const text = resolved.slice(version.offset, version.offset + version.length);
    let range: Range;
    if (resolved === from[2]) range = at(line, from[1].length + version.offset, version.length);
    else if (used?.value.includes(text)) range = at(used.line, used.character + used.value.indexOf(text), text.length);
    else range = at(line, from[1].length, from[2].length);
    facts.flinkVersions.push({ minor: version.minor, full: version.full, source: "image", location: { file, range } });
  }
  const config = imageConfig(file, appended);
  if (config) facts.flinkConfigs.push(config);
  return facts;
}

interface Appended {
  lines: SourceLine[];
  /** The configuration file the lines go to. */
  target?: "flink-conf.yaml" | "config.yaml";
  anchor?: Range;
}

/**
 * `echo "key: value" >> /opt/flink/conf/flink-conf.yaml` (also `>`, single quotes, `"$FLINK_HOME/conf/…"`, several
 * joined with `&&`): the text written into the image's configuration, one line per echo. Text with a shell
 * substitution, an escape or an option (`echo -e`) is not read: what it writes is not known.
 */
const ECHO =
  /\becho\s+(?:"([^"\\$`]*)"|'([^']*)'|([^\s"'$`|&;<>\\][^"'$`|&;<>\\]*?))\s*>>?\s*"?[^\s"&;|]*\/(flink-conf\.yaml|config\.yaml)"?(?=\s|$|&|;|\|)/g;

function appendedLines(lineText: string, line: number, into: Appended): void {
  if (/^\s*#/.test(lineText) || !lineText.includes("echo")) return;
  for (const m of lineText.matchAll(ECHO)) {
    const content = m[1] ?? m[2] ?? m[3] ?? "";
    const target = m[4] as "flink-conf.yaml" | "config.yaml";
    // All lines go to one file; a Dockerfile writing both formats is not read as one configuration.
    if (into.target !== undefined && into.target !== target) continue;
    into.target = target;
    const start = (m.index ?? 0) + m[0].indexOf(content, 4);
    into.lines.push({ text: content, line, character: start });
    into.anchor ??= at(line, m.index ?? 0, 4);
  }
}

function imageConfig(file: string, appended: Appended): FlinkConfig | undefined {
  if (appended.lines.length === 0 || !appended.anchor || !appended.target) return undefined;
  const { entries, ignoredLines } = readLegacyLines(appended.lines);
  if (entries.length === 0) return undefined;
  // Deleting an entry empties its echo (`echo "" >> …` writes a blank line): the rest of the RUN line stays.
  for (const e of entries) {
    let source: SourceLine | undefined;
    for (const l of appended.lines)
      if (l.line === e.keyRange.start.line && l.character <= e.keyRange.start.character) source = l;
    if (source) e.deleteRange = at(source.line, source.character, source.text.length);
  }
  return {
    id: `${file}#image`,
    file,
    host: "image",
    // Flink's line reader reads a flink-conf.yaml; flat `key: value` lines read the same in a config.yaml.
    dialect: appended.target === "config.yaml" ? "yaml" : "legacy",
    logicalName: appended.target,
    entries,
    ignoredLines,
    anchor: appended.anchor,
    insertEntry: () => undefined,
  };
}

function at(line: number, character: number, length: number): Range {
  return { start: { line, character }, end: { line, character: character + length } };
}

/** Substitutes `$NAME`, `${NAME}` and `${NAME:-default}` and reads the Flink version of the image. */
function fromImage(image: string, args: Map<string, ArgDefault>) {
  let used: ArgDefault | undefined;
  const resolved = image.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_, a, d, b) => {
      const def = args.get(a ?? b);
      if (!def) return d ?? "";
      used = def;
      return def.value;
    },
  );
  const version = flinkImageVersion(resolved);
  return version && { version, resolved, used };
}
