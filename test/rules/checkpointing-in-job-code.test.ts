/**
 * BFL101 when the job code enables checkpointing itself: the configuration finding drops to info and points at the
 * code. The project model is given the code locations directly, so this does not depend on the Java reader.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzeProject } from "../../server/src/core/engine";
import { range } from "../../server/src/core/text";
import { FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const CONF = `${FIXTURE_ROOT}/flink-conf.yaml`;
const JOB = `${FIXTURE_ROOT}/src/main/java/com/example/OrdersJob.java`;

function bfl101(confText: string, jobCheckpointing: { file: string; range: ReturnType<typeof range> }[]) {
  const ws = workspaceOf(new Map([[CONF, confText]]));
  const project = { ...ws.project(FIXTURE_ROOT), jobCheckpointing };
  return [...analyzeProject(project).byFile.values()].flat().filter((f) => f.rule === "BFL101");
}

test("BFL101 is info and points at the code when the job enables checkpointing", () => {
  const inCode = { file: JOB, range: range(20, 8, 20, 26) };
  const [finding, ...rest] = bfl101("parallelism.default: 2\n", [inCode]);
  assert.deepEqual(rest, []);
  assert.equal(finding.severity, "info");
  assert.equal(finding.file, CONF);
  assert.deepEqual(finding.range, range(0, 0, 0, 19));
  assert.deepEqual(finding.related, [{ ...inCode, message: "The job code enables checkpointing here." }]);
  assert.match(finding.message, /only jobs that enable checkpointing in their code take checkpoints/);
  assert.equal(finding.fixes[0]?.safety, "unsafe");
});

test("BFL101 keeps its warning when no job code enables checkpointing", () => {
  const [finding] = bfl101("parallelism.default: 2\n", []);
  assert.equal(finding.severity, "warning");
  assert.deepEqual(finding.related, []);
});

test("BFL101 reports an interval of 0 as info too when the code checkpoints", () => {
  const [finding] = bfl101("execution.checkpointing.interval: 0\n", [{ file: JOB, range: range(3, 4, 3, 22) }]);
  assert.equal(finding.severity, "info");
  assert.deepEqual(finding.range, range(0, 34, 0, 35));
});
