/**
 * BFL103's three answers as a user sees them: the message, the related information that says what replaces a key,
 * and whether a rename is offered.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Finding } from "../../server/src/core/findings";
import { analyzeAll, FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

function bfl103(text: string, flinkVersion?: string): Finding[] {
  const files = new Map([[`${FIXTURE_ROOT}/flink-conf.yaml`, text]]);
  return analyzeAll(workspaceOf(files, { assumedFlinkVersion: flinkVersion })).filter((f) => f.rule === "BFL103");
}

test("a deprecated option without a new name: a warning, what replaces it, no rename", () => {
  const [f] = bfl103("jobmanager.heap.size: 1024m\n", "1.20");
  assert.equal(f.severity, "warning");
  assert.equal(f.message, "`jobmanager.heap.size` is deprecated: Flink 1.20 still reads it, Flink 2.0 ignores it.");
  assert.deepEqual(
    f.related.map((r) => r.message),
    [
      "Deprecated since Flink 1.15 or earlier; no key takes its value as it is, so it is not renamed.",
      "Use `jobmanager.memory.process.size` or `jobmanager.memory.flink.size` instead (none of them takes the value as it is).",
    ],
  );
  assert.deepEqual(f.fixes, []);
});

test("a key deprecated long before the oldest minor the catalogue knows is deprecated there too (Flink 1.15)", () => {
  // taskmanager.heap.size has been deprecated since Flink 1.10 (jobmanager.heap.size since 1.11).
  const [f] = bfl103("taskmanager.heap.size: 2048m\n", "1.15");
  assert.equal(f.severity, "warning");
  assert.equal(f.message, "`taskmanager.heap.size` is deprecated: Flink 1.15 still reads it, Flink 2.0 ignores it.");
  assert.equal(
    f.related[0].message,
    "Deprecated since Flink 1.15 or earlier; no key takes its value as it is, so it is not renamed.",
  );
});

test("the same key on Flink 2.0 is an error: removed, listed in the release notes", () => {
  const [f] = bfl103("jobmanager.heap.size: 1024m\n", "2.0");
  assert.equal(f.severity, "error");
  assert.deepEqual(
    f.related.map((r) => r.message),
    [
      "Use `jobmanager.memory.process.size` or `jobmanager.memory.flink.size` instead (none of them takes the value as it is).",
      "Flink 2.0's release notes list it among the removed configuration options.",
    ],
  );
  assert.deepEqual(f.fixes, []);
});

test("a key 2.0 removed without listing it says so", () => {
  const [f] = bfl103("pipeline.time-characteristic: EventTime\n", "2.0");
  assert.equal(f.severity, "error");
  assert.deepEqual(
    f.related.map((r) => r.message),
    ["Flink 2.0's release notes do not list it, but no option of the 2.0 sources reads it any more."],
  );
});

test("a value that does not carry over is explained, not renamed", () => {
  const [f] = bfl103("cluster.evenly-spread-out-slots: true\n", "1.19");
  assert.equal(f.severity, "warning");
  assert.deepEqual(
    f.related.map((r) => r.message),
    [
      "Deprecated since Flink 1.19; no key takes its value as it is, so it is not renamed.",
      "Use `taskmanager.load-balance.mode` instead.",
      "`true` corresponds to `taskmanager.load-balance.mode: SLOTS`, `false` to `NONE`.",
    ],
  );
  assert.deepEqual(f.fixes, []);
});

test("a rename that a later Flink drops says which version drops it", () => {
  const [f] = bfl103("security.kerberos.fetch.delegation-token: false\n", "2.2");
  assert.equal(
    f.message,
    "`security.kerberos.fetch.delegation-token` is deprecated; Flink reads it as `security.delegation.tokens.enabled`.",
  );
  assert.deepEqual(
    f.related.map((r) => r.message),
    [
      "Flink 2.4 (in development) no longer reads `security.kerberos.fetch.delegation-token`: rename it to `security.delegation.tokens.enabled` before upgrading.",
    ],
  );
  // Flink 1.15 and 1.16 read the old key and not the new one: with the version only assumed, the rename is unsafe.
  assert.equal(
    f.fixes[0]?.title,
    "Rename to `security.delegation.tokens.enabled` (Flink reads it from 1.17; Flink 2.2 is not pinned: 2.2 from the assumed version (editor setting or --flink-version))",
  );
  assert.equal(f.fixes[0]?.safety, "unsafe");
  const [dropped] = bfl103("security.kerberos.fetch.delegation-token: false\n", "2.4");
  assert.equal(dropped.severity, "error");
});

test("a rename still read by every version offers the rename and says why", () => {
  const [f] = bfl103("web.port: 8081\n", "2.0");
  assert.equal(f.severity, "warning");
  assert.deepEqual(
    f.related.map((r) => r.message),
    ["Rename it to `rest.port` before a Flink upgrade drops the old key."],
  );
  assert.equal(f.fixes[0]?.title, "Rename to `rest.port`");
  // Every Flink version reads `web.port` into `rest.port`: the rename is safe whatever the version.
  assert.equal(f.fixes[0]?.safety, "safe");
});
