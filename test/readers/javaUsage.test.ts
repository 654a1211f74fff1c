/** The light Java scan for version-sensitive Beam APIs: exact ranges, and nothing from comments or strings. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { scanJobApiUsage } from "../../server/src/core/documents/java/usage";
import type { Location } from "../../server/src/core/findings";
import { span, textAt } from "./helpers";

const FILE = "/p/src/main/java/com/example/Job.java";

function shown(text: string, places: Location[]): string[] {
  return places.map((l) => `${span(l.range)} ${textAt(text, l.range)}`);
}

test("commitOffsetsInFinalize( calls, PubsubIO.read… and use_deprecated_read in strings, with exact ranges", () => {
  const text = [
    "class Job {",
    "  void build(Pipeline p) {",
    '    p.apply(KafkaIO.<String, String>read().withTopic("orders").commitOffsetsInFinalize());',
    '    p.apply(PubsubIO.readStrings().fromSubscription("projects/p/subscriptions/s"));',
    "    p.apply(PubsubIO",
    "        .readMessagesWithAttributes());",
    '    String[] args = {"--runner=FlinkRunner", "--experiments=use_deprecated_read"};',
    '    ExperimentalOptions.addExperiment(options, "use_deprecated_read");',
    "  }",
    "}",
    "",
  ].join("\n");
  const usage = scanJobApiUsage(FILE, text);
  assert.deepEqual(shown(text, usage.commitOffsetsInFinalize), ["2:63-2:86 commitOffsetsInFinalize"]);
  assert.deepEqual(shown(text, usage.pubsubRead), [
    "3:12-3:32 PubsubIO.readStrings",
    "5:9-5:35 readMessagesWithAttributes",
  ]);
  assert.deepEqual(shown(text, usage.useDeprecatedRead), [
    "6:60-6:79 use_deprecated_read",
    "7:48-7:67 use_deprecated_read",
  ]);
  assert.ok(usage.commitOffsetsInFinalize.every((l) => l.file === FILE));
});

test("comments, string contents, char literals and text blocks do not count as calls", () => {
  const text = [
    "class Job {",
    "  // read.commitOffsetsInFinalize();",
    "  /* PubsubIO.readStrings() and",
    "     commitOffsetsInFinalize() */",
    '  String s = "commitOffsetsInFinalize() \\" PubsubIO.readStrings()";',
    "  char q = '\"';",
    '  String block = """',
    "      KafkaIO.read().commitOffsetsInFinalize()",
    '      """;',
    "  // --experiments=use_deprecated_read",
    "  Object ref = Read::commitOffsetsInFinalize;",
    "  boolean b = PubsubIO.class != null;",
    "}",
    "",
  ].join("\n");
  assert.deepEqual(scanJobApiUsage(FILE, text), {
    commitOffsetsInFinalize: [],
    pubsubRead: [],
    useDeprecatedRead: [],
  });
});

test("an unterminated string ends at its line, so the next line is still read", () => {
  const text = 'String s = "broken;\nread.commitOffsetsInFinalize();\n';
  assert.deepEqual(shown(text, scanJobApiUsage(FILE, text).commitOffsetsInFinalize), [
    "1:5-1:28 commitOffsetsInFinalize",
  ]);
});

test("Java files are read into facts with the usage; a broken file still gives what it has", () => {
  const facts = readDocument(FILE, "class Job { void f( { read.commitOffsetsInFinalize(); \n");
  assert.equal(facts.kind, "java");
  assert.equal(facts.jobApi?.commitOffsetsInFinalize.length, 1);
  assert.deepEqual(facts.syntaxErrors, []);
});
