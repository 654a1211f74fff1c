/** Completion and hover in Flink SQL scripts: connector options inside WITH (…), Flink options inside SET. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { LineIndex } from "../../server/src/core/text";
import { completionAt } from "../../server/src/lsp/completion";
import { hoverAt } from "../../server/src/lsp/hover";

/** The facts of a script with `|` marking the cursor, and the cursor's position. */
function at(textWithCursor: string) {
  const offset = textWithCursor.indexOf("|");
  const text = textWithCursor.slice(0, offset) + textWithCursor.slice(offset + 1);
  return { facts: readDocument("/p/job.sql", text), p: new LineIndex(text).positionAt(offset), text };
}

function labels(textWithCursor: string): string[] {
  const { facts, p } = at(textWithCursor);
  return completionAt(facts, p)?.items.map((i) => i.label) ?? [];
}

test("inside WITH of a Kafka table: the connector's options, then the allowed values of one", () => {
  const keys = labels("CREATE TABLE t (id STRING) WITH (\n  'connector' = 'kafka',\n  'scan.st|\n");
  assert.ok(keys.includes("scan.startup.mode"));
  assert.ok(keys.includes("sink.delivery-guarantee"));
  assert.ok(!keys.includes("sink.buffer-flush.interval"), "an upsert-kafka option");
  const upsert = labels("CREATE TABLE t (id STRING) WITH ('connector' = 'upsert-kafka', '|");
  assert.ok(upsert.includes("sink.buffer-flush.interval"));
  assert.deepEqual(labels("CREATE TABLE t (id STRING) WITH ('connector' = 'kafka', 'scan.startup.mode' = '|"), [
    "earliest-offset",
    "latest-offset",
    "group-offsets",
    "timestamp",
    "specific-offsets",
  ]);
  assert.deepEqual(labels("CREATE TABLE t (id STRING) WITH ('connector' = 'jdbc', '|"), []);
  assert.deepEqual(labels("CREATE TABLE t (id STRING COMMENT '|"), []);
});

test("inside SET: Flink's options and their values; the edit replaces what is typed inside the quotes", () => {
  const { facts, p } = at("SET 'execution.checkpointing.inter|val' = '1 min';\n");
  const list = completionAt(facts, p);
  const item = list?.items.find((i) => i.label === "execution.checkpointing.interval");
  assert.ok(item?.textEdit && "range" in item.textEdit);
  assert.deepEqual(item.textEdit.range, { start: { line: 0, character: 5 }, end: { line: 0, character: 37 } });
  assert.ok(labels("SET 'execution.runtime-mode' = '|").includes("BATCH"));
  assert.deepEqual(labels("SELECT '|"), []);
});

test("hover on a Kafka table option: type, default, values and versions", () => {
  const { facts, p } = at(
    "CREATE TABLE t (id STRING) WITH ('connector' = 'kafka', 'sink.sem|antic' = 'exactly-once');\n",
  );
  const hover = hoverAt(facts, p, undefined);
  const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
  assert.match(value, /\*\*sink\.semantic\*\* · kafka table option/);
  assert.match(value, /Deprecated: use `sink\.delivery-guarantee`/);
  const set = at("SET 'execution.checkpointing.inter|val' = '1 min';\n");
  const flink = hoverAt(set.facts, set.p, undefined);
  assert.ok(flink && JSON.stringify(flink.contents).includes("execution.checkpointing.interval"));
});

test("a ksqlDB script offers no Flink options in SET and no hover on its properties", () => {
  const ksql = "CREATE STREAM bids (price INT) WITH (KAFKA_TOPIC = 'bids', VALUE_FORMAT = 'JSON');\n";
  assert.deepEqual(labels(`${ksql}SET 'auto.offset|`), []);
  const set = at(`${ksql}SET 'execution.checkpointing.inter|val' = '1 min';\n`);
  assert.equal(hoverAt(set.facts, set.p, undefined), undefined);
  // The same SET in a Flink script is completed.
  assert.ok(labels("SET 'execution.checkpointing.inter|").includes("execution.checkpointing.interval"));
});
