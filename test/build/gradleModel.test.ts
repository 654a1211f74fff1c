/** Resolving Gradle dependencies across scripts, gradle.properties and version catalogs of one project. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { describe, resolved, span, workspace } from "./helpers";

function dependencies(files: Record<string, string>): string[] {
  return resolved(workspace(files)).map(describe);
}

test("a version from gradle.properties, through a Kotlin `by project` property, reported in gradle.properties", () => {
  const ws = workspace({
    "/w/gradle.properties": "beamVersion=2.55.1\n",
    "/w/build.gradle.kts": [
      "val beamVersion: String by project",
      "dependencies {",
      '  implementation("org.apache.beam:beam-runners-flink-1.17:$beamVersion")',
      "}",
    ].join("\n"),
  });
  const [dep] = resolved(ws);
  assert.equal(describe(dep), "org.apache.beam:beam-runners-flink-1.17:2.55.1 @/w/gradle.properties:0:12-0:18");
  assert.deepEqual(dep.via, ["beamVersion (build.gradle.kts)", "beamVersion (gradle.properties)"]);
  assert.deepEqual(
    [dep.declaration.file, span(dep.declaration.range), dep.module],
    ["/w/build.gradle.kts", "2:18-2:70", ""],
  );
});

test("a subproject sees the root's extra properties and gradle.properties, not its script variables", () => {
  const deps = dependencies({
    "/w/settings.gradle": "include ':job'\n",
    "/w/gradle.properties": "kafkaVersion=3.6.1\n",
    "/w/build.gradle": "def localOnly = '1.0'\next { beamVersion = '2.56.0' }\n",
    "/w/job/build.gradle": [
      "dependencies {",
      '  implementation "org.apache.beam:beam-runners-flink-1.18:$beamVersion"',
      '  implementation "org.apache.kafka:kafka-clients:$kafkaVersion"',
      '  implementation "com.example:lib:$localOnly"',
      "}",
    ].join("\n"),
  });
  assert.deepEqual(deps, [
    "org.apache.beam:beam-runners-flink-1.18:2.56.0 @/w/build.gradle:1:21-1:27",
    "org.apache.kafka:kafka-clients:3.6.1 @/w/gradle.properties:0:13-0:18",
    "com.example:lib:?",
  ]);
});

test("only literals resolve: computed, conditional and circular definitions leave the version unknown", () => {
  const deps = dependencies({
    "/w/build.gradle": [
      "def fromEnv = System.getenv('BEAM_VERSION') ?: '2.56.0'",
      "def maybe = '2.56.0'",
      "if (project.hasProperty('old')) { maybe = '2.50.0' }",
      "def a = b",
      "def b = a",
      "def minor = '1.17'",
      `def composed = "2.\${minor}.0"`,
      "dependencies {",
      '  implementation "org.apache.beam:beam-sdks-java-core:$fromEnv"',
      '  implementation "org.apache.beam:beam-runners-flink-1.17:$maybe"',
      '  implementation "org.apache.beam:beam-sdks-java-io-kafka:$a"',
      '  implementation "com.example:composed:$composed"',
      "}",
    ].join("\n"),
  });
  assert.deepEqual(deps, [
    "org.apache.beam:beam-sdks-java-core:?",
    "org.apache.beam:beam-runners-flink-1.17:?",
    "org.apache.beam:beam-sdks-java-io-kafka:?",
    // Known, but written in two pieces: there is no single literal to edit.
    "com.example:composed:2.1.17.0",
  ]);
});

test("the runner artifact built from variables, and versions from map literals", () => {
  const deps = dependencies({
    "/w/build.gradle": [
      "ext.versions = [beam: '2.57.0', flinkMinor: '1.18']",
      `def runner = "beam-runners-flink-\${versions.flinkMinor}"`,
      "dependencies {",
      `  implementation "org.apache.beam:\${runner}:\${versions.beam}"`,
      "}",
    ].join("\n"),
  });
  assert.deepEqual(deps, ["org.apache.beam:beam-runners-flink-1.18:2.57.0 @/w/build.gradle:0:23-0:29"]);
});

test("a platform BOM gives version-less Beam artifacts its version, defined where the BOM's version is", () => {
  const ws = workspace({
    "/w/build.gradle": [
      "def beamVersion = '2.56.0'",
      "dependencies {",
      '  implementation platform("org.apache.beam:beam-sdks-java-bom:$beamVersion")',
      "  implementation 'org.apache.beam:beam-runners-flink-1.17'",
      "  implementation 'com.google.guava:guava'",
      "}",
    ].join("\n"),
  });
  const deps = resolved(ws);
  assert.deepEqual(deps.map(describe), [
    "org.apache.beam:beam-sdks-java-bom:2.56.0 @/w/build.gradle:0:19-0:25 platform",
    "org.apache.beam:beam-runners-flink-1.17:2.56.0 @/w/build.gradle:0:19-0:25",
    "com.google.guava:guava:?",
  ]);
  assert.deepEqual(deps[1].via, ["beam-sdks-java-bom 2.56.0", "beamVersion (build.gradle)"]);
});

test("constraints set versions, also for subprojects, before any platform", () => {
  const deps = dependencies({
    "/w/settings.gradle.kts": 'include("job")\n',
    "/w/build.gradle.kts": [
      "subprojects {",
      "  dependencies {",
      '    constraints { implementation("org.apache.beam:beam-runners-flink-1.18:2.64.0") }',
      "  }",
      "}",
    ].join("\n"),
    "/w/job/build.gradle.kts": [
      "dependencies {",
      '  implementation(platform("org.apache.beam:beam-sdks-java-bom:2.56.0"))',
      '  implementation("org.apache.beam:beam-runners-flink-1.18")',
      "}",
    ].join("\n"),
  });
  assert.deepEqual(deps, [
    "org.apache.beam:beam-sdks-java-bom:2.56.0 @/w/job/build.gradle.kts:1:62-1:68 platform",
    "org.apache.beam:beam-runners-flink-1.18:2.64.0 @/w/build.gradle.kts:2:74-2:80",
  ]);
});

test("catalog references: libraries, version refs, libs.versions, bundles and catalog BOMs", () => {
  const catalog = [
    "[versions]",
    'beam = "2.56.0"',
    'flink = "1.18.1"',
    "[libraries]",
    'beam-bom = { module = "org.apache.beam:beam-sdks-java-bom", version.ref = "beam" }',
    'beam-runner-flink = { module = "org.apache.beam:beam-runners-flink-1.18" }',
    'kafka-clients = "org.apache.kafka:kafka-clients:3.6.1"',
    'slf4j = { group = "org.slf4j", name = "slf4j-api", version = "2.0.9" }',
    "[bundles]",
    'logging = ["slf4j"]',
  ].join("\n");
  const ws = workspace({
    "/w/gradle/libs.versions.toml": catalog,
    "/w/build.gradle.kts": [
      "dependencies {",
      "  implementation(platform(libs.beam.bom))",
      "  implementation(libs.beam.runner.flink)",
      "  implementation(libs.kafka.clients)",
      "  implementation(libs.bundles.logging)",
      `  implementation("org.apache.flink:flink-streaming-java:\${libs.versions.flink.get()}")`,
      "  implementation(libs.not.defined)",
      "}",
    ].join("\n"),
  });
  const deps = resolved(ws);
  assert.deepEqual(deps.map(describe), [
    "org.apache.beam:beam-sdks-java-bom:2.56.0 @/w/gradle/libs.versions.toml:1:8-1:14 platform",
    "org.apache.beam:beam-runners-flink-1.18:2.56.0 @/w/gradle/libs.versions.toml:1:8-1:14",
    "org.apache.kafka:kafka-clients:3.6.1 @/w/gradle/libs.versions.toml:6:48-6:53",
    "org.slf4j:slf4j-api:2.0.9 @/w/gradle/libs.versions.toml:7:62-7:67",
    "org.apache.flink:flink-streaming-java:1.18.1 @/w/gradle/libs.versions.toml:2:9-2:15",
  ]);
  // Declared where the build script uses the catalog accessor.
  assert.deepEqual([deps[1].declaration.file, span(deps[1].declaration.range)], ["/w/build.gradle.kts", "2:17-2:39"]);
  assert.deepEqual(deps[1].via, [
    "libs.beam.runner.flink (gradle/libs.versions.toml)",
    "beam-sdks-java-bom 2.56.0",
    "versions.beam (gradle/libs.versions.toml)",
  ]);
});
