/**
 * Old keys per Flink version: renamed and still read, deprecated with no key that takes the value as it is, or
 * removed. Each case is checked at its boundaries: the last minor before the change, the first one with it, and an
 * unknown version.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  allOptions,
  flink2Removal,
  isOptionKnown,
  type KeyLifecycle,
  keyLifecycle,
} from "../../server/src/core/knowledge/options";

/** A short form of an answer: `renamed → rest.port`, `deprecated`, `removed in 2.0`, or `-`. */
function answer(key: string, minor?: string): string {
  const life: KeyLifecycle | undefined = keyLifecycle(key, minor);
  if (!life) return "-";
  if (life.kind === "renamed") return `renamed → ${life.option.key}`;
  if (life.kind === "deprecated") return "deprecated";
  return `removed in ${life.removedIn}`;
}

function answers(key: string, minors: (string | undefined)[]): string[] {
  return minors.map((m) => answer(key, m));
}

test("keys Flink 2.0 lists as removed but still reads as deprecated names are renames on 2.x", () => {
  for (const [key, to] of [
    ["web.port", "rest.port"],
    ["state.backend.local-recovery", "execution.state-recovery.from-local"],
    ["taskmanager.network.memory.fraction", "taskmanager.memory.network.fraction"],
    ["slotmanager.taskmanager-timeout", "resourcemanager.taskmanager-timeout"],
    [
      "jobmanager.adaptive-batch-scheduler.max-parallelism",
      "execution.batch.adaptive.auto-parallelism.max-parallelism",
    ],
    ["state.backend.latency-track.history-size", "state.latency-track.history-size"],
    ["high-availability.zookeeper.path.jobgraphs", "high-availability.zookeeper.path.execution-plans"],
  ]) {
    assert.equal(answer(key, "2.0"), `renamed → ${to}`, key);
    assert.equal(answer(key, "2.2"), `renamed → ${to}`, key);
    assert.equal(isOptionKnown(key, "2.0"), "alias", key);
  }
  // A fallback key counts as a rename only for a key that is itself on the way out.
  assert.equal(answer("web.address", "2.0"), "renamed → rest.bind-address");
  assert.equal(answer("rest.port", "2.0"), "-");
});

test("the ZooKeeper job-graph path is read as its new name only from 2.0, where the new key appears", () => {
  assert.deepEqual(answers("high-availability.zookeeper.path.jobgraphs", ["1.20", "2.0"]), [
    "-",
    "renamed → high-availability.zookeeper.path.execution-plans",
  ]);
});

test("keys Flink 2.0 removed for good: deprecated on 1.x (no rename), ignored from 2.0", () => {
  for (const [key, deprecatedFrom] of [
    ["jobmanager.heap.size", "1.16"],
    ["taskmanager.heap.size", "1.16"],
    ["state.backend.async", "1.16"],
    ["taskmanager.network.numberOfBuffers", "1.16"],
    ["security.ssl.enabled", "1.16"],
    ["cluster.evenly-spread-out-slots", "1.19"],
    ["pipeline.registered-kryo-types", "1.19"],
  ]) {
    assert.equal(answer(key, deprecatedFrom), "deprecated", `${key} on ${deprecatedFrom}`);
    assert.equal(answer(key, "1.20"), "deprecated", `${key} on 1.20`);
    assert.equal(answer(key, "2.0"), "removed in 2.0", `${key} on 2.0`);
    assert.equal(answer(key, "2.2"), "removed in 2.0", `${key} on 2.2`);
    assert.equal(answer(key), "removed in 2.0", `${key} on an unknown version`);
    assert.equal(flink2Removal(key), true, `${key} is in the release notes' list`);
  }
});

test("an option is not deprecated before the release that deprecated it", () => {
  assert.deepEqual(answers("cluster.evenly-spread-out-slots", ["1.18", "1.19"]), ["-", "deprecated"]);
  assert.deepEqual(answers("pipeline.time-characteristic", ["1.18", "1.19"]), ["-", "deprecated"]);
  assert.deepEqual(answers("execution.checkpointing.force", ["1.16", "1.17"]), ["-", "deprecated"]);
  // Flink 1.19 and 1.20 still declare these, although the generated docs tables no longer list them.
  assert.equal(isOptionKnown("cluster.evenly-spread-out-slots", "1.20"), "current");
  assert.equal(isOptionKnown("pipeline.time-characteristic", "1.20"), "current");
  assert.equal(isOptionKnown("high-availability.zookeeper.path.running-registry", "1.20"), "current");
  assert.equal(isOptionKnown("taskmanager.network.netty.transport", "1.20"), "current");
});

test("keys 2.0 removed without listing them are removed, and marked as not listed", () => {
  for (const key of ["pipeline.time-characteristic", "execution.checkpointing.force", "akka.watch.threshold"]) {
    assert.equal(answer(key, "1.20"), "deprecated", key);
    assert.equal(answer(key, "2.0"), "removed in 2.0", key);
  }
  const life = keyLifecycle("execution.checkpointing.force", "2.0");
  assert.equal(life?.kind === "removed" && life.inFlink2List, false);
  assert.equal(flink2Removal("pipeline.time-characteristic"), false);
});

