/**
 * Command lines that start Flink processes, and the `-Dkey=value` dynamic properties Flink reads from them.
 *
 * A container's or an image's command is a list of words (a Kubernetes `command`/`args` list, a compose `command`,
 * a Dockerfile `CMD`), and a word may be a shell script (`bash -c "…"`) or a string split like one (a compose
 * `command: standalone-job -D…`, a Dockerfile shell-form `CMD`). Every character of a word keeps the file offset it
 * was written at, so that what is read from it points at the exact characters.
 *
 * Flink starts its processes with `jobmanager.sh`, `standalone-job.sh` and `taskmanager.sh` (`start` or
 * `start-foreground`), which the official image's entry point runs for its `jobmanager`, `standalone-job` and
 * `taskmanager` commands. Their arguments go to the entry point's command-line parser (Apache Commons CLI, stopping
 * at the first argument it does not know), which reads `-Dkey=value` and `-D key=value` as configuration set over
 * the loaded flink-conf.yaml / config.yaml (GlobalConfiguration.loadConfiguration with dynamic properties); the image
 * writes FLINK_PROPERTIES into that file first, so the command line wins over both. Everything after the first
 * argument the parser does not know is the job's (`standalone-job --job-classname X --input t -Dx=y` gives `-Dx=y`
 * to the job's main method). `jobmanager.sh` (Flink 1.16 on) takes its first one or two arguments for the host and
 * the web UI port unless the first is `-D` on its own, so `jobmanager -Dk=v` sets no configuration.
 */

export interface Word {
  /** The word as the program receives it: quotes removed, escapes resolved. */
  text: string;
  /** The file offset of each character of `text`; undefined where it is not written as itself (an escape). */
  at: (number | undefined)[];
  /** File offsets of the word as written, quotes included, when known. */
  start?: number;
  end?: number;
  /** Words split from one string share a group; each list item is a group of its own. */
  group: object;
  /** Only blanks (and line continuations) stand between this word and the previous one of its group. */
  blankBefore: boolean;
}

/** A string with the file offset of each of its characters (undefined where a character is not written as itself). */
export interface OffsetText {
  value: string;
  at: (number | undefined)[];
}

const BLANK = /[ \t\r]/;
const OPERATOR = /[;&|()]/;

/** A list item given to a program as one argument, unsplit. */
export function argvWord(text: OffsetText): Word {
  const first = text.at[0];
  const last = text.at[text.at.length - 1];
  return {
    text: text.value,
    at: text.at,
    start: first,
    end: last === undefined ? undefined : last + 1,
    group: {},
    blankBefore: false,
  };
}

/**
 * Splits a string the way a POSIX shell splits a command line into words: blanks separate words, `'…'` and `"…"`
 * quote, a backslash escapes the next character (and joins lines), `#` at the start of a word begins a comment.
 * Operators (`;`, `&&`, `||`, `|`, `&`, parentheses) and, with `newlines: "separate"` (a script), line breaks end
 * a simple command: the result is one list of words per simple command. Expansions are not performed: a word keeps
 * its `$VAR` as written.
 */
