/**
 * The command line on hostile file systems: symbolic links out of the workspace, FIFOs where configuration files
 * should be, folders and files it may not read or write, files that are not UTF-8, CRLF and byte order marks. Reads
 * and `--fix` stay inside the given folders, never block, and never change a byte they did not mean to change.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { distPath } from "../harness/fixtures";
import { type CliRun, emptyTempDir, removeTemps, runCli } from "./helpers";

after(removeTemps);

const DUPLICATE = "state.backend.type: rocksdb\nstate.backend.type: hashmap\n";

function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

interface JsonReport {
  findings: { file: string; rule: string; line: number; column: number; message: string }[];
  filesAnalyzed: number;
}

function json(run: CliRun): JsonReport {
  return JSON.parse(run.stdout) as JsonReport;
}

const IS_ROOT = process.getuid?.() === 0;
const HAS_SETPRIV = spawnSync("setpriv", ["--version"], { stdio: "ignore" }).status === 0;
const NOBODY = 65534;

/**
 * Runs the command line as a user that permissions apply to: `nobody` when the tests run as root (root reads and
 * writes everything), else the current user. Undefined when neither is possible.
 */
function runRestricted(args: string[], cwd: string): CliRun | undefined {
  const command = [process.execPath, resolve(distPath("cli.js")), ...args];
  if (IS_ROOT) {
    if (!HAS_SETPRIV) return undefined;
    command.unshift("setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups");
  }
  const r = spawnSync(command[0], command.slice(1), {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Hands a folder to the restricted user (when that is `nobody`). */
function handOver(dir: string): void {
  if (!IS_ROOT) return;
  const walk = (p: string) => {
    chownSync(p, NOBODY, NOBODY);
    if (lstatSync(p).isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
  };
  walk(dir);
}

const RESTRICTED = IS_ROOT && !HAS_SETPRIV ? "running as root without setpriv" : false;

test("--fix does not write through a link to a file outside the workspace, and does not read it", () => {
  const dir = emptyTempDir();
  write(dir, { "outside/victim.conf": DUPLICATE, "ws/pom.xml": "<project/>\n" });
  symlinkSync("../outside/victim.conf", join(dir, "ws/flink-conf.yaml"));
  const run = runCli(["--fix", "--fix-type", "all", "."], join(dir, "ws"));
  assert.equal(readFileSync(join(dir, "outside/victim.conf"), "utf8"), DUPLICATE);
  assert.match(
    run.stderr,
    /note: flink-conf\.yaml: not followed: a symbolic link to .*\/outside\/victim\.conf, outside/,
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /No problems found in 1 file/);
});

test("--fix does not write into a linked folder outside the workspace; a link inside it is followed", () => {
  const dir = emptyTempDir();
  write(dir, { "outside/conf/flink-conf.yaml": DUPLICATE, "ws/real/flink-conf.yaml": DUPLICATE });
  symlinkSync("../outside/conf", join(dir, "ws/conf"));
  symlinkSync("real/flink-conf.yaml", join(dir, "ws/alias.yaml"));
  symlinkSync("real", join(dir, "ws/linked"));
  const run = runCli(["--fix", "."], join(dir, "ws"));
  assert.equal(readFileSync(join(dir, "outside/conf/flink-conf.yaml"), "utf8"), DUPLICATE);
  assert.match(run.stderr, /note: conf: not followed: a symbolic link to .*\/outside\/conf, outside/);
  // The linked file inside the workspace is fixed in place: the link stays a link.
  assert.equal(readFileSync(join(dir, "ws/real/flink-conf.yaml"), "utf8"), "state.backend.type: hashmap\n");
  assert.equal(lstatSync(join(dir, "ws/linked")).isSymbolicLink(), true);
  assert.equal(lstatSync(join(dir, "ws/alias.yaml")).isSymbolicLink(), true);
  assert.equal(run.status, 0, run.stderr);
});

test("a link to a system folder is not walked", () => {
  const dir = emptyTempDir();
  write(dir, { "ws/flink-conf.yaml": "state.backend.type: rocksdb\n" });
  // A folder of configuration-like files outside the workspace, as /etc is.
  for (let i = 0; i < 50; i++) write(dir, { [`system/app${i}/config.yaml`]: "jobmanager.memory.process.size: 1g\n" });
  symlinkSync(join(dir, "system"), join(dir, "ws/etc"));
  const run = runCli(["--format", "json", "."], join(dir, "ws"));
  assert.equal(json(run).filesAnalyzed, 1);
  assert.match(run.stderr, /note: etc: not followed: a symbolic link to .*\/system, outside/);
  assert.ok(json(run).findings.every((f) => f.file === "flink-conf.yaml"));
});

test("FIFOs named .gitignore, .beam-flink-lint.yaml or flink-conf.yaml are skipped with a note, never read", {
  timeout: 60_000,
}, () => {
  const cases: [string, string[], RegExp][] = [
    [".gitignore", ["."], /note: \.gitignore: not read: a FIFO, not a regular file/],
    [".beam-flink-lint.yaml", ["."], /note: \.beam-flink-lint\.yaml: not read: a FIFO, not a regular file/],
    // Named alone, the configuration file is looked for but a FIFO does not count as one.
    [".beam-flink-lint.yaml", ["flink-conf.yaml"], /^$/],
    ["sub/flink-conf.yaml", ["."], /note: sub\/flink-conf\.yaml: not read: a FIFO, not a regular file/],
  ];
  for (const [fifo, args, note] of cases) {
    const dir = emptyTempDir();
    write(dir, { "flink-conf.yaml": "state.backend.type: rocksdb\n", "sub/x.txt": "" });
    assert.equal(spawnSync("mkfifo", [join(dir, fifo)]).status, 0, "mkfifo");
    const r = spawnSync(process.execPath, [resolve(distPath("cli.js")), "--format", "json", ...args], {
      cwd: dir,
      encoding: "utf8",
      timeout: 20_000,
    });
    assert.equal(r.error, undefined, `${fifo} (${args.join(" ")}): ${r.error?.message}`);
    assert.equal(r.status, 0, `${fifo}: ${r.stderr}`);
    assert.match(r.stderr.trim(), note, fifo);
    assert.equal(json({ status: r.status, stdout: r.stdout, stderr: r.stderr }).filesAnalyzed, 1);
  }
});

test("a folder that cannot be listed and a file that cannot be read are named in notes", { skip: RESTRICTED }, () => {
  const dir = emptyTempDir();
  write(dir, {
    "flink-conf.yaml": "state.backend.type: rocksdb\n",
    "secret/flink-conf.yaml": "state.backend.type: rocksdb\n",
    "locked/flink-conf.yaml": "state.backend.type: rocksdb\n",
  });
  handOver(dir);
  chmodSync(join(dir, "secret"), 0o000);
  chmodSync(join(dir, "locked/flink-conf.yaml"), 0o000);
  try {
    const run = runRestricted(["--format", "json", "."], dir);
    assert.ok(run);
    assert.match(run.stderr, /note: secret: not read: this folder cannot be listed: permission denied \(EACCES\)/);
    assert.match(run.stderr, /note: locked\/flink-conf\.yaml: not read: permission denied \(EACCES\)/);
    assert.equal(json(run).filesAnalyzed, 1);
    assert.equal(run.status, 0);
  } finally {
    chmodSync(join(dir, "secret"), 0o755);
  }
});

test("a file --fix cannot write is reported; the others are fixed, the report printed, the exit code 1", {
  skip: RESTRICTED,
}, () => {
  const dir = emptyTempDir();
  write(dir, { "a/flink-conf.yaml": DUPLICATE, "b/flink-conf.yaml": DUPLICATE, "c/flink-conf.yaml": DUPLICATE });
  handOver(dir);
  chmodSync(join(dir, "b/flink-conf.yaml"), 0o444);
  chmodSync(join(dir, "b"), 0o555);
  try {
    const run = runRestricted(["--fix", "."], dir);
    assert.ok(run);
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stderr,
      /beam-flink-lint: could not write b\/flink-conf\.yaml: its folder is not writable \(EACCES\).*; it is left as it was/,
    );
    assert.doesNotMatch(run.stderr, /internal error/);
    for (const name of ["a", "c"]) {
      assert.equal(readFileSync(join(dir, name, "flink-conf.yaml"), "utf8"), "state.backend.type: hashmap\n");
    }
    assert.equal(readFileSync(join(dir, "b/flink-conf.yaml"), "utf8"), DUPLICATE);
    // The report shows what is on disk: b's duplicate is still there.
    assert.match(run.stdout, /b\/flink-conf\.yaml:1:1 +warning +BFL105/);
    assert.doesNotMatch(run.stdout, /^a\/flink-conf\.yaml:1:1 .*BFL105/m);
    assert.deepEqual(readdirSync(join(dir, "a")), ["flink-conf.yaml"], "no temporary file is left behind");
  } finally {
    chmodSync(join(dir, "b"), 0o755);
  }
});

test("--fix replaces a file atomically, keeping its mode, and leaves nothing else in the folder", () => {
  const dir = emptyTempDir();
  write(dir, { "conf/flink-conf.yaml": DUPLICATE });
  const file = join(dir, "conf/flink-conf.yaml");
  chmodSync(file, 0o640);
  const before = statSync(file);
  const run = runCli(["--fix", "."], dir);
  assert.equal(run.status, 0, run.stderr);
  const after = statSync(file);
  assert.equal(readFileSync(file, "utf8"), "state.backend.type: hashmap\n");
  assert.equal(after.mode & 0o7777, 0o640);
  assert.notEqual(after.ino, before.ino, "a new file renamed over the old one");
  assert.deepEqual(readdirSync(join(dir, "conf")), ["flink-conf.yaml"]);
});

test("--fix edits bytes: CRLF, a byte order mark and non-ASCII text outside the edit stay as they were", () => {
  const dir = emptyTempDir();
  const lines = [
    "# Zürich cluster — ünïcödé 🚀\r\n",
    "state.backend.type: rocksdb\r\n",
    "taskmanager.numberOfTaskSlots: 2  # café\r\n",
    "state.backend.type: hashmap\r\n",
  ];
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const original = Buffer.concat([bom, ...lines.map((l) => Buffer.from(l))]);
  write(dir, { "flink-conf.yaml": original });
  const run = runCli(["--fix", "."], dir);
  assert.equal(run.status, 0, run.stderr);
  const expected = Buffer.concat([bom, Buffer.from(lines[0]), Buffer.from(lines[2]), Buffer.from(lines[3])]);
  assert.deepEqual(readFileSync(join(dir, "flink-conf.yaml")), expected);
});

test("a file that is not UTF-8 gets one note, keeps every byte under --fix, and the run exits normally", () => {
  const dir = emptyTempDir();
  const latin1 = Buffer.concat([Buffer.from("# caf"), Buffer.from([0xe9]), Buffer.from(` au lait\n${DUPLICATE}`)]);
  write(dir, { "latin1/flink-conf.yaml": latin1 });
  const text = "taskmanager.numberOfTaskSlots: 2\nkey1.x: 1\nkey2 = 2\nkey3 = 3\n";
  const utf16 = {
    "le/flink-conf.yaml": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
    "be/flink-conf.yaml": Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]),
    "nobom/flink-conf.yaml": Buffer.from(text, "utf16le"),
  };
  write(dir, utf16);
  const lint = json(runCli(["--format", "json", "."], dir));
  assert.deepEqual(
    lint.findings.filter((f) => f.rule !== "BFL101").map((f) => [f.file, f.rule, f.line, f.column]),
    [
      ["be/flink-conf.yaml", "BFL003", 1, 1],
      ["latin1/flink-conf.yaml", "BFL003", 1, 6],
      ["latin1/flink-conf.yaml", "BFL105", 2, 1],
      ["le/flink-conf.yaml", "BFL003", 1, 1],
      ["nobom/flink-conf.yaml", "BFL003", 1, 1],
    ],
  );
  assert.match(lint.findings.find((f) => f.file.startsWith("le/"))?.message ?? "", /UTF-16 \(little-endian\)/);
  assert.match(lint.findings.find((f) => f.file.startsWith("latin1/"))?.message ?? "", /not valid UTF-8.*0xE9/);
  const run = runCli(["--fix", "--fix-type", "all", "."], dir);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /note: latin1\/flink-conf\.yaml: not fixed: the file is not valid UTF-8/);
  assert.deepEqual(readFileSync(join(dir, "latin1/flink-conf.yaml")), latin1);
  for (const [rel, bytes] of Object.entries(utf16)) assert.deepEqual(readFileSync(join(dir, rel)), bytes, rel);
  assert.doesNotMatch(run.stdout, /fixable with --fix/);
});

