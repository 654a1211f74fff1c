/**
 * BFL101 when the job code enables checkpointing itself: the configuration finding drops to info and points at the
 * code that does (in any language).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { range } from "../../server/src/core/text";
import { analyzeAll, FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const CONF = `${FIXTURE_ROOT}/flink-conf.yaml`;
const JOB = `${FIXTURE_ROOT}/src/main/java/com/example/OrdersJob.java`;
const JAVA = `package com.example;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

class OrdersJob {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(60_000);
  }
}
`;

function bfl101(confText: string, files: Record<string, string> = {}) {
  const ws = workspaceOf(new Map([[CONF, confText], ...Object.entries(files)]));
  return analyzeAll(ws).filter((f) => f.rule === "BFL101");
}

test("BFL101 is info and points at the code when the job enables checkpointing", () => {
  const [finding, ...rest] = bfl101("parallelism.default: 2\n", { [JOB]: JAVA });
  assert.deepEqual(rest, []);
  assert.equal(finding.severity, "info");
  assert.equal(finding.file, CONF);
  assert.deepEqual(finding.range, range(0, 0, 0, 19));
  assert.deepEqual(finding.related, [
    { file: JOB, range: range(7, 8, 7, 27), message: "The job code enables checkpointing here." },
  ]);
  assert.match(finding.message, /only jobs that enable checkpointing in their code take checkpoints/);
  assert.equal(finding.fixes[0]?.safety, "unsafe");
});

test("BFL101 keeps its warning when no job code enables checkpointing", () => {
  const [finding] = bfl101("parallelism.default: 2\n");
  assert.equal(finding.severity, "warning");
  assert.deepEqual(finding.related, []);
});

test("BFL101 keeps its warning when only test code enables checkpointing", () => {
  const [finding] = bfl101("parallelism.default: 2\n", { [`${FIXTURE_ROOT}/src/test/java/OrdersJobTest.java`]: JAVA });
  assert.equal(finding.severity, "warning");
});

test("BFL101 reports an interval of 0 as info too when the code checkpoints", () => {
  const [finding] = bfl101("execution.checkpointing.interval: 0\n", { [JOB]: JAVA });
  assert.equal(finding.severity, "info");
  assert.deepEqual(finding.range, range(0, 34, 0, 35));
});
