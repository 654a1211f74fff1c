/**
 * Kustomize overlays: a patch is merged over the FlinkDeployment it targets, and the project's deployments are what
 * `kustomize build` makes of each overlay.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents";
import { clustersOf, configVersion, settingOf } from "../../server/src/core/project/clusters";
import { FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const BASE = `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  image: flink:1.19.1
  flinkVersion: v1_19
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
    execution.checkpointing.interval: 1 min
  taskManager:
    replicas: 2
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
    parallelism: 4
    upgradeMode: stateless
`;

const PATCH = (spec: string, name = "orders") => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: ${name}
spec:
${spec}`;

function projectOf(files: Record<string, string>) {
  const ws = workspaceOf(new Map(Object.entries(files).map(([f, t]) => [`${FIXTURE_ROOT}/${f}`, t])));
  return ws.project(FIXTURE_ROOT);
}

const at = (f: string) => `${FIXTURE_ROOT}/${f}`;

test("a kustomization's resources and patches are read in every form kustomize takes", () => {
  const facts = readDocument(
    "/p/k8s/overlays/prod/kustomization.yaml",
    `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
  - extra.yaml
bases: [../../legacy]
components:
  - ../../components/metrics
patches:
  - path: flink.yaml
    target:
      kind: FlinkDeployment
      name: orders
  - path: plain.yaml
  - target: {kind: FlinkDeployment, name: orders}
    patch: |-
      - op: replace
        path: /spec/job/parallelism
        value: 8
  - patch: |-
      apiVersion: flink.apache.org/v1beta1
      kind: FlinkDeployment
      metadata:
        name: payments
      spec:
        job:
          parallelism: 2
patchesStrategicMerge:
  - memory.yaml
patchesJson6902:
  - target: {kind: FlinkDeployment, name: orders}
    path: ops.yaml
`,
  );
  const k = facts.kustomization;
  assert.ok(k);
  assert.deepEqual(
    k.resources.map((r) => r.value),
    ["../../base", "extra.yaml", "../../legacy", "../../components/metrics"],
  );
  assert.deepEqual(
    k.patches.map((p) => [p.path.value, p.target]),
    [
      ["flink.yaml", { kind: "FlinkDeployment", name: "orders" }],
      ["plain.yaml", undefined],
      ["memory.yaml", undefined],
    ],
  );
  assert.deepEqual(
    k.unreadPatches.map((p) => p.target),
    [
      { kind: "FlinkDeployment", name: "orders" },
      { kind: "FlinkDeployment", name: "payments" },
      { kind: "FlinkDeployment", name: "orders" },
    ],
  );
  assert.deepEqual(facts.syntaxErrors, []);
  // A kustomization without apiVersion and kind is one too; a broken one reads as what it holds.
  assert.deepEqual(
    readDocument("/p/kustomization.yml", "resources:\n  - flink.yaml\n").kustomization?.resources.length,
    1,
  );
  assert.doesNotThrow(() => readDocument("/p/kustomization.yaml", "resources: [\n  - : :\n"));
  assert.equal(readDocument("/p/kustomization.yaml", "- just\n- a list\n").kustomization?.resources.length ?? 0, 0);
});

test("an overlay's patch is merged over its base: the patch's fields win, the base's stay, each in its own file", () => {
  const project = projectOf({
    "k8s/base/kustomization.yaml": "resources:\n  - flink.yaml\n",
    "k8s/base/flink.yaml": BASE,
    "k8s/overlays/prod/kustomization.yaml": "resources:\n  - ../../base\npatches:\n  - path: scale.yaml\n",
    "k8s/overlays/prod/scale.yaml": PATCH(
      '  flinkConfiguration:\n    taskmanager.numberOfTaskSlots: "4"\n  taskManager:\n    replicas: 3\n',
    ),
  });
  assert.equal(project.flinkDeployments.length, 1, "the patched base and the patch make one deployment");
  const [d] = project.flinkDeployments;
  assert.equal(d.object.file, at("k8s/overlays/prod/scale.yaml"));
  assert.equal(d.taskManagerReplicas?.value, 3);
  assert.equal(d.taskManagerReplicas?.file, at("k8s/overlays/prod/scale.yaml"));
  assert.equal(d.jobParallelism?.value, 4);
  assert.equal(d.jobParallelism?.file, at("k8s/base/flink.yaml"));
  assert.equal(d.upgradeMode?.value, "stateless");
  assert.ok(d.jobKey, "the base's job is the overlay's");
  assert.equal(d.kustomized?.kustomization, at("k8s/overlays/prod/kustomization.yaml"));
  const [cluster] = clustersOf(project);
  assert.equal(clustersOf(project).length, 1);
  assert.equal(settingOf(cluster, "taskmanager.numberOfTaskSlots")?.entry.value, "4");
  assert.equal(settingOf(cluster, "execution.checkpointing.interval")?.config.file, at("k8s/base/flink.yaml"));
  assert.equal(cluster.minor, "1.19");
  assert.equal(cluster.incomplete, false);
  // The base's configuration is read with the overlay's version.
  const base = project.flinkConfigs.find((c) => c.file === at("k8s/base/flink.yaml"));
  assert.ok(base);
  assert.equal(configVersion(project, base).minor, "1.19");
});

test("patches apply in order, through overlays of overlays, by target name and regular expression", () => {
  const project = projectOf({
    "base/kustomization.yaml": "resources: [flink.yaml]\n",
    "base/flink.yaml": BASE,
    "regional/kustomization.yaml": "resources: [../base]\npatches:\n  - path: a.yaml\n",
    "regional/a.yaml": PATCH("  taskManager:\n    replicas: 5\n"),
    "regional/eu/kustomization.yaml":
      "resources: [..]\npatches:\n  - path: b.yaml\n    target:\n      kind: FlinkDeployment\n      name: ord.*\n",
    "regional/eu/b.yaml": PATCH("  job:\n    parallelism: 10\n", "anything"),
  });
  assert.equal(project.flinkDeployments.length, 1);
  const [d] = project.flinkDeployments;
  assert.equal(d.object.file, at("regional/eu/b.yaml"));
  assert.equal(d.taskManagerReplicas?.value, 5);
  assert.equal(d.jobParallelism?.value, 10);
  assert.deepEqual(
    d.kustomized?.under.map((c) => c.file),
    [at("regional/a.yaml"), at("base/flink.yaml")],
  );
});

test("a base some overlay deploys as it is stays a deployment; a patch of a base not in the project is incomplete", () => {
  const project = projectOf({
    "base/kustomization.yaml": "resources: [flink.yaml]\n",
    "base/flink.yaml": BASE,
    "dev/kustomization.yaml": "resources: [../base]\nnamePrefix: dev-\n",
    "prod/kustomization.yaml": "resources: [../base]\npatchesStrategicMerge: [scale.yaml]\n",
    "prod/scale.yaml": PATCH("  taskManager:\n    replicas: 3\n"),
    "remote/kustomization.yaml":
      "resources:\n  - github.com/acme/flink//deploy?ref=v1\npatches:\n  - path: scale.yaml\n",
    "remote/scale.yaml": PATCH("  taskManager:\n    replicas: 3\n", "payments"),
  });
  const files = project.flinkDeployments.map((d) => d.object.file).sort();
  assert.deepEqual(files, [at("base/flink.yaml"), at("prod/scale.yaml"), at("remote/scale.yaml")]);
  const remote = clustersOf(project).find((c) => c.deployment?.object.file === at("remote/scale.yaml"));
  assert.equal(remote?.incomplete, true);
  assert.equal(clustersOf(project).find((c) => c.deployment?.object.file === at("prod/scale.yaml"))?.incomplete, false);
});

test("a patch whose content is not read leaves the deployment it targets incomplete, and only that one", () => {
  const project = projectOf({
    "base/kustomization.yaml": "resources: [orders.yaml, payments.yaml]\n",
    "base/orders.yaml": BASE,
    "base/payments.yaml": BASE.replace("name: orders", "name: payments"),
    "prod/kustomization.yaml":
      "resources: [../base]\npatches:\n  - path: ops.yaml\n    target:\n      kind: FlinkDeployment\n      name: orders\n",
    "prod/ops.yaml": "- op: replace\n  path: /spec/job/parallelism\n  value: 8\n",
  });
  const byName = new Map(clustersOf(project).map((c) => [c.deployment?.object.name, c]));
  assert.equal(byName.get("orders")?.incomplete, true);
  assert.equal(byName.get("payments")?.incomplete, false);
});

test("kustomizations that include each other do not loop", () => {
  const project = projectOf({
    "a/kustomization.yaml": "resources: [../b, flink.yaml]\n",
    "a/flink.yaml": BASE,
    "b/kustomization.yaml": "resources: [../a]\npatches:\n  - path: p.yaml\n",
    "b/p.yaml": PATCH("  taskManager:\n    replicas: 3\n"),
  });
  assert.ok(project.flinkDeployments.length >= 1);
  assert.doesNotThrow(() => clustersOf(project));
});
