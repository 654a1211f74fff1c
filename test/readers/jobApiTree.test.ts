/**
 * The version-sensitive Beam APIs in Scala and Kotlin job code, read from the lowered syntax tree: exact ranges,
 * Scala's calls without parentheses, nothing from comments or from strings that merely mention a method.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import type { Location } from "../../server/src/core/findings";
import { span, textAt } from "./helpers";

function usageOf(file: string, text: string) {
  const usage = readDocument(file, text).jobApi;
  assert.ok(usage, `${file}: no scan`);
  const shown = (places: Location[]) => places.map((l) => `${span(l.range)} ${textAt(text, l.range)}`);
  return {
    commit: shown(usage.commitOffsetsInFinalize),
    pubsub: shown(usage.pubsubRead),
    experiment: shown(usage.useDeprecatedRead),
  };
}

test("Scala: calls with and without parentheses, PubsubIO reads, the experiment in strings; comments do not count", () => {
  const text = [
    "object Job {",
    "  def build(p: Pipeline): Unit = {",
    '    p.apply(KafkaIO.read[String, String]().withTopic("orders").commitOffsetsInFinalize())',
    '    val r = KafkaIO.read[String, String]().withTopic("b").commitOffsetsInFinalize',
    "    // p.apply(KafkaIO.read[String, String]().commitOffsetsInFinalize())",
    '    p.apply(PubsubIO.readStrings().fromSubscription("projects/p/subscriptions/s"))',
    "    p.apply(PubsubIO",
    "      .readMessagesWithAttributes())",
    '    val args = Array("--runner=FlinkRunner", "--experiments=use_deprecated_read")',
    '    log.info("commitOffsetsInFinalize() and PubsubIO.readStrings are mentioned here")',
    "  }",
    "}",
    "",
  ].join("\n");
  assert.deepEqual(usageOf("/p/src/main/scala/Job.scala", text), {
    commit: ["2:63-2:86 commitOffsetsInFinalize", "3:58-3:81 commitOffsetsInFinalize"],
    pubsub: ["5:12-5:32 PubsubIO.readStrings", "7:7-7:33 readMessagesWithAttributes"],
    experiment: ["8:60-8:79 use_deprecated_read"],
  });
});

test("Kotlin: the same APIs, a raw string, and nothing from a block comment", () => {
  const text = [
    "fun build(p: Pipeline) {",
    '    p.apply(KafkaIO.read<String, String>().withTopic("orders").commitOffsetsInFinalize())',
    "    /* p.apply(KafkaIO.read<String, String>().commitOffsetsInFinalize()) */",
    '    p.apply(PubsubIO.readStrings().fromSubscription("projects/p/subscriptions/s"))',
    '    val args = arrayOf("--runner=FlinkRunner", """--experiments=use_deprecated_read""")',
    "}",
    "",
  ].join("\n");
  assert.deepEqual(usageOf("/p/src/main/kotlin/Job.kt", text), {
    commit: ["1:63-1:86 commitOffsetsInFinalize"],
    pubsub: ["3:12-3:32 PubsubIO.readStrings"],
    experiment: ["4:64-4:83 use_deprecated_read"],
  });
});

test("a Scala file that uses only PubsubIO is read for it", () => {
  const text = 'object P {\n  def f(p: Pipeline) = p.apply(PubsubIO.readStrings().fromTopic("t"))\n}\n';
  assert.deepEqual(usageOf("/p/src/main/scala/P.scala", text).pubsub, ["1:31-1:51 PubsubIO.readStrings"]);
});