export function shellSplit(text: OffsetText, newlines: "separate" | "blank" = "separate"): Word[][] {
  const { value, at } = text;
  const group = {};
  const commands: Word[][] = [[]];
  const n = value.length;
  let word: Word | undefined;
  let rawStart = 0;
  let blank = false;
  const finish = (rawEnd: number) => {
    if (!word) return;
    const s = at[rawStart];
    const e = at[rawEnd - 1];
    if (s !== undefined) word.start = s;
    if (e !== undefined) word.end = e + 1;
    commands[commands.length - 1].push(word);
    word = undefined;
    blank = true;
  };
  const endCommand = () => {
    if (commands[commands.length - 1].length > 0) commands.push([]);
    blank = false;
  };
  const push = (i: number, escaped: boolean) => {
    if (!word) return;
    word.text += value[i];
    word.at.push(escaped ? undefined : at[i]);
  };
  let i = 0;
  while (i < n) {
    const c = value[i];
    if (!word) {
      if (BLANK.test(c)) {
        i++;
        continue;
      }
      if (c === "\\" && value[i + 1] === "\n") {
        i += 2;
        continue;
      }
      if (c === "\n") {
        if (newlines === "separate") endCommand();
        i++;
        continue;
      }
      if (c === "#") {
        while (i < n && value[i] !== "\n") i++;
        blank = false;
        continue;
      }
      if (OPERATOR.test(c)) {
        endCommand();
        i++;
        continue;
      }
      word = { text: "", at: [], group, blankBefore: blank };
      rawStart = i;
    }
    if (BLANK.test(c) || c === "\n" || OPERATOR.test(c)) {
      finish(i);
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      while (j < n && value[j] !== "'") push(j++, false);
      i = j + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && value[j] !== '"') {
        if (value[j] === "\\" && j + 1 < n && '"$`\\\n'.includes(value[j + 1])) {
          if (value[j + 1] !== "\n") push(j + 1, true);
          j += 2;
          continue;
        }
        push(j++, false);
      }
      i = j + 1;
      continue;
    }
    if (c === "\\") {
      if (i + 1 < n && value[i + 1] !== "\n") push(i + 1, true);
      i += 2;
      continue;
    }
    push(i++, false);
  }
  finish(n);
  return commands.filter((c) => c.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Flink start commands

export type FlinkLauncher = "session" | "application" | "taskmanager";

export interface StartCommand {
  launcher: FlinkLauncher;
  /** The word that names it (`standalone-job`, `$FLINK_HOME/bin/taskmanager.sh`). */
  name: Word;
  /** The arguments Flink's entry point parses (after `start` / `start-foreground`). */
  args: Word[];
  /** The word before the first argument (the name, or `start-foreground`). */
  lead: Word;
}

/** The commands of the official image's entry point (docker-entrypoint.sh) and the scripts they run. */
const IMAGE_COMMANDS: Record<string, FlinkLauncher> = {
  jobmanager: "session",
  "standalone-job": "application",
  taskmanager: "taskmanager",
};

const SCRIPTS: Record<string, FlinkLauncher> = {
  "jobmanager.sh": "session",
  "standalone-job.sh": "application",
  "taskmanager.sh": "taskmanager",
};

const SHELLS = new Set(["sh", "bash", "ash", "dash", "zsh", "ksh"]);

function baseName(word: Word): string {
  return word.text.replace(/^.*\//, "");
}

/**
 * The Flink processes a command line starts, in order. `viaEntrypoint`: the words are the arguments of the
 * image's entry point (a Kubernetes container without `command`, a compose service's `command`, a Dockerfile
 * `CMD` under the image's `ENTRYPOINT`), so `standalone-job …` is the image's command; elsewhere only the scripts
 * count (and `/docker-entrypoint.sh standalone-job …`).
 */
export function startCommands(argv: readonly Word[], viaEntrypoint: boolean): StartCommand[] {
  let i = 0;
  while (i < argv.length && (argv[i].text === "exec" || /^[A-Za-z_]\w*=/.test(argv[i].text))) i++;
  let entrypoint = viaEntrypoint;
  if (i < argv.length && baseName(argv[i]) === "docker-entrypoint.sh") {
    entrypoint = true;
    i++;
  }
  const first = argv[i];
  if (!first) return [];
  const command = entrypoint && Object.hasOwn(IMAGE_COMMANDS, first.text) ? IMAGE_COMMANDS[first.text] : undefined;
  if (command) return [{ launcher: command, name: first, args: argv.slice(i + 1), lead: first }];
  const script = Object.hasOwn(SCRIPTS, baseName(first)) ? SCRIPTS[baseName(first)] : undefined;
  if (script) {
    const mode = argv[i + 1]?.text;
    return mode === "start" || mode === "start-foreground"
      ? [{ launcher: script, name: first, args: argv.slice(i + 2), lead: argv[i + 1] }]
      : [];
  }
  // `bash -c "…; exec $FLINK_HOME/bin/jobmanager.sh start-foreground -D k=v"`: the script's commands.
  const flags = argv[i + 1]?.text ?? "";
  if (SHELLS.has(baseName(first)) && /^-[a-z]*c[a-z]*$/.test(flags) && argv[i + 2]) {
    const script = argv[i + 2];
    return shellSplit({ value: script.text, at: script.at }).flatMap((c) => startCommands(c, false));
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Dynamic properties

/** The options each entry point's parser knows besides `-D`, with the number of values they take. */
interface OptionTable {
  short: Record<string, number>;
  long: Record<string, number>;
}

const SESSION: OptionTable = {
  short: { c: 1, r: 1, h: 1, x: 1 },
  long: { configDir: 1, "webui-port": 1, host: 1, executionMode: 1 },
};

const OPTIONS: Record<FlinkLauncher, OptionTable> = {
  session: SESSION,
  application: {
    short: { c: 1, jarfile: 1, r: 1, j: 1, jid: 1, h: 1, s: 1, n: 0 },
    long: {
      configDir: 1,
      "jar-file": 1,
      "webui-port": 1,
      "job-classname": 1,
      "job-id": 1,
      host: 1,
      fromSavepoint: 1,
      allowNonRestoredState: 0,
    },
  },
  taskmanager: { short: { c: 1 }, long: { configDir: 1 } },
};

/** A `-D` argument: the key and the value, each a slice of a word. */
export interface DynamicProperty {
  key: WordSlice;
  value: WordSlice;
  /**
   * File offsets of what deleting the property removes: the blanks before it and its words, when they are words of
   * one split string (a compose `command` string, a shell script) with only blanks between them; undefined for list
   * items, whose removal would change the list.
   */
  span?: [number, number];
}

export interface WordSlice {
  text: string;
  at: (number | undefined)[];
  /** The file offset where the slice starts (also when it is empty: `-Dk=`), when known. */
  from?: number;
}

function slice(word: Word, from: number, to = word.text.length): WordSlice {
  const before = word.at[from - 1];
  return {
    text: word.text.slice(from, to),
    at: word.at.slice(from, to),
    from: word.at[from] ?? (from === to && before !== undefined ? before + 1 : undefined),
  };
}

/** What deleting the words of a property removes: from the end of the word before them to the end of the last. */
function spanOf(words: Word[], before: Word): [number, number] | undefined {
  const chain = [before, ...words];
  for (let k = 1; k < chain.length; k++) {
    if (chain[k].group !== before.group || !chain[k].blankBefore) return undefined;
  }
  const from = before.end;
  const to = words[words.length - 1].end;
  return from !== undefined && to !== undefined ? [from, to] : undefined;
}

/** `--name` or `--name=value` as Commons CLI matches it: the whole name, or a prefix only one long option has. */
function longOption(table: OptionTable, token: string): number | undefined {
  const name = token.slice(2).split("=")[0];
  if (Object.hasOwn(table.long, name)) return table.long[name];
  const matches = Object.keys(table.long).filter((k) => k.startsWith(name));
  return matches.length === 1 && name !== "" ? table.long[matches[0]] : undefined;
}

/** Whether Commons CLI reads a token as an option rather than as an option's value. */
function looksLikeOption(token: string): boolean {
  return token.startsWith("-") && token.length > 1 && !/^-\d/.test(token);
}

/**
 * The dynamic properties the entry point of a start command reads, in order (a key given twice: the later wins).
 * Parsing stops where Flink's does: at the first argument the entry point does not know, or one it cannot parse.
 */
export function dynamicProperties(cmd: StartCommand): DynamicProperty[] {
  const args = cmd.args;
  let i = 0;
  if (cmd.launcher === "session") {
    // jobmanager.sh: `start [-D …]`, else the legacy `start <host> [<port>] [-D …]`.
    const [a1, a2] = args.map((a) => a.text);
    i = a1 === undefined || a1 === "-D" ? 0 : a2 === undefined || a2 === "-D" ? 1 : 2;
  }
  return parseProperties(args, i, cmd.lead, OPTIONS[cmd.launcher], ["-D"]);
}

/**
 * The `-D` properties of `args` from index `i` on, read the way Commons CLI reads them (options of `table` skipped
 * with their values; parsing stops at the first argument it does not know). `flags` are the options that set a
 * property: `-D`, and the legacy `-yD` of `flink run` on YARN.
 */
/**
 * How many words an option of the table takes with its values (`--class com.x.Job` two, `--class=com.x.Job` one), or
 * undefined for an option the parser does not know, where it stops.
 */
function optionWords(table: OptionTable, token: string): number | undefined {
  const arity = token.startsWith("--")
    ? longOption(table, token)
    : Object.hasOwn(table.short, token.slice(1))
      ? table.short[token.slice(1)]
      : undefined;
  if (arity === undefined) return undefined;
  const inline = token.startsWith("--") && token.includes("=");
  return 1 + (inline ? 0 : arity);
}

function parseProperties(
  args: Word[],
  start: number,
  lead: Word,
  table: OptionTable,
  flags: readonly string[],
): DynamicProperty[] {
  let i = start;
  const out: DynamicProperty[] = [];
  const property = (key: WordSlice, value: WordSlice, words: Word[], first: number): DynamicProperty => ({
    key,
    value,
    span: spanOf(words, first > 0 ? args[first - 1] : lead),
  });
  while (i < args.length) {
    const token = args[i].text;
    if (token === "--" || !looksLikeOption(token)) break;
    const flag = flags.find((f) => token.startsWith(f));
    if (flag) {
      const n = flag.length;
      const rest = token.slice(n);
      if (rest !== "") {
        // `-Dk=v`; `-Dk` alone sets k to true and `-D=v` sets v to true: no value is written for those.
        const eq = rest.indexOf("=");
        if (eq > 0) out.push(property(slice(args[i], n, n + eq), slice(args[i], n + 1 + eq), [args[i]], i));
        i++;
        continue;
      }
      // `-D` on its own takes the next argument (`k=v`, split at its first `=`), or the next two (`k` `v`). A `-D`
      // short of its values makes the parser fail, and Flink does not start.
      const next = args[i + 1];
      if (!next || looksLikeOption(next.text)) break;
      const eq = next.text.indexOf("=");
      if (eq >= 0) {
        if (eq > 0) out.push(property(slice(next, 0, eq), slice(next, eq + 1), [args[i], next], i));
        i += 2;
        continue;
      }
      const value = args[i + 2];
      if (!value || looksLikeOption(value.text)) break;
      out.push(property(slice(next, 0), slice(value, 0), [args[i], next, value], i));
      i += 3;
      continue;
    }
    const skip = optionWords(table, token);
    if (skip === undefined) break;
    i += skip;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Flink client commands: job submissions and YARN sessions

/**
 * A Flink client command of a script: `flink run` / `flink run-application` (options, then the job's jar and its
 * arguments), or a YARN session (`yarn-session.sh`, EMR's `flink-yarn-session`). Their `-D` properties configure
 * what they start: the job they submit (its checkpointing, its parallelism), and the cluster an application or a
 * per-job deployment brings up, or the session.
 */
export interface ClientCommand {
  kind: "run" | "yarnSession";
  name: Word;
  args: Word[];
  lead: Word;
}

const RUN_OPTIONS: OptionTable = {
  short: {
    c: 1,
    C: 1,
    d: 0,
    n: 0,
    p: 1,
    s: 1,
    sae: 0,
    m: 1,
    t: 1,
    e: 1,
    j: 1,
    py: 1,
    pyfs: 1,
    pym: 1,
    pyreq: 1,
    pyarch: 1,
    pyexec: 1,
    pyclientexec: 1,
    rm: 1,
    cm: 1,
    z: 1,
    yid: 1,
    yjm: 1,
    ytm: 1,
    ys: 1,
    yqu: 1,
    ynm: 1,
    yt: 1,
    yat: 1,
    yz: 1,
    yd: 0,
  },
  long: {
    class: 1,
    classpath: 1,
    detached: 0,
    allowNonRestoredState: 0,
    parallelism: 1,
    fromSavepoint: 1,
    shutdownOnAttachedExit: 0,
    jobmanager: 1,
    target: 1,
    executor: 1,
    jarfile: 1,
    python: 1,
    pyFiles: 1,
    pyModule: 1,
    pyRequirements: 1,
    pyArchives: 1,
    pyExecutable: 1,
    pyClientExecutable: 1,
    restoreMode: 1,
    claimMode: 1,
    zookeeperNamespace: 1,
    yarnapplicationId: 1,
    yarnjobManagerMemory: 1,
    yarntaskManagerMemory: 1,
    yarnslots: 1,
    yarnqueue: 1,
    yarnname: 1,
    yarnship: 1,
    yarndetached: 0,
  },
};

const YARN_SESSION_OPTIONS: OptionTable = {
  short: { d: 0, jm: 1, tm: 1, s: 1, nm: 1, qu: 1, t: 1, z: 1, id: 1, at: 1, j: 1, m: 1, h: 0 },
  long: {
    detached: 0,
    jobManagerMemory: 1,
    taskManagerMemory: 1,
    slots: 1,
    name: 1,
    queue: 1,
    ship: 1,
    zookeeperNamespace: 1,
    applicationId: 1,
    applicationType: 1,
    jar: 1,
    jobmanager: 1,
    help: 0,
  },
};

const YARN_SESSION = new Set(["yarn-session.sh", "flink-yarn-session"]);

/**
 * The Flink client commands of one simple command of a script, wherever the client stands in it
 * (`docker compose exec jobmanager ./bin/flink run -d …`, a Makefile's `@$(FLINK_HOME)/bin/flink run …`,
 * `bash -c "…"`).
 */
export function clientCommands(argv: readonly Word[]): ClientCommand[] {
  for (let j = 0; j < argv.length; j++) {
    const base = baseName(argv[j]).replace(/^[@-]+/, "");
    const next = argv[j + 1]?.text;
    if (base === "flink" && (next === "run" || next === "run-application"))
      return [{ kind: "run", name: argv[j], lead: argv[j + 1], args: argv.slice(j + 2) }];
    if (YARN_SESSION.has(base)) return [{ kind: "yarnSession", name: argv[j], lead: argv[j], args: argv.slice(j + 1) }];
    if (SHELLS.has(base) && /^-[a-z]*c[a-z]*$/.test(next ?? "") && argv[j + 2]) {
      const script = argv[j + 2];
      return shellSplit({ value: script.text, at: script.at }).flatMap((c) => clientCommands(c));
    }
  }
  return [];
}

/** The `-D` properties a client command's parser reads (for `flink run`, only those before the job's jar). */
export function clientProperties(cmd: ClientCommand): DynamicProperty[] {
  return cmd.kind === "run"
    ? parseProperties(cmd.args, 0, cmd.lead, RUN_OPTIONS, ["-yD", "-D"])
    : parseProperties(cmd.args, 0, cmd.lead, YARN_SESSION_OPTIONS, ["-D"]);
}

/**
 * The deployment target of `flink run` / `flink run-application`, given before the job's jar: `-t` / `--target`
 * (`-e` / `--executor`, its old name), or the legacy `-m yarn-cluster`, which is YARN's per-job mode.
 */
export function clientTarget(cmd: ClientCommand): string | undefined {
  if (cmd.kind !== "run") return undefined;
  const args = cmd.args;
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const token = args[i].text;
    if (token === "--" || !looksLikeOption(token)) break;
    const inline = /^--(target|executor)=(.*)$/.exec(token);
    if (inline) {
      target = inline[2];
      continue;
    }
    if (["-t", "--target", "-e", "--executor"].includes(token)) {
      target = args[i + 1]?.text;
      i++;
      continue;
    }
    if (token === "-m" || token === "--jobmanager") {
      if (args[i + 1]?.text === "yarn-cluster") target = "yarn-per-job";
      i++;
      continue;
    }
    if (token.startsWith("-D") || token.startsWith("-yD")) {
      if (token === "-D" || token === "-yD") i += args[i + 1]?.text.includes("=") ? 1 : 2;
      continue;
    }
    const skip = optionWords(RUN_OPTIONS, token);
    if (skip === undefined) break;
    i += skip - 1;
  }
  return target?.trim() || undefined;
}
