/** `read()` imported statically from KafkaIO is a KafkaIO read; without the import, or when shadowed, it is not. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { at, java, settings } from "./helpers";

function job(imports: string[], ...body: string[]): string {
  return [
    "package com.example;",
    "",
    ...imports,
    "",
    "class Job {",
    "  void run(Pipeline p) {",
    ...body.map((l) => `    ${l}`),
    "  }",
    "}",
    "",
  ].join("\n");
}

const CHAIN = [
  "p.apply(read()",
  '    .withTopic("orders")',
  '    .withConsumerConfigUpdates(Map.of("group.id", "orders"))',
  "    .commitOffsetsInFinalize());",
];

test("a statically imported read() starts a read with its chain, config and finalize call", () => {
  const text = job(["import static org.apache.beam.sdk.io.kafka.KafkaIO.read;"], ...CHAIN);
  const [read, ...rest] = java(text).kafkaReads;
  assert.deepEqual(rest, []);
  assert.equal(at(text, read.readRange), "6:12-6:18 read()");
  assert.equal(read.chainRange.start.line, 6);
  assert.deepEqual(read.chainRange.end, { line: 9, character: 34 });
  assert.equal(at(text, read.commitOffsetsInFinalize?.range), "9:9-9:32 commitOffsetsInFinalize");
  assert.deepEqual(settings(read.consumerConfig), ['group.id="orders"']);
  assert.equal(read.member, "run");
});

test("an on-demand static import of KafkaIO covers read() and readBytes()", () => {
  const text = job(
    ["import static org.apache.beam.sdk.io.kafka.KafkaIO.*;"],
    'p.apply(readBytes().withTopic("raw"));',
    'KafkaIO.Read<String, String> r = read().withTopic("orders");',
  );
  const reads = java(text).kafkaReads;
  assert.deepEqual(
    reads.map((r) => [at(text, r.readRange), r.variable]),
    [
      ["6:12-6:23 readBytes()", undefined],
      ["7:37-7:43 read()", "r"],
    ],
  );
});

test("read() is not a KafkaIO read without the import, with another class's import, or beside a read method", () => {
  assert.deepEqual(java(job(["import org.apache.beam.sdk.io.kafka.KafkaIO;"], ...CHAIN)).kafkaReads, []);
  assert.deepEqual(java(job(["import static com.example.io.Files.read;"], ...CHAIN)).kafkaReads, []);
  const shadowed = job(["import static org.apache.beam.sdk.io.kafka.KafkaIO.read;"], ...CHAIN).replace(
    "class Job {",
    "class Job {\n  private Object read(String path) { return path; }",
  );
  assert.deepEqual(java(shadowed).kafkaReads, [], "a method of the class named read shadows the static import");
});
