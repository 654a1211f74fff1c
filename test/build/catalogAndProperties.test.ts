/** gradle.properties and version catalogs (libs.versions.toml). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { catalogName } from "../../server/src/core/documents/build/versionCatalog";
import { read, render, span } from "./helpers";

test("gradle.properties: separators, comments, trailing spaces, continuations", () => {
  const text = [
    "# versions",
    "beamVersion=2.55.1",
    "  flink.version : 1.18.1   ",
    "! also a comment",
    "kafka 3.6.1",
    "jvmArgs=-Xmx2g \\",
    "   -Dfile.encoding=UTF-8",
    "empty=",
  ].join("\n");
  const { build } = read("/p/gradle.properties", text, "gradleProperties");
  assert.deepEqual(
    build.definitions.map((d) => [d.name, render(text, d.value), span(d.nameRange), span(d.value.range)]),
    [
      ["beamVersion", "2.55.1", "1:0-1:11", "1:12-1:18"],
      ["flink.version", "1.18.1", "2:2-2:15", "2:18-2:24"],
      ["kafka", "3.6.1", "4:0-4:5", "4:6-4:11"],
      ["jvmArgs", "~-Xmx2g -Dfile.encoding=UTF-8", "5:0-5:7", "5:8-6:24"],
      ["empty", "", "7:0-7:5", "7:6-7:6"],
    ],
  );
});

test("catalog: versions (plain and rich), libraries in all three forms, bundles, alias normalisation", () => {
  const text = [
    "[versions]",
    'beam = "2.56.0"',
    'flink = { strictly = "[1.17, 1.18[", prefer = "1.17.2" }',
    "kafka.require = '3.6.1'",
    "",
    "[libraries]",
    'beam-runner_flink = { module = "org.apache.beam:beam-runners-flink-1.17", version.ref = "beam" }',
    'flink-streaming = { group = "org.apache.flink", name = "flink-streaming-java", version = { ref = "flink" } }',
    'kafka = "org.apache.kafka:kafka-clients:3.6.1"',
    'beam-bom = { module = "org.apache.beam:beam-sdks-java-bom", version.ref = "beam" }',
    'beam-core.module = "org.apache.beam:beam-sdks-java-core"  # version from the BOM',
    "",
    "[libraries.guava]",
    'module = "com.google.guava:guava"',
    'version = "32.1.3-jre"',
    "",
    "[bundles]",
    "beam = [",
    '  "beam-runner_flink",',
    '  "beam-core",  # trailing comma',
    "]",
    "",
    "[plugins]",
    'shadow = { id = "com.github.johnrengelman.shadow", version = "8.1.1" }',
  ].join("\n");
  const { build, facts } = read("/p/gradle/libs.versions.toml", text, "versionCatalog");
  assert.deepEqual(facts.syntaxErrors, []);
  assert.equal(build.name, "libs");
  assert.deepEqual(
    build.versions.map((v) => [v.name, render(text, v.value), span(v.nameRange)]),
    [
      ["versions.beam", "2.56.0", "1:0-1:4"],
      ["versions.flink", "[1.17, 1.18[", "2:0-2:5"],
      ["versions.kafka", "3.6.1", "3:0-3:5"],
    ],
  );
  assert.deepEqual(
    build.libraries.map((l) => [
      l.alias,
      render(text, l.group),
      render(text, l.artifact),
      render(text, l.version),
      span(l.range),
    ]),
    [
      ["beam.runner.flink", "org.apache.beam", "beam-runners-flink-1.17", "{versions.beam|beam}", "6:0-6:17"],
      ["flink.streaming", "org.apache.flink", "flink-streaming-java", "{versions.flink|flink}", "7:0-7:15"],
      ["kafka", "org.apache.kafka", "kafka-clients", "3.6.1", "8:0-8:5"],
      ["beam.bom", "org.apache.beam", "beam-sdks-java-bom", "{versions.beam|beam}", "9:0-9:8"],
      ["beam.core", "org.apache.beam", "beam-sdks-java-core", undefined, "10:0-10:9"],
      ["guava", "com.google.guava", "guava", "32.1.3-jre", "12:11-12:16"],
    ],
  );
  assert.deepEqual(
    build.bundles.map((b) => [b.alias, b.libraries]),
    [["beam", ["beam.runner.flink", "beam.core"]]],
  );
  assert.equal(catalogName("/p/gradle/deps.versions.toml"), "deps");
});

test("catalog: broken lines are reported and skipped, the rest is read", () => {
  const text = [
    "[versions]",
    'beam = "2.56.0',
    "flink = 1.17.2",
    "[libraries]",
    'bad = { module = "a:b"',
    'beam-core = { module = "org.apache.beam:beam-sdks-java-core", version.ref = "beam" }',
    "just some words",
  ].join("\n");
  const { facts, build } = read("/p/gradle/libs.versions.toml", text, "versionCatalog");
  assert.deepEqual(
    facts.syntaxErrors.map((e) => [span(e.range), e.severity, e.message]),
    [
      ["1:7-1:14", undefined, 'Gradle cannot load this version catalog: this string is never closed (`"` is missing).'],
      ["4:6-4:22", undefined, "Gradle cannot load this version catalog: this inline table is not closed with `}`."],
      ["6:0-6:15", undefined, "Gradle cannot load this version catalog: expected `key = value` on this line."],
    ],
  );
  assert.deepEqual(
    build.versions.map((v) => [v.name, render(text, v.value)]),
    [["versions.beam", "2.56.0"]],
  );
  assert.deepEqual(
    build.libraries.map((l) => l.alias),
    ["bad", "beam.core"],
  );
});
