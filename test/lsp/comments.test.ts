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
    "<project>\n  <!-- beam-flink-lint-disable-next-line BFL301 -->\n  <version>2.60.0</version>\n</project>\n",
    "no '--' inside an XML comment",
  );
});

test("the comments written are the suppressions the engine reads", () => {
  const file = "/p/flink-conf.yaml";
  const text = disableLine(file, "a: b\n  c:d\n", 1, "BFL100");
  const [s] = parseSuppressionComments(file, new LineIndex(text));
  assert.deepEqual([s.scope, s.rules, s.reason, s.covers.start.line], ["next-line", ["BFL100"], "reason", 2]);
  const xml = disableFile("/p/pom.xml", "<project/>\n", "BFL301");
  assert.deepEqual(
    parseSuppressionComments("/p/pom.xml", new LineIndex(xml)).map((x) => [x.scope, x.rules]),
    [["file", ["BFL301"]]],
  );
});

test("file comments go after a shebang, the XML declaration and Dockerfile parser directives", () => {
  assert.equal(
    disableFile("/p/flink-conf.yaml", "a: b\n", "BFL100"),
    "# beam-flink-lint-disable-file BFL100 -- reason\na: b\n",
  );
  assert.equal(
    disableFile("/p/pom.xml", '<?xml version="1.0"?>\n<project/>\n', "BFL301"),
    '<?xml version="1.0"?>\n<!-- beam-flink-lint-disable-file BFL301 -->\n<project/>\n',
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
