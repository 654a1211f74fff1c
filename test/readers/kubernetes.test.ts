/** Kubernetes manifests: ConfigMaps with embedded Flink configuration, FlinkDeployments, Flink workloads. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { maskTemplate } from "../../server/src/core/documents/yaml/helmTemplate";
import type { FileFacts } from "../../server/src/core/model";
import { entry, insertAndReread, scalars, span, textAt } from "./helpers";

const FILE = "/p/k8s/flink.yaml";

function read(text: string, file = FILE): FileFacts {
  const facts = readDocument(file, text);
  assert.equal(facts.kind, "kubernetes");
  return facts;
}

function configMap(dataKey: string, indicator: string, lines: string[], name = "flink-config"): string {
  return [
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    `  name: ${name}`,
    "data:",
    `  ${dataKey}: ${indicator}`,
    ...lines,
    "  log4j-console.properties: |+",
    "    rootLogger.level = INFO",
    "",
  ].join("\n");
}

test("ConfigMap flink-conf.yaml `|+` block: the line reader's entries in host columns", () => {
  const text = configMap("flink-conf.yaml", "|+", [
    "    jobmanager.rpc.address: flink-jobmanager",
    "    state.checkpoints.dir: hdfs://h:9000/x # comment",
    "    s3.secret-key: abc#def",
    "    env.java.opts.all: -Dfoo=bar: baz",
    "    taskmanager.numberOfTaskSlots:2",
    "",
  ]);
  const facts = read(text);
  assert.deepEqual(facts.syntaxErrors, []);
  assert.equal(facts.k8sObjects.length, 1);
  const [config] = facts.flinkConfigs;
  assert.equal(config.id, `${FILE}#0/data/flink-conf.yaml`);
  assert.equal(config.host, "configmap");
  assert.equal(config.dialect, "legacy");
  assert.equal(config.logicalName, "flink-conf.yaml");
  assert.equal(config.owner, facts.k8sObjects[0]);
  assert.equal(span(config.anchor), "5:2-5:17");
  assert.deepEqual(scalars(config), [
    ["jobmanager.rpc.address", "flink-jobmanager"],
    ["state.checkpoints.dir", "hdfs://h:9000/x"],
    ["s3.secret-key", "abc#def"],
    ["env.java.opts.all", "-Dfoo=bar: baz"],
  ]);
  const dir = entry(config, "state.checkpoints.dir");
  assert.equal(span(dir.keyRange), "7:4-7:25");
  assert.equal(span(dir.valueRange), "7:27-7:42");
  assert.equal(span(dir.deleteRange), "7:0-8:0");
  assert.equal(textAt(text, entry(config, "env.java.opts.all").valueRange), "-Dfoo=bar: baz");
  assert.deepEqual(
    config.ignoredLines.map((l) => [span(l.range), l.reason]),
    [["10:4-10:35", "no-separator"]],
  );
});

test("block scalars `|-` and explicit indentation indicators map to the host columns", () => {
  const minus = read(configMap("flink-conf.yaml", "|-", ["    parallelism.default: 2", "    rest.port: 8081"]));
  assert.equal(span(entry(minus.flinkConfigs[0], "rest.port").valueRange), "7:15-7:19");
  // `|2` under a key at column 2: content starts at column 4, and a more indented first line keeps its spaces.
  const indicator = read(configMap("flink-conf.yaml", "|2", ["      parallelism.default: 2", "    rest.port: 8081"]));
  const c = indicator.flinkConfigs[0];
  assert.equal(span(entry(c, "parallelism.default").keyRange), "6:6-6:25");
  assert.equal(span(entry(c, "rest.port").keyRange), "7:4-7:13");
  const keep = read(configMap("flink-conf.yaml", "|+2", ["    rest.port: 8081", ""]));
  assert.equal(span(entry(keep.flinkConfigs[0], "rest.port").valueRange), "6:15-6:19");
});

test("ConfigMap config.yaml block: standard YAML, nested keys, errors mapped into the host file", () => {
  const text = configMap("config.yaml", "|", [
    "    execution:",
    "      checkpointing:",
    "        mode: EXACTLY_ONCE",
    "    env.java.opts.all: -Dfoo=bar: baz",
    "    parallelism.default: 2",
  ]);
  const facts = read(text);
  const [config] = facts.flinkConfigs;
  assert.equal(config.dialect, "yaml");
  assert.equal(config.logicalName, "config.yaml");
  const mode = entry(config, "execution.checkpointing.mode");
  assert.equal(mode.nested, true);
  assert.equal(span(mode.keyRange), "8:8-8:12");
  assert.equal(span(mode.valueRange), "8:14-8:26");
  assert.equal(span(mode.deleteRange), "6:0-9:0");
  assert.equal(facts.syntaxErrors.length, 1);
  assert.equal(span(facts.syntaxErrors[0].range), "9:23-9:24");
  assert.match(facts.syntaxErrors[0].message, /^Flink cannot load the config\.yaml of ConfigMap flink-config/);

  const after = insertAndReread(FILE, text, config.id, "execution.checkpointing.interval", "1 min");
  assert.equal(
    after.text,
    text.replace("        mode: EXACTLY_ONCE\n", "        mode: EXACTLY_ONCE\n        interval: 1 min\n"),
  );
  const added = entry(after.config, "execution.checkpointing.interval");
  assert.equal(added.value, "1 min");
  assert.equal(span(added.keyRange), "9:8-9:16");
});

test("insertEntry in a flink-conf.yaml block: an indented line after the last non-blank line", () => {
  const text = configMap("flink-conf.yaml", "|+", ["    parallelism.default: 2", "", "    # trailing comment", "", ""]);
  const facts = read(text);
  const after = insertAndReread(FILE, text, facts.flinkConfigs[0].id, "execution.checkpointing.interval", "1 min");
  assert.equal(
    after.text,
    text.replace("    # trailing comment\n", "    # trailing comment\n    execution.checkpointing.interval: 1 min\n"),
  );
  assert.equal(entry(after.config, "execution.checkpointing.interval").value, "1 min");
  assert.equal(after.facts.flinkConfigs.length, 1);
});

test("CRLF manifests keep their ranges and line breaks", () => {
  const text = configMap("flink-conf.yaml", "|", ["    parallelism.default: 2"]).replace(/\n/g, "\r\n");
  const facts = read(text);
  assert.equal(span(entry(facts.flinkConfigs[0], "parallelism.default").valueRange), "6:25-6:26");
  const after = insertAndReread(FILE, text, facts.flinkConfigs[0].id, "rest.port", "8081");
  assert.ok(after.text.includes("    parallelism.default: 2\r\n    rest.port: 8081\r\n  log4j"));
});

test("quoted data values: a one-line string maps exactly; a folded one points at the data key", () => {
  const oneLine = [
    "apiVersion: v1",
    "kind: ConfigMap",
    "data:",
    '  flink-conf.yaml: "parallelism.default: 2\\nrest.port: 8081"',
    "",
  ].join("\n");
  const a = read(oneLine).flinkConfigs[0];
  assert.equal(a.inexactRanges, undefined);
  assert.equal(span(entry(a, "rest.port").valueRange), "3:55-3:59");
  assert.equal(textAt(oneLine, entry(a, "parallelism.default").deleteRange), "parallelism.default: 2\\n");
  assert.equal(textAt(oneLine, entry(a, "rest.port").deleteRange), "\\nrest.port: 8081");
  assert.equal(a.insertEntry("x.y", "1"), undefined);

  const folded = [
    "apiVersion: v1",
    "kind: ConfigMap",
    "data:",
    "  flink-conf.yaml: >",
    "    parallelism.default: 2",
    "",
  ].join("\n");
  const b = read(folded).flinkConfigs[0];
  assert.equal(b.inexactRanges, true);
  assert.deepEqual(scalars(b), [["parallelism.default", "2"]]);
  assert.equal(span(b.entries[0].keyRange), "3:2-3:17");
  assert.equal(b.insertEntry("x.y", "1"), undefined);
});

test("multi-document files: a broken document does not hide the others; its error is reported", () => {
  const text = [
    "apiVersion: v1",
    "kind: Service",
    "metadata:",
    "  name: flink-jobmanager",
    "spec:",
    "  ports: [",
    "---",
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    "  name: flink-config",
    "data:",
    "  flink-conf.yaml: |",
    "    parallelism.default: 2",
    "",
  ].join("\n");
  const facts = read(text);
  assert.deepEqual(
    facts.k8sObjects.map((o) => [o.kind, o.name, o.documentIndex, span(o.range), span(o.kindRange)]),
    [
      ["Service", "flink-jobmanager", 0, "0:0-5:10", "1:6-1:13"],
      ["ConfigMap", "flink-config", 1, "6:0-13:26", "8:6-8:15"],
    ],
  );
  assert.equal(entry(facts.flinkConfigs[0], "parallelism.default").value, "2");
  assert.equal(facts.syntaxErrors.length, 1);
  assert.match(facts.syntaxErrors[0].message, /^Kubernetes cannot read this manifest/);
  assert.equal(facts.syntaxErrors[0].range.start.line, 6);
});

test("manifests without Flink content: objects are read, syntax errors are not ours", () => {
  const text = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [\n";
  const facts = read(text);
  assert.equal(facts.k8sObjects.length, 1);
  assert.deepEqual([facts.syntaxErrors, facts.flinkConfigs, facts.workloads], [[], [], []]);
});

const DEPLOYMENT = [
  "apiVersion: flink.apache.org/v1beta1",
  "kind: FlinkDeployment",
  "metadata:",
  "  name: orders",
  "  annotations:",
  '    beam-flink-lint.io/disable: "BFL101, BFL113"',
  "spec:",
  "  image: flink:1.19.1-scala_2.12-java17",
  "  flinkVersion: v1_19",
  "  mode: standalone",
  "  flinkConfiguration:",
  '    taskmanager.numberOfTaskSlots: "2"',
  "    state.checkpoints.dir: s3://bucket/checkpoints",
  "  jobManager:",
  "    replicas: 1",
  "  taskManager:",
  "    replicas: 3",
  "  job:",
  "    jarURI: local:///opt/flink/usrlib/job.jar",
  "    parallelism: 4",
  "    upgradeMode: last-state",
  '    args: ["--runner=FlinkRunner", "--checkpointingInterval=60000"]',
  "",
].join("\n");

test("FlinkDeployment: spec facts, versions, annotation, flat flinkConfiguration", () => {
  const facts = read(DEPLOYMENT);
  const [d] = facts.flinkDeployments;
  assert.equal(d.kind, "FlinkDeployment");
  assert.equal(d.object, facts.k8sObjects[0]);
  assert.deepEqual(
    [d.flinkVersion?.value, d.image?.value, d.mode?.value, d.upgradeMode?.value, d.jobParallelism?.value],
    ["v1_19", "flink:1.19.1-scala_2.12-java17", "standalone", "last-state", 4],
  );
  assert.deepEqual([d.taskManagerReplicas?.value, d.jobManagerReplicas?.value], [3, 1]);
  assert.equal(span(d.taskManagerReplicas?.range), "16:14-16:15");
  assert.deepEqual(
    d.jobArgs.map((a) => [a.value, span(a.range)]),
    [
      ["--runner=FlinkRunner", "21:11-21:33"],
      ["--checkpointingInterval=60000", "21:35-21:66"],
    ],
  );
  assert.equal(span(d.flinkConfigurationKey), "10:2-10:20");
  assert.equal(span(d.jobKey), "17:2-17:5");
  assert.deepEqual(
    facts.flinkVersions.map((v) => [v.minor, v.full, v.source, span(v.location?.range)]),
    [
      ["1.19", undefined, "flinkDeployment", "8:16-8:21"],
      ["1.19", "1.19.1", "image", "7:15-7:21"],
    ],
  );
  const disabled = facts.k8sObjects[0].disabledRules;
  assert.deepEqual(disabled?.value, ["BFL101", "BFL113"]);
  assert.equal(span(disabled?.range), "5:32-5:48");

  const config = d.config;
  assert.equal(facts.flinkConfigs[0], config);
  assert.deepEqual([config.host, config.dialect, config.owner === d.object], ["flinkDeployment", "yaml", true]);
  assert.deepEqual(scalars(config), [
    ["taskmanager.numberOfTaskSlots", "2"],
    ["state.checkpoints.dir", "s3://bucket/checkpoints"],
  ]);
  assert.equal(span(entry(config, "taskmanager.numberOfTaskSlots").valueRange), "11:35-11:38");

  const after = insertAndReread(FILE, DEPLOYMENT, config.id, "execution.checkpointing.interval", "60000");
  assert.equal(
    after.text,
    DEPLOYMENT.replace(
      "    state.checkpoints.dir: s3://bucket/checkpoints\n",
      '    state.checkpoints.dir: s3://bucket/checkpoints\n    execution.checkpointing.interval: "60000"\n',
    ),
  );
  assert.equal(entry(after.config, "execution.checkpointing.interval").value, "60000");
});

test("FlinkDeployment: nested flinkConfiguration is flattened; inserts go into the existing parent", () => {
  const text = [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "spec:",
    "  flinkVersion: v2_0",
    "  flinkConfiguration:",
    "    taskmanager.numberOfTaskSlots: 2",
    "    state:",
    "      savepoints.dir: s3://b/savepoints",
    "    execution:",
    "      checkpointing:",
    "        dir: s3://b/checkpoints",
    "  job:",
    "    upgradeMode: savepoint",
    "",
  ].join("\n");
  const facts = read(text);
  const config = facts.flinkDeployments[0].config;
  assert.deepEqual(scalars(config), [
    ["taskmanager.numberOfTaskSlots", "2"],
    ["state.savepoints.dir", "s3://b/savepoints"],
    ["execution.checkpointing.dir", "s3://b/checkpoints"],
  ]);
  assert.equal(span(entry(config, "execution.checkpointing.dir").keyRange), "10:8-10:11");
  const after = insertAndReread(FILE, text, config.id, "execution.checkpointing.interval", "1 min");
  assert.equal(
    after.text,
    text.replace("        dir: s3://b/checkpoints\n", "        dir: s3://b/checkpoints\n        interval: 1 min\n"),
  );
  assert.equal(entry(after.config, "execution.checkpointing.interval").value, "1 min");
});

test("FlinkDeployment without flinkConfiguration: insertEntry creates it under spec", () => {
  const text = [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: bare",
    "spec:",
    "  flinkVersion: v1_20",
    "  job:",
    "    jarURI: local:///job.jar",
    "---",
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkSessionJob",
    "spec:",
    "  flinkConfiguration:",
    "  job:",
    "    parallelism: 2",
    "",
  ].join("\n");
  const facts = read(text);
  const [bare, session] = facts.flinkDeployments;
  assert.equal(bare.flinkConfigurationKey, undefined);
  assert.equal(span(bare.config.anchor), span(bare.object.kindRange));
  assert.equal(bare.config.entries.length, 0);
  const created = insertAndReread(FILE, text, bare.config.id, "execution.checkpointing.interval", "1 min");
  assert.equal(
    created.text,
    text.replace(
      "    jarURI: local:///job.jar\n",
      "    jarURI: local:///job.jar\n  flinkConfiguration:\n    execution.checkpointing.interval: 1 min\n",
    ),
  );
  assert.equal(entry(created.config, "execution.checkpointing.interval").value, "1 min");

  assert.equal(session.kind, "FlinkSessionJob");
  assert.equal(session.config.host, "flinkSessionJob");
  const filled = insertAndReread(FILE, text, session.config.id, "parallelism.default", "2");
  assert.ok(filled.text.includes('  flinkConfiguration:\n    parallelism.default: "2"\n  job:\n'));
  assert.equal(entry(filled.config, "parallelism.default").value, "2");
});

test("Confluent Platform: FlinkApplication as a FlinkDeployment, FlinkEnvironment defaults, ComputePool cluster spec", () => {
  const text = [
    "apiVersion: platform.confluent.io/v1beta1", // 0
    "kind: FlinkApplication",
    "metadata:",
    "  name: payments",
    "spec:",
    "  flinkEnvironment: production", // 5
    "  image: confluentinc/cp-flink:1.19.3-cp1",
    "  flinkVersion: v1_19",
    "  flinkConfiguration:",
    '    taskmanager.numberOfTaskSlots: "2"',
    "  job:", // 10
    "    jarURI: local:///opt/flink/usrlib/payments.jar",
    "    upgradeMode: stateless",
    "---",
    "apiVersion: platform.confluent.io/v1beta1",
    "kind: FlinkEnvironment", // 15
    "metadata:",
    "  name: production",
    "spec:",
    "  kubernetesNamespace: flink-prod",
    "  flinkApplicationDefaults:", // 20
    "    spec:",
    "      flinkConfiguration:",
    "        execution.checkpointing.interval: 1 min",
    "---",
    "apiVersion: cmf.confluent.io/v1", // 25
    "kind: ComputePool",
    "metadata:",
    "  name: pool",
    "spec:",
    "  clusterSpec:", // 30
    "    flinkVersion: v1_19",
    "    image: confluentinc/cp-flink-sql:1.19-cp11",
    "    flinkConfiguration:",
    '      pipeline.operator-chaining.enabled: "false"',
    "---", // 35
    "apiVersion: example.com/v1",
    "kind: FlinkApplication",
    "metadata:",
    "  name: not-confluent",
    "spec:", // 40
    "  flinkConfiguration:",
    "    unknown.key: x",
    "",
  ].join("\n");
  const facts = read(text);
  const [app] = facts.flinkDeployments;
  assert.equal(facts.flinkDeployments.length, 1);
  assert.deepEqual(
    [app.kind, app.config.host, app.flinkEnvironment?.value],
    ["FlinkApplication", "flinkApplication", "production"],
  );
  assert.equal(span(app.flinkEnvironment?.range), "5:20-5:30");
  assert.deepEqual(scalars(app.config), [["taskmanager.numberOfTaskSlots", "2"]]);
  const [env, pool] = facts.confluentSpecs ?? [];
  assert.deepEqual(
    [env.kind, env.config.host, env.object.name],
    ["FlinkEnvironment", "flinkEnvironment", "production"],
  );
  assert.deepEqual(scalars(env.config), [["execution.checkpointing.interval", "1 min"]]);
  assert.deepEqual([pool.kind, pool.config.host, pool.flinkVersion?.value], ["ComputePool", "computePool", "v1_19"]);
  assert.deepEqual(scalars(pool.config), [["pipeline.operator-chaining.enabled", "false"]]);
  assert.deepEqual(
    facts.flinkConfigs.map((c) => c.host),
    ["flinkApplication", "flinkEnvironment", "computePool"],
  );
  assert.deepEqual(
    facts.flinkVersions.map((v) => [v.minor, v.full, v.source, v.kind, span(v.location?.range)]),
    [
      ["1.19", undefined, "flinkDeployment", "FlinkApplication", "7:16-7:21"],
      ["1.19", "1.19.3", "image", undefined, "6:31-6:37"],
      ["1.19", undefined, "flinkDeployment", "ComputePool", "31:18-31:23"],
      ["1.19", undefined, "image", undefined, "32:37-32:41"],
    ],
  );
});

test("Deployment and StatefulSet: role, replicas, images and FLINK_PROPERTIES", () => {
  const text = [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: flink-taskmanager",
    "spec:",
    "  replicas: 2",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: tm",
    "          image: apache/flink:1.18.1-java11",
    '          args: ["taskmanager"]',
    "          env:",
    "            - name: FLINK_PROPERTIES",
    "              value: |",
    "                jobmanager.rpc.address: flink-jobmanager",
    "                taskmanager.numberOfTaskSlots: 2",
    "---",
    "apiVersion: apps/v1",
    "kind: StatefulSet",
    "metadata:",
    "  name: jm",
    "spec:",
    "  template:",
    "    metadata:",
    "      labels:",
    "        component: jobmanager",
    "    spec:",
    "      containers:",
    "        - name: main",
    "          image: registry.example.com/orders-job:3.1",
    "---",
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: web",
    "spec:",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: nginx",
    "          image: nginx:1.25",
    "",
  ].join("\n");
  const facts = read(text);
  assert.deepEqual(
    facts.workloads.map((w) => [
      w.source,
      w.name,
      w.role,
      w.replicas?.value,
      w.images.map((i) => i.value),
      span(w.anchor),
    ]),
    [
      ["deployment", "flink-taskmanager", "taskmanager", 2, ["apache/flink:1.18.1-java11"], "1:6-1:16"],
      ["statefulset", "jm", "jobmanager", undefined, ["registry.example.com/orders-job:3.1"], "19:6-19:17"],
    ],
  );
  assert.equal(span(facts.workloads[0].replicas?.range), "5:12-5:13");
  assert.deepEqual(
    facts.flinkVersions.map((v) => [v.minor, v.full, span(v.location?.range)]),
    [["1.18", "1.18.1", "10:30-10:36"]],
  );
  const [props] = facts.flinkConfigs;
  assert.equal(props.host, "envProperties");
  assert.equal(props.dialect, "legacy");
  assert.equal(span(props.anchor), "13:20-13:36");
  assert.equal(span(entry(props, "taskmanager.numberOfTaskSlots").valueRange), "16:47-16:48");
  const after = insertAndReread(FILE, text, props.id, "parallelism.default", "4");
  assert.ok(
    after.text.includes(
      "                taskmanager.numberOfTaskSlots: 2\n                parallelism.default: 4\n---",
    ),
  );
  assert.equal(entry(after.config, "parallelism.default").value, "4");
});

test("Helm templates: directives are masked so the YAML around them is read; no syntax errors", () => {
  const text = [
    "{{- if .Values.enabled }}",
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: {{ .Release.Name }}",
    "spec:",
    "  flinkConfiguration:",
    "    {{- toYaml .Values.flinkConfiguration | nindent 4 }}",
    "---",
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: second",
    "spec:",
    "  flinkConfiguration:",
    "    execution.checkpointing.interval: {{ .Values.interval }}",
    '    parallelism.default: "{{ .Values.parallelism }}"',
    "{{- end }}",
    "",
  ].join("\n");
  const facts = readDocument("/p/chart/templates/flink.yaml", text);
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    facts.k8sObjects.map((o) => o.name),
    ["{{ .Release.Name }}", "second"],
  );
  assert.equal(facts.flinkDeployments[0].config.entries.length, 0);
  const second = facts.flinkDeployments[1].config;
  assert.deepEqual(
    second.entries.map((e) => [e.key, e.value, e.templated, span(e.valueRange)]),
    [
      ["execution.checkpointing.interval", "{{ .Values.interval }}", true, "15:38-15:60"],
      ["parallelism.default", "{{ .Values.parallelism }}", true, "16:25-16:52"],
    ],
  );
  const plain = readDocument("/p/chart/templates/cm.yaml", "not: [valid\n{{ x }}\n");
  assert.deepEqual([plain.kind, plain.syntaxErrors], ["other", []]);
});

test("Helm templates: an action keeps its length and stays inside the scalar that holds it, quotes and all", () => {
  const text = [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    '  name: {{ include "c.fullname" . }}-job',
    "  annotations:",
    '    note: {{ .Values.note | default "a: b #c" }}',
    "spec:",
    "  flinkConfiguration:",
    "    {{- /* the chart's defaults,",
    '      "quoted", [with] {flow}: and # more */}}',
    "    pipeline.name: '{{ .Values.name | default \"it's\" }}'",
    "    {{- end }} # closes an if",
    "  job:",
    "    args:",
    '      - "--bootstrap={{ include "c.fullname" . }}-kafka:9092"',
    '      - "--topic={{ printf "%s}}" "in\\"put" }}"',
    '      - --group={{ .Values.group | default "g: 1" }}',
    "",
  ].join("\n");
  const masked = maskTemplate(text);
  assert.equal(masked.text.length, text.length);
  assert.equal(masked.text.split("\n").length, text.split("\n").length);
  assert.deepEqual(
    masked.actions.map((a) => [text.slice(a.start, a.end), a.blanked]),
    [
      ['{{ include "c.fullname" . }}', false],
      ['{{ .Values.note | default "a: b #c" }}', false],
      ['{{- /* the chart\'s defaults,\n      "quoted", [with] {flow}: and # more */}}', true],
      ['{{ .Values.name | default "it\'s" }}', false],
      ["{{- end }}", true],
      ['{{ include "c.fullname" . }}', false],
      ['{{ printf "%s}}" "in\\"put" }}', false],
      ['{{ .Values.group | default "g: 1" }}', false],
    ],
  );
  const facts = readDocument("/p/chart/templates/flink.yaml", text);
  assert.deepEqual([facts.syntaxErrors, facts.notAnalysed], [[], undefined]);
  const [d] = facts.flinkDeployments;
  assert.equal(d.object.name, '{{ include "c.fullname" . }}-job');
  assert.deepEqual(scalars(d.config), [["pipeline.name", '{{ .Values.name | default "it\'s" }}']]);
  assert.deepEqual(
    d.jobArgs.map((a) => [a.value, span(a.range)]),
    [
      ['--bootstrap={{ include "c.fullname" . }}-kafka:9092', "14:8-14:61"],
      ['--topic={{ printf "%s}}" "in\\"put" }}', "15:8-15:47"],
      ['--group={{ .Values.group | default "g: 1" }}', "16:8-16:52"],
    ],
  );
});

