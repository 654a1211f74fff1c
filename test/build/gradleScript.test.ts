/** The Gradle script reader: every dependency notation of both DSLs, definitions, broken files. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { read, render, renderDependency, span } from "./helpers";

test("groovy: string notations, interpolation only in double quotes, several notations per line", () => {
  const text = [
    "dependencies {",
    "  implementation 'org.apache.beam:beam-sdks-java-core:2.56.0'",
    '  implementation "org.apache.beam:beam-runners-flink-1.17:$beamVersion"',
    `  runtimeOnly("org.apache.beam:beam-sdks-java-io-kafka:\${beamVersion}")`,
    `  implementation 'g:single:$notInterpolated', "g:double:\${v}"`,
    '  testImplementation """g:triple:$v"""',
    "}",
  ].join("\n");
  const { build, facts } = read("/p/build.gradle", text, "gradle");
  assert.equal(build.dsl, "groovy");
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [
      "implementation org.apache.beam:beam-sdks-java-core:2.56.0",
      "implementation org.apache.beam:beam-runners-flink-1.17:{beamVersion|$beamVersion}",
      `runtimeOnly org.apache.beam:beam-sdks-java-io-kafka:{beamVersion|\${beamVersion}}`,
      "implementation g:single:$notInterpolated",
      `implementation g:double:{v|\${v}}`,
      "testImplementation g:triple:{v|$v}",
    ],
  );
  // The declaration is the coordinate string inside its quotes.
  assert.equal(span(build.dependencies[0].range), "1:18-1:60");
});

test("groovy: map notation, platforms, catalog accessors, closures, and what is not a module", () => {
  const text = [
    "dependencies {",
    "  implementation group: 'org.apache.flink', name: 'flink-streaming-java', version: flinkVersion",
    "  implementation(group: 'org.apache.flink', name: 'flink-clients',",
    `                 version: "\${flinkVersion}")`,
    '  implementation platform("org.apache.beam:beam-sdks-java-bom:$beamVersion")',
    "  implementation enforcedPlatform('org.apache.beam:beam-sdks-java-io-google-cloud-platform-bom:2.56.0')",
    "  implementation 'org.apache.beam:beam-runners-flink-1.17'",
    "  implementation libs.beam.runner.flink",
    "  implementation(libs.bundles.beam)",
    "  implementation('org.apache.beam:beam-sdks-java-io-kafka:2.56.0') {",
    "    exclude group: 'org.apache.kafka', module: 'kafka-clients'",
    "  }",
    "  implementation project(':common')",
    "  implementation files('lib/a.jar')",
    "  implementation deps.kafka",
    "  add('runtimeOnly', 'org.postgresql:postgresql:42.7.3')",
    "}",
  ].join("\n");
  const { build } = read("/p/build.gradle", text, "gradle");
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [
      "implementation org.apache.flink | flink-streaming-java | {flinkVersion|flinkVersion}",
      `implementation org.apache.flink | flink-clients | {flinkVersion|\${flinkVersion}}`,
      "implementation org.apache.beam:beam-sdks-java-bom:{beamVersion|$beamVersion} platform",
      "implementation org.apache.beam:beam-sdks-java-io-google-cloud-platform-bom:2.56.0 platform",
      "implementation org.apache.beam:beam-runners-flink-1.17",
      "implementation {libs.beam.runner.flink|libs.beam.runner.flink}",
      "implementation {libs.bundles.beam|libs.bundles.beam}",
      "implementation org.apache.beam:beam-sdks-java-io-kafka:2.56.0",
      "implementation {deps.kafka|deps.kafka}",
      "runtimeOnly org.postgresql:postgresql:42.7.3",
    ],
  );
  // Map notation is declared at its `name:` value.
  assert.equal(span(build.dependencies[0].range), "1:51-1:71");
});

test("groovy: dependencies of the build script itself are not the project's; constraints set versions", () => {
  const text = [
    "buildscript {",
    "  dependencies { classpath 'com.github.jengelman.gradle.plugins:shadow:6.1.0' }",
    "}",
    "subprojects {",
    "  dependencies {",
    "    constraints {",
    "      implementation 'org.apache.beam:beam-runners-flink-1.18:2.57.0'",
    "    }",
    "    implementation 'org.apache.beam:beam-runners-flink-1.18'",
    "  }",
    "}",
    "dependencyManagement {",
    "  imports { mavenBom 'org.apache.beam:beam-sdks-java-bom:2.56.0' }",
    "}",
  ].join("\n");
  const { build } = read("/p/build.gradle", text, "gradle");
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [
      "implementation org.apache.beam:beam-runners-flink-1.18:2.57.0 managed",
      "implementation org.apache.beam:beam-runners-flink-1.18",
      "org.apache.beam:beam-sdks-java-bom:2.56.0 platform managed",
    ],
  );
});

test("groovy: variables, ext blocks, ext assignments, maps, and definitions inside conditions", () => {
  const text = [
    "def beamVersion = '2.56.0'",
    'def String flinkMinor = "1.17"',
    "String kafkaVersion = '3.6.1'",
    "ext {",
    "  flinkVersion = '1.17.2'",
    "  set('slf4j', '2.0.9')",
    "  versions = [beam: '2.55.0', 'flink': flinkVersion]",
    "}",
    `ext.runner = "beam-runners-flink-\${flinkMinor}"`,
    "project.ext.guava = '32.1.3-jre'",
    "ext['avro'] = '1.11.3'",
    "if (project.hasProperty('legacy')) {",
    "  beamVersion = '2.50.0'",
    "}",
    "def computed = System.getenv('BEAM') ?: '2.56.0'",
    "def joined = 'a' + beamVersion",
  ].join("\n");
  const { build } = read("/p/build.gradle", text, "gradle");
  assert.deepEqual(
    build.definitions.map((d) => [d.name, render(text, d.value), span(d.nameRange), !!d.local, !!d.conditional]),
    [
      ["beamVersion", "2.56.0", "0:4-0:15", true, false],
      ["flinkMinor", "1.17", "1:11-1:21", true, false],
      ["kafkaVersion", "3.6.1", "2:7-2:19", true, false],
      ["flinkVersion", "1.17.2", "4:2-4:14", false, false],
      ["slf4j", "2.0.9", "5:6-5:13", false, false],
      ["versions.beam", "2.55.0", "6:14-6:18", false, false],
      ["versions.flink", "{flinkVersion|flinkVersion}", "6:30-6:37", false, false],
      ["runner", `beam-runners-flink-{flinkMinor|\${flinkMinor}}`, "8:4-8:10", false, false],
      ["guava", "32.1.3-jre", "9:12-9:17", false, false],
      ["avro", "1.11.3", "10:4-10:10", false, false],
      ["beamVersion", "2.50.0", "12:2-12:13", true, true],
      ["computed", "?{System.getenv('BEAM') ?: '2.56.0'}", "14:4-14:12", true, false],
      ["joined", "a{beamVersion|beamVersion}", "15:4-15:10", true, false],
    ],
  );
});

test("kotlin: 3-argument and named forms, string configurations, catalogs, project properties", () => {
  const text = [
    "val beamVersion: String by project",
    'val flinkVersion = "1.17.2"',
    'extra["kafkaVersion"] = "3.6.1"',
    'val slf4j by extra("2.0.9")',
    'val deps = mapOf("guava" to "32.1.3-jre")',
    "dependencies {",
    '    implementation("org.apache.beam:beam-runners-flink-1.17:$beamVersion")',
    '    implementation("org.apache.flink", "flink-streaming-java", flinkVersion)',
    '    implementation(group = "org.apache.flink", name = "flink-clients", version = flinkVersion)',
    "    implementation(platform(libs.beam.bom))",
    "    implementation(libs.beam.runner.flink)",
    `    "runtimeOnly"("org.apache.kafka:kafka-clients:\${rootProject.extra["kafkaVersion"] as String}")`,
    `    implementation("org.slf4j:slf4j-api:\${property("slf4j")}")`,
    `    implementation("com.google.guava:guava:\${providers.gradleProperty("guava").get()}")`,
    `    implementation("x:computed:\${computeVersion()}")`,
    '    implementation(kotlin("stdlib"))',
    "}",
  ].join("\n");
  const { build, facts } = read("/p/build.gradle.kts", text, "gradle");
  assert.equal(build.dsl, "kotlin");
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    build.definitions.map((d) => [d.name, render(text, d.value), !!d.local]),
    [
      ["beamVersion", "{beamVersion|project}", true],
      ["flinkVersion", "1.17.2", true],
      ["kafkaVersion", "3.6.1", false],
      ["slf4j", "2.0.9", false],
      ["deps.guava", "32.1.3-jre", true],
    ],
  );
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [
      "implementation org.apache.beam:beam-runners-flink-1.17:{beamVersion|$beamVersion}",
      "implementation org.apache.flink | flink-streaming-java | {flinkVersion|flinkVersion}",
      "implementation org.apache.flink | flink-clients | {flinkVersion|flinkVersion}",
      "implementation {libs.beam.bom|libs.beam.bom} platform",
      "implementation {libs.beam.runner.flink|libs.beam.runner.flink}",
      `runtimeOnly org.apache.kafka:kafka-clients:{kafkaVersion|\${rootProject.extra["kafkaVersion"] as String}}`,
      `implementation org.slf4j:slf4j-api:{slf4j|\${property("slf4j")}}`,
      `implementation com.google.guava:guava:{guava|\${providers.gradleProperty("guava").get()}}`,
      `implementation x:computed:?{\${computeVersion()}}`,
    ],
  );
});

test("kotlin: the coordinates' artifact may itself be a variable", () => {
  const text = [
    'val runner = "beam-runners-flink-1.18"',
    "dependencies {",
    `  implementation("org.apache.beam:\${runner}:\${beamVersion}")`,
    "}",
  ].join("\n");
  const { build } = read("/p/build.gradle.kts", text, "gradle");
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [`implementation org.apache.beam:{runner|\${runner}}:{beamVersion|\${beamVersion}}`],
  );
});

test("comments and strings that look like dependencies are not read as such", () => {
  const text = [
    "dependencies {",
    "  // implementation 'a:commented:1'",
    "  /* implementation 'b:commented:1'",
    "     implementation 'c:commented:1' */",
    "  implementation 'd:real:1' // trailing 'e:no:1'",
    `  implementation "f:url:\${'http://x'}"`,
    "}",
  ].join("\n");
  const { build } = read("/p/build.gradle", text, "gradle");
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    ["implementation d:real:1", "implementation f:url:http://x"],
  );
});

