/**
 * Scala files as editors hold them: half-typed, deeply nested, with Windows line ends, tabs and non-ASCII text.
 * The reader never throws, keeps what it can read, and reports positions in UTF-16 columns.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_DEPTH } from "../../server/src/core/documents/code/lowering";
import { readDocument } from "../../server/src/core/documents/index";
import { insertStatement } from "../../server/src/core/jobcode/facts";
import { at, edited } from "../java/helpers";
import { FILE, lowered, scala } from "./helpers";

function job(...methods: string[][]): string {
  return ["object Job {", ...methods.flatMap((m) => m.map((l) => `  ${l}`)), "}", ""].join("\n");
}

const FIRST = [
  "def first(): Unit = {",
  "  val env = StreamExecutionEnvironment.getExecutionEnvironment",
  "  env.enableCheckpointing(1000)",
  "}",
];
const THIRD = [
  "def third(): Unit = {",
  '  val source = KafkaSource.builder[String]().setTopics("t").build()',
  '  env.fromSource(source, WatermarkStrategy.noWatermarks(), "t").print()',
  "}",
];

test("a half-typed method does not hide the methods around it", () => {
  for (const broken of [
    ["def broken(): Unit = {", "  if (x) {", "    foo(", "}"],
    ["def broken(): Unit = {", "  val x = foo(1, ", "  val y = bar(", "}"],
    ["def broken(): Unit = {", '  val s = "unterminated', "}"],
    ["def broken(: Unit = {", "  x", "}"],
  ]) {
    const text = job(FIRST, broken, THIRD);
    const code = scala(text);
    assert.ok(code.parseProblems.length > 0, broken.join(" "));
    assert.match(code.parseProblems[0].message, /^Scala syntax error at line \d+, column \d+: /);
    assert.deepEqual(
      code.dataStream.checkpointing.map((c) => c.call.method),
      ["enableCheckpointing"],
      broken.join(" "),
    );
    assert.equal(code.dataStream.kafkaSources.length, 1, broken.join(" "));
  }
});

test("a syntax error is reported where the text goes wrong, not at the object around it", () => {
  const text = job(FIRST, ["def broken(): Unit = {", "  val x = foo(1, ", "  val y = bar(", "}"], THIRD);
  const [first] = scala(text).parseProblems;
  assert.equal(first.message, "Scala syntax error at line 8, column 9: unexpected text");
});

test("input that is not Scala at all gives problems, not an exception", () => {
  for (const text of [
    "",
    "}}}}",
    "object {",
    "StreamExecutionEnvironment ((((( [[[ {{{",
    "\u0000\u0001 StreamExecutionEnvironment \uFFFF",
    'object A { val s = """StreamExecutionEnvironment',
    "object A { def f = KafkaSource.builder[String]().setTopics( }",
  ]) {
    const facts = readDocument(FILE, text);
    assert.equal(facts.kind, "scala");
    assert.ok(facts.code === undefined || Array.isArray(facts.code.parseProblems), JSON.stringify(text));
  }
});

test("nesting deeper than the lowering goes is cut off with one problem; the rest of the file is read", () => {
  const n = MAX_DEPTH + 200;
  const deep = [
    ["def calls(): Unit = {", `  val x = ${"f(".repeat(n * 2)}1${")".repeat(n * 2)}`, "}"],
    ["def sums(): Unit = {", `  val y = ${Array.from({ length: n }, () => "1").join(" + ")}`, "}"],
    ["def chain(): Unit = {", `  val z = env${".map(x)".repeat(n)}`, "}"],
    ["def blocks(): Unit = {", `  val w = ${"{".repeat(n)}1${"}".repeat(n)}`, "}"],
  ];
  for (const d of deep) {
    const code = scala(job(FIRST, d, THIRD));
    const deepProblems = code.parseProblems.filter((p) => p.message.includes("levels deep"));
    assert.equal(deepProblems.length, 1, d[0]);
    assert.match(deepProblems[0].message, /^Scala code at line 7, column \d+ is nested more than \d+ levels deep/);
    assert.deepEqual(
      code.dataStream.checkpointing.map((c) => c.call.method),
      ["enableCheckpointing"],
      d[0],
    );
    assert.equal(code.dataStream.kafkaSources.length, 1, d[0]);
  }
});

test("a long but shallow file is read completely", () => {
  const methods = Array.from({ length: 300 }, (_, i) => [
    `def job${i}(env: StreamExecutionEnvironment): Unit = {`,
    `  env.enableCheckpointing(${i + 1}000L)`,
    "}",
  ]);
  const code = scala(job(...methods));
  assert.deepEqual(code.parseProblems, []);
  assert.equal(code.dataStream.checkpointing.length, 300);
  assert.deepEqual(lowered(job(...methods)).problems, []);
});

test("Windows line ends and tabs: ranges, and the inserted statement keeps the file's line end and indentation", () => {
  const text = [
    "object Job {",
    "\tdef main(args: Array[String]): Unit = {",
    "\t\tval env = StreamExecutionEnvironment.getExecutionEnvironment",
    '\t\tenv.execute("job")',
    "\t}",
    "}",
    "",
  ].join("\r\n");
  const code = scala(text);
  const [env] = code.dataStream.environments;
  assert.equal(at(text, env.range), "2:39-2:62 getExecutionEnvironment");
  assert.equal(
    edited(text, insertStatement(env.insertion ?? assert.fail("no insertion"), "env.enableCheckpointing(60000L)")),
    text.replace("getExecutionEnvironment\r\n", "getExecutionEnvironment\r\n\t\tenv.enableCheckpointing(60000L)\r\n"),
  );
});

test("non-ASCII text before the job: columns are UTF-16 code units", () => {
  const text = [
    "// Zählt Wörter – 日本語 😀",
    'object Job { val Name = "naïve 😀"; def main(args: Array[String]): Unit = {',
    '  val label = "😀😀"; val env = StreamExecutionEnvironment.getExecutionEnvironment; env.setParallelism(2) } }',
    "",
  ].join("\n");
  const line = text.split("\n")[2];
  const column = (s: string) => line.indexOf(s);
  // UTF-16: each emoji counts 2.
  assert.equal(column("getExecutionEnvironment"), 59);
  const code = scala(text);
  assert.equal(at(text, code.dataStream.environments[0].range), "2:59-2:82 getExecutionEnvironment");
  assert.equal(at(text, code.dataStream.environmentParallelism[0].call.range), "2:88-2:102 setParallelism");
});

test("re-reading after a one-character edit (an incremental re-parse) gives the facts of the new text", () => {
  const file = "/p/src/main/scala/Edited.scala";
  const before = job(FIRST, THIRD);
  assert.equal(scala(before, file).dataStream.checkpointing[0].interval?.raw, "1000");
  const after = before.replace("enableCheckpointing(1000)", "enableCheckpointing(5000)");
  const code = scala(after, file);
  assert.equal(code.dataStream.checkpointing[0].interval?.raw, "5000");
  assert.equal(at(after, code.dataStream.checkpointing[0].call.range), "3:8-3:27 enableCheckpointing");
  const broken = after.replace("enableCheckpointing(5000)", "enableCheckpointing(5000");
  assert.ok(scala(broken, file).parseProblems.length > 0);
  assert.equal(scala(after, file).parseProblems.length, 0);
});

test("a file that mentions none of the job APIs is not parsed", () => {
  const facts = readDocument(FILE, "object Util { def add(a: Int, b: Int) = a + b }\n");
  assert.equal(facts.code, undefined);
});

test("kept lowerings: an item that moved has its ranges moved; a new declaration elsewhere is seen", () => {
  const file = "/p/src/main/scala/Kept.scala";
  const job = [
    "object Sources {",
    '  val Topic = "orders"',
    "}",
    "object Job {",
    "  def main(args: Array[String]): Unit = {",
    "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
    '    env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").print()',
    "  }",
    "}",
    "",
  ].join("\n");
  const first = scala(job, file);
  assert.equal(at(job, first.dataStream.environments[0].range), "5:41-5:64 getExecutionEnvironment");
  assert.equal(first.dataStream.operators[0].kafkaSource, undefined);
  // Typing above the job moves it: the kept lowering is shifted.
  const moved = `// orders\n${job.replace('"orders"', '"orders-v2"')}`;
  const second = scala(moved, file);
  assert.equal(at(moved, second.dataStream.environments[0].range), "6:41-6:64 getExecutionEnvironment");
  // A parameterless def added to the other object makes `source` in the unchanged job a call of it.
  const withSource = moved.replace(
    '  val Topic = "orders-v2"',
    '  val Topic = "orders-v2"\n  def source = KafkaSource.builder[String]().setTopics(Topic).build()',
  );
  const third = scala(withSource.replace("fromSource(source", "fromSource(Sources.source"), file);
  assert.equal(third.dataStream.operators[0].kafkaSource?.kind, "kafkaSource");
  // The same text at two places is read at each place.
  const twice = `${job}${job.replace(/object (\w+)/g, "object $1Copy")}`;
  const both = scala(twice, file);
  assert.deepEqual(
    both.dataStream.environments.map((e) => at(twice, e.range)),
    ["5:41-5:64 getExecutionEnvironment", "14:41-14:64 getExecutionEnvironment"],
  );
});
