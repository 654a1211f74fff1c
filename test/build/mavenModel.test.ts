/** Resolving Maven dependencies: parents, properties, dependency management, BOMs, profiles. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ResolvedDependency } from "../../server/src/core/model";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { describe, span, textAt } from "./helpers";

function resolved(files: Record<string, string>, root = "/w"): ResolvedDependency[] {
  const ws = new Workspace({ roots: ["/w"] });
  for (const [file, text] of Object.entries(files)) ws.setFile(file, text);
  const deps = ws.project(root).dependencies;
  for (const d of deps) {
    const def = d.versionDefinition;
    if (def) assert.equal(textAt(ws.text(def.file) ?? "", def.range), d.version, describe(d));
  }
  return deps;
}

function pom(
  body: string[],
  coordinates = "<groupId>com.example</groupId><artifactId>job</artifactId><version>1.0</version>",
) {
  return ["<project>", `  ${coordinates}`, ...body.map((l) => `  ${l}`), "</project>"].join("\n");
}

function dependency(group: string, artifact: string, version?: string, extra = ""): string {
  const v = version === undefined ? "" : `<version>${version}</version>`;
  return `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId>${v}${extra}</dependency>`;
}

const PARENT = pom(
  [
    "<packaging>pom</packaging>",
    "<modules><module>job</module></modules>",
    "<properties>",
    "  <beam.version>2.56.0</beam.version>",
    "  <flink.minor>1.17</flink.minor>",
    "</properties>",
    "<dependencyManagement><dependencies>",
    `  ${dependency("org.apache.flink", "flink-clients", `\${flink.minor}.2`)}`,
    "</dependencies></dependencyManagement>",
  ],
  "<groupId>com.example</groupId><artifactId>parent</artifactId><version>1.0</version>",
);

test("a property defined in the parent and used in a child is resolved and reported at its definition", () => {
  const deps = resolved({
    "/w/pom.xml": PARENT,
    "/w/job/pom.xml": pom(
      [
        "<parent><groupId>com.example</groupId><artifactId>parent</artifactId><version>1.0</version></parent>",
        "<dependencies>",
        `  ${dependency("org.apache.beam", `beam-runners-flink-\${flink.minor}`, `\${beam.version}`)}`,
        `  ${dependency("org.apache.flink", "flink-clients")}`,
        `  ${dependency("com.example", "common", `\${project.version}`)}`,
        "</dependencies>",
      ],
      "<artifactId>job</artifactId>",
    ),
  });
  assert.deepEqual(deps.map(describe), [
    "org.apache.beam:beam-runners-flink-1.17:2.56.0 @/w/pom.xml:5:18-5:24",
    // Managed in the parent, written in two pieces there: known, but not one literal.
    "org.apache.flink:flink-clients:1.17.2",
    // The child has no <version>: it is its parent's, written in the child's <parent>.
    "com.example:common:1.0 @/w/job/pom.xml:2:80-2:83",
  ]);
  assert.deepEqual(deps[0].via, [`\${beam.version} (pom.xml)`]);
  assert.deepEqual([deps[0].declaration.file, deps[0].module], ["/w/job/pom.xml", "job"]);
  assert.equal(textAt(PARENT, deps[0].versionDefinition?.range ?? deps[0].declaration.range), "2.56.0");
});

test("a child's property overrides the parent's, also in the parent's dependency management", () => {
  const deps = resolved({
    "/w/pom.xml": PARENT,
    "/w/job/pom.xml": pom(
      [
        "<parent><groupId>com.example</groupId><artifactId>parent</artifactId><version>1.0</version></parent>",
        "<properties><flink.minor>1.18</flink.minor></properties>",
        `<dependencies>${dependency("org.apache.flink", "flink-clients")}</dependencies>`,
      ],
      "<artifactId>job</artifactId>",
    ),
  });
  assert.deepEqual(deps.map(describe), ["org.apache.flink:flink-clients:1.18.2"]);
});

test("parents are found by relativePath, by coordinates elsewhere in the workspace, or not at all", () => {
  const parent = pom(
    ["<packaging>pom</packaging>", "<properties><beam.version>2.55.0</beam.version></properties>"],
    "<groupId>org.acme</groupId><artifactId>acme-parent</artifactId><version>7</version>",
  );
  const child = (relativePath: string) =>
    pom([
      `<parent><groupId>org.acme</groupId><artifactId>acme-parent</artifactId><version>7</version>${relativePath}</parent>`,
      `<dependencies>${dependency("org.apache.beam", "beam-sdks-java-core", `\${beam.version}`)}</dependencies>`,
    ]);
  const viaPath = resolved(
    { "/w/build/parent/pom.xml": parent, "/w/job/pom.xml": child("<relativePath>../build/parent</relativePath>") },
    "/w/job",
  );
  assert.deepEqual(viaPath.map(describe), [
    "org.apache.beam:beam-sdks-java-core:2.55.0 @/w/build/parent/pom.xml:3:28-3:34",
  ]);
  const byCoordinates = resolved({ "/w/elsewhere/pom.xml": parent, "/w/job/pom.xml": child("") }, "/w/job");
  assert.deepEqual(byCoordinates.map(describe), [
    "org.apache.beam:beam-sdks-java-core:2.55.0 @/w/elsewhere/pom.xml:3:28-3:34",
  ]);
  const missing = resolved({ "/w/job/pom.xml": child("") }, "/w/job");
  assert.deepEqual(missing.map(describe), ["org.apache.beam:beam-sdks-java-core:?"]);
});

test("nested properties resolve to the innermost literal; unknown ones leave the version unknown", () => {
  const deps = resolved({
    "/w/pom.xml": pom([
      "<properties>",
      "  <beam.release>2.61.0</beam.release>",
      `  <beam.version>\${beam.release}</beam.version>`,
      `  <loop>\${loop}</loop>`,
      "</properties>",
      "<dependencies>",
      `  ${dependency("org.apache.beam", "beam-runners-flink-1.19", `\${beam.version}`)}`,
      `  ${dependency("org.apache.beam", "beam-sdks-java-core", `\${env.BEAM_VERSION}`)}`,
      `  ${dependency("org.apache.beam", "beam-sdks-java-io-kafka", `\${loop}`)}`,
      "</dependencies>",
    ]),
  });
  assert.deepEqual(deps.map(describe), [
    "org.apache.beam:beam-runners-flink-1.19:2.61.0 @/w/pom.xml:3:18-3:24",
    "org.apache.beam:beam-sdks-java-core:?",
    "org.apache.beam:beam-sdks-java-io-kafka:?",
  ]);
  assert.deepEqual(deps[0].via, [`\${beam.version} (pom.xml)`, `\${beam.release} (pom.xml)`]);
});

test("BOM-only runner versions: the Beam BOM's version, defined at its property", () => {
  const text = pom([
    "<properties><beam.version>2.56.0</beam.version></properties>",
    "<dependencyManagement><dependencies>",
    `  ${dependency("org.apache.beam", "beam-sdks-java-bom", `\${beam.version}`, "<type>pom</type><scope>import</scope>")}`,
    "</dependencies></dependencyManagement>",
    "<dependencies>",
    `  ${dependency("org.apache.beam", "beam-runners-flink-1.17")}`,
    `  ${dependency("org.apache.kafka", "kafka-clients")}`,
    "</dependencies>",
  ]);
  const deps = resolved({ "/w/pom.xml": text });
  assert.deepEqual(deps.map(describe), [
    "org.apache.beam:beam-runners-flink-1.17:2.56.0 @/w/pom.xml:2:28-2:34",
    "org.apache.kafka:kafka-clients:?",
    "org.apache.beam:beam-sdks-java-bom:2.56.0 @/w/pom.xml:2:28-2:34 platform",
  ]);
  assert.deepEqual(deps[0].via, ["beam-sdks-java-bom 2.56.0", `\${beam.version} (pom.xml)`]);
});

test("a BOM present in the workspace is read for what it manages", () => {
  const bom = pom(
    [
      "<packaging>pom</packaging>",
      "<properties><kafka.version>3.7.0</kafka.version></properties>",
      `<dependencyManagement><dependencies>${dependency("org.apache.kafka", "kafka-clients", `\${kafka.version}`)}</dependencies></dependencyManagement>`,
    ],
    "<groupId>com.example</groupId><artifactId>platform-bom</artifactId><version>1.0</version>",
  );
  const app = pom([
    `<dependencyManagement><dependencies>${dependency("com.example", "platform-bom", "1.0", "<type>pom</type><scope>import</scope>")}</dependencies></dependencyManagement>`,
    `<dependencies>${dependency("org.apache.kafka", "kafka-clients")}</dependencies>`,
  ]);
  const deps = resolved({ "/w/bom/pom.xml": bom, "/w/app/pom.xml": app }, "/w/app");
  assert.deepEqual(deps.map(describe), [
    "org.apache.kafka:kafka-clients:3.7.0 @/w/bom/pom.xml:3:29-3:34",
    "com.example:platform-bom:1.0 @/w/app/pom.xml:2:126-2:129 platform",
  ]);
  assert.deepEqual(deps[0].via, [
    // The BOM is a project of its own, next to this one.
    "platform-bom (../bom/pom.xml)",
    "dependencyManagement (../bom/pom.xml)",
    `\${kafka.version} (../bom/pom.xml)`,
  ]);
});

test("profiles: the default build includes profiles active by default; each other profile adds its variants", () => {
  const text = pom([
    "<properties><beam.version>2.56.0</beam.version><runner>beam-runners-flink-1.17</runner></properties>",
    `<dependencies>${dependency("org.apache.beam", `\${runner}`, `\${beam.version}`)}</dependencies>`,
    "<profiles>",
    "  <profile><id>flink118</id><activation><activeByDefault>true</activeByDefault></activation>",
    "    <properties><runner>beam-runners-flink-1.18</runner></properties></profile>",
    "  <profile><id>upgrade</id><properties><beam.version>2.64.0</beam.version></properties></profile>",
    "  <profile><id>unrelated</id><properties><other>1</other></properties></profile>",
    "  <profile><id>kafka</id><dependencies>",
    `    ${dependency("org.apache.beam", "beam-sdks-java-io-kafka", `\${beam.version}`)}`,
    "  </dependencies></profile>",
    "</profiles>",
  ]);
  const deps = resolved({ "/w/pom.xml": text });
  assert.deepEqual(deps.map(describe), [
    // The default build: flink118 is active by default and names the runner.
    "org.apache.beam:beam-runners-flink-1.18:2.56.0 @/w/pom.xml:2:28-2:34 [flink118]",
    // -Pupgrade: activating another profile switches flink118 off, and the version changes.
    "org.apache.beam:beam-runners-flink-1.17:2.64.0 @/w/pom.xml:7:55-7:61 [upgrade]",
    // -Punrelated and -Pkafka also switch flink118 off: the runner is then 1.17 at the base version.
    "org.apache.beam:beam-runners-flink-1.17:2.56.0 @/w/pom.xml:2:28-2:34 [unrelated]",
    "org.apache.beam:beam-runners-flink-1.17:2.56.0 @/w/pom.xml:2:28-2:34 [kafka]",
    "org.apache.beam:beam-sdks-java-io-kafka:2.56.0 @/w/pom.xml:2:28-2:34 [kafka]",
  ]);
  assert.deepEqual(deps[1].via, [`\${beam.version} (pom.xml, profile upgrade)`]);
});

test("a multi-module build is one project; every module's dependencies carry the module folder", () => {
  const ws = new Workspace({ roots: ["/w"] });
  ws.setFile("/w/pom.xml", PARENT);
  ws.setFile(
    "/w/job/pom.xml",
    pom(
      [
        "<parent><groupId>com.example</groupId><artifactId>parent</artifactId><version>1.0</version></parent>",
        `<dependencies>${dependency("org.apache.beam", "beam-runners-flink-1.17", `\${beam.version}`)}</dependencies>`,
      ],
      "<artifactId>job</artifactId>",
    ),
  );
  assert.deepEqual(ws.projectRoots(), ["/w"]);
  const [dep] = ws.project("/w").dependencies;
  assert.deepEqual([dep.module, dep.version, span(dep.declaration.range)], ["job", "2.56.0", "3:74-3:97"]);
});
