/**
 * Jars of known Flink artifacts that a Dockerfile bakes into an image, by their file names:
 *
 *   ADD https://repo1.maven.org/maven2/org/apache/flink/flink-sql-connector-kafka/3.1.0-1.18/flink-sql-connector-kafka-3.1.0-1.18.jar /opt/flink/lib/
 *   RUN wget -P /opt/flink/lib https://…/flink-connector-kafka-${KAFKA_CONNECTOR_VERSION}.jar
 *   COPY jars/flink-sql-connector-kafka-3.2.0-1.19.jar /opt/flink/lib/
 *
 * A version written into the name is defined there (and also in the download path, which an upgrade rewrites too); a
 * version built from an `ARG` or `ENV` is defined at that default. Comment lines are skipped. Nothing is resolved
 * beyond the file: a build argument passed on the command line is not known here.
 */
import type { ImageJar } from "../model";
import { LineIndex, type Range } from "../text";

const GROUP = "org.apache.flink";
/** `flink-sql-connector-kafka[-_2.12]-<version>.jar`; the version is literal or a `$NAME` / `${NAME}` reference. */
const JAR =
  /(?<![\w-])(flink-(?:sql-)?connector-kafka)(?:_2\.1[12])?-(\$\{[A-Za-z_]\w*\}|\$[A-Za-z_]\w*|\d+\.\d+\.\d+(?:-\d+\.\d+)?)\.jar(?![\w-])/g;
/** `ARG NAME=value`, `ENV NAME=value`, `ENV NAME value`. */
const DEFINITION = /^\s*(ARG|ENV)\s+([A-Za-z_]\w*)(?:=|\s+)("?)([^\s"]+)\3/i;

interface Definition {
  value: string;
  line: number;
  character: number;
  raw: string;
}

function at(line: number, character: number, length: number): Range {
  return { start: { line, character }, end: { line, character: character + length } };
}

/** The whitespace-delimited token of a line that holds position `offset`. */
function tokenAround(line: string, offset: number): { start: number; end: number } {
  let start = offset;
  while (start > 0 && !/\s/.test(line[start - 1])) start--;
  let end = offset;
  while (end < line.length && !/\s/.test(line[end])) end++;
  return { start, end };
}

export function dockerfileJars(file: string, text: string): ImageJar[] {
  const out: ImageJar[] = [];
  const index = new LineIndex(text);
  const definitions = new Map<string, Definition>();
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    if (/^\s*#/.test(lineText)) continue;
    const def = DEFINITION.exec(lineText);
    if (def) {
      const value = def[4];
      const character = lineText.indexOf(value, def[0].length - value.length - def[3].length);
      definitions.set(def[2], { value, line, character, raw: def[3] ? `"${value}"` : value });
    }
    for (const m of lineText.matchAll(JAR)) {
      const [whole, artifact, written] = m;
      const nameAt = m.index ?? 0;
      const versionAt = nameAt + whole.length - ".jar".length - written.length;
      const token = tokenAround(lineText, nameAt);
      const declaration = { file, range: at(line, token.start, token.end - token.start) };
      const downloaded = lineText.slice(token.start, token.end).includes("://");
      if (written.startsWith("$")) {
        const name = written.replace(/^\$\{?|\}$/g, "");
        const d = definitions.get(name);
        if (!d || !/^\d+\.\d+\.\d+(-\d+\.\d+)?$/.test(d.value)) continue;
        const range = at(d.line, d.character, d.value.length);
        out.push({
          group: GROUP,
          artifact,
          version: d.value,
          versionDefinition: { value: d.value, raw: d.value, file, range },
          versionEdits: [range],
          declaration,
          downloaded,
        });
        continue;
      }
      // The same version elsewhere in the token is the download path (`…/3.1.0-1.18/…-3.1.0-1.18.jar`).
      const tokenText = lineText.slice(token.start, token.end);
      const edits: Range[] = [];
      for (let i = tokenText.indexOf(written); i >= 0; i = tokenText.indexOf(written, i + written.length)) {
        const before = tokenText[i - 1];
        const after = tokenText[i + written.length];
        if ((before === "/" || before === "-") && (after === "/" || after === ".")) {
          edits.push(at(line, token.start + i, written.length));
        }
      }
      const range = at(line, versionAt, written.length);
      out.push({
        group: GROUP,
        artifact,
        version: written,
        versionDefinition: { value: written, raw: written, file, range },
        versionEdits: edits.length > 0 ? edits : [range],
        declaration,
        downloaded,
      });
    }
  }
  return out;
}
