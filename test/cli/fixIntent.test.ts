/**
 * `--fix` applies only safe fixes: not a rename whose effect depends on a Flink version that is only inferred, and
 * not the unit of a bare duration (choosing ms or s is choosing an intent). `--fix-type unsafe` applies them.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { emptyTempDir, removeTemps, runCli } from "./helpers";

after(removeTemps);

function project(files: Record<string, string>): string {
  const dir = emptyTempDir();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const CONF =
  "state.checkpoints.dir: s3://bucket/checkpoints\nrestart-strategy.type: fixed-delay\nrestart-strategy.fixed-delay.delay: 180\n";

test("--fix leaves a version-dependent rename alone when the version is only inferred, and both duration units", () => {
  for (const [files, args] of [
    [{ "flink-conf.yaml": CONF, "docker/Dockerfile": "FROM flink:1.20.0\n" }, []],
    [{ "flink-conf.yaml": CONF }, ["--flink-version", "1.20"]],
  ] as [Record<string, string>, string[]][]) {
    const dir = project(files);
    const run = runCli(["--fix", ...args, "."], dir);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(join(dir, "flink-conf.yaml"), "utf8"), CONF);
    assert.match(run.stdout, /problems? with unsafe fixes \(--fix --fix-type unsafe\)/);
  }
});

test("with the version pinned the rename is applied; --fix-type unsafe applies the first unit fix too", () => {
  const dir = project({ "flink-conf.yaml": CONF, ".beam-flink-lint.yaml": 'flinkVersion: "1.20"\n' });
  assert.equal(runCli(["--fix", "."], dir).status, 0);
  const renamed = CONF.replace("state.checkpoints.dir", "execution.checkpointing.dir");
  assert.equal(readFileSync(join(dir, "flink-conf.yaml"), "utf8"), renamed);
  assert.equal(
    runCli(["--fix", "--fix-type", "unsafe", "--rule", "*=off", "--rule", "BFL106=warning", "."], dir).status,
    0,
  );
  assert.equal(readFileSync(join(dir, "flink-conf.yaml"), "utf8"), renamed.replace("delay: 180", "delay: 180 ms"));
});
