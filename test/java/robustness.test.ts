/** Broken and partial Java: one member that does not parse hides nothing in the others; nothing throws. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { readJava } from "../../server/src/core/documents/java/reader";
import { tokenize } from "../../server/src/core/documents/java/tokens";
import { memberUnits } from "../../server/src/core/documents/java/units";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { at, FILE, java } from "./helpers";

const TWO_METHODS = [
  "class Job {",
  "  void read(Pipeline p) {",
  '    p.apply(KafkaIO.<String, String>read().withTopic("a").commitOffsetsInFinalize());',
  "  }",
  "",
  "  void stream() {",
  "    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
  "    env.enableCheckpointing(1000);",
  "  }",
  "}",
  "",
].join("\n");

test("a syntax error in one method: the other method's facts remain, the problem is recorded, BFL002 stays quiet", () => {
  const text = TWO_METHODS.replace('withTopic("a")', 'withTopic("a"');
  const facts = java(text);
  assert.deepEqual(facts.kafkaReads, []);
  assert.equal(facts.dataStream.checkpointing.length, 1);
  assert.deepEqual(
    facts.parseProblems.map((p) => `${at(text, p.range).split("\n")[0]} | ${p.message}`),
    ["1:2-3:3 void read(Pipeline p) { | Java syntax error at line 3, column 84: expected ')' but found ';'"],
  );
  assert.deepEqual(readDocument(FILE, text).syntaxErrors, []);
});

test("while a member is being typed it contributes nothing; the facts come back when it parses again", () => {
  const ws = new Workspace();
  ws.setFile(FILE, TWO_METHODS);
  const project = () => ws.project(ws.projectRootOf(FILE)).code;
  assert.equal(project().kafkaReads.length, 1);
  ws.setFile(FILE, TWO_METHODS.replace("env.enableCheckpointing(1000);", "env.enableCheckpointing(1000"));
  assert.equal(project().kafkaReads.length, 1);
  assert.equal(project().checkpointing.length, 0);
  ws.setFile(FILE, TWO_METHODS);
  assert.equal(project().checkpointing.length, 1);
});

test("members are split at their own boundaries: fields with braces, nested classes, enums, records", () => {
  const text = [
    "package p;",
    "import java.util.*;",
    '@SuppressWarnings({"a", "b"})',
    "public class Job {",
    "  int[] sizes = {1, 2};",
    '  Map<String, Object> m = new HashMap<>() {{ put("a", 1); }};',
    "  Runnable r = () -> { run(); };",
    "  enum Mode { A, B(1) { void f() {} }; Mode() {} Mode(int x) {} }",
    "  static class Inner { void g() { if (x) { } else { } } }",
    "  record R(int a) { R { } }",
    '  @Override public String toString() { return ""; }',
    "}",
  ].join("\n");
  const units = memberUnits(tokenize(text)) ?? assert.fail();
  assert.deepEqual(
    units.map((u) => text.slice(u.start, u.end)),
    [
      "int[] sizes = {1, 2};",
      'Map<String, Object> m = new HashMap<>() {{ put("a", 1); }};',
      "Runnable r = () -> { run(); };",
      "Mode() {}",
      "Mode(int x) {}",
      "void g() { if (x) { } else { } }",
      "R { }",
      '@Override public String toString() { return ""; }',
    ],
  );
  assert.deepEqual(readJava(FILE, text).parseProblems, []);
});

test("a snippet that is not one block of statements is read statement by statement", () => {
  const text = [
    "Map<String, Object> cfg = new HashMap<>();",
    'cfg.put("group.id", );',
    "p.apply(KafkaIO.<String, String>read().withConsumerConfigUpdates(cfg).commitOffsetsInFinalize());",
  ].join("\n");
  const facts = java(text);
  assert.equal(facts.shape, "statements");
  assert.equal(facts.kafkaReads.length, 1);
  assert.deepEqual(facts.kafkaReads[0].consumerConfig.entries, []);
  assert.deepEqual(
    facts.parseProblems.map((p) => at(text, p.range)),
    ['1:0-1:22 cfg.put("group.id", );'],
  );
});

test("methods pasted without their class are read as members", () => {
  const text = [
    "public static void main(String[] args) {",
    "  StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
    "}",
    "private static void other() { env.enableCheckpointing(5000); }",
  ].join("\n");
  const facts = java(text);
  assert.equal(facts.dataStream.environments.length, 1);
  assert.deepEqual(facts.parseProblems, []);
});

test("every prefix of a job file is read without throwing", () => {
  const text = TWO_METHODS + TWO_METHODS.replace("class Job", "class Other");
  for (let end = 0; end <= text.length; end += 7) {
    const facts = readJava(FILE, text.slice(0, end));
    assert.ok(Array.isArray(facts.parseProblems));
  }
  for (const odd of [
    "",
    "}",
    "{{{{",
    '"""',
    "class",
    "class X {",
    "/* unterminated",
    "'",
    "@",
    'class X { void f() { "a }',
  ]) {
    assert.doesNotThrow(() => readJava(FILE, `${odd} KafkaIO`));
  }
});

test("files that mention none of the APIs are not parsed", () => {
  const facts = readDocument(FILE, "class Util { int f( { }");
  assert.equal(facts.code, undefined);
  assert.equal(facts.kind, "java");
});
