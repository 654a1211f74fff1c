/**
 * Cross-file findings of the cluster rules carry the other places as related information: the fixture harness
 * checks where findings point, these tests check where their related information points.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { range } from "../../server/src/core/text";
import { analyzeAll, loadCase, repoPath, workspaceOf } from "../harness/fixtures";

function relatedOf(code: string, caseName: string) {
  const fx = loadCase(repoPath("test", "fixtures", "rules", code, caseName));
  const findings = analyzeAll(workspaceOf(fx.files, fx.options)).filter((f) => f.rule === code);
  assert.equal(findings.length, 1);
  return findings[0].related.map((r) => ({
    file: r.file.replace("/project/", ""),
    range: r.range,
    message: r.message,
  }));
}

test("BFL110 points at the TaskManager replicas in the compose file and at the slots", () => {
  assert.deepEqual(relatedOf("BFL110", "fires-compose-replicas"), [
    { file: "docker-compose.yml", range: range(8, 16, 8, 17), message: "2 TaskManagers here." },
    { file: "flink-conf.yaml", range: range(1, 31, 1, 32), message: "2 slots per TaskManager." },
  ]);
});

test("BFL110 points at the TaskManager Deployment's replicas", () => {
  assert.deepEqual(relatedOf("BFL110", "fires-kubernetes-deployments"), [
    { file: "taskmanager-session-deployment.yaml", range: range(5, 12, 5, 13), message: "2 TaskManagers here." },
    { file: "flink-configuration-configmap.yaml", range: range(7, 35, 7, 36), message: "2 slots per TaskManager." },
  ]);
});

test("BFL110 without a slot setting names only the replicas", () => {
  assert.deepEqual(relatedOf("BFL110", "fires-statefulset-default-slots"), [
    { file: "taskmanager.yaml", range: range(5, 12, 5, 13), message: "3 TaskManagers here." },
  ]);
});

test("BFL111 points at where the parallelism comes from", () => {
  assert.deepEqual(relatedOf("BFL111", "fires-flinkdeployment-job-parallelism"), [
    { file: "orders.yaml", range: range(11, 17, 11, 18), message: "The parallelism is 8 here." },
  ]);
});

test("BFL115 points at the conflicting setting", () => {
  assert.deepEqual(relatedOf("BFL115", "fires-at-least-once"), [
    { file: "flink-conf.yaml", range: range(1, 30, 1, 43), message: "The conflicting setting." },
  ]);
});

test("BFL203 points at the replicas and the slots", () => {
  assert.deepEqual(relatedOf("BFL203", "fires-replicas-and-parallelism"), [
    { file: "orders.yaml", range: range(9, 14, 9, 15), message: "taskManager.replicas 3 decides the parallelism." },
    { file: "orders.yaml", range: range(7, 35, 7, 38), message: "2 slots per TaskManager." },
  ]);
});