test("Helm templates: an action writing a block's first entries is blanked, an action that is a value stays one", () => {
  const text = [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    '  name: {{ include "c.fullname" . }}-jobmanager',
    '  labels: {{- include "c.labels" . | nindent 4 }}',
    "    app.kubernetes.io/component: jobmanager",
    "spec:",
    "  replicas: {{ .Values.jobmanager.replicas }}",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: {{ .Values.jobmanager.name }}",
    '          image: "flink:{{ .Values.flinkTag }}"',
    "          args: [jobmanager]",
    "          env:",
    '            - {{- include "c.env" . | nindent 14 }}',
    "              value: x",
    "",
  ].join("\n");
  const masked = maskTemplate(text);
  assert.deepEqual(
    masked.actions.filter((a) => a.blanked).map((a) => text.slice(a.start, a.end)),
    ['{{- include "c.labels" . | nindent 4 }}', '{{- include "c.env" . | nindent 14 }}'],
  );
  const facts = readDocument("/p/chart/templates/jm.yaml", text);
  assert.deepEqual([facts.syntaxErrors, facts.notAnalysed], [[], undefined]);
  const [w] = facts.workloads;
  assert.equal(w.role, "jobmanager");
  assert.deepEqual(
    w.images.map((i) => i.value),
    ["flink:{{ .Values.flinkTag }}"],
  );
});

