/**
 * Java members the parser cannot take (nested too deeply, shaped so that it takes exponential time, not Java it
 * reads) are reported as not analysed (BFL003) at their names, quickly, and the other members of the file are still
 * analysed: their findings stay.
 */
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { test } from "node:test";
import { parseUnit } from "../../server/src/core/documents/java/syntax";
import { Workspace } from "../../server/src/core/workspace/workspace";

const ROOT = "/p";
const FILE = `${ROOT}/src/main/java/com/example/Job.java`;

function findings(text: string): { rule: string; line: number; character: number; message: string }[] {
  const ws = new Workspace({ roots: [ROOT] });
  ws.setFile(`${ROOT}/pom.xml`, "<project/>\n");
  ws.setFile(FILE, text);
  const result = ws.analyze(ROOT);
  assert.deepEqual(result.failures, []);
  return (result.byFile.get(FILE) ?? []).map((f) => ({
    rule: f.rule,
    line: f.range.start.line,
    character: f.range.start.character,
    message: f.message,
  }));
}

/** A pipeline whose read commits in finalize without a group id (BFL402), and a member `body` before it. */
function job(member: string): string {
  return [
    "import org.apache.beam.sdk.io.kafka.KafkaIO;",
    "class Job {",
    member,
    "  void run(Pipeline p) {",
    '    p.apply(KafkaIO.<Long, String>read().withBootstrapServers("b:9092").withTopic("t").commitOffsetsInFinalize());',
    "  }",
    "}",
    "",
  ].join("\n");
}

test("a method 300 levels deep is reported at its name; the read in the next method is still checked", () => {
  const text = job(`  int deep() {\n    return ${"(".repeat(300)}1${")".repeat(300)};\n  }`);
  const found = findings(text);
  assert.deepEqual(
    found.filter((f) => f.rule === "BFL003").map((f) => [f.line, f.character, f.message]),
    [[2, 6, "This method is not analysed, so nothing in it is checked: it nests brackets more than 100 deep."]],
  );
  assert.deepEqual(
    found.filter((f) => f.rule === "BFL402").map((f) => f.line),
    [6],
  );
});

test("the read inside a method 300 levels deep is not silently lost: its method is named", () => {
  const text = job("").replace("p.apply(", `int x = ${"(".repeat(300)}1${")".repeat(300)};\n    p.apply(`);
  const found = findings(text);
  assert.deepEqual(
    found.map((f) => [f.rule, f.line, f.character]),
    [["BFL003", 3, 7]],
  );
});

test("shapes the parser takes exponential time on are refused at once", () => {
  const shapes: [string, string, RegExp][] = [
    ["nested casts", `return ${"((Object) ".repeat(12)}x${")".repeat(12)};`, /casts or assignments in parentheses/],
    ["nested assignments", `int y = ${"(a = ".repeat(12)}1${")".repeat(12)};`, /casts or assignments in parentheses/],
    ["an assignment chain", `${"a = ".repeat(60)}1;`, /too many assignments in one statement/],
    ["a comparison chain", `${"a < ".repeat(90)}b;`, /too many comparisons in one statement/],
    ["a call chain", `x${".a()".repeat(5000)};`, /one of its statements is too long/],
    ["a ternary chain", `int y = ${"a ? b : ".repeat(3000)}1;`, /one of its statements is too long/],
  ];
  for (const [what, body, message] of shapes) {
    const start = performance.now();
    const found = findings(job(`  Object shape(Object x) {\n    ${body}\n  }`));
    const ms = performance.now() - start;
    const note = found.find((f) => f.rule === "BFL003");
    assert.ok(note, what);
    assert.match(note.message, message, what);
    assert.deepEqual([note.line, note.character], [2, 9], what);
    assert.ok(
      found.some((f) => f.rule === "BFL402"),
      `${what}: the other method is still read`,
    );
    // Each took from seconds to hours before; reading the file now takes what any file of its size does.
    assert.ok(ms < 15_000, `${what}: ${ms.toFixed(0)} ms`);
  }
});

test("ordinary code with casts, assignments in conditions and chained assignments is analysed", () => {
  const member = [
    "  int read(java.io.Reader r, Object o) throws java.io.IOException {",
    "    int n;",
    "    int a, b, c;",
    "    a = b = c = 0;",
    "    while ((n = r.read()) != -1) a += n;",
    "    return ((String) ((Object) o)).length() + (a < b && b < c ? 1 : 0);",
    "  }",
  ].join("\n");
  assert.deepEqual(
    findings(job(member)).map((f) => f.rule),
    ["BFL402"],
  );
});

test("a field the parser cannot read is named, with where the parser stopped", () => {
  const found = findings(job('  private static final String TOPIC = "orders" + ;'));
  assert.deepEqual(
    found.filter((f) => f.rule === "BFL003").map((f) => [f.line, f.character, f.message]),
    [
      [
        2,
        30,
        "This field is not analysed, so nothing in it is checked: the Java parser stops at line 3, column 50: unexpected ';'.",
      ],
    ],
  );
});

test("a parser that runs out of stack is told from a syntax error", () => {
  const deep = parseUnit(`void m() { int x = ${"(".repeat(5000)}1${")".repeat(5000)}; }`, "classBodyDeclaration", 0);
  assert.deepEqual(deep, { ok: false, message: "nested too deeply for the Java parser", tooDeep: true });
  const broken = parseUnit("void m() { int x = ; }", "classBodyDeclaration", 0);
  assert.equal(broken.ok, false);
  assert.equal(!broken.ok && broken.tooDeep, undefined);
});
