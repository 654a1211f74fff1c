/** The option catalogue API: lookups, aliases, versions, pass-through prefixes and suggestions. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  allOptionKeys,
  allOptions,
  catalogueMinor,
  compareMinors,
  DEVELOPMENT_MINOR,
  defaultIn,
  editDistance,
  existsIn,
  FLINK_MINORS,
  isOptionKnown,
  isPassThrough,
  lookupOption,
  optionForAlias,
  optionsForAlias,
  removedIn,
  suggestKeys,
  typesIn,
} from "../../server/src/core/knowledge/options";
import type { ConfigEntry, FlinkConfig } from "../../server/src/core/model";
import { findEntries, findEntry } from "../../server/src/core/project/configEntries";

test("the catalogue covers Flink 1.15 up to the development line after the newest branch", () => {
  assert.equal(FLINK_MINORS[0], "1.15");
  assert.ok(FLINK_MINORS.includes("1.20") && FLINK_MINORS.includes("2.0"));
  assert.equal(FLINK_MINORS[FLINK_MINORS.length - 1], DEVELOPMENT_MINOR);
  assert.ok(allOptions().length > 1000);
  assert.ok(allOptions().every((o) => !o.key.startsWith("$internal.") && !o.key.startsWith("__")));
});

test("lookupOption gives types, defaults and aliases", () => {
  const interval = lookupOption("execution.checkpointing.interval");
  assert.equal(interval?.type, "Duration");
  assert.equal(interval?.default, undefined);
  const mode = lookupOption("execution.checkpointing.mode");
  assert.deepEqual(mode?.enumValues, ["EXACTLY_ONCE", "AT_LEAST_ONCE"]);
  assert.equal(mode?.default, "EXACTLY_ONCE");
  const backend = lookupOption("state.backend.type");
  assert.deepEqual(backend?.deprecatedKeys, ["state.backend"]);
  assert.equal(backend?.since, "1.17");
  assert.equal(backend && defaultIn(backend, "1.18"), undefined);
  assert.equal(backend && defaultIn(backend, "1.19"), "hashmap");
  assert.equal(lookupOption("no.such.key"), undefined);
});

test("keys with placeholders stand for a family; the most specific one wins", () => {
  assert.equal(lookupOption("metrics.reporter.prom.interval")?.key, "metrics.reporter.<name>.interval");
  assert.equal(lookupOption("metrics.reporter.prom.interval")?.type, "Duration");
  assert.equal(lookupOption("metrics.reporter.prom.port")?.key, "metrics.reporter.<name>.<parameter>");
});

test("versions: since, until, removal, type per minor", () => {
  const dir = lookupOption("execution.checkpointing.dir");
  assert.ok(dir);
  assert.equal(existsIn(dir, "1.19"), false);
  assert.equal(existsIn(dir, "1.20"), true);
  const heap = lookupOption("jobmanager.heap.size");
  assert.ok(heap);
  assert.equal(heap.until, "1.20");
  assert.equal(removedIn(heap), "2.0");
  const heartbeat = lookupOption("heartbeat.interval");
  assert.ok(heartbeat);
  assert.deepEqual(
    typesIn(heartbeat, "1.19").map((t) => t.type),
    ["Long"],
  );
  assert.deepEqual(
    typesIn(heartbeat, "2.0").map((t) => t.type),
    ["Duration"],
  );
  assert.deepEqual(
    typesIn(heartbeat).map((t) => t.type),
    ["Long", "Duration"],
  );
  const autoscaler = lookupOption("job.autoscaler.enabled");
  assert.equal(autoscaler?.operator, true);
  assert.ok(autoscaler && existsIn(autoscaler, "1.15"), "operator options exist whatever the Flink version");
});

test("minors compare numerically and are clamped to the data", () => {
  assert.ok(compareMinors("1.9", "1.10") < 0);
  assert.ok(compareMinors("2.0", "1.20") > 0);
  assert.equal(compareMinors("v1_19", "1.19"), 0);
  assert.equal(catalogueMinor("1.13"), "1.15");
  assert.equal(catalogueMinor("9.9"), DEVELOPMENT_MINOR);
  assert.equal(catalogueMinor("1.19.2"), "1.19");
});

test("isOptionKnown separates current, alias, pass-through, other-version and unknown", () => {
  assert.equal(isOptionKnown("state.backend", "1.16"), "current");
  assert.equal(isOptionKnown("state.backend", "1.17"), "alias");
  assert.equal(isOptionKnown("state.backend"), "alias");
  assert.equal(isOptionKnown("state.checkpoints.dir", "1.19"), "current");
  assert.equal(isOptionKnown("state.checkpoints.dir", "2.0"), "alias");
  assert.equal(isOptionKnown("execution.checkpointing.dir", "1.19"), "other-version");
  assert.equal(isOptionKnown("jobmanager.heap.size", "2.0"), "other-version");
  assert.equal(isOptionKnown("jobmanager.heap.size", "1.20"), "current");
  assert.equal(isOptionKnown("metrics.reporter.prom.factory.class", "1.19"), "current");
  assert.equal(isOptionKnown("fs.s3a.endpoint", "1.19"), "pass-through");
  assert.equal(isOptionKnown("containerized.taskmanager.env.TZ"), "pass-through");
  assert.equal(isOptionKnown("pipeline.global-job-parameters.region", "1.19"), "current", "entry of a Map option");
  assert.equal(isOptionKnown("checkpointing.interval", "1.19"), "unknown");
  assert.equal(isOptionKnown("taskmanager.numberOfTaskSlot"), "unknown");
});

test("pass-through prefixes with placeholders match one key segment", () => {
  assert.equal(isPassThrough("metrics.reporter.prom.port"), true);
  assert.equal(isPassThrough("external-resource.gpu.param.discovery-script.path"), true);
  assert.equal(isPassThrough("fs.hdfs.limit.total"), true);
  assert.equal(isPassThrough("flink.hadoop.dfs.replication"), true);
  assert.equal(isPassThrough("metrics.reporters"), false);
  assert.equal(isPassThrough("env.java.opts.all"), false, "a fixed key with a free-form value, not a prefix");
});

test("aliases: deprecated before fallback; the option others fall back to first", () => {
  assert.equal(optionForAlias("state.backend")?.key, "state.backend.type");
  assert.equal(optionForAlias("high-availability")?.key, "high-availability.type");
  assert.deepEqual(
    optionsForAlias("state.backend.local-recovery").map((m) => m.option.key),
    ["execution.state-recovery.from-local", "execution.checkpointing.local-backup.enabled"],
  );
  assert.deepEqual(
    optionsForAlias("rest.port").map((m) => m.kind),
    optionsForAlias("rest.port").map(() => "fallback"),
  );
  assert.equal(optionForAlias("execution.checkpointing.interval"), undefined);
});

test("suggestions: case and separators, dropped prefixes, known mistakes, small typos", () => {
  assert.deepEqual(suggestKeys("taskmanager.numberOfTaskSlot", "1.19")[0], "taskmanager.numberOfTaskSlots");
  assert.deepEqual(suggestKeys("taskmanager.numberoftaskslots", "1.19")[0], "taskmanager.numberOfTaskSlots");
  assert.deepEqual(suggestKeys("execution.checkpointing.intervall", "1.19")[0], "execution.checkpointing.interval");
  assert.deepEqual(suggestKeys("checkpointing.interval", "1.19")[0], "execution.checkpointing.interval");
  assert.deepEqual(suggestKeys("checkpoint.interval", "1.19")[0], "execution.checkpointing.interval");
  assert.deepEqual(
    suggestKeys("execution.checkpointing.max_concurrent_checkpoints", "1.19")[0],
    "execution.checkpointing.max-concurrent-checkpoints",
  );
  assert.deepEqual(suggestKeys("my.custom.setting", "1.19"), []);
  assert.ok(suggestKeys("state.backend.typ", "1.19").length <= 3);
  assert.ok(
    !suggestKeys("execution.checkpointing.dirr", "1.19").includes("execution.checkpointing.dir"),
    "only keys of that minor",
  );
});

test("suggestions: a typo of a deprecated spelling names the option's key; an inner word left out or one too many", () => {
  // `query.server.ports` is the old spelling of `queryable-state.server.ports` (Flink 1.15–1.17).
  assert.deepEqual(suggestKeys("query.server.port", "1.17")[0], "queryable-state.server.ports");
  assert.deepEqual(suggestKeys("query_server_ports", "1.17")[0], "queryable-state.server.ports");
  assert.deepEqual(suggestKeys("state.backend.localdir", "1.19")[0], "state.backend.rocksdb.localdir");
  assert.deepEqual(suggestKeys("state.backend.rocksdb.incremental", "1.19")[0], "state.backend.incremental");
  // A one-letter typo of a key still comes before a key with a word more.
  assert.deepEqual(suggestKeys("taskmanager.memory.process.sise", "1.19")[0], "taskmanager.memory.process.size");
});

test("editDistance counts a swap of neighbours as one edit and stops above the limit", () => {
  assert.equal(editDistance("interval", "intervla"), 1);
  assert.equal(editDistance("abc", "abc"), 0);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("short", "a-much-longer-string", 2), 3);
});

test("allOptionKeys lists the options of one minor", () => {
  const keys = allOptionKeys("1.19");
  assert.ok(keys.includes("state.checkpoints.dir"));
  assert.ok(!keys.includes("execution.checkpointing.dir"));
  assert.ok(allOptionKeys("2.0").includes("execution.checkpointing.dir"));
  assert.ok(keys.every((k) => !k.includes("<")));
});

function entry(key: string, value: string, line: number): ConfigEntry {
  const r = { start: { line, character: 0 }, end: { line, character: key.length } };
  return {
    key,
    value,
    keyRange: r,
    valueRange: r,
    deleteRange: r,
    nested: false,
    templated: false,
    valueKind: "scalar",
  };
}

function config(entries: ConfigEntry[]): FlinkConfig {
  return {
    id: "c",
    file: "/p/flink-conf.yaml",
    host: "file",
    dialect: "legacy",
    entries,
    ignoredLines: [],
    anchor: entries[0].keyRange,
    insertEntry: () => undefined,
  };
}

test("findEntry: the option's own key first, then its old keys; the last duplicate wins", () => {
  const c = config([
    entry("state.backend.type", "rocksdb", 0),
    entry("state.backend", "hashmap", 1),
    entry("state.backend.type", "hashmap", 2),
  ]);
  assert.equal(findEntry(c, "state.backend.type")?.keyRange.start.line, 2);
  assert.equal(findEntries(c, "state.backend.type").length, 3);
  const old = config([entry("state.checkpoints.dir", "s3://a", 0)]);
  assert.equal(findEntry(old, "execution.checkpointing.dir")?.value, "s3://a");
  assert.equal(findEntry(old, "execution.checkpointing.dir", "1.19")?.value, "s3://a");
  const tooNew = config([entry("execution.checkpointing.dir", "s3://b", 0)]);
  assert.equal(findEntry(tooNew, "execution.checkpointing.dir", "1.19"), undefined, "1.19 ignores the new key");
  assert.equal(findEntry(tooNew, "execution.checkpointing.dir", "1.20")?.value, "s3://b");
  assert.equal(findEntry(tooNew, "parallelism.default"), undefined);
});
