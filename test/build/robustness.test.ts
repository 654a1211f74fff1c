/** Half-typed build files never make a reader or the resolver fail: every prefix of real files still reads. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Workspace } from "../../server/src/core/workspace/workspace";

const SAMPLES: Record<string, string> = {
  "/w/build.gradle": [
    "plugins { id 'java' }",
    "def beamVersion = '2.56.0'",
    "ext { versions = [flink: '1.17.2'] }",
    "/* block */ dependencies {",
    `  implementation platform("org.apache.beam:beam-sdks-java-bom:\${beamVersion}")`,
    "  implementation group: 'org.apache.flink', name: 'flink-clients', version: versions.flink",
    "  implementation('org.apache.beam:beam-runners-flink-1.17') { exclude module: 'x' } // note",
    '  testImplementation """g:a:$beamVersion"""',
    "}",
  ].join("\n"),
  "/w/job/build.gradle.kts": [
    "val beamVersion: String by project",
    'extra["k"] = "3.6.1"',
    "dependencies {",
    '  implementation("org.apache.beam", "beam-sdks-java-core", beamVersion)',
    "  implementation(libs.beam.runner.flink)",
    `  "runtimeOnly"("x:y:\${rootProject.extra["k"] as String}")`,
    "}",
  ].join("\n"),
  "/w/gradle/libs.versions.toml": [
    "[versions]",
    'beam = { require = "2.56.0" }',
    "[libraries]",
    "beam-runner-flink = { module = \"org.apache.beam:beam-runners-flink-1.17\", version.ref = 'beam' }",
    '[bundles]\nall = ["beam-runner-flink"]',
  ].join("\n"),
  "/w/gradle.properties": "beamVersion=2.55.1\nlong=a\\\n  b\n",
  "/m/pom.xml": [
    "<project><groupId>g</groupId><artifactId>p</artifactId><version>1</version>",
    "<modules><module>c</module></modules>",
    "<properties><beam.version>2.56.0</beam.version></properties>",
    "<dependencyManagement><dependencies><dependency><groupId>org.apache.beam</groupId>",
    `<artifactId>beam-sdks-java-bom</artifactId><version>\${beam.version}</version><type>pom</type>`,
    "<scope>import</scope></dependency></dependencies></dependencyManagement>",
    "<profiles><profile><id>x</id><activation><activeByDefault>true</activeByDefault></activation>",
    "<properties><beam.version>2.57.0</beam.version></properties></profile></profiles></project>",
  ].join("\n"),
  "/m/c/pom.xml": [
    "<project><parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version></parent>",
    "<artifactId>c</artifactId><dependencies><dependency><groupId>org.apache.beam</groupId>",
    "<artifactId>beam-runners-flink-1.18</artifactId></dependency></dependencies></project>",
  ].join("\n"),
};

test("every prefix of each build file reads, and the project still resolves", () => {
  for (const [file, text] of Object.entries(SAMPLES)) {
    const ws = new Workspace({ roots: ["/w", "/m"] });
    for (const [other, otherText] of Object.entries(SAMPLES)) if (other !== file) ws.setFile(other, otherText);
    for (let end = 0; end <= text.length; end += 2) {
      ws.setFile(file, text.slice(0, end));
      const internal = ws.facts(file)?.syntaxErrors.filter((e) => e.message.includes("internal error")) ?? [];
      assert.deepEqual(internal, [], `${file} cut at ${end}`);
      for (const root of ws.projectRoots()) ws.project(root);
    }
  }
});
