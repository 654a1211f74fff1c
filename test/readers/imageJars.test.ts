/** Kafka connector jars baked into images by Dockerfiles: the version, where it is defined, what an upgrade edits. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { span, textAt } from "./helpers";

function jars(text: string) {
  return (readDocument("/p/Dockerfile", text).imageJars ?? []).map((j) => ({
    artifact: j.artifact,
    version: j.version,
    definedAt: span(j.versionDefinition.range),
    edits: j.versionEdits.map((r) => textAt(text, r)),
    editLines: j.versionEdits.map((r) => r.start.line),
    declaration: textAt(text, j.declaration.range),
    downloaded: j.downloaded,
  }));
}

test("ADD of a Maven Central URL: the version in the file name and in the path", () => {
  const url =
    "https://repo1.maven.org/maven2/org/apache/flink/flink-sql-connector-kafka/3.1.0-1.18/flink-sql-connector-kafka-3.1.0-1.18.jar";
  const text = `FROM flink:1.18.1\nADD ${url} /opt/flink/lib/\n`;
  assert.deepEqual(jars(text), [
    {
      artifact: "flink-sql-connector-kafka",
      version: "3.1.0-1.18",
      definedAt: "1:115-1:125",
      edits: ["3.1.0-1.18", "3.1.0-1.18"],
      editLines: [1, 1],
      declaration: url,
      downloaded: true,
    },
  ]);
});

test("a version from an ARG or ENV default is defined there; curl and wget lines are read too", () => {
  const text = [
    "FROM flink:1.19.1",
    'ARG KAFKA_CONNECTOR_VERSION="3.2.0-1.19"',
    "ENV SQL_CONNECTOR 3.3.0-1.19",
    "RUN curl -fsSL -o /opt/flink/lib/k.jar \\",
    `    https://example.com/flink-connector-kafka-\${KAFKA_CONNECTOR_VERSION}.jar && \\`,
    "    wget -P /opt/flink/lib https://example.com/flink-sql-connector-kafka-$SQL_CONNECTOR.jar",
    "",
  ].join("\n");
  assert.deepEqual(
    jars(text).map((j) => [j.artifact, j.version, j.definedAt, j.editLines, j.downloaded]),
    [
      ["flink-connector-kafka", "3.2.0-1.19", "1:29-1:39", [1], true],
      ["flink-sql-connector-kafka", "3.3.0-1.19", "2:18-2:28", [2], true],
    ],
  );
});

test("a jar copied from the build context is not downloaded; comments and unknown ARGs are skipped", () => {
  const text = [
    "FROM flink:1.17.2",
    "# ADD https://example.com/flink-sql-connector-kafka-1.16.0.jar /opt/flink/lib/",
    "COPY lib/flink-connector-kafka-1.17.2.jar /opt/flink/lib/",
    `COPY lib/flink-connector-kafka-\${FROM_THE_COMMAND_LINE}.jar /opt/flink/lib/`,
    "COPY lib/my-flink-connector-kafka-helpers-1.0.0.jar /opt/flink/lib/",
    "",
  ].join("\n");
  assert.deepEqual(
    jars(text).map((j) => [j.artifact, j.version, j.declaration, j.downloaded]),
    [["flink-connector-kafka", "1.17.2", "lib/flink-connector-kafka-1.17.2.jar", false]],
  );
});

test("a jar named twice in one RUN (the URL and the name it is saved under) is one jar; an upgrade edits both", () => {
  const text = [
    "FROM flink:1.18.1",
    "ENV FLINK_CONNECTOR_VERSION=1.17.2",
    `RUN curl -L https://repo1.maven.org/maven2/org/apache/flink/flink-connector-kafka/\${FLINK_CONNECTOR_VERSION}/flink-connector-kafka-\${FLINK_CONNECTOR_VERSION}.jar \\`,
    `    -o \${FLINK_HOME}/lib/flink-connector-kafka-\${FLINK_CONNECTOR_VERSION}.jar`,
    "RUN curl -fsSL https://repo1.maven.org/maven2/org/apache/flink/flink-sql-connector-kafka/3.1.0-1.18/flink-sql-connector-kafka-3.1.0-1.18.jar \\",
    "    -o /opt/flink/lib/flink-sql-connector-kafka-3.1.0-1.18.jar",
    "",
  ].join("\n");
  assert.deepEqual(
    jars(text).map((j) => [j.artifact, j.version, j.definedAt, j.editLines, j.declaration.slice(0, 8), j.downloaded]),
    [
      ["flink-connector-kafka", "1.17.2", "1:28-1:34", [1], "https://", true],
      ["flink-sql-connector-kafka", "3.1.0-1.18", "4:126-4:136", [4, 4, 5], "https://", true],
    ],
  );
});

test("a jar downloaded in one instruction and moved or copied by another is one jar; other versions are not", () => {
  const text = [
    "FROM alpine AS jars",
    "RUN wget -P /jars https://example.com/flink-sql-connector-kafka-3.1.0-1.18.jar",
    "RUN wget -P /jars https://example.com/flink-sql-connector-kafka-3.2.0-1.19.jar",
    "FROM flink:1.18.1",
    "COPY --from=jars /jars/flink-sql-connector-kafka-3.1.0-1.18.jar /opt/flink/lib/",
    "",
  ].join("\n");
  assert.deepEqual(
    jars(text).map((j) => [j.version, j.editLines, j.downloaded]),
    [
      ["3.1.0-1.18", [1, 4], true],
      ["3.2.0-1.19", [2], true],
    ],
  );
});

test("a downloaded jar the file also copies from the build context is not taken as downloaded", () => {
  const text = [
    "FROM flink:1.18.1",
    "COPY lib/flink-sql-connector-kafka-3.1.0-1.18.jar \\",
    "     /opt/flink/lib/",
    "RUN wget -P /opt/flink/lib https://example.com/flink-sql-connector-kafka-3.1.0-1.18.jar",
    "ADD https://example.com/flink-connector-kafka-3.1.0-1.18.jar /opt/flink/lib/flink-connector-kafka-3.1.0-1.18.jar",
    "",
  ].join("\n");
  assert.deepEqual(
    jars(text).map((j) => [j.artifact, j.editLines, j.declaration.slice(0, 8), j.downloaded]),
    [
      // A new version of a jar copied from the build context would have to be put there too.
      ["flink-sql-connector-kafka", [1, 3], "https://", false],
      // ADD of a URL to a named file: the name is the destination, not a local jar.
      ["flink-connector-kafka", [4, 4], "https://", true],
    ],
  );
});

test("jars a job, a SQL script or a configuration loads by name: one per version per file, comments passed over", () => {
  const loaded = (file: string, text: string) =>
    (readDocument(file, text).imageJars ?? []).map((j) => [
      j.artifact,
      j.version,
      textAt(text, j.declaration.range),
      textAt(text, j.versionDefinition.range),
      j.loaded === true,
      j.downloaded,
    ]);
  const py = [
    "env.add_jars(",
    '    "file:///opt/jars/flink-sql-connector-kafka-3.1.0-1.18.jar",',
    "    'file:///opt/jars/flink-connector-kafka_2.12-1.17.1.jar')",
    '# env.add_jars("file:///opt/jars/flink-sql-connector-kafka-1.15.0.jar")',
    't_env.get_config().set("pipeline.jars", "file:///opt/jars/flink-sql-connector-kafka-3.1.0-1.18.jar")',
    'jar = f"flink-sql-connector-kafka-{VERSION}.jar"',
  ].join("\n");
  assert.deepEqual(loaded("/p/job.py", py), [
    [
      "flink-sql-connector-kafka",
      "3.1.0-1.18",
      "file:///opt/jars/flink-sql-connector-kafka-3.1.0-1.18.jar",
      "3.1.0-1.18",
      true,
      false,
    ],
    [
      "flink-connector-kafka",
      "1.17.1",
      "file:///opt/jars/flink-connector-kafka_2.12-1.17.1.jar",
      "1.17.1",
      true,
      false,
    ],
  ]);
  const sql =
    "-- ADD JAR '/opt/flink-sql-connector-kafka-1.14.0.jar';\nADD JAR '/opt/flink-sql-connector-kafka-1.16.0.jar';\n";
  assert.deepEqual(loaded("/p/init.sql", sql), [
    ["flink-sql-connector-kafka", "1.16.0", "/opt/flink-sql-connector-kafka-1.16.0.jar", "1.16.0", true, false],
  ]);
  // A Dockerfile's jars are its image's, read as before.
  const docker = "FROM flink:1.18.1\nCOPY flink-sql-connector-kafka-3.1.0-1.18.jar /opt/flink/lib/\n";
  assert.equal(readDocument("/p/Dockerfile", docker).imageJars?.[0].loaded, undefined);
});
