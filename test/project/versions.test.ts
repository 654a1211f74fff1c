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

const APPLICATION = (name: string, flinkVersion: string, environment = "") => `apiVersion: platform.confluent.io/v1beta1
kind: FlinkApplication
metadata:
  name: ${name}
spec:
${environment ? `  flinkEnvironment: ${environment}\n` : ""}  image: confluentinc/cp-flink:${flinkVersion.replace("v", "").replace("_", ".")}.1-cp1
  flinkVersion: ${flinkVersion}
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
`;
const ENVIRONMENT = (name: string, spec = "") => `apiVersion: platform.confluent.io/v1beta1
kind: FlinkEnvironment
metadata:
  name: ${name}
spec:
  kubernetesNamespace: ${name}
  flinkApplicationDefaults:
    spec:
${spec}      flinkConfiguration:
        execution.checkpointing.interval: 1 min
`;

test("a FlinkApplication pins its configuration's version with its flinkVersion and cp-flink image", () => {
  const v = versionOf({ "cmf/payments.yaml": APPLICATION("payments", "v1_19") }, "cmf/payments.yaml");
  assert.deepEqual(v, {
    minor: "1.19",
    strength: "pinned",
    text: "Flink 1.19 from the FlinkApplication's flinkVersion (cmf/payments.yaml): the deployment that runs this configuration.",
  });
});

test("a FlinkEnvironment's application defaults are read by the Flink of the applications they are merged into", () => {
  const one = versionOf(
    {
      "cfk/payments.yaml": APPLICATION("payments", "v1_20", "prod"),
      "cfk/prod.yaml": ENVIRONMENT("prod"),
      "cfk/dev.yaml": ENVIRONMENT("dev"),
    },
    "cfk/prod.yaml",
  );
  assert.deepEqual([one.minor, one.strength], ["1.20", "pinned"]);
  const two = versionOf(
    {
      "cfk/payments.yaml": APPLICATION("payments", "v1_20", "prod"),
      "cfk/orders.yaml": APPLICATION("orders", "v1_19", "prod"),
      "cfk/prod.yaml": ENVIRONMENT("prod"),
    },
    "cfk/prod.yaml",
  );
  assert.deepEqual([two.minor === undefined, two.strength], [false, "conflicting"]);
  // Merged into no application of the project: what the defaults name themselves.
  const own = versionOf(
    { "cfk/prod.yaml": ENVIRONMENT("prod", "      flinkVersion: v1_19\n"), "k8s/orders.yaml": DEPLOYMENT("v1_20") },
    "cfk/prod.yaml",
  );
  assert.deepEqual([own.minor, own.strength], ["1.19", "pinned"]);
});

test("a FlinkApplication without a version of its own takes its environment's defaults' flinkVersion", () => {
  const text = APPLICATION("payments", "v1_20").replace(/ {2}image: .*\n {2}flinkVersion: .*\n/, "");
  const v = versionOf(
    { "cmf/payments.yaml": text, "cmf/prod.yaml": ENVIRONMENT("prod", "      flinkVersion: v1_19\n") },
    "cmf/payments.yaml",
  );
  // The project's only environment is a guess for a CMF application: the version is not pinned.
  assert.deepEqual([v.minor, v.strength], ["1.19", "weak"]);
  assert.match(v.text, /the FlinkEnvironment's flinkVersion/);
  const named = versionOf(
    {
      "cfk/payments.yaml": APPLICATION("payments", "v1_20", "prod").replace(
        / {2}image: .*\n {2}flinkVersion: .*\n/,
        "",
      ),
      "cfk/prod.yaml": ENVIRONMENT("prod", "      flinkVersion: v1_19\n"),
    },
    "cfk/payments.yaml",
  );
  assert.deepEqual([named.minor, named.strength], ["1.19", "pinned"]);
});