test("the deprecated option says what replaces it, and how the values map where they do not carry over", () => {
  const heap = keyLifecycle("jobmanager.heap.size", "1.20");
  assert.ok(heap?.kind === "deprecated");
  // Declared @Deprecated in every source the catalogue was read from, 1.15 on (it is deprecated since 1.11).
  assert.equal(heap.since, "1.15");
  assert.ok(keyLifecycle("taskmanager.heap.size", "1.15")?.kind === "deprecated");
  assert.equal(heap.lastMinor, "1.20");
  assert.deepEqual(heap.replacedBy, ["jobmanager.memory.process.size", "jobmanager.memory.flink.size"]);
  const spread = keyLifecycle("cluster.evenly-spread-out-slots", "1.19");
  assert.ok(spread?.kind === "deprecated");
  assert.deepEqual(spread.replacedBy, ["taskmanager.load-balance.mode"]);
  assert.match(spread.note ?? "", /SLOTS/);
});

test("renames are older than 1.20: unaligned checkpoints from 1.17, operator chaining and akka from 1.18", () => {
  assert.deepEqual(answers("execution.checkpointing.unaligned", ["1.16", "1.17", "2.0"]), [
    "-",
    "renamed → execution.checkpointing.unaligned.enabled",
    "renamed → execution.checkpointing.unaligned.enabled",
  ]);
  assert.deepEqual(answers("pipeline.operator-chaining", ["1.17", "1.18", "2.0"]), [
    "-",
    "renamed → pipeline.operator-chaining.enabled",
    "renamed → pipeline.operator-chaining.enabled",
  ]);
  assert.deepEqual(answers("akka.ask.timeout", ["1.17", "1.18"]), ["-", "renamed → pekko.ask.timeout"]);
  assert.deepEqual(answers("state.backend", ["1.16", "1.17"]), ["-", "renamed → state.backend.type"]);
  assert.deepEqual(answers("state.checkpoints.dir", ["1.19", "1.20"]), ["-", "renamed → execution.checkpointing.dir"]);
});

test("execution.buffer-timeout is read as a deprecated name only from 1.18 (the 1.16/1.17 backports aside)", () => {
  assert.deepEqual(answers("execution.buffer-timeout", ["1.17", "1.18", "2.0"]), [
    "-",
    "renamed → execution.buffer-timeout.interval",
    "renamed → execution.buffer-timeout.interval",
  ]);
});

test("aliases dropped after 2.3 are renames up to 2.3 and removed on the development line", () => {
  const key = "security.kerberos.fetch.delegation-token";
  assert.deepEqual(answers(key, ["1.16", "1.17", "2.2", "2.3", "2.4"]), [
    "-",
    "renamed → security.delegation.tokens.enabled",
    "renamed → security.delegation.tokens.enabled",
    "renamed → security.delegation.tokens.enabled",
    "removed in 2.4",
  ]);
  const life = keyLifecycle(key, "2.0");
  assert.equal(life?.kind === "renamed" && life.lastMinor, "2.3");
  // With no version the newest release line answers, not the development line.
  assert.equal(answer(key), "renamed → security.delegation.tokens.enabled");
  assert.equal(isOptionKnown(key, "2.4"), "other-version");
});

test("old names of options that 2.0 kept are no longer read once 2.0 dropped the old name", () => {
  assert.deepEqual(answers("state.backend.rocksdb.checkpointdir", ["1.20", "2.0"]), [
    "renamed → state.backend.rocksdb.localdir",
    "removed in 2.0",
  ]);
  assert.equal(isOptionKnown("state.backend.rocksdb.checkpointdir", "2.0"), "other-version");
  assert.deepEqual(answers("table.exec.topn-cache-size", ["1.20", "2.0"]), [
    "renamed → table.exec.rank.topn-cache-size",
    "removed in 2.0",
  ]);
});

test("reporters configured by class: deprecated in 1.16, not loaded from 1.17", () => {
  assert.deepEqual(answers("metrics.reporter.prom.class", ["1.15", "1.16", "1.17", "2.0"]), [
    "-",
    "deprecated",
    "removed in 1.17",
    "removed in 1.17",
  ]);
  assert.equal(isOptionKnown("metrics.reporter.prom.factory.class", "1.15"), "current");
});

test("state.backend.type is never removed, although the 2.0 list names it", () => {
  assert.deepEqual(answers("state.backend.type", ["1.17", "1.20", "2.0", "2.2", undefined]), ["-", "-", "-", "-", "-"]);
  assert.equal(flink2Removal("state.backend.type"), undefined);
});

test("every key 2.0 removed is read on 1.20 and, on 2.0, either still read under a new name or ignored", () => {
  const keys = allOptions().flatMap((o) => [o.key, ...o.aliases]);
  const removedKeys = [...new Set(keys)].filter((k) => flink2Removal(k) !== undefined);
  assert.ok(removedKeys.length > 100, `${removedKeys.length} removed keys`);
  for (const key of removedKeys) {
    // metrics.reporter.<name>.class stopped working in 1.17 already (tested above).
    if (key.includes("<")) continue;
    const on120 = answer(key, "1.20");
    assert.ok(!on120.startsWith("removed"), `${key} is read on 1.20 (${on120})`);
    const on20 = answer(key, "2.0");
    assert.ok(on20 === "removed in 2.0" || on20.startsWith("renamed"), `${key} on 2.0: ${on20}`);
  }
});
