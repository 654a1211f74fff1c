/**
 * Each Flink configuration takes its version from the deployment that runs it; only a configuration no deployment
 * claims falls back to the project's, and then weakly.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { configVersion } from "../../server/src/core/project/clusters";
import { describeVersion } from "../../server/src/core/project/versions";
import { relativeTo } from "../../server/src/core/workspace/workspace";
import { FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const COMPOSE = (image: string, volume: string) => `services:
  jobmanager:
    image: ${image}
    command: jobmanager
${volume}`;
const DEPLOYMENT = (flinkVersion: string, image = "") => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
${image ? `  image: ${image}\n` : ""}  flinkVersion: ${flinkVersion}
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
`;

function versionOf(files: Record<string, string>, configFile: string) {
  const ws = workspaceOf(new Map(Object.entries(files).map(([f, t]) => [`${FIXTURE_ROOT}/${f}`, t])));
  const project = ws.project(FIXTURE_ROOT);
  const config = project.flinkConfigs.find((c) => c.file === `${FIXTURE_ROOT}/${configFile}`);
  assert.ok(config, configFile);
  const v = configVersion(project, config);
  return { minor: v.minor, strength: v.strength, text: describeVersion(v, (f) => relativeTo(FIXTURE_ROOT, f)) };
}

test("a compose service mounting the configuration pins its version, whatever the rest of the project says", () => {
  const v = versionOf(
    {
      "standalone/docker-compose.yml": COMPOSE("flink:1.18.1", "    volumes:\n      - ./conf:/opt/flink/conf:ro\n"),
      "standalone/conf/flink-conf.yaml": "taskmanager.numberOfTaskSlots: 2\n",
      "k8s/orders.yaml": DEPLOYMENT("v1_20"),
    },
    "standalone/conf/flink-conf.yaml",
  );
  assert.deepEqual(v, {
    minor: "1.18",
    strength: "pinned",
    text: "Flink 1.18.1 from a Flink image tag (standalone/docker-compose.yml): the deployment that runs this configuration.",
  });
});

test("a service tied to a configuration only by folder gives a weak version", () => {
  const v = versionOf(
    {
      "standalone/docker-compose.yml": COMPOSE("flink:1.18.1", ""),
      "standalone/flink-conf.yaml": "taskmanager.numberOfTaskSlots: 2\n",
    },
    "standalone/flink-conf.yaml",
  );
  assert.equal(v.minor, "1.18");
  assert.equal(v.strength, "weak");
});

test("a configuration no deployment claims takes the project's version, weakly, and says where it came from", () => {
  const v = versionOf(
    { "conf/flink-conf.yaml": "taskmanager.numberOfTaskSlots: 2\n", "k8s/orders.yaml": DEPLOYMENT("v1_20") },
    "conf/flink-conf.yaml",
  );
  assert.equal(v.minor, "1.20");
  assert.equal(v.strength, "weak");
  assert.match(v.text, /elsewhere in the project: no deployment of this configuration says/);
});

test("a FlinkDeployment whose image and flinkVersion disagree is conflicting; its flinkVersion decides", () => {
  const v = versionOf({ "k8s/orders.yaml": DEPLOYMENT("v1_19", "flink:1.18.1") }, "k8s/orders.yaml");
  assert.equal(v.minor, "1.19");
  assert.equal(v.strength, "conflicting");
  assert.match(v.text, /also names Flink 1\.19 or Flink 1\.18/);
});

test("a ConfigMap mounted by a Kubernetes pod takes the pod's image", () => {
  const v = versionOf(
    {
      "k8s/config.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: flink-config
data:
  flink-conf.yaml: |
    taskmanager.numberOfTaskSlots: 2
`,
      "k8s/jobmanager.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: flink-jobmanager
spec:
  template:
    spec:
      containers:
        - name: jobmanager
          image: flink:1.17.2
          args: ["jobmanager"]
          volumeMounts:
            - name: flink-config-volume
              mountPath: /opt/flink/conf
      volumes:
        - name: flink-config-volume
          configMap:
            name: flink-config
`,
      "k8s/orders.yaml": DEPLOYMENT("v1_20"),
    },
    "k8s/config.yaml",
  );
  assert.equal(v.minor, "1.17");
  assert.equal(v.strength, "pinned");
});
