/**
 * `--write-baseline` and `--baseline` on the command line: the round trip, exit codes, stale entries and their
 * pruning, what a run that lints one folder does to the entries of others, and files that are not baselines.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { BASELINE_FILE_NAME, parseBaseline } from "../../server/src/core/baseline";
import { copyFixture, PINNED_RULES, removeTemps, runCli } from "./helpers";

after(removeTemps);

/** BFL100 as an error, so that exit codes tell shown findings from hidden ones. */
const ERRORS = [...PINNED_RULES, "--rule", "BFL100=error"];

function entries(dir: string, name = BASELINE_FILE_NAME) {
  const read = parseBaseline(readFileSync(join(dir, name), "utf8"));
  assert.deepEqual(read.problems, []);
  return (read.baseline?.entries ?? []).map((e) => `${e.file} ${e.rule} ×${e.count}`).sort();
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  assert.ok(text.includes(from), `${file} has ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

const ALL = [
  "flink-conf.yaml BFL001 ×1",
  "flink-conf.yaml BFL100 ×1",
  "flink-conf.yaml BFL100 ×1",
  "session/flink-conf.yaml BFL100 ×1",
];

test("the round trip: write, then nothing is reported and the exit code is 0; line moves stay hidden", () => {
  const dir = copyFixture("problems");
  assert.equal(runCli(ERRORS, dir).status, 1, "errors without a baseline");
  const write = runCli([...ERRORS, "--write-baseline"], dir);
  assert.equal(write.status, 0);
  assert.equal(write.stdout, "No problems found in 2 files.\n");
  assert.equal(
    write.stderr,
    `note: recorded 4 findings in ${BASELINE_FILE_NAME} (4 new, 0 no longer found and removed)\n`,
  );
  assert.deepEqual(entries(dir), ALL);

  const read = runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME], dir);
  assert.equal(read.status, 0);
  assert.equal(read.stdout, "No problems found in 2 files.\n");
  assert.equal(read.stderr, `note: 4 findings hidden by the baseline ${BASELINE_FILE_NAME}\n`);

  const conf = join(dir, "flink-conf.yaml");
  writeFileSync(conf, `# a new first line\n\n${readFileSync(conf, "utf8")}\nparallelism.default: 4\n`);
  edit(join(dir, "session", "flink-conf.yaml"), "jobmanager.rpc.address: jobmanager\n", "");
  const moved = runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME], dir);
  assert.equal(moved.stdout, "No problems found in 2 files.\n");
  assert.equal(moved.status, 0);
});

test("an edited offending line is reported again, exit 1, and its entry is named as no longer found", () => {
  const dir = copyFixture("problems");
  runCli([...ERRORS, "--write-baseline"], dir);
  edit(join(dir, "session", "flink-conf.yaml"), "rest.port=8081", "rest.port=8082");
  const r = runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME, "--format", "json"], dir);
  assert.equal(r.status, 1);
  const json = JSON.parse(r.stdout) as { findings: { file: string; line: number; rule: string }[] };
  assert.deepEqual(
    json.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ["session/flink-conf.yaml:2 BFL100"],
  );
  const notes = r.stderr.split("\n");
  assert.equal(notes[0], `note: 3 findings hidden by the baseline ${BASELINE_FILE_NAME}`);
  assert.equal(
    notes[1],
    `note: 1 finding recorded in ${BASELINE_FILE_NAME} is no longer found (fixed, or the line changed); --write-baseline removes it:`,
  );
  assert.match(notes[2], /^note: {3}session\/flink-conf\.yaml {2}BFL100 {2}\S/);

  // Writing again prunes the stale entry and records the new finding.
  const rewrite = runCli([...ERRORS, "--write-baseline"], dir);
  assert.match(rewrite.stderr, /recorded 4 findings in \S+ \(1 new, 1 no longer found and removed\)/);
  assert.equal(runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME], dir).status, 0);
  assert.deepEqual(entries(dir), ALL);
});

test("fixed findings leave stale entries that do not fail the run; --write-baseline drops them", () => {
  const dir = copyFixture("problems");
  runCli([...ERRORS, "--write-baseline"], dir);
  edit(join(dir, "flink-conf.yaml"), "execution.checkpointing.interval:30s", "execution.checkpointing.interval: 30s");
  const r = runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME], dir);
  assert.equal(r.status, 0);
  assert.match(r.stderr, /1 finding recorded in \S+ is no longer found/);
  runCli([...ERRORS, "--write-baseline"], dir);
  assert.deepEqual(entries(dir), [
    "flink-conf.yaml BFL001 ×1",
    "flink-conf.yaml BFL100 ×1",
    "session/flink-conf.yaml BFL100 ×1",
  ]);
  assert.doesNotMatch(runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME], dir).stderr, /no longer found/);
});

