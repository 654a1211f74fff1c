/** docker-compose files, Helm values files, Dockerfiles, and YAML files that are none of ours. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { flinkImageVersion } from "../../server/src/core/documents/images";
import { readDocument } from "../../server/src/core/documents/index";
import { entry, insertAndReread, scalars, span } from "./helpers";

test("compose: Flink services, replicas, image versions and FLINK_PROPERTIES in list and map form", () => {
  const file = "/p/docker-compose.yml";
  const text = [
    "services:",
    "  jobmanager:",
    "    image: flink:1.20.0-scala_2.12",
    "    command: standalone-job --job-classname com.example.Job",
    "    environment:",
    "      - |",
    "        FLINK_PROPERTIES=",
    "        jobmanager.rpc.address: jobmanager",
    "        parallelism.default: 2",
    "  taskmanager:",
    "    image: flink:1.20.0-scala_2.12",
    '    command: ["taskmanager"]',
    "    deploy:",
    "      replicas: 3",
    "    environment:",
    '      FLINK_PROPERTIES: "jobmanager.rpc.address: jobmanager\\ntaskmanager.numberOfTaskSlots: 2"',
    "  db:",
    "    image: postgres:15",
    "",
  ].join("\n");
  const facts = readDocument(file, text);
  assert.equal(facts.kind, "compose");
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    facts.workloads.map((w) => [w.name, w.source, w.role, w.replicas?.value, span(w.anchor)]),
    [
      ["jobmanager", "compose", "jobmanager", undefined, "1:2-1:12"],
      ["taskmanager", "compose", "taskmanager", 3, "9:2-9:13"],
    ],
  );
  assert.deepEqual(
    facts.flinkVersions.map((v) => [v.minor, v.full, span(v.location?.range)]),
    [
      ["1.20", "1.20.0", "2:17-2:23"],
      ["1.20", "1.20.0", "10:17-10:23"],
    ],
  );
  const [list, map] = facts.flinkConfigs;
  assert.equal(list.host, "envProperties");
  assert.equal(span(list.anchor), "6:8-6:24");
  assert.deepEqual(scalars(list), [
    ["jobmanager.rpc.address", "jobmanager"],
    ["parallelism.default", "2"],
  ]);
  assert.equal(span(entry(list, "parallelism.default").valueRange), "8:29-8:30");
  assert.equal(span(entry(map, "taskmanager.numberOfTaskSlots").valueRange), "15:92-15:93");
  assert.equal(span(map.anchor), "15:6-15:22");

  const after = insertAndReread(file, text, list.id, "execution.checkpointing.interval", "30 s");
  assert.ok(
    after.text.includes(
      "        parallelism.default: 2\n        execution.checkpointing.interval: 30 s\n  taskmanager:",
    ),
  );
  assert.equal(entry(after.config, "execution.checkpointing.interval").value, "30 s");
});

test("compose: scale, and files without Flink services stay quiet even when broken", () => {
  const scaled = readDocument(
    "/p/compose.yaml",
    "services:\n  tm:\n    image: apache/flink:2.0.0-java17\n    command: taskmanager\n    scale: 2\n",
  );
  assert.deepEqual(
    scaled.workloads.map((w) => [w.role, w.replicas?.value, span(w.replicas?.range)]),
    [["taskmanager", 2, "4:11-4:12"]],
  );
  const other = readDocument("/p/docker-compose.yml", "services:\n  web:\n    image: nginx\n    ports: [\n");
  assert.deepEqual([other.workloads, other.syntaxErrors], [[], []]);
  const broken = readDocument("/p/docker-compose.yml", "services:\n  jm:\n    image: flink:1.19\n    ports: [\n");
  assert.equal(broken.syntaxErrors.length, 1);
  assert.match(broken.syntaxErrors[0].message, /^Docker Compose cannot read this file/);
});

test("Helm values: flinkConfiguration maps and embedded flink-conf.yaml / config.yaml blocks", () => {
  const file = "/p/chart/values.yaml";
  const text = [
    "image:",
    "  repository: apache/flink",
    '  tag: "1.19.1"',
    "defaultConfiguration:",
    "  create: true",
    "  flink-conf.yaml: |+",
    "    # operator defaults",
    "    kubernetes.operator.metrics.reporter.slf4j.interval: 5 MINUTE",
    "  config.yaml: |+",
    "    kubernetes.operator.reconcile.interval: 15 s",
    "jobs:",
    "  - name: orders",
    "    flinkVersion: v1_20",
    "    flinkConfiguration:",
    '      execution.checkpointing.interval: "{{ .Values.interval }}"',
    "      state.backend.type: rocksdb",
    "",
  ].join("\n");
  const facts = readDocument(file, text);
  assert.equal(facts.kind, "helmValues");
  assert.deepEqual(
    facts.flinkConfigs.map((c) => [c.id, c.host, c.dialect, c.logicalName, span(c.anchor)]),
    [
      [`${file}#defaultConfiguration.flink-conf.yaml`, "helmValues", "legacy", "flink-conf.yaml", "5:2-5:17"],
      [`${file}#defaultConfiguration.config.yaml`, "helmValues", "yaml", "config.yaml", "8:2-8:13"],
      [`${file}#jobs[0].flinkConfiguration`, "helmValues", "yaml", undefined, "13:4-13:22"],
    ],
  );
  const [legacy, yaml, map] = facts.flinkConfigs;
  assert.equal(span(entry(legacy, "kubernetes.operator.metrics.reporter.slf4j.interval").valueRange), "7:57-7:65");
  assert.equal(span(entry(yaml, "kubernetes.operator.reconcile.interval").valueRange), "9:44-9:48");
  assert.equal(entry(map, "execution.checkpointing.interval").templated, true);
  assert.deepEqual(
    facts.flinkVersions.map((v) => [v.minor, v.full, v.source, span(v.location?.range)]),
    [
      ["1.19", "1.19.1", "image", "2:8-2:14"],
      ["1.20", undefined, "flinkDeployment", "12:18-12:23"],
    ],
  );
  const after = insertAndReread(file, text, map.id, "parallelism.default", "2");
  assert.ok(after.text.endsWith('      state.backend.type: rocksdb\n      parallelism.default: "2"\n'));
  assert.equal(entry(after.config, "parallelism.default").value, "2");
});

test("YAML that is not ours yields nothing, broken or not", () => {
  const workflow = "name: ci\non:\n  push:\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: [\n";
  for (const file of ["/p/.github/workflows/ci.yml", "/p/mkdocs.yml", "/p/other/config.yaml"]) {
    const facts = readDocument(file, workflow);
    assert.deepEqual(
      [facts.kind, facts.syntaxErrors, facts.flinkConfigs, facts.k8sObjects, facts.flinkVersions],
      ["other", [], [], [], []],
      file,
    );
  }
  const values = readDocument("/p/chart/values-prod.yaml", "replicaCount: 2\nimage: [\n");
  assert.deepEqual([values.kind, values.syntaxErrors], ["helmValues", []]);
});

test("Dockerfile: FROM flink images, --platform flags, ARG defaults", () => {
  const text = [
    "ARG FLINK_VERSION=1.19.1",
    "FROM --platform=$BUILDPLATFORM maven:3.9-eclipse-temurin-17 AS build",
    "FROM --platform=linux/amd64 flink:1.19.1-scala_2.12-java17",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an ARG reference in a Dockerfile
    "FROM apache/flink:${FLINK_VERSION}-java11 AS runtime",
    "from flink:latest",
    "FROM docker.io/library/flink:2.0@sha256:abc",
    "",
  ].join("\n");
  const facts = readDocument("/p/docker/Dockerfile", text);
  assert.equal(facts.kind, "dockerfile");
  assert.deepEqual(
    facts.flinkVersions.map((v) => [v.minor, v.full, v.source, span(v.location?.range)]),
    [
      ["1.19", "1.19.1", "image", "2:34-2:40"],
      ["1.19", "1.19.1", "image", "0:18-0:24"],
      ["2.0", undefined, "image", "5:29-5:32"],
    ],
  );
  assert.equal(readDocument("/p/Dockerfile.flink", "FROM flink:1.18\n").flinkVersions[0].minor, "1.18");
});

test("only the official Flink image names give a version", () => {
  const versions = [
    "flink:1.19.1-scala_2.12-java17",
    "apache/flink:2.0",
    "docker.io/library/flink:1.20@sha256:0123",
    "localhost:5000/flink:1.18.0",
    "flink:latest",
    "flink",
    "registry.example.com/my-flink-job:1.0",
    "flink-kubernetes-operator:1.10.0",
    "flink:{{ .Values.tag }}",
  ].map((image) => flinkImageVersion(image));
  assert.deepEqual(
    versions.map((v) => v && [v.minor, v.full, v.offset, v.length]),
    [
      ["1.19", "1.19.1", 6, 6],
      ["2.0", undefined, 13, 3],
      ["1.20", undefined, 24, 4],
      ["1.18", "1.18.0", 21, 6],
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ],
  );
});

test("Confluent Platform's Flink images carry the Flink version in their tag", () => {
  const versions = [
    "confluentinc/cp-flink:1.19.3-cp1",
    "confluentinc/cp-flink:1.20.5-cp2-java17",
    "registry.example.com/confluentinc/cp-flink-sql:1.19-cp11",
    "confluentinc/cp-flink-sql:2.3-cmf2.5-cp1",
    "confluentinc/cp-flink-kubernetes-operator:1.130.0",
    "example/cp-flink-s3:1.20.2-s3",
    "confluentinc/cp-flink:latest",
  ].map((image) => flinkImageVersion(image));
  assert.deepEqual(
    versions.map((v) => v && [v.minor, v.full, v.offset, v.length]),
    [
      ["1.19", "1.19.3", 22, 6],
      ["1.20", "1.20.5", 22, 6],
      ["1.19", undefined, 47, 4],
      ["2.3", undefined, 26, 3],
      undefined,
      undefined,
      undefined,
    ],
  );
});
