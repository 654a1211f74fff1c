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
