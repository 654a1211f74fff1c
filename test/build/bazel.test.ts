/** Bazel builds: the Maven coordinates and string constants of MODULE.bazel, WORKSPACE and .bzl files. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { kindFromName } from "../../server/src/core/documents/index";
import { describe, read, renderDependency, resolved, workspace } from "./helpers";

test("which files are Bazel builds: MODULE.bazel, WORKSPACE, WORKSPACE.bazel and .bzl files, not BUILD files", () => {
  assert.equal(kindFromName("/w/MODULE.bazel"), "bazel");
  assert.equal(kindFromName("/w/WORKSPACE"), "bazel");
  assert.equal(kindFromName("/w/WORKSPACE.bazel"), "bazel");
  assert.equal(kindFromName("/w/third_party/maven_deps.bzl"), "bazel");
  assert.equal(kindFromName("/w/src/BUILD"), "other");
  assert.equal(kindFromName("/w/src/BUILD.bazel"), "other");
});

test("coordinates as strings, built from constants, and maven.artifact; comments and other strings are passed over", () => {
  const text = [
    'BEAM = "2.61.0"',
    'FLINK_MINOR = "1.18"',
    'KAFKA = "3.2.0-" + FLINK_MINOR',
    "maven.install(",
    "    artifacts = [",
    '        "org.apache.beam:beam-sdks-java-core:2.61.0",',
    '        "org.apache.beam:beam-runners-flink-1.18:%s" % BEAM,',
    '        "org.apache.beam:beam-sdks-java-io-kafka:%s" % (BEAM,),',
    "        'org.apache.flink:flink-connector-kafka:' + KAFKA,",
    '        "org.apache.flink:flink-clients:{}".format(FLINK),',
    '        "com.google.guava:guava:jar:sources:33.0.0-jre",',
    '        # "org.apache.beam:beam-commented:1.0",',
    '        "not a coordinate",',
    '        "@maven//:org_apache_beam_beam_sdks_java_core",',
    "    ],",
    ")",
    'maven.artifact(group = "org.apache.flink", artifact = "flink-core", version = FLINK)',
    'maven.artifact("org.apache.kafka", "kafka-clients", "3.8.1")',
  ].join("\n");
  const { build, facts } = read("/w/MODULE.bazel", text, "gradle");
  assert.equal(build.dsl, "bazel");
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [
      "org.apache.beam:beam-sdks-java-core:2.61.0",
      "org.apache.beam:beam-runners-flink-1.18:{BEAM|BEAM}",
      "org.apache.beam:beam-sdks-java-io-kafka:{BEAM|BEAM}",
      "org.apache.flink:flink-connector-kafka:{KAFKA|KAFKA}",
      "org.apache.flink:flink-clients:{FLINK|FLINK}",
      "com.google.guava | guava | 33.0.0-jre",
      "org.apache.flink | flink-core | {FLINK|FLINK}",
      "org.apache.kafka | kafka-clients | 3.8.1",
    ],
  );
  assert.deepEqual(
    build.definitions.map((d) => [
      d.name,
      d.value.parts.map((p) => ("text" in p ? p.text : "ref" in p ? `{${p.ref}}` : "?")),
    ]),
    [
      ["BEAM", ["2.61.0"]],
      ["FLINK_MINOR", ["1.18"]],
      ["KAFKA", ["3.2.0-", "{FLINK_MINOR}"]],
    ],
  );
});

test("constants of a .bzl file anywhere in the workspace resolve in MODULE.bazel, at the literal that defines them", () => {
  const deps = resolved(
    workspace({
      "/w/MODULE.bazel": [
        'load("//third_party:versions.bzl", "BEAM_VERSION")',
        "maven.install(artifacts = [",
        '    "org.apache.beam:beam-runners-flink-1.19:" + BEAM_VERSION,',
        "])",
      ].join("\n"),
      "/w/third_party/versions.bzl": 'BEAM_VERSION = "2.63.0"\n',
      "/w/src/main/java/com/acme/BUILD":
        'java_library(name = "job", deps = ["@maven//:org_apache_beam_beam_sdks_java_core"])\n',
    }),
  );
  assert.deepEqual(deps.map(describe), [
    "org.apache.beam:beam-runners-flink-1.19:2.63.0 @/w/third_party/versions.bzl:0:16-0:22",
  ]);
  assert.deepEqual([...new Set(deps.map((d) => d.module))], [""]);
});

test("a string left open is a warning of its own, not a crash, and the rest of the file is still read", () => {
  const text = 'maven.install(artifacts = ["org.apache.beam:beam-runners-flink-1.18:2.62.0"])\nX = "open\n';
  const { build, facts } = read("/w/WORKSPACE", text, "gradle");
  assert.equal(build.dependencies.length, 1);
  assert.equal(facts.syntaxErrors.length, 1);
  assert.match(facts.syntaxErrors[0].message, /not closed/);
});
