/**
 * Dockerfiles: the Flink version of `FROM flink:1.19.1-scala_2.12-java17` (also `apache/flink`, `--platform=…`
 * flags, and tags built from an `ARG` with a default). Where the version comes from an ARG, the evidence points at
 * the ARG's default, which is where the version is defined.
 */
import { type DockerStage, emptyFacts, type FileFacts, type FlinkConfig } from "../model";
import { LineIndex, type Range } from "../text";
import { argvWord, type OffsetText, startCommands, type Word } from "./commandLine";
import { commandLineConfig } from "./flinkConfig/commandLine";
import { readLegacyLines, type SourceLine } from "./flinkConfig/legacy";
import { flinkImageTag, flinkImageVersion } from "./images";

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
  const stages: DockerStage[] = [];
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
    stages.push({ line, base: stageBase(from[2]) });
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
  if (stages.length > 0) facts.dockerStages = stages;
  const config = imageConfig(file, appended);
  if (config) facts.flinkConfigs.push(config);
  const command = imageCommand(file, index);
  if (command) facts.flinkConfigs.push(command);
  return facts;
}

interface Instruction {
  /** The arguments, continuation lines joined (without their backslash and line break), with their offsets. */
  args: OffsetText;
  /** The instruction's name, where findings about it point. */
  name: Range;
}

/**
 * The `CMD` and `ENTRYPOINT` of the image a Dockerfile builds: the last of each in its last stage. Continuation
 * lines are joined as Docker joins them; comment lines inside them are left out.
 */
function lastInstructions(index: LineIndex): { cmd?: Instruction; entrypoint?: Instruction } {
  let cmd: Instruction | undefined;
  let entrypoint: Instruction | undefined;
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    const m = /^(\s*)(CMD|ENTRYPOINT|FROM)\b\s*/i.exec(lineText);
    if (!m) continue;
    const kind = m[2].toUpperCase();
    if (kind === "FROM") {
      cmd = undefined;
      entrypoint = undefined;
      continue;
    }
    const value: string[] = [];
    const offsets: number[] = [];
    const name = at(line, m[1].length, m[2].length);
    let from = m[0].length;
    for (let l = line; l < index.lineCount; l++) {
      const content = index.lineText(l);
      if (l > line && /^\s*#/.test(content)) continue;
      const start = index.lineStarts[l];
      const continued = /\\\s*$/.test(content);
      const end = continued ? content.lastIndexOf("\\") : content.length;
      for (let k = from; k < end; k++) {
        value.push(content[k]);
        offsets.push(start + k);
      }
      from = 0;
      line = l;
      if (!continued) break;
    }
    const instruction: Instruction = { args: { value: value.join(""), at: offsets }, name };
    if (kind === "CMD") cmd = instruction;
    else entrypoint = instruction;
  }
  return { cmd, entrypoint };
}

/** The strings of an exec-form instruction (`["standalone-job", "-Dk=v"]`); undefined for the shell form. */
function execForm(args: OffsetText): OffsetText[] | undefined {
  const { value, at } = args;
  let i = 0;
  const blank = () => {
    while (i < value.length && /\s/.test(value[i])) i++;
  };
  blank();
  if (value[i] !== "[") return undefined;
  i++;
  const out: OffsetText[] = [];
  blank();
  if (value[i] === "]") return out;
  while (i < value.length) {
    blank();
    if (value[i] !== '"') return undefined;
    i++;
    const item: OffsetText = { value: "", at: [] };
    while (i < value.length && value[i] !== '"') {
      if (value[i] === "\\") {
        const escapes: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        const e = escapes[value[i + 1]];
        if (e === undefined) return undefined;
        item.value += e;
        item.at.push(undefined);
        i += 2;
        continue;
      }
      item.value += value[i];
      item.at.push(at[i]);
      i++;
    }
    if (value[i] !== '"') return undefined;
    i++;
    out.push(item);
    blank();
    if (value[i] === "]") {
      i++;
      blank();
      return i === value.length ? out : undefined;
    }
    if (value[i] !== ",") return undefined;
    i++;
  }
  return undefined;
}

/** The words a shell-form instruction runs: `/bin/sh -c "<its text>"`. */
function shellForm(args: OffsetText): Word[] {
  const at = (s: string): OffsetText => ({ value: s, at: new Array(s.length).fill(undefined) });
  return [argvWord(at("/bin/sh")), argvWord(at("-c")), argvWord(args)];
}

/**
 * The dynamic properties of the Flink start command an image runs by default: its `CMD` under the entry point
 * (the Flink image's, unless the Dockerfile sets another `ENTRYPOINT`), or an `ENTRYPOINT` that starts Flink itself.
 * A compose service built from the Dockerfile runs it unless it sets its own `command` or `entrypoint`.
 */
function imageCommand(file: string, index: LineIndex): FlinkConfig | undefined {
  const { cmd, entrypoint } = lastInstructions(index);
  const words = (i: Instruction) => {
    const items = execForm(i.args);
    return items ? { argv: items.map(argvWord), exec: true } : { argv: shellForm(i.args), exec: false };
  };
  let argv: Word[] = [];
  let viaEntrypoint = true;
  if (entrypoint) {
    const e = words(entrypoint);
    argv = e.argv;
    viaEntrypoint = false;
    // A shell-form ENTRYPOINT ignores CMD.
    if (e.exec && cmd) argv = [...argv, ...words(cmd).argv];
  } else if (cmd) argv = words(cmd).argv;
  const [start] = startCommands(argv, viaEntrypoint);
  const anchor = (cmd ?? entrypoint)?.name;
  if (!start || !anchor) return undefined;
  return commandLineConfig({
    file,
    id: `${file}#command`,
    command: start,
    position: (offset) => index.positionAt(offset),
    anchor,
  });
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
/** What a stage's `FROM` image is, as written: a tag from a build argument is not known here. */
function stageBase(image: string): DockerStage["base"] {
  const tag = flinkImageTag(image);
  if (tag === undefined || tag.includes("$")) return "other";
  return flinkImageVersion(image) ? "flink" : "floating";
}

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
