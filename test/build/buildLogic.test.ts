/** Build logic outside the module's own script: precompiled script plugins, Beam BOMs, legacy runner names. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { isFlinkRunner, isLegacyFlinkRunner, runnerFlinkMinor } from "../../server/src/core/knowledge/beamMatrix";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { describe } from "./helpers";

function workspace(files: Record<string, string>): Workspace {
  const ws = new Workspace({ roots: ["/w"] });
  for (const [file, text] of Object.entries(files)) ws.setFile(file, text);
  return ws;
}

const CONVENTION = [
  "plugins {",
  "    java",
  "}",
  "",
  'val beamVersion = "2.57.0"',
  "",
  "dependencies {",
  '    implementation(platform("org.apache.beam:beam-sdks-java-google-cloud-platform-bom:$beamVersion"))',
  '    implementation("org.apache.beam:beam-runners-flink-1.18")',
  "}",
].join("\n");

test("a buildSrc convention plugin applied by id gives its dependencies to the module, versions from a GCP BOM", () => {
  const ws = workspace({
    "/w/settings.gradle.kts": 'include("app")\n',
    "/w/buildSrc/build.gradle.kts": "plugins {\n    `kotlin-dsl`\n}\n",
    "/w/buildSrc/src/main/kotlin/my.beam-conventions.gradle.kts": CONVENTION,
    "/w/app/build.gradle.kts": 'plugins {\n    id("my.beam-conventions")\n}\n',
    "/w/lib/build.gradle.kts": "plugins {\n    java\n}\n",
  });
  assert.equal(ws.projectRootOf("/w/buildSrc/src/main/kotlin/my.beam-conventions.gradle.kts"), "/w");
  const deps = ws.project("/w").dependencies;
  const runner = deps.find((d) => d.artifact === "beam-runners-flink-1.18");
  assert.ok(runner);
  assert.equal(
    describe(runner),
    "org.apache.beam:beam-runners-flink-1.18:2.57.0 @/w/buildSrc/src/main/kotlin/my.beam-conventions.gradle.kts:4:19-4:25",
  );
  assert.equal(runner.module, "app");
  assert.equal(runner.declaration.file, "/w/buildSrc/src/main/kotlin/my.beam-conventions.gradle.kts");
  assert.equal(runner.via[0], "plugin my.beam-conventions (buildSrc/src/main/kotlin/my.beam-conventions.gradle.kts)");
  // The plugin is not a module of its own, and a module that does not apply it does not get its dependencies.
  assert.deepEqual([...new Set(deps.map((d) => d.module))], ["app"]);
});

test("an included build's Groovy precompiled plugin, applied through another plugin", () => {
  const ws = workspace({
    "/w/settings.gradle": "includeBuild 'build-logic'\ninclude ':job'\n",
    "/w/build-logic/settings.gradle": "rootProject.name = 'build-logic'\n",
    "/w/build-logic/build.gradle": "plugins { id 'groovy-gradle-plugin' }\n",
    "/w/build-logic/src/main/groovy/acme.java.gradle": "plugins { id 'java' }\n",
    "/w/build-logic/src/main/groovy/acme.beam.gradle": [
      "plugins {",
      "    id 'acme.java'",
      "}",
      "dependencies {",
      "    implementation 'org.apache.beam:beam-runners-flink_2.11:2.16.0'",
      "}",
    ].join("\n"),
    "/w/job/build.gradle": "plugins {\n    id 'acme.beam'\n}\n",
  });
  assert.equal(ws.projectRootOf("/w/build-logic/src/main/groovy/acme.beam.gradle"), "/w");
  const deps = ws.project("/w").dependencies.map((d) => `${d.module} ${describe(d)}`);
  assert.deepEqual(deps, [
    "job org.apache.beam:beam-runners-flink_2.11:2.16.0 @/w/build-logic/src/main/groovy/acme.beam.gradle:4:60-4:66",
  ]);
});

test("a plugin applied with `apply false` is not applied; `apply plugin:` is", () => {
  const ws = workspace({
    "/w/settings.gradle": "include ':a', ':b'\n",
    "/w/buildSrc/src/main/groovy/beam.gradle":
      "dependencies {\n  implementation 'org.apache.beam:beam-sdks-java-core:2.60.0'\n}\n",
    "/w/a/build.gradle": "plugins {\n  id 'beam' apply false\n}\n",
    "/w/b/build.gradle": "apply plugin: 'beam'\n",
  });
  assert.deepEqual(
    ws.project("/w").dependencies.map((d) => d.module),
    ["b"],
  );
});

test("a Maven import of a Beam BOM gives its version to version-less Beam artifacts", () => {
  const pom = [
    "<project>",
    "  <groupId>com.example</groupId><artifactId>job</artifactId><version>1</version>",
    "  <properties><beam.version>2.62.0</beam.version></properties>",
    "  <dependencyManagement><dependencies>",
    "    <dependency>",
    "      <groupId>org.apache.beam</groupId>",
    "      <artifactId>beam-sdks-java-google-cloud-platform-bom</artifactId>",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference as the pom writes it
    "      <version>${beam.version}</version>",
    "      <type>pom</type><scope>import</scope>",
    "    </dependency>",
    "  </dependencies></dependencyManagement>",
    "  <dependencies>",
    "    <dependency><groupId>org.apache.beam</groupId><artifactId>beam-runners-flink-1.19</artifactId></dependency>",
    "  </dependencies>",
    "</project>",
  ].join("\n");
  const ws = workspace({ "/w/pom.xml": pom });
  assert.deepEqual(ws.project("/w").dependencies.map(describe), [
    "org.apache.beam:beam-runners-flink-1.19:2.62.0 @/w/pom.xml:2:28-2:34",
    "org.apache.beam:beam-sdks-java-google-cloud-platform-bom:2.62.0 @/w/pom.xml:2:28-2:34 platform",
  ]);
});

test("legacy Scala-suffixed runner names are Flink runners without a Flink minor in the name", () => {
  for (const a of ["beam-runners-flink_2.10", "beam-runners-flink_2.11", "beam-runners-flink_2.12"]) {
    assert.equal(isFlinkRunner("org.apache.beam", a), true, a);
    assert.equal(isLegacyFlinkRunner(a), true, a);
    assert.equal(runnerFlinkMinor(a), undefined, a);
  }
  assert.equal(isFlinkRunner("org.apache.beam", "beam-runners-flink-1.18-job-server"), false);
  assert.equal(isFlinkRunner("com.example", "beam-runners-flink_2.11"), false);
});
