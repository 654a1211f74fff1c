/**
 * A run over many projects forgets each project's facts once it is reported (`Workspace.releaseFacts`): what a
 * later project takes from it (a parent pom) and what the project gives when analysed again must not change.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Finding } from "../../server/src/core/findings";
import { Workspace } from "../../server/src/core/workspace/workspace";

const PARENT = `<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>platform</artifactId>
  <version>1.0.0</version>
  <packaging>pom</packaging>
  <properties>
    <beam.version>2.56.0</beam.version>
  </properties>
</project>
`;

const CHILD = `<project>
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>com.example</groupId>
    <artifactId>platform</artifactId>
    <version>1.0.0</version>
    <relativePath>../platform/pom.xml</relativePath>
  </parent>
  <artifactId>orders</artifactId>
  <dependencies>
    <dependency>
      <groupId>org.apache.beam</groupId>
      <artifactId>beam-runners-flink-1.18</artifactId>
      <version>\${beam.version}</version>
    </dependency>
  </dependencies>
</project>
`;

const CONF = "execution.checkpointing.interval: 0\nparallelism.default: 4\n";

function summary(findings: Iterable<Finding[]>): string[] {
  return [...findings]
    .flat()
    .map((f) => `${f.file}:${f.range.start.line + 1}:${f.range.start.character + 1} ${f.rule} ${f.message}`)
    .sort();
}

function workspace(): Workspace {
  const ws = new Workspace();
  ws.setFile("/ws/platform/pom.xml", PARENT);
  ws.setFile("/ws/platform/conf/flink-conf.yaml", CONF);
  ws.setFile("/ws/orders/pom.xml", CHILD);
  ws.setFile("/ws/orders/conf/flink-conf.yaml", CONF);
  return ws;
}

test("a project whose parent pom is in a released project still reads the parent's properties", () => {
  const ws = workspace();
  const platform = ws.projectRootOf("/ws/platform/pom.xml");
  const orders = ws.projectRootOf("/ws/orders/pom.xml");
  assert.notEqual(platform, orders);
  const kept = summary(workspace().analyze(orders).byFile.values());
  assert.ok(
    kept.some((line) => line.includes("BFL301") && line.includes("2.56.0")),
    `the parent's Beam version reaches the child:\n${kept.join("\n")}`,
  );

  ws.analyze(platform);
  ws.releaseFacts(platform);
  assert.deepEqual(summary(ws.analyze(orders).byFile.values()), kept);
});

test("a released project analysed again gives the same findings, its files read again", () => {
  const ws = workspace();
  const root = ws.projectRootOf("/ws/platform/pom.xml");
  const first = ws.analyze(root);
  const conf = ws.facts("/ws/platform/conf/flink-conf.yaml");
  const pom = ws.facts("/ws/platform/pom.xml");
  ws.releaseFacts(root);
  assert.notEqual(ws.facts("/ws/platform/conf/flink-conf.yaml"), conf, "the configuration is read again");
  assert.equal(ws.facts("/ws/platform/pom.xml"), pom, "the pom is kept for other projects");
  const again = ws.analyze(root);
  assert.deepEqual(summary(again.byFile.values()), summary(first.byFile.values()));
  assert.ok(summary(again.byFile.values()).some((line) => line.includes("BFL101")));
});
