/**
 * The tree-sitter runtime: incremental re-parses give the tree a fresh parse gives, grammars load, and Scala files
 * nested deeper than its grammar handles in linear time are reported once instead of stalling.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Random } from "../../bench/random";
import { readDocument } from "../../server/src/core/documents/index";
import {
  dropTree,
  editBetween,
  parseTree,
  TREE_SITTER_LANGUAGES,
  treeSitterReady,
} from "../../server/src/core/jobcode/treeSitter";

const SAMPLES = {
  scala:
    "object Job {\n  def main(args: Array[String]): Unit = {\n    val env = StreamExecutionEnvironment.getExecutionEnvironment\n    env.enableCheckpointing(5000)\n  }\n}\n",
  kotlin:
    "fun main() {\n    val env = StreamExecutionEnvironment.getExecutionEnvironment()\n    env.enableCheckpointing(5000)\n}\n",
  python: "env = StreamExecutionEnvironment.get_execution_environment()\nenv.enable_checkpointing(5000)\n",
};

test("every grammar loads and parses", () => {
  assert.ok(treeSitterReady());
  for (const language of TREE_SITTER_LANGUAGES) {
    const tree = parseTree(`/t/sample.${language}`, language, SAMPLES[language]);
    assert.ok(tree, language);
    assert.equal(tree.rootNode.hasError, false, language);
    dropTree(`/t/sample.${language}`);
  }
});

test("an incremental re-parse gives the tree of a fresh parse, edit after edit", () => {
  const rng = new Random(17);
  for (const language of TREE_SITTER_LANGUAGES) {
    let text = SAMPLES[language].repeat(4);
    const file = `/t/edited.${language}`;
    parseTree(file, language, text);
    for (let i = 0; i < 40; i++) {
      const at = rng.int(0, text.length);
      const cut = rng.int(0, 3);
      const insert = ["", "x", "(", ")\n", "é😀", "\r\n"][rng.int(0, 5)];
      text = text.slice(0, at) + insert + text.slice(at + cut);
      const incremental = parseTree(file, language, text)?.rootNode.toString();
      const fresh = parseTree(`${file}.fresh`, language, text)?.rootNode.toString();
      dropTree(`${file}.fresh`);
      assert.equal(incremental, fresh, `${language} after edit ${i}`);
    }
    dropTree(file);
  }
});

test("the edit between two texts keeps their common prefix and suffix", () => {
  const e = editBetween("ab\ncd\nef", "ab\ncXd\nef");
  assert.deepEqual(
    [e.startIndex, e.oldEndIndex, e.newEndIndex, e.startPosition, e.oldEndPosition, e.newEndPosition],
    [4, 4, 5, { row: 1, column: 1 }, { row: 1, column: 1 }, { row: 1, column: 2 }],
  );
});

test("a Scala file nested deeper than the grammar handles in linear time gets one note and no parse", {
  timeout: 60_000,
}, () => {
  const deep = `object Deep {\n  val x = ${"{".repeat(10_000)}1${"}".repeat(10_000)}\n}\n${SAMPLES.scala}`;
  const facts = readDocument("/t/src/main/scala/Deep.scala", deep);
  assert.equal(facts.code, undefined);
  assert.deepEqual(
    facts.notAnalysed?.map((n) => n.message),
    ["This Scala file was not analysed: its brackets nest 10001 levels deep (more than 3000)."],
  );
});
