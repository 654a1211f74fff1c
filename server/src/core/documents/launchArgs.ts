/**
 * Beam pipeline flags (`--checkpointingInterval=60000`, `--runner FlinkRunner`) passed to a job from outside its
 * code: VS Code launch configurations, shell scripts, Gradle `run`/`JavaExec` args, Dockerfile CMD/ENTRYPOINT and
 * FlinkDeployment `spec.job.args`. Flags in Java string literals are read by the Java reader with the same scanner.
 */

import { pushAll } from "../arrays";
import type { BeamArg, BeamArgSource } from "../jobcode/facts";
import type { FlinkConfig, FlinkDeploymentFacts } from "../model";
import { LineIndex } from "../text";
import { clientCommands, shellSplit } from "./commandLine";
import { commandLineConfig } from "./flinkConfig/commandLine";
import { tokenize } from "./java/tokens";

/**
 * Flags in one piece of text that starts at `offset` of its file. `--name=value`, and `--name value` when the next
 * word is not itself a flag. Names are Beam option names (letters, digits, `_`): `--add-opens=…` of the JVM and
 * similar dashed flags are not Beam flags.
 */
export function beamFlags(
  content: string,
  offset: number,
  index: LineIndex,
  file: string,
  source: BeamArgSource,
): BeamArg[] {
  const out: BeamArg[] = [];
  const flag = /(^|[\s"'[,])--([A-Za-z][A-Za-z0-9_]*)(?:=([^\s"',\]]*)|(?=[\s"',\]]|$))/g;
  for (let m = flag.exec(content); m; m = flag.exec(content)) {
    const start = m.index + m[1].length;
    const arg: BeamArg = {
      // Beam Python spells options in snake_case (`--checkpointing_interval`); both name the same option.
      name: m[2].replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      file,
      range: index.rangeOf(offset + start, offset + m.index + m[0].length),
      source,
    };
    if (m[3] !== undefined) {
      arg.value = m[3];
      const valueStart = offset + m.index + m[0].length - m[3].length;
      arg.valueRange = index.rangeOf(valueStart, valueStart + m[3].length);
    } else {
      const next = /^[ \t]+([^\s"'\-\\][^\s"',\]]*)/.exec(content.slice(m.index + m[0].length));
      if (next) {
        const valueStart = offset + m.index + m[0].length + next[0].length - next[1].length;
        arg.value = next[1];
        arg.valueRange = index.rangeOf(valueStart, valueStart + next[1].length);
      }
    }
    out.push(arg);
  }
  return out;
}

/** Whether a file is a launch file of its own kind: a VS Code launch configuration, a shell script or a Makefile. */
export function isLaunchFile(file: string): boolean {
  return /(^|\/)\.vscode\/launch\.json$/.test(file) || /\.sh$/i.test(file) || isMakefile(file);
}

export function isMakefile(file: string): boolean {
  return /(^|\/)(GNUmakefile|[Mm]akefile|[^/]+\.mk)$/.test(file);
}

/** `.vscode/launch.json`: the strings of every `"args"` array (or `"args": "…"` string); comments allowed. */
export function launchJsonArgs(file: string, text: string): BeamArg[] {
  const index = new LineIndex(text);
  const tokens = tokenize(text);
  const out: BeamArg[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].text !== '"args"' || tokens[i + 1]?.text !== ":") continue;
    let j = i + 2;
    const collect = (k: number) => {
      const t = tokens[k];
      pushAll(out, beamFlags(t.text.slice(1, -1), t.start + 1, index, file, "launchJson"));
    };
    if (tokens[j]?.kind === "string") {
      collect(j);
      continue;
    }
    if (tokens[j]?.text !== "[") continue;
    const strings: number[] = [];
    for (j++; j < tokens.length && tokens[j].text !== "]"; j++) if (tokens[j].kind === "string") strings.push(j);
    strings.forEach((k, n) => {
      const before = out.length;
      collect(k);
      // `"--runner", "FlinkRunner"`: the value is the next array element.
      const last = out[out.length - 1];
      const next = strings[n + 1];
      if (out.length > before && last.value === undefined && next !== undefined && /^"--\w+"$/.test(tokens[k].text)) {
        const v = tokens[next];
        if (!v.text.startsWith('"-')) {
          last.value = v.text.slice(1, -1);
          last.valueRange = index.rangeOf(v.start + 1, v.end - 1);
        }
      }
    });
  }
  return out;
}

