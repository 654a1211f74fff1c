/**
 * The Kafka connector and Beam Python records at their boundaries: the last affected version, the first fixed one,
 * and versions the records say nothing about.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Ecosystem, matchPackage } from "../../server/src/core/knowledge/advisories";
import { fixedReleaseFor, parseConnectorVersion } from "../../server/src/core/knowledge/kafkaConnector";

function ids(ecosystem: Ecosystem, name: string, version: string): string[] {
  return matchPackage(ecosystem, name, version)
    .map((m) => `${m.advisory.aliases[0]}:${m.range.database_specific.severity}`)
    .sort();
}

const connector = (v: string) => {
  const parsed = parseConnectorVersion(v);
  assert.ok(parsed, v);
  return ids("Maven", "org.apache.flink:flink-sql-connector-kafka", parsed.connector);
};

test("the connector released with Flink: FLINK-31305 before 1.16.2 and 1.17.1, FLINK-35749 from then on", () => {
  assert.deepEqual(connector("1.15.0"), ["FLINK-28060:warning"]);
  assert.deepEqual(connector("1.15.1"), []);
  assert.deepEqual(connector("1.16.1"), ["FLINK-31305:warning"]);
  assert.deepEqual(connector("1.16.2"), ["FLINK-35749:warning"]);
  assert.deepEqual(connector("1.17.0"), ["FLINK-31305:warning"]);
  assert.deepEqual(connector("1.17.1"), ["FLINK-35749:warning"]);
  assert.deepEqual(connector("1.17.2"), ["FLINK-35749:warning"]);
});

test("the externalized connector: 3.0.0 up to 3.2.x affected, 3.3.0 the first without the bugs", () => {
  assert.deepEqual(connector("3.0.0-1.17"), [
    "FLINK-28303:error",
    "FLINK-34470:warning",
    "FLINK-35749:warning",
    "FLINK-36441:warning",
  ]);
  assert.deepEqual(connector("3.0.1-1.18"), ["FLINK-34470:warning", "FLINK-35749:warning", "FLINK-36441:warning"]);
  assert.deepEqual(connector("3.2.0-1.19"), ["FLINK-34470:warning", "FLINK-35749:warning", "FLINK-36441:warning"]);
  assert.deepEqual(connector("3.3.0-1.19"), []);
  assert.deepEqual(connector("4.0.1-2.0"), []);
  assert.deepEqual(connector("5.0.0-2.2"), []);
});

test("the first release with the fix for each Flink minor; none for 1.18", () => {
  assert.equal(fixedReleaseFor("3.3.0", "1.19"), "3.3.0-1.19");
  assert.equal(fixedReleaseFor("3.3.0", "1.20"), "3.3.0-1.20");
  assert.equal(fixedReleaseFor("3.3.0", "2.0"), "4.0.0-2.0");
  assert.equal(fixedReleaseFor("3.3.0", "1.18"), undefined);
  assert.equal(fixedReleaseFor("3.3.0", "1.17"), undefined);
});

test("apache/beam#32196: Beam 2.58.0 only, for the Python SDK, the expansion service and the runners", () => {
  for (const [ecosystem, name] of [
    ["PyPI", "apache-beam"],
    ["Maven", "org.apache.beam:beam-sdks-java-io-expansion-service"],
    ["Maven", "org.apache.beam:beam-runners-flink-1.18"],
  ] as [Ecosystem, string][]) {
    const only32196 = (v: string) => ids(ecosystem, name, v).filter((id) => id.startsWith("apache/beam#32196"));
    assert.deepEqual(only32196("2.57.0"), [], `${name} 2.57.0`);
    assert.deepEqual(only32196("2.58.0"), ["apache/beam#32196:error"], `${name} 2.58.0`);
    assert.deepEqual(only32196("2.58.1"), [], `${name} 2.58.1`);
  }
  assert.deepEqual(ids("Maven", "org.apache.beam:beam-runners-flink-1.18-job-server", "2.58.0"), []);
});
