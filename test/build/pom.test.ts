/** The pom.xml reader: coordinates, parent, properties, dependencies, management, profiles, broken files. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { read, render, renderDependency, span } from "./helpers";

const POM = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<project xmlns="http://maven.apache.org/POM/4.0.0">',
  "  <parent>",
  "    <groupId>com.example</groupId>",
  "    <artifactId>jobs-parent</artifactId>",
  "    <version>1.0.0</version>",
  "    <relativePath>../parent</relativePath>",
  "  </parent>",
  "  <artifactId>wordcount</artifactId>",
  "  <packaging>jar</packaging>",
  "  <properties>",
  "    <beam.version> 2.56.0 </beam.version>",
  "    <flink.minor>1.17</flink.minor>",
  `    <runner>beam-runners-flink-\${flink.minor}</runner>`,
  "    <empty/>",
  "  </properties>",
  "  <dependencyManagement>",
  "    <dependencies>",
  "      <dependency>",
  "        <groupId>org.apache.beam</groupId>",
  "        <artifactId>beam-sdks-java-bom</artifactId>",
  `        <version>\${beam.version}</version>`,
  "        <type>pom</type>",
  "        <scope>import</scope>",
  "      </dependency>",
  "    </dependencies>",
  "  </dependencyManagement>",
  "  <dependencies>",
  "    <dependency>",
  "      <groupId>org.apache.beam</groupId>",
  `      <artifactId>\${runner}</artifactId>`,
  "    </dependency>",
  "    <dependency>",
  "      <groupId>org.apache.flink</groupId>",
  "      <artifactId>flink-connector-kafka</artifactId>",
  `      <version>3.2.0-\${flink.minor}</version>`,
  "      <scope>provided</scope>",
  "    </dependency>",
  "  </dependencies>",
  "  <modules><module>sub</module></modules>",
  "  <profiles>",
  "    <profile>",
  "      <id>flink-runner</id>",
  "      <activation><activeByDefault>true</activeByDefault></activation>",
  "      <properties><flink.minor>1.18</flink.minor></properties>",
  "      <dependencies>",
  "        <dependency><groupId>org.apache.beam</groupId><artifactId>beam-runners-flink-1.18</artifactId></dependency>",
  "      </dependencies>",
  "    </profile>",
  "  </profiles>",
  "</project>",
].join("\n");

test("pom: coordinates, parent, properties with exact ranges, references inside values", () => {
  const { build, facts } = read("/p/app/pom.xml", POM, "maven");
  assert.deepEqual(facts.syntaxErrors, []);
  assert.equal(render(POM, build.project.artifactId), "wordcount");
  assert.equal(build.project.packaging, "jar");
  assert.equal(build.project.groupId, undefined);
  assert.deepEqual(
    [render(POM, build.parent?.groupId), render(POM, build.parent?.artifactId), render(POM, build.parent?.version)],
    ["com.example", "jobs-parent", "1.0.0"],
  );
  assert.equal(build.parent?.relativePath, "../parent");
  assert.deepEqual(
    build.properties.map((p) => [p.name, render(POM, p.value), span(p.nameRange)]),
    [
      ["beam.version", "2.56.0", "11:5-11:17"],
      ["flink.minor", "1.17", "12:5-12:16"],
      ["runner", `beam-runners-flink-{flink.minor|\${flink.minor}}`, "13:5-13:11"],
      ["empty", "", "14:5-14:10"],
    ],
  );
  // Whitespace around a value is not part of it.
  assert.equal(span(build.properties[0].value.range), "11:19-11:25");
});

test("pom: dependencies, imported BOMs and profiles", () => {
  const { build } = read("/p/app/pom.xml", POM, "maven");
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(POM, d)),
    [
      `org.apache.beam | {runner|\${runner}} | -`,
      `provided org.apache.flink | flink-connector-kafka | 3.2.0-{flink.minor|\${flink.minor}}`,
      `import org.apache.beam | beam-sdks-java-bom | {beam.version|\${beam.version}} platform managed`,
    ],
  );
  // A dependency is declared at its artifactId.
  assert.equal(span(build.dependencies[0].range), "30:18-30:27");
  const [profile] = build.profiles;
  assert.deepEqual([profile.id, span(profile.idRange), profile.activeByDefault], ["flink-runner", "42:10-42:22", true]);
  assert.deepEqual(
    profile.properties.map((p) => [p.name, render(POM, p.value)]),
    [["flink.minor", "1.18"]],
  );
  assert.deepEqual(
    profile.dependencies.map((d) => renderDependency(POM, d)),
    ["org.apache.beam | beam-runners-flink-1.18 | -"],
  );
});

test("pom: entities, CDATA and comments inside a value keep the value but not an exact range", () => {
  const text = [
    "<project>",
    "  <properties>",
    "    <a>x&amp;y</a>",
    "    <b><![CDATA[2.56.0]]></b>",
    "    <c><!-- pinned -->1.17</c>",
    "  </properties>",
    "</project>",
  ].join("\n");
  const { build } = read("/p/pom.xml", text, "maven");
  assert.deepEqual(
    build.properties.map((p) => [p.name, render(text, p.value)]),
    [
      ["a", "~x&y"],
      ["b", "~2.56.0"],
      ["c", "~1.17"],
    ],
  );
});

test("broken pom: an unclosed tag is one error at that tag; the elements around it are still read", () => {
  const text = [
    "<project>",
    "  <properties><beam.version>2.56.0</beam.version></properties>",
    "  <dependencies>",
    "    <dependency>",
    "      <groupId>org.apache.beam</groupId>",
    "      <artifactId>beam-runners-flink-1.17</artifactId>",
    `      <version>\${beam.version}</version>`,
    "    <dependency>",
    "      <groupId>org.apache.flink</groupId>",
    "      <artifactId>flink-clients</artifactId>",
    "      <version>1.17.2</version>",
    "    </dependency>",
    "  </dependencies>",
    "</project>",
  ].join("\n");
  const { build, facts } = read("/p/pom.xml", text, "maven");
  assert.deepEqual(
    facts.syntaxErrors.map((e) => [span(e.range), e.severity, e.message]),
    [["3:5-3:15", undefined, "`<dependency>` is never closed, so Maven cannot read this pom.xml."]],
  );
  assert.deepEqual(
    build.properties.map((p) => [p.name, render(text, p.value)]),
    [["beam.version", "2.56.0"]],
  );
  assert.deepEqual(
    build.dependencies.map((d) => renderDependency(text, d)),
    [`org.apache.beam | beam-runners-flink-1.17 | {beam.version|\${beam.version}}`],
  );
});

test("broken pom: a mistyped closing tag is reported at the opening tag; text that is no XML at the start", () => {
  const text = "<project>\n  <properties><beam.version>2.56.0</beam.versio></properties>\n</project>\n";
  const { facts, build } = read("/p/pom.xml", text, "maven");
  assert.deepEqual(
    facts.syntaxErrors.map((e) => [span(e.range), e.message]),
    [["1:15-1:27", "`<beam.version>` is closed by `</beam.versio>`, so Maven cannot read this pom.xml."]],
  );
  assert.deepEqual(
    build.properties.map((p) => [p.name, render(text, p.value)]),
    [["beam.version", "2.56.0"]],
  );
  const garbage = readDocument("/p/pom.xml", "not xml at all");
  assert.equal(garbage.build, undefined);
  assert.deepEqual(
    garbage.syntaxErrors.map((e) => [span(e.range), e.message]),
    [["0:0-0:1", "pom.xml is not well-formed XML here, so Maven cannot read it."]],
  );
});