test("text output escapes control characters from file contents and names; JSON keeps them as they are", () => {
  const dir = emptyTempDir();
  const key = "taskmanager.numberOfTaskSlot\u001b]0;pwned\u0007\u001b[2J\u009b";
  write(dir, { "a/flink-conf.yaml": `${key}: 2\n` });
  const forged = "x\nflink-conf.yaml:1:1  error    BFL999  forged";
  write(dir, { [`${forged}/flink-conf.yaml`]: "parallelism.default:2\n" });
  const run = runCli(["."], dir);
  // The line breaks between findings are the only control characters left.
  const controls = [...run.stdout].filter((c) => c !== "\n" && (c < " " || (c >= "\u007f" && c <= "\u009f")));
  assert.deepEqual(controls, []);
  assert.ok(run.stdout.includes("taskmanager.numberOfTaskSlot\\x1b]0;pwned\\x07\\x1b[2J\\x9b"), run.stdout);
  assert.ok(run.stdout.includes("x\\nflink-conf.yaml:1:1  error    BFL999  forged/flink-conf.yaml:1:"), run.stdout);
  assert.ok(!run.stdout.split("\n").some((l) => l.startsWith("flink-conf.yaml:1:1  error    BFL999")));
  const report = json(runCli(["--format", "json", "."], dir));
  assert.ok(report.findings.some((f) => f.message.includes(key)));
  assert.ok(report.findings.some((f) => f.file.startsWith(forged)));
});