test("a run over one folder keeps, and does not report, the entries of the others", () => {
  const dir = copyFixture("problems");
  runCli([...ERRORS, "--write-baseline"], dir);
  edit(join(dir, "flink-conf.yaml"), "state.backend.type = rocksdb", "state.backend.type: rocksdb");
  const one = runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME, "session"], dir);
  assert.equal(one.status, 0);
  assert.doesNotMatch(one.stderr, /no longer found/, "flink-conf.yaml was not linted");
  runCli([...ERRORS, "--write-baseline", "session"], dir);
  assert.deepEqual(entries(dir), ALL, "the entries of flink-conf.yaml are kept as they were");
  // A deleted file is under the linted folder: its entries are stale.
  const deleted = copyFixture("problems");
  runCli([...ERRORS, "--write-baseline"], deleted);
  rmSync(join(deleted, "session", "flink-conf.yaml"));
  const gone = runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME], deleted);
  assert.match(gone.stderr, /1 finding recorded in \S+ is no longer found/);
  assert.match(gone.stderr, /session\/flink-conf\.yaml {2}BFL100/);
});

test("hidden warnings do not count against --max-warnings; errors left over still fail", () => {
  const dir = copyFixture("problems");
  runCli([...PINNED_RULES, "--write-baseline"], dir);
  assert.equal(runCli([...PINNED_RULES, "--max-warnings", "0"], dir).status, 1);
  assert.equal(runCli([...PINNED_RULES, "--max-warnings", "0", "--baseline", BASELINE_FILE_NAME], dir).status, 0);
  edit(join(dir, "session", "flink-conf.yaml"), "rest.port=8081", "rest.port=8081\nweb.port=8081");
  const r = runCli([...ERRORS, "--baseline", BASELINE_FILE_NAME], dir);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /session\/flink-conf\.yaml:3:1 {2}error {4}BFL100 /);
});

test("the baseline file can be named: --write-baseline FILE.json, --write-baseline=FILE, or the --baseline file", () => {
  const dir = copyFixture("problems");
  const named = runCli([...ERRORS, "--write-baseline", "ci-baseline.json"], dir);
  assert.equal(named.status, 0);
  assert.ok(!existsSync(join(dir, BASELINE_FILE_NAME)));
  assert.deepEqual(entries(dir, "ci-baseline.json"), ALL);
  runCli([...ERRORS, "--write-baseline=other.json"], dir);
  assert.deepEqual(entries(dir, "other.json"), ALL);
  runCli([...ERRORS, "--baseline", "third.json", "--write-baseline"], dir);
  assert.deepEqual(entries(dir, "third.json"), ALL);
  // A path that is not a .json file is a path to lint, not the baseline's name.
  const folder = runCli([...ERRORS, "--write-baseline", "session"], dir);
  assert.match(folder.stderr, /recorded 1 finding in \.beam-flink-lint-baseline\.json/);
  assert.deepEqual(entries(dir), ["session/flink-conf.yaml BFL100 ×1"]);
  // Paths in the file are relative to its folder, wherever the run starts.
  const sub = runCli([...ERRORS, "--write-baseline", join("..", "from-session.json"), "."], join(dir, "session"));
  assert.equal(sub.status, 0);
  assert.deepEqual(entries(dir, "from-session.json"), ["session/flink-conf.yaml BFL100 ×1"]);
  assert.equal(runCli([...ERRORS, "--baseline", "from-session.json", "session"], dir).status, 0);
});

test("a missing or broken baseline is a usage error; a file that is not a baseline is never overwritten", () => {
  const dir = copyFixture("problems");
  const missing = runCli([...ERRORS, "--baseline", "nope.json"], dir);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^beam-flink-lint: cannot read --baseline nope\.json: /);
  assert.equal(missing.stdout, "");
  writeFileSync(join(dir, "broken.json"), '{"version": 1, "entries": [');
  const broken = runCli([...ERRORS, "--baseline", "broken.json"], dir);
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /broken\.json is not a baseline file: not valid JSON/);
  writeFileSync(join(dir, "package.json"), '{"name": "x"}\n');
  const clobber = runCli([...ERRORS, "--write-baseline", "package.json"], dir);
  assert.equal(clobber.status, 2);
  assert.match(clobber.stderr, /package\.json is not a baseline file: unsupported version undefined/);
  assert.equal(readFileSync(join(dir, "package.json"), "utf8"), '{"name": "x"}\n');
  writeFileSync(
    join(dir, "partly.json"),
    '{"version":1,"entries":[{"file":"flink-conf.yaml","rule":"BFL100","fingerprint":"nothex"}]}',
  );
  const partly = runCli([...ERRORS, "--baseline", "partly.json"], dir);
  assert.equal(partly.status, 1);
  assert.match(partly.stderr, /partly\.json: entry 1 is not \{file, rule, fingerprint/);
});
