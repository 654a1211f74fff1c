/**
 * BFL306 and BFL307 as a user sees them: which release the upgrade moves to (or why there is none), the related
 * information, and where there is no fix.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Finding } from "../../server/src/core/findings";
import { analyzeAll, FIXTURE_ROOT, loadCase, repoPath, workspaceOf } from "../harness/fixtures";

function run(files: Record<string, string>, code: string): Finding[] {
  const map = new Map(Object.entries(files).map(([n, t]) => [`${FIXTURE_ROOT}/${n}`, t]));
  return analyzeAll(workspaceOf(map)).filter((f) => f.rule === code);
}

function fixture(code: string, name: string): Finding[] {
  const fx = loadCase(repoPath("test", "fixtures", "rules", code, name));
  return analyzeAll(workspaceOf(fx.files, fx.options)).filter((f) => f.rule === code);
}

const messages = (f: Finding) => f.related.map((r) => r.message);

test("Flink 1.18 has no fixed connector for FLINK-35749: the finding says so and offers no upgrade", () => {
  const [f] = fixture("BFL306", "fires-3.1.0-flink-1.18-no-fixed-release");
  assert.deepEqual(f.fixes, []);
  assert.ok(
    messages(f).includes(
      "No connector release with the fix is built for Flink 1.18: the fix is in 3.3.0 (for Flink 1.19 and 1.20) and later, so moving to it means upgrading Flink first.",
    ),
  );
});

test("a KafkaSink in the job code makes FLINK-35749 an error and is pointed at", () => {
  const [f] = fixture("BFL306", "fires-3.2.0-with-kafka-sink");
  assert.equal(f.severity, "error");
  assert.equal(f.fixes[0]?.title, "Upgrade the Kafka connector to 3.3.0-1.19");
  assert.ok(messages(f).includes("It matters here because the job writes to Kafka with a KafkaSink."));
  const atSink = f.related.find((r) => r.file.endsWith("OrdersJob.java"));
  assert.equal(atSink?.message, "This KafkaSink can drop records on this connector version.");
});

test("a fix that only trades one bug for another is not offered", () => {
  const [f] = fixture("BFL306", "fires-bundled-1.17.0-every-fix-has-another-bug");
  assert.deepEqual(f.fixes, []);
  assert.ok(
    messages(f).includes(
      "1.17.1 fixes this bug, but it and every later release for Flink 1.17 have FLINK-35749 (BFLA-2024-0003): records are lost when Kafka is unavailable for a while.",
    ),
  );
});

test("both 3.2.0 bugs of a bounded source are reported, each with its record", () => {
  const titles = fixture("BFL306", "fires-bounded-source-3.2.0").map((f) => f.message);
  assert.deepEqual(titles.sort(), [
    "flink-connector-kafka 3.2.0-1.18 has a known bug in KafkaSink: records are lost when Kafka is unavailable for a while.",
    "flink-connector-kafka 3.2.0-1.18 has a known bug: the job may never finish on transactional or compacted topics.",
  ]);
  const bounded = fixture("BFL306", "fires-bounded-source-3.2.0").find((f) => f.message.includes("never finish"));
  assert.ok(
    bounded?.related.some(
      (r) =>
        r.file.endsWith("Backfill.java") &&
        r.message ===
          "This source is bounded: on a transactional or compacted topic it may never reach its stopping offset.",
    ),
  );
});

test("no rewrite for a jar copied from the build context, or for a version that also sets Flink's", () => {
  const [copied] = run(
    { Dockerfile: "FROM flink:1.19.1\nCOPY lib/flink-sql-connector-kafka-3.2.0-1.19.jar /opt/flink/lib/\n" },
    "BFL306",
  );
  assert.deepEqual(copied.fixes, []);
  assert.ok(messages(copied).some((m) => m.startsWith("Upgrade the connector to 3.3.0-1.19;")));
  const pom = `<project>
  <properties><flink.version>1.15.0</flink.version></properties>
  <dependencies>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-streaming-java</artifactId><version>\${flink.version}</version></dependency>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-connector-kafka</artifactId><version>\${flink.version}</version></dependency>
  </dependencies>
</project>
`;
  const [shared] = run({ "pom.xml": pom }, "BFL306");
  assert.match(shared.message, /^flink-connector-kafka 1\.15\.0 has a known bug: offset commits keep failing/);
  assert.deepEqual(shared.fixes, []);
});

test("BFL307 names the cluster's version and the connector releases built for it", () => {
  const [f] = fixture("BFL307", "fires-image-jar-for-1.18-on-1.19");
  assert.deepEqual(messages(f), [
    "The cluster runs Flink 1.19.1 (the Flink image tag).",
    "Connector 3.1.0 is released for Flink 1.17 and 1.18.",
    "Use a connector built for Flink 1.19: 3.2.0-1.19, 3.3.0-1.19.",
  ]);
  const [bundled] = fixture("BFL307", "fires-bundled-on-another-minor");
  assert.deepEqual(messages(bundled), [
    "The cluster runs Flink 1.18 (FlinkDeployment flinkVersion).",
    "Use a connector built for Flink 1.18: 3.0.1-1.18, 3.0.2-1.18, 3.1.0-1.18, 3.2.0-1.18.",
  ]);
});
