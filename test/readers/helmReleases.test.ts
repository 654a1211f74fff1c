/**
 * Helm releases given values files from outside the chart: Argo CD Applications, helmfiles and `helm` commands of
 * scripts. Their values files join the chart's own for what a template's `toYaml .Values.x` writes.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents";
import { clustersOf, settingOf } from "../../server/src/core/project/clusters";
import { FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const releases = (file: string, text: string) =>
  (readDocument(file, text).helmReleases ?? []).map((r) => ({
    chart: r.chart.value,
    values: r.values.map((v) => v.value),
    from: r.from,
  }));

test("an Argo CD Application's Helm sources with value files are releases of the chart at their path", () => {
  const app = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: orders-prod
spec:
  sources:
    - repoURL: https://github.com/acme/deploy.git
      path: charts/orders
      helm:
        valueFiles:
          - ../../envs/prod/values.yaml
          - $values/shared/flink.yaml
    - repoURL: https://github.com/acme/deploy.git
      ref: values
    - repoURL: https://charts.example.com
      chart: kafka
      helm:
        valueFiles: [kafka.yaml]
`;
  assert.deepEqual(releases("/p/argocd/orders.yaml", app), [
    {
      chart: "charts/orders",
      values: ["../../envs/prod/values.yaml", "$values/shared/flink.yaml"],
      from: "repository",
    },
  ]);
  // An Application without value files, and another API group's Application, give none.
  assert.deepEqual(releases("/p/a.yaml", app.replace(/ {8}valueFiles:[\s\S]*?\n {4}- repoURL/, "    - repoURL")), []);
  assert.deepEqual(releases("/p/a.yaml", app.replace("argoproj.io/v1alpha1", "app.k8s.io/v1beta1")), []);
});

test("a helmfile's releases of local charts with values files", () => {
  const text = `releases:
  - name: orders
    chart: ./charts/orders
    values:
      - envs/prod.yaml
      - replicas: 2
  - name: kafka
    chart: bitnami/kafka
    values: [kafka.yaml]
  - name: templated
    chart: ../charts/other
    values:
      - "{{ .Environment.Name }}.yaml"
`;
  assert.deepEqual(releases("/p/deploy/helmfile.yaml", text), [
    { chart: "./charts/orders", values: ["envs/prod.yaml"], from: { folder: "/p/deploy" } },
  ]);
});

test("helm install, upgrade and template in scripts: the chart and every -f / --values file, in order", () => {
  const script = [
    "#!/bin/bash",
    "helm upgrade --install orders ./charts/orders -n streaming -f envs/base.yaml --values=envs/prod.yaml \\",
    "  --set image.tag=1.2 --values envs/secrets.yaml",
    "helm template charts/orders -fenvs/dev.yaml",
    "helm install --generate-name ./charts/orders --values envs/qa.yaml",
    "helm install orders $CHART -f envs/prod.yaml",
    "helm install orders ./charts/orders",
    "echo helm install orders ./charts/orders -f x.yaml",
    "\t@helm upgrade orders ./charts/orders -f make.yaml",
  ].join("\n");
  const got = releases("/p/deploy.sh", script);
  assert.deepEqual(
    got.map((r) => [r.chart, r.values]),
    [
      ["./charts/orders", ["envs/base.yaml", "envs/prod.yaml", "envs/secrets.yaml"]],
      ["charts/orders", ["envs/dev.yaml"]],
      ["./charts/orders", ["envs/qa.yaml"]],
      ["./charts/orders", ["make.yaml"]],
    ],
  );
  // Each path keeps its place in the script.
  const [first] = readDocument("/p/deploy.sh", script).helmReleases ?? [];
  assert.equal(first.values[1].range.start.line, 1);
  assert.equal(script.split("\n")[1].slice(first.values[1].range.start.character).startsWith("envs/prod.yaml"), true);
});

const CHART = {
  "Chart.yaml": "apiVersion: v2\nname: orders\nversion: 1.0.0\n",
  "templates/flink.yaml": `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_19
  flinkConfiguration:
    {{- toYaml .Values.flink | nindent 4 }}
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
`,
  "values.yaml": 'flink:\n  taskmanager.numberOfTaskSlots: "2"\n',
};

function clusterOf(files: Record<string, string>) {
  const ws = workspaceOf(new Map(Object.entries(files).map(([f, t]) => [`${FIXTURE_ROOT}/${f}`, t])));
  const clusters = clustersOf(ws.project(FIXTURE_ROOT));
  assert.equal(clusters.length, 1);
  return clusters[0];
}

const chartAt = (dir: string) => Object.fromEntries(Object.entries(CHART).map(([f, t]) => [`${dir}/${f}`, t]));

test("values files a release gives the chart from elsewhere are read under the chart's own", () => {
  const prod = "flink:\n  execution.checkpointing.interval: 30 s\n";
  // Without a release, a values file of another folder is not the chart's.
  const alone = clusterOf({ ...chartAt("helm/orders"), "envs/prod/values.yaml": prod });
  assert.equal(settingOf(alone, "execution.checkpointing.interval"), undefined);
  // A script run from the repository's root, naming paths from there.
  const script = clusterOf({
    ...chartAt("helm/orders"),
    "envs/prod/values.yaml": prod,
    "scripts/deploy.sh": "helm upgrade --install orders helm/orders -f envs/prod/values.yaml\n",
  });
  assert.equal(
    settingOf(script, "execution.checkpointing.interval")?.config.file,
    `${FIXTURE_ROOT}/envs/prod/values.yaml`,
  );
  assert.equal(
    settingOf(script, "taskmanager.numberOfTaskSlots")?.config.file,
    `${FIXTURE_ROOT}/helm/orders/values.yaml`,
  );
  // An Argo CD Application: the chart by its repository path, a `$ref/` value file by its repository path.
  const argo = clusterOf({
    ...chartAt("helm/orders"),
    "config/prod.yaml": prod,
    "apps/orders.yaml": `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: orders
spec:
  sources:
    - path: helm/orders
      helm:
        valueFiles: [$values/config/prod.yaml]
`,
  });
  assert.equal(settingOf(argo, "execution.checkpointing.interval")?.config.file, `${FIXTURE_ROOT}/config/prod.yaml`);
  // A helmfile beside the charts folder.
  const helmfile = clusterOf({
    ...chartAt("deploy/charts/orders"),
    "deploy/envs/prod.yaml": prod,
    "deploy/helmfile.yaml": "releases:\n  - name: orders\n    chart: ./charts/orders\n    values: [envs/prod.yaml]\n",
  });
  assert.equal(
    settingOf(helmfile, "execution.checkpointing.interval")?.config.file,
    `${FIXTURE_ROOT}/deploy/envs/prod.yaml`,
  );
});
