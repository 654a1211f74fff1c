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
 *
 * One jar is one jar however often the file names it: the URL a `RUN curl … -o …/lib/<name>.jar` fetches and the
 * name it saves it under, a download into `/tmp` and the `mv` or `COPY --from` that puts it into `lib/`. Names of
 * one connector with one version (the same literal, or the same `ARG`/`ENV` default) are one jar, declared at its
 * first download (else its first name), and an upgrade rewrites the version in every one of them. A jar some
 * instruction copies from the build context (`COPY`, an `ADD` of a path) is not downloaded: a new version would have
 * to be put into the context too.
 */
import { type CommentSyntax, withoutComments } from "../comments";
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

/**
 * For each line, whether a jar it names is a source taken from the build context: the line belongs to a `COPY`
 * without `--from` or to an `ADD` that fetches no URL (an instruction goes on over lines ending in `\`; comment lines
 * in between are dropped, as Docker drops them).
 */
function contextCopyLines(index: LineIndex): boolean[] {
  const out = new Array<boolean>(index.lineCount).fill(false);
  let first = 0;
  let words = "";
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    if (/^\s*#/.test(lineText)) continue;
    words += ` ${lineText}`;
    if (/\\\s*$/.test(lineText) && line + 1 < index.lineCount) continue;
    const instruction = /^\s*([A-Za-z]+)/.exec(words)?.[1].toUpperCase();
    const fromContext =
      (instruction === "COPY" && !/\s--from=/i.test(words)) || (instruction === "ADD" && !words.includes("://"));
    if (fromContext) out.fill(true, first, line + 1);
    first = line + 1;
    words = "";
  }
  return out;
}

interface Mention {
  jar: ImageJar;
  /** A source of an instruction that copies from the build context (`COPY lib/….jar`, `ADD lib/….jar`). */
  local: boolean;
}

export function dockerfileJars(file: string, text: string): ImageJar[] {
  const index = new LineIndex(text);
  const definitions = new Map<string, Definition>();
  // The jars by artifact and version definition, in the order they are first named.
  const jars = new Map<string, Mention[]>();
  const mention = (key: string, m: Mention) => {
    const list = jars.get(key);
    if (list) list.push(m);
    else jars.set(key, [m]);
  };
  const fromContext = contextCopyLines(index);
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    if (/^\s*#/.test(lineText)) continue;
    const def = DEFINITION.exec(lineText);
    if (def) {
      const value = def[4];
      const character = lineText.indexOf(value, def[0].length - value.length - def[3].length);
      // `ENV FLINK_VERSION=${FLINK_VERSION:-1.17.2}`: the ARG's value when it has one, else the default written here.
      const fallback = /^\$\{([A-Za-z_]\w*):?-([^}]*)\}$/.exec(value);
      if (fallback) {
        const known = definitions.get(fallback[1]);
        if (known) definitions.set(def[2], known);
        else {
          const dflt = fallback[2];
          definitions.set(def[2], { value: dflt, line, character: character + value.indexOf("-") + 1, raw: dflt });
        }
      } else definitions.set(def[2], { value, line, character, raw: def[3] ? `"${value}"` : value });
    }
    for (const m of lineText.matchAll(JAR)) {
      const [whole, artifact, written] = m;
      const nameAt = m.index ?? 0;
      const versionAt = nameAt + whole.length - ".jar".length - written.length;
      const token = tokenAround(lineText, nameAt);
      const declaration = { file, range: at(line, token.start, token.end - token.start) };
      const downloaded = lineText.slice(token.start, token.end).includes("://");
      const local = fromContext[line];
      if (written.startsWith("$")) {
        const name = written.replace(/^\$\{?|\}$/g, "");
        const d = definitions.get(name);
        if (!d || !/^\d+\.\d+\.\d+(-\d+\.\d+)?$/.test(d.value)) continue;
        const range = at(d.line, d.character, d.value.length);
        mention(`${artifact} ${d.line}:${d.character}`, {
          jar: {
            group: GROUP,
            artifact,
            version: d.value,
            versionDefinition: { value: d.value, raw: d.value, file, range },
            versionEdits: [range],
            declaration,
            downloaded,
          },
          local,
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
      mention(`${artifact} ${written}`, {
        jar: {
          group: GROUP,
          artifact,
          version: written,
          versionDefinition: { value: written, raw: written, file, range },
          versionEdits: edits.length > 0 ? edits : [range],
          declaration,
          downloaded,
        },
        local,
      });
    }
  }
  return [...jars.values()].map(oneJar);
}

/** The names of one jar as one: declared at its first download, every name's version rewritten by an upgrade. */
function oneJar(mentions: Mention[]): ImageJar {
  const first = mentions.find((m) => m.jar.downloaded) ?? mentions[0];
  if (mentions.length === 1) return first.jar;
  const edits: Range[] = [];
  const seen = new Set<string>();
  for (const m of mentions)
    for (const r of m.jar.versionEdits) {
      const key = `${r.start.line}:${r.start.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edits.push(r);
    }
  return {
    ...first.jar,
    versionEdits: edits,
    downloaded: first.jar.downloaded && !mentions.some((m) => m.local),
  };
}

/**
 * Jars of known Flink artifacts that a job, a script or a configuration loads by name, with the version written in
 * the name: PyFlink's `env.add_jars("file:///opt/jars/flink-sql-connector-kafka-3.1.0-1.18.jar")` and
 * `pipeline.jars`, a SQL script's `ADD JAR '…'`, `sql-client.sh -j …` in a script or a compose command, a download
 * in a shell script. Comments are passed over. The jar is a file somewhere (a path, a URL): no upgrade rewrites it,
 * since a new version of the file has to be fetched too. One jar per artifact and version per file.
 */
export function loadedJars(file: string, text: string, syntax: CommentSyntax): ImageJar[] {
  if (!text.includes(".jar")) return [];
  const code = withoutComments(text, syntax);
  const index = new LineIndex(text);
  const seen = new Set<string>();
  const out: ImageJar[] = [];
  for (const m of code.matchAll(JAR)) {
    const [whole, artifact, written] = m;
    if (written.startsWith("$") || seen.has(`${artifact} ${written}`)) continue;
    seen.add(`${artifact} ${written}`);
    const nameAt = m.index ?? 0;
    const versionAt = nameAt + whole.length - ".jar".length - written.length;
    let start = nameAt;
    while (start > 0 && !/[\s"'`,;()[\]=]/.test(code[start - 1])) start--;
    const end = nameAt + whole.length;
    const range = index.rangeOf(versionAt, versionAt + written.length);
    out.push({
      group: GROUP,
      artifact,
      version: written,
      versionDefinition: { value: written, raw: written, file, range },
      versionEdits: [range],
      declaration: { file, range: index.rangeOf(start, end) },
      downloaded: false,
      loaded: true,
    });
  }
  return out;
}