test("broken scripts: an unterminated string is a warning at the string; the rest is still read", () => {
  const text = [
    "dependencies {",
    "  implementation 'org.apache.beam:beam-sdks-java-core:2.56.0",
    "  implementation 'org.apache.beam:beam-runners-flink-1.17:2.56.0'",
    "",
  ].join("\n");
  const { facts, build } = read("/p/build.gradle", text, "gradle");
  assert.deepEqual(
    facts.syntaxErrors.map((e) => [span(e.range), e.severity, e.message]),
    [["1:17-1:60", "warning", "This string is never closed (`'` is missing), so the build script does not compile."]],
  );
  // The unclosed `dependencies {` is not reported: Gradle is a program, and the tokenizer only approximates it.
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [
      "implementation org.apache.beam:beam-sdks-java-core:2.56.0",
      "implementation org.apache.beam:beam-runners-flink-1.17:2.56.0",
    ],
  );
});

test("broken scripts: an unterminated block comment or triple-quoted string runs to the end of the file", () => {
  const comment = read("/p/build.gradle", "dependencies {\n  implementation 'a:b:1'\n}\n/* note", "gradle");
  assert.deepEqual(
    comment.facts.syntaxErrors.map((e) => span(e.range)),
    ["3:0-3:2"],
  );
  assert.equal(comment.build.dependencies.length, 1);
  const triple = read("/p/build.gradle.kts", 'val x = """abc\n\ndependencies {}\n', "gradle");
  assert.deepEqual(
    triple.facts.syntaxErrors.map((e) => span(e.range)),
    ["0:8-3:0"],
  );
});

test("CRLF line endings keep exact ranges", () => {
  const text =
    "def v = '2.56.0'\r\ndependencies {\r\n  implementation \"org.apache.beam:beam-runners-flink-1.17:$v\"\r\n}\r\n";
  const { build } = read("/p/build.gradle", text, "gradle");
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    ["implementation org.apache.beam:beam-runners-flink-1.17:{v|$v}"],
  );
  assert.equal(span(build.definitions[0].value.range), "0:9-0:15");
});