/** Shell scripts and Makefiles: every flag outside comments. */
export function shellArgs(file: string, text: string): BeamArg[] {
  const source = isMakefile(file) ? "makefile" : "shell";
  const index = new LineIndex(text);
  const out: BeamArg[] = [];
  for (let line = 0; line < index.lineCount; line++) {
    const content = index.lineText(line);
    const code = content.replace(/(^|\s)#.*$/, "$1");
    pushAll(out, beamFlags(code, index.lineStarts[line], index, file, source));
  }
  return out;
}

/** Dockerfiles: flags in CMD and ENTRYPOINT instructions (with their continuation lines). */
export function dockerfileArgs(file: string, text: string): BeamArg[] {
  const index = new LineIndex(text);
  const out: BeamArg[] = [];
  let inside = false;
  for (let line = 0; line < index.lineCount; line++) {
    const content = index.lineText(line);
    if (/^\s*#/.test(content)) continue;
    if (!inside) inside = /^\s*(CMD|ENTRYPOINT)\b/i.test(content);
    if (inside) pushAll(out, beamFlags(content, index.lineStarts[line], index, file, "dockerfile"));
    inside = inside && /\\\s*$/.test(content);
  }
  return out;
}

/**
 * Gradle scripts: flags in string literals of `args …` / `args = …` / `args(…)` / `setArgs(…)` /
 * `applicationArgs` statements, wherever they are (`run { }`, `tasks.named<JavaExec>("run") { }`, `application { }`).
 */
export function gradleArgs(file: string, text: string): BeamArg[] {
  if (!/\bargs\b|Args\b/.test(text)) return [];
  const index = new LineIndex(text);
  const tokens = tokenize(text);
  const out: BeamArg[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].kind !== "identifier" || !/^(args|setArgs|applicationArgs)$/.test(tokens[i].text)) continue;
    if (tokens[i - 1]?.text === ".") continue;
    // The statement's strings: to the end of its brackets, or of its line outside them.
    const line = index.positionAt(tokens[i].start).line;
    let depth = 0;
    for (let j = i + 1; j < tokens.length; j++) {
      const t = tokens[j];
      if (depth === 0 && (index.positionAt(t.start).line !== line || t.text === "}")) break;
      if (t.text === "(" || t.text === "[") depth++;
      else if (t.text === ")" || t.text === "]") depth--;
      else if (t.kind === "string" || t.kind === "char") {
        const quote = t.text.startsWith('"""') ? 3 : 1;
        pushAll(out, beamFlags(t.text.slice(quote, -quote), t.start + quote, index, file, "gradle"));
      }
      if (depth < 0) break;
    }
  }
  return out;
}

/** `spec.job.args` of a FlinkDeployment / FlinkSessionJob / FlinkApplication: one flag per list item, or `--name` + a value item. */
export function flinkDeploymentArgs(d: FlinkDeploymentFacts): BeamArg[] {
  const out: BeamArg[] = [];
  d.jobArgs.forEach((arg, i) => {
    const m = /^--([A-Za-z][A-Za-z0-9_]*)(?:=(.*))?$/.exec(arg.value);
    if (!m) return;
    const name = m[1].replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const flag: BeamArg = { name, file: arg.file, range: arg.range, source: "flinkDeployment" };
    if (m[2] !== undefined) {
      flag.value = m[2];
    } else {
      const next = d.jobArgs[i + 1];
      if (next && !next.value.startsWith("-")) {
        flag.value = next.value;
        flag.valueRange = next.range;
      }
    }
    out.push(flag);
  });
  return out;
}

/**
 * The `-D` properties of the Flink client commands a shell script or Makefile runs (`flink run -D k=v job.jar`,
 * `flink run-application -t yarn-application -Dk=v`, `yarn-session.sh -D k=v`), one configuration per command.
 * A Makefile is split like a script: its recipe lines are shell command lines.
 */
export function submissionConfigs(file: string, text: string): FlinkConfig[] {
  if (!/\b(flink|yarn-session\.sh|flink-yarn-session)\b/.test(text)) return [];
  const index = new LineIndex(text);
  const at = Array.from({ length: text.length }, (_, i) => i);
  const out: FlinkConfig[] = [];
  for (const argv of shellSplit({ value: text, at })) {
    for (const command of clientCommands(argv)) {
      const start = command.name.start ?? 0;
      const config = commandLineConfig({
        file,
        id: `${file}#submit/${out.length}`,
        command,
        position: (offset) => index.positionAt(offset),
        anchor: index.rangeOf(start, command.name.end ?? start),
      });
      if (config) out.push(config);
    }
  }
  return out;
}
