/** The Flink Kubernetes Operator version: from operator images, Helm values and charts, and the project config. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";
import { span, textAt } from "./helpers";

function versions(file: string, text: string): [string, string, string][] {
  return (readDocument(file, text).operatorVersions ?? []).map((e) => [
    e.version,
    e.source,
    e.location ? textAt(text, e.location.range) : "",
  ]);
}

test("operator images with a release tag in manifests, compose files and Dockerfiles", () => {
  const manifest = [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: flink-kubernetes-operator",
    "spec:",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: operator",
    '          image: "ghcr.io/apache/flink-kubernetes-operator:1.9.0"',
    "        - name: sidecar",
    "          image: apache/flink-kubernetes-operator:1.10.0 # the next one",
    "        # image: apache/flink-kubernetes-operator:1.8.0",
    "        - image: ghcr.io/apache/flink-kubernetes-operator:91d67d9",
    "        - image: example.com/my-flink-kubernetes-operator:2.0.0",
    "",
  ].join("\n");
  assert.deepEqual(versions("/p/k8s/operator.yaml", manifest), [
    ["1.9.0", "image", "1.9.0"],
    ["1.10.0", "image", "1.10.0"],
  ]);
  const [first] = readDocument("/p/k8s/operator.yaml", manifest).operatorVersions ?? [];
  assert.equal(span(first.location?.range), "9:59-9:64");
  const compose = "services:\n  operator:\n    image: registry.local:5000/apache/flink-kubernetes-operator:1.7.0\n";
  assert.deepEqual(versions("/p/docker-compose.yml", compose), [["1.7.0", "image", "1.7.0"]]);
  const dockerfile = "FROM ghcr.io/apache/flink-kubernetes-operator:1.8.0\nCOPY plugins /opt/plugins\n";
  assert.deepEqual(versions("/p/operator/Dockerfile", dockerfile), [["1.8.0", "image", "1.8.0"]]);
});

test("the operator chart: values with repository and tag, a Chart.yaml dependency, the vendored chart", () => {
  const values = ["image:", "  repository: ghcr.io/apache/flink-kubernetes-operator", '  tag: "1.9.0"', ""].join("\n");
  assert.deepEqual(versions("/p/charts/values.yaml", values), [["1.9.0", "image", "1.9.0"]]);
  const unpinned = ["image:", "  repository: ghcr.io/apache/flink-kubernetes-operator", "  tag: latest", ""].join("\n");
  assert.deepEqual(versions("/p/charts/values.yaml", unpinned), []);
  const chart = [
    "apiVersion: v2",
    "name: platform",
    "version: 0.3.0",
    "dependencies:",
    "  - name: flink-kubernetes-operator",
    "    version: 1.10.0",
    "    repository: https://downloads.apache.org/flink/flink-kubernetes-operator-1.10.0/",
    "  - name: cert-manager",
    "    version: 1.14.0",
    "",
  ].join("\n");
  assert.deepEqual(versions("/p/Chart.yaml", chart), [["1.10.0", "helmChart", "1.10.0"]]);
  const ranged = chart.replace("version: 1.10.0", 'version: "~1.10.0"');
  assert.deepEqual(versions("/p/Chart.yaml", ranged), []);
  const vendored = "apiVersion: v2\nname: flink-kubernetes-operator\nversion: 1.9.0\nappVersion: 1.9.0\n";
  assert.deepEqual(versions("/p/charts/flink-kubernetes-operator/Chart.yaml", vendored), [
    ["1.9.0", "helmChart", "1.9.0"],
  ]);
});

test("the project's operator version: the project configuration wins over images and charts", () => {
  const operator =
    "apiVersion: apps/v1\nkind: Deployment\nspec:\n  image: ghcr.io/apache/flink-kubernetes-operator:1.9.0\n";
  const files = new Map([[`${FIXTURE_ROOT}/k8s/operator.yaml`, operator]]);
  const fromImage = workspaceOf(files).project(FIXTURE_ROOT).operatorVersion;
  assert.deepEqual([fromImage?.version, fromImage?.minor, fromImage?.evidence.source], ["1.9.0", "1.9", "image"]);
  files.set(`${FIXTURE_ROOT}/.beam-flink-lint.yaml`, "operatorVersion: 1.10.0\n");
  const configured = workspaceOf(files).project(FIXTURE_ROOT).operatorVersion;
  assert.deepEqual([configured?.version, configured?.evidence.source], ["1.10.0", "projectConfig"]);
  assert.deepEqual(
    configured?.others.map((o) => o.version),
    ["1.9.0"],
  );
  assert.equal(workspaceOf(new Map()).project(FIXTURE_ROOT).operatorVersion, undefined);
});
