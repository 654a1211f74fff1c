/**
 * The Python reader keeps lowered module-level functions and classes by their text and shifts them to where they
 * stand now. A warm read must give exactly the facts and the tree of a cold one, whatever moved or changed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { clearUnitCache } from "../../server/src/core/documents/python/unitCache";
import { corpusFiles } from "../reliability/corpus";
import { generateModule } from "./gen";
import { lines, lowered, py } from "./helpers";

/** Facts as data (edit builders are closures, equal by what they build, not by reference). */
function facts(text: string, file = "/p/jobs/cached.py"): unknown {
  return JSON.parse(JSON.stringify(py(text, file)));
}

function tree(text: string): unknown {
  const { members, stmts, classNames, called, problems } = lowered(text);
  return JSON.parse(JSON.stringify({ members, stmts, classNames, called: [...called].sort(), problems }));
}

/** Reads `before` (filling the cache), then `after`; the second read must equal a cold read of `after`. */
function assertSameWarm(before: string, after: string, what: string): void {
  clearUnitCache();
  const expectedFacts = facts(after);
  clearUnitCache();
  const expectedTree = tree(after);
  clearUnitCache();
  facts(before);
  assert.deepEqual(facts(after), expectedFacts, what);
  tree(before);
  assert.deepEqual(tree(after), expectedTree, what);
}

const MODULE = generateModule(400).text;

const pythonTexts = () => [
  ...corpusFiles()
    .filter((f) => f.file.endsWith(".py"))
    .map((f) => f.text),
  MODULE,
];

test("lines added above: every kept function and class is shifted to its new place", () => {
  const texts = pythonTexts();
  assert.ok(texts.length > 20, `${texts.length} Python files`);
  for (const text of texts) assertSameWarm(text, `# a comment é 🚀\n\n${text}`, text.slice(0, 60));
});

test("a function edited, one removed, two swapped: the others come from the cache, the facts are a cold read's", () => {
  assertSameWarm(MODULE, MODULE.replace('"topic-3"', '"topic-33"'), "edited");
  assertSameWarm(MODULE, MODULE.replace(/\ndef pipeline_2\(p, topics\):\n(?: {4}.*\n|\n)*/, "\n"), "removed");
  const a = /\nclass Stream1:\n(?: {4}.*\n|\n)*/.exec(MODULE)?.[0] ?? "";
  const b = /\nclass Stream2:\n(?: {4}.*\n|\n)*/.exec(MODULE)?.[0] ?? "";
  assert.ok(a && b);
  assertSameWarm(MODULE, MODULE.replace(a, "\u0000").replace(b, a).replace("\u0000", b), "swapped");
});

test("the names a kept function calls still count when another function stops calling them", () => {
  const text = lines(
    "def helper():",
    "    return KafkaSource.builder().build()",
    "",
    "def first():",
    "    return helper()",
    "",
    "def second():",
    "    return helper()",
  );
  clearUnitCache();
  assert.ok(lowered(text).called.has("helper"));
  assert.ok(lowered(text.replace("    return helper()", "    return None")).called.has("helper"));
  clearUnitCache();
  assert.ok(!lowered(text.replaceAll("    return helper()", "    return None")).called.has("helper"));
});

test("the same function under other import aliases is lowered again", () => {
  const body = lines("def build():", "    return Consumer('orders', schema, props)");
  clearUnitCache();
  const plain = lowered(body).members[0];
  const aliased = lowered(`from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer as Consumer\n${body}`)
    .members[0];
  const made = (m: typeof plain) =>
    m.k === "method" && m.body[0]?.k === "return" && m.body[0].expr?.k === "new" ? m.body[0].expr.type : "?";
  assert.equal(made(plain), "Consumer");
  assert.equal(made(aliased), "FlinkKafkaConsumer");
});
