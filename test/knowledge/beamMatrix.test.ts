/** The Beam ↔ Flink runner matrix (domain facts §9.2). */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  flinkMinorsFor,
  isFlinkRunner,
  isRunnerPublished,
  matrixNotes,
  runnerFlinkMinor,
} from "../../server/src/core/knowledge/beamMatrix";

test("the runners of each Beam release", () => {
  assert.deepEqual(flinkMinorsFor("2.51.0"), ["1.12", "1.13", "1.14", "1.15", "1.16"]);
  assert.deepEqual(flinkMinorsFor("2.55.1"), ["1.12", "1.13", "1.14", "1.15", "1.16"]);
  assert.deepEqual(flinkMinorsFor("2.56.0"), ["1.14", "1.15", "1.16", "1.17"]);
  assert.deepEqual(flinkMinorsFor("2.57.0"), ["1.15", "1.16", "1.17", "1.18"]);
  assert.deepEqual(flinkMinorsFor("2.60.0"), ["1.15", "1.16", "1.17", "1.18"]);
  assert.deepEqual(flinkMinorsFor("2.61.0"), ["1.17", "1.18", "1.19"]);
  assert.deepEqual(flinkMinorsFor("2.64.0"), ["1.17", "1.18", "1.19"]);
  assert.deepEqual(flinkMinorsFor("2.70.0"), ["1.17", "1.18", "1.19", "1.20"]);
  assert.deepEqual(flinkMinorsFor("2.72.0"), ["1.17", "1.18", "1.19", "1.20", "2.0"]);
  assert.deepEqual(flinkMinorsFor("2.75.0"), ["1.19", "1.20", "2.0", "2.1", "2.2"]);
});

test("runners that do not exist for a release (RULES.md BFL304)", () => {
  assert.equal(isRunnerPublished("2.60.0", "1.19"), false);
  assert.equal(isRunnerPublished("2.61.0", "1.19"), true);
  assert.equal(isRunnerPublished("2.69.0", "1.20"), false);
  assert.equal(isRunnerPublished("2.70.0", "1.20"), true);
  assert.equal(isRunnerPublished("2.71.0", "2.0"), false);
  assert.equal(isRunnerPublished("2.72.0", "2.0"), true);
  assert.equal(isRunnerPublished("2.74.0", "1.17"), true);
  assert.equal(isRunnerPublished("2.75.0", "1.17"), false);
  assert.equal(isRunnerPublished("2.60.0", "1.16"), true);
  assert.equal(isRunnerPublished("2.61.0", "1.16"), false);
  assert.equal(isRunnerPublished("2.56.0", "1.14"), true);
  assert.equal(isRunnerPublished("2.57.0", "1.14"), false);
  assert.equal(isRunnerPublished("2.64.0", "3.0"), false, "a minor no release in the matrix has");
});

test("outside the matrix's span only what it knows is said", () => {
  assert.equal(flinkMinorsFor("2.90.0"), undefined);
  assert.equal(isRunnerPublished("2.90.0", "3.0"), undefined, "a newer Beam may have added it");
  assert.equal(isRunnerPublished("2.90.0", "1.17"), false, "dropped runners stay dropped");
  assert.equal(isRunnerPublished("2.90.0", "1.20"), true);
  assert.equal(isRunnerPublished("2.5.0", "1.5"), undefined);
});

test("runner coordinates and the Flink minor they need", () => {
  assert.equal(runnerFlinkMinor("beam-runners-flink-1.17"), "1.17");
  assert.equal(runnerFlinkMinor("beam-runners-flink-2.0"), "2.0");
  assert.equal(runnerFlinkMinor("beam-runners-flink-1.17-job-server"), undefined);
  assert.equal(runnerFlinkMinor("beam-runners-flink_2.11"), undefined);
  assert.ok(isFlinkRunner("org.apache.beam", "beam-runners-flink-1.17"));
  assert.ok(!isFlinkRunner("org.apache.beam", "beam-runners-flink-1.17-job-server"));
  assert.ok(!isFlinkRunner("org.apache.beam", "beam-runners-direct-java"));
  assert.ok(!isFlinkRunner("com.example", "beam-runners-flink-1.17"));
});

test("upgrade notes of a release", () => {
  assert.equal(matrixNotes("2.56.0").length, 1);
  assert.match(matrixNotes("2.56.0")[0], /1\.17 runner/);
  assert.deepEqual(matrixNotes("2.60.0"), []);
});

test("the lz4 note: from 2.75.0, Flink's at.yawk.lz4 artifact clashes with org.lz4, and at.yawk is the one to keep", () => {
  assert.deepEqual(
    matrixNotes("2.74.0").filter((n) => n.includes("lz4")),
    [],
  );
  const [note] = matrixNotes("2.75.0").filter((n) => n.includes("lz4"));
  assert.match(note, /^Flink 2\.1 and newer ship lz4-java under its new coordinates at\.yawk\.lz4:lz4-java/);
  assert.match(note, /libraries that still need org\.lz4:lz4-java \(such as kafka-clients\)/);
  assert.match(
    note,
    /Select at\.yawk\.lz4:lz4-java \(a Gradle capabilitiesResolution, or a Maven exclusion of org\.lz4:lz4-java\)/,
  );
});
