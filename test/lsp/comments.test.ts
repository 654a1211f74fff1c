/** Suppression comments written by the "disable" code actions, in each file's comment syntax. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSuppressionComments } from "../../server/src/core/suppressions";
import { applyEdits, LineIndex } from "../../server/src/core/text";
import { disableFileEdit, disableLineEdit } from "../../server/src/lsp/comments";

function disableLine(file: string, text: string, line: number, code: string): string {
  return applyEdits(text, [disableLineEdit(file, text, line, code)]);
}

function disableFile(file: string, text: string, code: string): string {
  return applyEdits(text, [disableFileEdit(file, text, code)]);
}

test("next-line comments keep the line's indentation and line breaks, in each syntax", () => {
  assert.equal(
    disableLine("/p/deploy.yaml", "spec:\r\n  flinkConfiguration:\r\n    a: b\r\n", 2, "BFL102"),
    "spec:\r\n  flinkConfiguration:\r\n    # beam-flink-lint-disable-next-line BFL102 -- reason\r\n    a: b\r\n",
  );
  assert.equal(
    disableLine("/p/build.gradle.kts", "dependencies {\n\timplementation(x)\n}\n", 1, "BFL301"),
    "dependencies {\n\t// beam-flink-lint-disable-next-line BFL301 -- reason\n\timplementation(x)\n}\n",
  );
  assert.equal(
    disableLine("/p/pom.xml", "<project>\n  <version>2.60.0</version>\n</project>\n", 1, "BFL301"),
    "<project>\n  <!-- beam-flink-lint-disable-next-line BFL301: reason -->\n  <version>2.60.0</version>\n</project>\n",
    "no '--' inside an XML comment",
  );
  assert.equal(
    disableLine("/p/.vscode/launch.json", '{\n  "args": ["--runner=FlinkRunner"]\n}\n', 1, "BFL404"),
    '{\n  // beam-flink-lint-disable-next-line BFL404 -- reason\n  "args": ["--runner=FlinkRunner"]\n}\n',
  );
  for (const file of ["/p/src/main/scala/Job.scala", "/p/build.sbt", "/p/src/main/kotlin/Job.kt"])
    assert.equal(
      disableLine(file, "object Job {\n  env.enableCheckpointing(0)\n}\n", 1, "BFL501"),
      "object Job {\n  // beam-flink-lint-disable-next-line BFL501 -- reason\n  env.enableCheckpointing(0)\n}\n",
      file,
    );
  assert.equal(
    disableLine("/p/run.sh", "flink run job.jar --checkpointingInterval=0\n", 0, "BFL406"),
    "# beam-flink-lint-disable-next-line BFL406 -- reason\nflink run job.jar --checkpointingInterval=0\n",
  );
});

test("the comments written are the suppressions the engine reads", () => {
  const file = "/p/flink-conf.yaml";
  const text = disableLine(file, "a: b\n  c:d\n", 1, "BFL100");
  const [s] = parseSuppressionComments(file, new LineIndex(text));
  assert.deepEqual([s.scope, s.rules, s.reason, s.covers.start.line], ["next-line", ["BFL100"], "reason", 2]);
  const xml = disableFile("/p/pom.xml", "<project/>\n", "BFL301");
  assert.deepEqual(
    parseSuppressionComments("/p/pom.xml", new LineIndex(xml)).map((x) => [x.scope, x.rules, x.reason]),
    [["file", ["BFL301"], "reason"]],
  );
});

/** The text between `<!--` and `-->` is a well-formed XML comment: no `--`, and it does not end with `-`. */
function wellFormedXmlComments(text: string): boolean {
  return [...text.matchAll(/<!--([\s\S]*?)-->/g)].every((m) => !m[1].includes("--") && !m[1].endsWith("-"));
}

test("XML suppressions carry their reason after a colon and stay well-formed comments", () => {
  const pom = [
    "<project>",
    "  <!-- beam-flink-lint-disable-next-line BFL301, beam-kafka-offsets-not-committed: the platform BOM pins Beam -->",
    "  <version>2.56.0</version> <!-- beam-flink-lint-disable-line BFL302 -->",
    "  <!-- beam-flink-lint-disable-line BFL303: checked by hand --> <artifactId>x</artifactId>",
    "</project>",
    "",
  ].join("\n");
  assert.ok(wellFormedXmlComments(pom));
  assert.deepEqual(
    parseSuppressionComments("/p/pom.xml", new LineIndex(pom)).map((s) => [s.scope, s.rules, s.reason]),
    [
      ["next-line", ["BFL301", "beam-kafka-offsets-not-committed"], "the platform BOM pins Beam"],
      ["line", ["BFL302"], undefined],
      ["line", ["BFL303"], "checked by hand"],
    ],
  );
  const written = disableFile("/p/pom.xml", '<?xml version="1.0"?>\n<project/>\n', "BFL301");
  assert.ok(wellFormedXmlComments(written), written);
});

test("the reason starts at the first '--' or ':', so either may appear inside it", () => {
  const yaml = [
    "# beam-flink-lint-disable-next-line BFL101 -- see https://example.com/runbook",
    "a: b",
    "c: d # beam-flink-lint-disable-line BFL106: seconds -- on purpose",
    "",
  ].join("\n");
  assert.deepEqual(
    parseSuppressionComments("/p/flink-conf.yaml", new LineIndex(yaml)).map((s) => [s.rules, s.reason]),
    [
      [["BFL101"], "see https://example.com/runbook"],
      [["BFL106"], "seconds -- on purpose"],
    ],
  );
});

test("file comments go after a shebang, the XML declaration and Dockerfile parser directives", () => {
  assert.equal(
    disableFile("/p/flink-conf.yaml", "a: b\n", "BFL100"),
    "# beam-flink-lint-disable-file BFL100 -- reason\na: b\n",
  );
  assert.equal(
    disableFile("/p/pom.xml", '<?xml version="1.0"?>\n<project/>\n', "BFL301"),
    '<?xml version="1.0"?>\n<!-- beam-flink-lint-disable-file BFL301: reason -->\n<project/>\n',
  );
  assert.equal(
    disableFile("/p/Dockerfile", "# syntax=docker/dockerfile:1\n# escape=`\nFROM flink:1.19\n", "BFL303"),
    "# syntax=docker/dockerfile:1\n# escape=`\n# beam-flink-lint-disable-file BFL303 -- reason\nFROM flink:1.19\n",
  );
  assert.equal(
    disableFile("/p/run.sh.yaml", "#!/bin/sh", "BFL100"),
    "#!/bin/sh\n# beam-flink-lint-disable-file BFL100 -- reason\n",
  );
});
