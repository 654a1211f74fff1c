/** Where completion finds a Flink configuration, read from the indentation above the cursor. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import type { Position } from "../../server/src/core/text";
import { completionAt } from "../../server/src/lsp/completion";

/** Completes at the `$0` in `text` (the marker is removed). */
function complete(file: string, marked: string, minor = "1.19") {
  const offset = marked.indexOf("$0");
  const text = marked.slice(0, offset) + marked.slice(offset + 2);
  const before = text.slice(0, offset).split("\n");
  const p: Position = { line: before.length - 1, character: before[before.length - 1].length };
  return completionAt(readDocument(file, text), p, minor)?.items;
}

function edit(items: ReturnType<typeof complete>, label: string) {
  return items?.find((i) => i.label === label)?.textEdit;
}

test("FlinkDeployment flinkConfiguration: full keys with a separator", () => {
  const items = complete(
    "/p/deploy.yaml",
    'apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nspec:\n  flinkConfiguration:\n    taskmanager.numberOfTaskSlots: "2"\n    state.ba$0\n',
  );
  assert.deepEqual(edit(items, "state.backend.type"), {
    range: { start: { line: 5, character: 4 }, end: { line: 5, character: 12 } },
    newText: "state.backend.type: ",
  });
});

test("ConfigMap flink-conf.yaml block: flat keys, and enum values after the separator", () => {
  const head = "apiVersion: v1\nkind: ConfigMap\ndata:\n  flink-conf.yaml: |\n    parallelism.default: 2\n";
  assert.ok(edit(complete("/p/cm.yaml", `${head}    rest.$0\n`), "rest.port"));
  const values = complete("/p/cm.yaml", `${head}    execution.checkpointing.mode: $0\n`);
  assert.deepEqual(
    values?.map((i) => i.label),
    ["EXACTLY_ONCE", "AT_LEAST_ONCE"],
  );
});

test("config.yaml: nested mappings complete the rest of the key", () => {
  const items = complete("/p/config.yaml", "execution:\n  checkpointing:\n    inter$0\n");
  assert.deepEqual(edit(items, "interval"), {
    range: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } },
    newText: "interval: ",
  });
  assert.equal(edit(items, "execution.checkpointing.interval"), undefined);
});

test("inside an existing key the whole key is replaced and no second separator is added", () => {
  const items = complete("/p/flink-conf.yaml", "taskmanager.numberOf$0TaskSlots: 4\n");
  assert.deepEqual(edit(items, "taskmanager.numberOfTaskSlots"), {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 29 } },
    newText: "taskmanager.numberOfTaskSlots",
  });
});

test("outside a Flink configuration there is nothing to complete", () => {
  assert.equal(complete("/p/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  repl$0\n"), undefined);
  assert.equal(
    complete("/p/cm.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  log4j.properties: |\n    rootLogger$0\n"),
    undefined,
  );
});

/** The labels in the order an editor shows them before it filters (by sortText). */
function ranked(items: ReturnType<typeof complete>): string[] {
  return [...(items ?? [])]
    .sort((a, b) => ((a.sortText ?? a.label) < (b.sortText ?? b.label) ? -1 : 1))
    .map((i) => i.label);
}

test("after `state.back` the state backend type comes first, then other common options that start with it", () => {
  for (const minor of ["1.17", "1.19", "2.0", undefined]) {
    const order = ranked(complete("/p/flink-conf.yaml", "parallelism.default: 2\nstate.back$0\n", minor));
    assert.equal(order[0], "state.backend.type", `Flink ${minor}`);
    const rocksdb = order.indexOf("state.backend.rocksdb.localdir");
    const rare = order.indexOf("state.backend.rocksdb.metrics.num-snapshots");
    assert.ok(rocksdb > 0 && rare > rocksdb, `a described RocksDB option before an undescribed one (Flink ${minor})`);
    const unrelated = order.indexOf("execution.checkpointing.interval");
    assert.ok(unrelated > rare, "options that do not start with the typed text come after those that do");
  }
  const nested = ranked(complete("/p/config.yaml", "parallelism.default: 2\nstate:\n  back$0\n", "1.19"));
  assert.equal(nested[0], "backend.type");
});

test("with nothing typed the most common options come first; the version still decides what is offered", () => {
  const order = ranked(complete("/p/flink-conf.yaml", "$0\n", "1.19"));
  assert.deepEqual(order.slice(0, 3), [
    "execution.checkpointing.interval",
    "execution.checkpointing.mode",
    "execution.checkpointing.timeout",
  ]);
  assert.ok(!order.includes("state.backend"), "state.backend is a deprecated key in 1.19, not offered");
  const old = ranked(complete("/p/flink-conf.yaml", "state.back$0\n", "1.16"));
  assert.equal(old[0], "state.backend", "in Flink 1.16 the option is still called state.backend");
  assert.ok(!old.includes("state.backend.type"));
});
