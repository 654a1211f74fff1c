/**
 * The operator rules say which operator release their answer is for, and where that release is named; without a
 * known release they say how to name it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzeAll, loadCase, repoPath, workspaceOf } from "../harness/fixtures";

function relatedOf(code: string, caseName: string) {
  const fx = loadCase(repoPath("test", "fixtures", "rules", code, caseName));
  const findings = analyzeAll(workspaceOf(fx.files, fx.options)).filter((f) => f.rule === code);
  assert.equal(findings.length, 1);
  return findings[0].related.map((r) => [r.file.replace("/project/", ""), r.range.start.line, r.message]);
}

test("BFL205 points at the operator image that names the release", () => {
  assert.deepEqual(relatedOf("BFL205", "fires-operator-1.9-no-ha"), [
    [
      "operator.yaml",
      9,
      'Operators 1.4.0 to 1.9.x reject it: "Job could not be upgraded with last-state while HA disabled". The project deploys with operator 1.9.0 (the operator image).',
    ],
  ]);
});

test("BFL205 before 1.4 quotes that release's message; without a version it says how to name one", () => {
  assert.match(String(relatedOf("BFL205", "fires-operator-1.3-zookeeper")[0][2]), /while Kubernetes HA disabled/);
  const [[file, , message]] = relatedOf("BFL205", "fires-operator-unknown-info");
  assert.equal(file, "orders.yaml");
  assert.match(String(message), /No operator version is known: set operatorVersion in \.beam-flink-lint\.yaml/);
});

test("BFL206 quotes the validator and names the other requests for savepoints", () => {
  assert.deepEqual(relatedOf("BFL206", "fires-max-age-operator-1.5"), [
    [
      ".beam-flink-lint.yaml",
      0,
      'The validator says: "In order to use max-checkpoint age functionality config key[…] must be set to allow triggering savepoint upgrades." (operator 1.5.0 and later). The project deploys with operator 1.5.0 (operatorVersion in the project configuration).',
    ],
  ]);
});

test("BFL201 says from which operator release high-availability.cluster-id is rejected", () => {
  assert.deepEqual(relatedOf("BFL201", "fires-ha-cluster-id-operator-1.4"), [
    [
      "flink-deployment.yaml",
      7,
      "The operator sets high-availability.cluster-id itself from the FlinkDeployment's name (when high availability is on); delete the entry.",
    ],
    [
      ".beam-flink-lint.yaml",
      0,
      "Operator 1.4.0 and later reject it; older releases did not. The project deploys with operator 1.4.0 (operatorVersion in the project configuration).",
    ],
  ]);
});