test("Helm templates: a Flink document that does not parse even masked is reported as not analysed, others are not", () => {
  const text = [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: {{ .Release.Name }}",
    "spec:",
    "  flinkConfiguration:",
    '    taskmanager.numberOfTaskSlots: "2"',
    "   state.backend.type: rocksdb",
    "---",
    "apiVersion: v1",
    "kind: Service",
    "metadata:",
    "  name: {{ .Release.Name }}",
    "spec:",
    "  ports:",
    "   - port: 80",
    "  - port: 81",
    "",
  ].join("\n");
  const facts = readDocument("/p/chart/templates/flink.yaml", text);
  assert.deepEqual([facts.syntaxErrors, facts.flinkDeployments, facts.k8sObjects], [[], [], []]);
  assert.deepEqual(
    facts.notAnalysed?.map((n) => [span(n.range), n.message]),
    [
      [
        "1:6-1:21",
        "This FlinkDeployment is not valid YAML even with its Helm template actions set aside, so it is not checked.",
      ],
    ],
  );
  assert.match(facts.notAnalysed?.[0].details ?? "", /at line 8: .*helm template/);
});

test("Helm templates: in a ConfigMap's blocks, lines of actions are fills of the configuration, not its lines", () => {
  const text = [
    "{{- if .Values.enabled }}",
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    "  name: {{ .Release.Name }}-flink-config",
    "data:",
    "  flink-conf.yaml: |+",
    "{{- if .Values.defaults }}",
    '  {{- .Files.Get "conf/flink-conf.yaml" | nindent 4 -}}',
    "{{- end }}",
    "    taskmanager.numberOfTaskSlots: 2",
    "    {{- range $k, $v := .Values.extra }}",
    "    {{ $k }}: {{ $v }}",
    "    {{- end }}",
    "  config.yaml: |",
    '    {{- include "flink.conf" . | nindent 4 }}',
    '    execution.checkpointing.interval: {{ .Values.interval | default "1 min" }}',
    "{{- end }}",
    "",
  ].join("\n");
  const facts = readDocument("/p/chart/templates/cm.yaml", text);
  assert.deepEqual([facts.syntaxErrors, facts.notAnalysed], [[], undefined]);
  const [legacy, yaml] = facts.flinkConfigs;
  assert.deepEqual(scalars(legacy), [["taskmanager.numberOfTaskSlots", "2"]]);
  assert.deepEqual(legacy.ignoredLines, []);
  assert.deepEqual(
    legacy.templateFills?.map((f) => [f.text, span(f.range)]),
    [
      ['{{- .Files.Get "conf/flink-conf.yaml" | nindent 4 -}}', "8:2-8:55"],
      ["{{ $k }}", "12:4-12:12"],
    ],
  );
  assert.deepEqual(
    yaml.entries.map((e) => [e.key, e.value, e.templated, span(e.valueRange)]),
    [["execution.checkpointing.interval", '{{ .Values.interval | default "1 min" }}', true, "16:38-16:78"]],
  );
  assert.deepEqual(
    yaml.templateFills?.map((f) => f.text),
    ['{{- include "flink.conf" . | nindent 4 }}'],
  );
});

