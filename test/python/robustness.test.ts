/**
 * Broken, partial, deeply nested and unusually written Python: one part that does not parse hides nothing in the
 * others, nothing throws or overflows the stack, and ranges stay exact with CRLF, tabs and non-ASCII text.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { insertStatement } from "../../server/src/core/jobcode/facts";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { at, edited } from "../java/helpers";
import { FILE, lines, lowered, py, showMember } from "./helpers";

const JOB = lines(
  "from pyflink.datastream import StreamExecutionEnvironment",
  "",
  "def source(servers):",
  '    return KafkaSource.builder().set_bootstrap_servers(servers).set_topics("clicks").build()',
  "",
  "def main():",
  "    env = StreamExecutionEnvironment.get_execution_environment()",
  "    env.enable_checkpointing(60000)",
  '    env.from_source(source("kafka:9092"), WatermarkStrategy.no_watermarks(), "clicks").print()',
  "",
  "class Sink:",
  "    def build(self):",
  "        return KafkaSink.builder().set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE).build()",
  "",
  "if __name__ == '__main__':",
  "    main()",
);

test("an unclosed parenthesis in one function does not hide the functions and classes after it", () => {
  const text = JOB.replace('.set_topics("clicks")', '.set_topics("clicks"');
  const facts = py(text);
  assert.equal(facts.dataStream.kafkaSources.length, 0, "the broken function contributes nothing");
  assert.equal(facts.dataStream.checkpointing.length, 1);
  assert.equal(facts.dataStream.kafkaSinks.length, 1);
  assert.deepEqual(
    facts.parseProblems.map((p) => `${at(text, p.range).split("\n")[0]} | ${p.message}`),
    ["2:0-3:91 def source(servers): | Python syntax error at line 4, column 75: '(' was never closed"],
  );
  assert.deepEqual(readDocument(FILE, text).syntaxErrors, [], "syntax errors in job code are the compiler's business");
});

test("a broken method leaves the class's other methods; a broken statement the script's other statements", () => {
  const text = lines(
    "class Job:",
    "    def broken(self):",
    "        x = = 1",
    "    def run(self):",
    "        env = StreamExecutionEnvironment.get_execution_environment()",
    "        env.enable_checkpointing(1000)",
    "",
    "env = StreamExecutionEnvironment.get_execution_environment()",
    "env.set_parallelism(]",
    "env.set_max_parallelism(128)",
  );
  const { members, stmts, problems } = lowered(text);
  assert.deepEqual(members.map(showMember), [
    "class Job { def run() { local env = StreamExecutionEnvironment.getExecutionEnvironment(); env.enableCheckpointing(1000) } }",
  ]);
  assert.equal(stmts.length, 2);
  assert.deepEqual(
    problems.map((p) => p.message),
    [
      "Python syntax error at line 3, column 13: unexpected '='",
      "Python syntax error at line 9, column 20: '(' was never closed",
    ],
  );
  assert.deepEqual(
    py(text).dataStream.environmentParallelism.map((p) => p.method),
    ["setMaxParallelism"],
  );
});

test("a class whose header does not parse takes its methods with it, and what follows still counts", () => {
  const text = lines(
    "class Job(:",
    "    def run(self):",
    "        self.env.enable_checkpointing(1000)",
    "",
    "def main():",
    "    env = StreamExecutionEnvironment.get_execution_environment()",
  );
  const { members, problems } = lowered(text);
  assert.deepEqual(members.map(showMember), [
    "def main() { local env = StreamExecutionEnvironment.getExecutionEnvironment() }",
  ]);
  assert.equal(problems.length, 1);
  assert.equal(at(text, problems[0].range).split("\n")[0], "0:0-2:43 class Job(:");
});

test("while a function is being typed it contributes nothing; its facts come back when it parses again", () => {
  const ws = new Workspace();
  ws.setFile(FILE, JOB);
  const project = () => ws.project(ws.projectRootOf(FILE)).code;
  assert.equal(project().checkpointing.length, 1);
  assert.equal(project().kafkaSources.length, 1);
  ws.setFile(FILE, JOB.replace("env.enable_checkpointing(60000)", "env.enable_checkpointing(60000"));
  assert.equal(project().checkpointing.length, 0);
  assert.equal(project().kafkaSources.length, 1, "the function before it still counts");
  assert.equal(project().kafkaSinks.length, 1, "the class after it still counts");
  ws.setFile(FILE, JOB);
  assert.equal(project().checkpointing.length, 1);
});

test("an incremental re-parse after a one-character edit gives the same facts as a fresh parse", () => {
  const edited = JOB.replace("enable_checkpointing(60000)", "enable_checkpointing(6000)");
  const file = "/p/jobs/incremental.py";
  readDocument(file, JOB);
  const again = JSON.stringify(readDocument(file, edited).code);
  // The same module name in another folder: a fresh read, with what the module exports named alike.
  const fresh = JSON.stringify(readDocument("/q/jobs/incremental.py", edited).code).replaceAll("/q/", "/p/");
  assert.equal(again, fresh);
  assert.match(again, /"raw":"6000"/);
});

const DEEP = 100_000;

test("nesting 100,000 levels deep does not overflow the stack: the part is reported, the rest of the file counts", () => {
  const nested: Record<string, string> = {
    parentheses: `x = ${"(".repeat(DEEP)}1${")".repeat(DEEP)}`,
    calls: `x = ${"f(".repeat(DEEP)}1${")".repeat(DEEP)}`,
    lists: `x = ${"[".repeat(DEEP)}1${"]".repeat(DEEP)}`,
    chain: `x = env${".set_parallelism(1)".repeat(DEEP / 10)}`,
    sums: `x = 1${" + 1".repeat(DEEP)}`,
  };
  for (const [name, code] of Object.entries(nested)) {
    const text = `${code}\n\n${JOB}`;
    const facts = py(text, `/p/deep/${name}.py`);
    assert.equal(facts.dataStream.checkpointing.length, 1, name);
    assert.equal(facts.dataStream.kafkaSinks.length, 1, name);
    const problems = facts.parseProblems.map((p) => p.message);
    if (name === "parentheses") assert.deepEqual(problems, [], "parentheses are read without recursion");
    else assert.match(problems.join(), /nested more than 600 levels deep at line 1/, name);
    const ws = new Workspace({ roots: ["/p"] });
    ws.setFile(`/p/deep/${name}.py`, text);
    assert.deepEqual(ws.analyze(ws.projectRoots()[0]).failures, [], name);
  }
});

test("blocks nested far deeper than Python allows are reported, not recursed into", () => {
  const depth = 3000;
  const text = `${Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}if x:`).join("\n")}\n${" ".repeat(depth)}pass\n${JOB}`;
  const facts = py(text, "/p/deep/blocks.py");
  assert.equal(facts.dataStream.checkpointing.length, 1);
  assert.equal(facts.parseProblems.length, 1);
});

test("CRLF line breaks: ranges and inserted statements use the file's own line breaks", () => {
  const text = JOB.replace(/\n/g, "\r\n");
  const facts = py(text);
  const [env] = facts.dataStream.environments;
  assert.equal(at(text, env.range), "6:37-6:62 get_execution_environment");
  assert.equal(env.insertion?.eol, "\r\n");
  const fixed = edited(text, insertStatement(env.insertion ?? assert.fail(), "env.set_parallelism(2)"));
  assert.deepEqual(fixed.split("\r\n").slice(6, 8), [
    "    env = StreamExecutionEnvironment.get_execution_environment()",
    "    env.set_parallelism(2)",
  ]);
  assert.deepEqual(facts.parseProblems, []);
});

test("tab indentation: inserted statements keep the tab", () => {
  const text = JOB.replace(/^ {4}/gm, "\t").replace(/^\t {4}/gm, "\t\t");
  const facts = py(text);
  const [env] = facts.dataStream.environments;
  assert.equal(env.insertion?.indent, "\t");
  assert.equal(at(text, facts.dataStream.checkpointing[0].call.range), "7:5-7:25 enable_checkpointing");
  assert.equal(facts.dataStream.kafkaSinks.length, 1);
});

test("non-ASCII text before the code: columns count UTF-16 code units, as the editor does", () => {
  const text = lines(
    "# Zählt Klicks 🚀 — ✓",
    "from pyflink.datastream import StreamExecutionEnvironment",
    "",
    "def main():",
    '    titre = "événement 🎉"; env = StreamExecutionEnvironment.get_execution_environment()',
    "    env.enable_checkpointing(60000)",
  );
  const facts = py(text);
  assert.equal(at(text, facts.dataStream.environments[0].range), "4:61-4:86 get_execution_environment");
  assert.equal(at(text, facts.dataStream.checkpointing[0].call.range), "5:8-5:28 enable_checkpointing");
});

test("a Python 2 print statement, a lone ERROR and an empty file do not throw", () => {
  for (const text of [
    "",
    "\n",
    "print 'x'\nenv.enable_checkpointing(1)\n",
    ")))\n",
    "def",
    "class",
    "@",
    '"""',
    "if x:\n",
  ]) {
    assert.doesNotThrow(() => readDocument("/p/odd.py", `import pyflink\n${text}`), JSON.stringify(text));
  }
});

test("seeded edits of a job never make the reader throw", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pieces = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    "\n",
    "    ",
    "'",
    '"',
    '"""',
    "\\",
    "=",
    ",",
    "def ",
    "class ",
    "@",
    "#",
  ];
  for (let i = 0; i < 300; i++) {
    let text = JOB;
    for (let k = 0; k < 1 + random(4); k++) {
      const at = random(text.length);
      text =
        random(2) === 0
          ? text.slice(0, at) + pieces[random(pieces.length)] + text.slice(at)
          : text.slice(0, at) + text.slice(at + 1 + random(5));
    }
    assert.doesNotThrow(() => readDocument("/p/fuzz.py", text), text);
  }
});
