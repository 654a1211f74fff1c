/** sbt builds: module IDs and string vals of build.sbt and the meta-build's project/*.scala, resolved like Gradle's. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { kindFromName } from "../../server/src/core/documents/index";
import { describe, read, renderDependency, resolved, span, textAt, workspace } from "./helpers";

const resolvedIn = (files: Record<string, string>) => resolved(workspace(files));

test("which files are sbt builds: *.sbt and the meta-build's Scala files, not a source package named project", () => {
  assert.equal(kindFromName("/w/build.sbt"), "sbt");
  assert.equal(kindFromName("/w/project/plugins.sbt"), "sbt");
  assert.equal(kindFromName("/w/project/Dependencies.scala"), "sbt");
  assert.equal(kindFromName("/w/src/main/scala/com/acme/project/Job.scala"), "scala");
  assert.equal(kindFromName("/w/src/main/scala/Job.scala"), "scala");
});

test("module IDs with %, %% and a configuration, vals of strings, names and interpolations", () => {
  const text = [
    'ThisBuild / scalaVersion := "2.12.18"',
    'val flinkVersion = "1.18.1"',
    'lazy val kafkaVersion: String = "3.2.0-" + flinkMinor',
    "libraryDependencies ++= Seq(",
    '  "org.apache.flink" %% "flink-streaming-scala" % flinkVersion % "provided",',
    '  "org.apache.flink" % "flink-connector-kafka" % kafkaVersion,',
    '  "org.apache.flink" % "flink-clients" % flinkVersion % Provided,',
    '  "org.apache.beam" % "beam-runners-flink-1.18" % Versions.beam % Test,',
    '  "org.apache.beam" % "beam-sdks-java-core" % s"$beamVersion",',
    '  "com.acme" % "computed" % sys.env.getOrElse("V", "1")',
    ")",
    '// "org.apache.flink" % "flink-commented" % "1.0"',
    'val price = "costs $5"',
  ].join("\n");
  const { build, facts } = read("/w/build.sbt", text, "gradle");
  assert.equal(build.dsl, "sbt");
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [
      "provided org.apache.flink | flink-streaming-scala | {flinkVersion|flinkVersion}",
      "org.apache.flink | flink-connector-kafka | {kafkaVersion|kafkaVersion}",
      "provided org.apache.flink | flink-clients | {flinkVersion|flinkVersion}",
      "test org.apache.beam | beam-runners-flink-1.18 | {Versions.beam|Versions.beam}",
      "org.apache.beam | beam-sdks-java-core | {beamVersion|$beamVersion}",
      "com.acme | computed | ?{sys.env.getOrElse}",
    ],
  );
  // The declaration is the artifact inside its quotes.
  assert.equal(textAt(text, build.dependencies[1].range), "flink-connector-kafka");
  assert.deepEqual(
    build.definitions.map((d) => [
      d.name,
      d.value.parts.map((p) => ("text" in p ? p.text : "ref" in p ? `{${p.ref}}` : "?")),
    ]),
    [
      ["flinkVersion", ["1.18.1"]],
      ["kafkaVersion", ["3.2.0-", "{flinkMinor}"]],
      ["price", ["costs $5"]],
    ],
  );
});

test("versions defined in the meta-build resolve in build.sbt, at the literal that defines them", () => {
  const deps = resolvedIn({
    "/w/build.sbt": [
      'val flinkVersion = "1.18.1"',
      "libraryDependencies ++= Seq(",
      '  "org.apache.flink" % "flink-clients" % flinkVersion,',
      '  "org.apache.flink" % "flink-connector-kafka" % Versions.kafka',
      ") ++ Dependencies.beam",
    ].join("\n"),
    "/w/project/Versions.scala": 'object Versions {\n  val kafka = "3.1.0-1.18"\n  val beam = "2.56.0"\n}\n',
    "/w/project/Dependencies.scala": [
      "import sbt._",
      "object Dependencies {",
      '  val beam = Seq("org.apache.beam" % "beam-runners-flink-1.18" % Versions.beam)',
      "}",
    ].join("\n"),
    "/w/project/plugins.sbt": 'addSbtPlugin("com.eed3si9n" % "sbt-assembly" % "2.1.5")\n',
  });
  assert.deepEqual(deps.map(describe).sort(), [
    "com.eed3si9n:sbt-assembly:2.1.5 @/w/project/plugins.sbt:0:48-0:53",
    "org.apache.beam:beam-runners-flink-1.18:2.56.0 @/w/project/Versions.scala:2:14-2:20",
    "org.apache.flink:flink-clients:1.18.1 @/w/build.sbt:0:20-0:26",
    "org.apache.flink:flink-connector-kafka:3.1.0-1.18 @/w/project/Versions.scala:1:15-1:25",
  ]);
  // Every file of the build belongs to the one module at the build's root.
  assert.deepEqual([...new Set(deps.map((d) => d.module))], [""]);
  assert.equal(span(deps[0].declaration.range).length > 0, true);
});

test("a name means the val of the nearest object that declares it, as Scala scopes it; imports qualify the rest", () => {
  const deps = resolvedIn({
    "/w/build.sbt": [
      "import Dependencies._",
      "libraryDependencies ++= Seq(Libraries.flink.kafka, Libraries.testing.kafka)",
      'libraryDependencies += "org.apache.flink" % "flink-clients" % flinkVersion',
    ].join("\n"),
    "/w/project/Dependencies.scala": [
      "import sbt._",
      "object Dependencies {",
      '  val flinkVersion = "1.17.1"',
      "  object Libraries {",
      "    object flink {",
      '      private val version: String = "1.17.1"',
      '      val core: ModuleID = "org.apache.flink" % "flink-core" % version',
      '      val kafka: ModuleID = "org.apache.flink" % "flink-connector-kafka" % "3.0.0-1.17"',
      "    }",
      "    object testing {",
      '      private val version: String = "0.40.14"',
      '      val kafka: ModuleID = "com.dimafeng" %% "testcontainers-scala-kafka" % version % Test',
      "    }",
      "  }",
      "}",
    ].join("\n"),
  });
  assert.deepEqual(deps.map(describe).sort(), [
    "com.dimafeng:testcontainers-scala-kafka:0.40.14 @/w/project/Dependencies.scala:10:37-10:44",
    "org.apache.flink:flink-clients:1.17.1 @/w/project/Dependencies.scala:2:22-2:28",
    "org.apache.flink:flink-connector-kafka:3.0.0-1.17 @/w/project/Dependencies.scala:7:76-7:86",
    "org.apache.flink:flink-core:1.17.1 @/w/project/Dependencies.scala:5:37-5:43",
  ]);
});