test("masking 1 MB Helm templates of unclosed actions, or of one line of colons before an action, takes linear time", () => {
  for (const text of ['{{ "'.repeat(250_000), `key: ${"a:".repeat(500_000)} {{ .Values.x }}\n  next: 1\n`]) {
    const start = performance.now();
    const masked = maskTemplate(text);
    assert.equal(masked.text.length, text.length);
    assert.ok(performance.now() - start < 1000);
  }
});

test("a 2,000-line manifest is read in well under a second", () => {
  const doc = (i: number) =>
    [
      "---",
      "apiVersion: apps/v1",
      "kind: Deployment",
      "metadata:",
      `  name: taskmanager-${i}`,
      "spec:",
      "  replicas: 2",
      "  template:",
      "    spec:",
      "      containers:",
      "        - name: tm",
      "          image: flink:1.19.1",
      '          args: ["taskmanager"]',
      "          env:",
      "            - name: FLINK_PROPERTIES",
      "              value: |",
      "                taskmanager.numberOfTaskSlots: 2",
      "                parallelism.default: 4",
      "                state.backend.type: rocksdb",
      "                execution.checkpointing.interval: 30 s",
    ].join("\n");
  const text = Array.from({ length: 100 }, (_, i) => doc(i)).join("\n");
  readDocument(FILE, text);
  const start = performance.now();
  const facts = readDocument(FILE, text);
  const ms = performance.now() - start;
  assert.equal(facts.workloads.length, 100);
  assert.ok(ms < 500, `took ${ms.toFixed(0)} ms`);
});
