/**
 * Helm chart templates that write a FlinkDeployment's configuration from the chart's values: which actions are
 * fills of `flinkConfiguration`, which name a chart value, and how the project reads those values.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { checkpointing, clustersOf } from "../../server/src/core/project/clusters";
import { hoverAt } from "../../server/src/lsp/hover";
import { workspaceOf } from "../harness/fixtures";
import { span } from "./helpers";

function deployment(flinkConfiguration: string[]): string {
  return [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    '  name: {{ include "c.fullname" . }}',
    "spec:",
    "  image: flink:1.18",
    "  flinkVersion: v1_18",
    ...flinkConfiguration,
    "  job:",
    "    jarURI: local:///opt/flink/usrlib/job.jar",
    "    upgradeMode: stateless",
    "",
  ].join("\n");
}

function fills(lines: string[]) {
  const [d] = readDocument("/p/c/templates/fd.yaml", deployment(lines)).flinkDeployments;
  return {
    entries: d.config.entries.map((e) => e.key),
    fills: (d.config.templateFills ?? []).map((f) => [f.text, span(f.range), f.valuesPath?.join(".")]),
  };
}

test("the actions that write a flinkConfiguration are its fills; toYaml of a chart value at its indentation names it", () => {
  assert.deepEqual(
    fills([
      "  flinkConfiguration:",
      "    {{- toYaml .Values.flink.configuration | nindent 4 }}",
      '    io.tmp.dirs: "/tmp"',
      "    {{- if .Values.ha }}",
      '    {{- include "c.ha" . | nindent 4 }}',
      "    {{- end }}",
      "    state:",
      "      {{- toYaml .Values.flink.state | nindent 6 }}",
      "      backend.type: rocksdb",
      "    {{- range $k, $v := .Values.flink.extra }}",
      "    {{ $k }}: {{ $v | quote }}",
      "    {{- end }}",
      '  {{- include "c.spec" . | nindent 2 }}',
    ]),
    {
      entries: ["io.tmp.dirs", "state", "state.backend.type"],
      fills: [
        ["{{- toYaml .Values.flink.configuration | nindent 4 }}", "8:4-8:57", "flink.configuration"],
        ['{{- include "c.ha" . | nindent 4 }}', "11:4-11:39", undefined],
        // Nested under `state:`, the value's entries would be `state.…`: written there, not read from the values.
        ["{{- toYaml .Values.flink.state | nindent 6 }}", "14:6-14:51", undefined],
        ["{{ $k }}", "17:4-17:12", undefined],
      ],
    },
  );
  // The whole value of the key, with or without entries below it; `| toYaml` and `$.Values` too.
  assert.deepEqual(fills(["  flinkConfiguration: {{- $.Values.flink | toYaml | nindent 4 }}"]).fills, [
    ["{{- $.Values.flink | toYaml | nindent 4 }}", "7:22-7:64", "flink"],
  ]);
  assert.deepEqual(
    fills(["  flinkConfiguration: {{- toYaml .Values.flink | nindent 4 }}", '    io.tmp.dirs: "/tmp"']).fills,
    [["{{- toYaml .Values.flink | nindent 4 }}", "7:22-7:61", "flink"]],
  );
  // At another indentation than the entries, or through `tpl`, what is written is not the value as it stands.
  assert.deepEqual(
    fills([
      "  flinkConfiguration:",
      '    io.tmp.dirs: "/tmp"',
      "{{ toYaml .Values.flink | indent 6 }}",
      "    {{- tpl (toYaml .Values.more) . | nindent 4 }}",
    ]).fills,
    [
      ["{{ toYaml .Values.flink | indent 6 }}", "9:0-9:37", undefined],
      ["{{- tpl (toYaml .Values.more) . | nindent 4 }}", "10:4-10:50", undefined],
    ],
  );
});

test("a chart's values files give what toYaml writes; a value they do not set leaves the configuration open", () => {
  const template = deployment([
    "  flinkConfiguration:",
    "    {{- toYaml .Values.pipeline.configuration | nindent 4 }}",
    '    io.tmp.dirs: "/tmp"',
  ]);
  const values = [
    "pipeline:",
    "  configuration:",
    '    execution.checkpointing.interval: "30 s"',
    "    state:",
    "      backend.type: rocksdb",
    "",
  ].join("\n");
  const ws = workspaceOf(
    new Map([
      ["/project/chart/Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"],
      ["/project/chart/templates/fd.yaml", template],
      ["/project/chart/values.yaml", values],
      ["/project/chart/values-prod.yaml", "pipeline:\n  configuration:\n    parallelism.default: 4\n"],
      ["/project/other/values.yaml", values],
    ]),
  );
  const project = ws.project(ws.projectRootOf("/project/chart/values.yaml"));
  const [cluster] = clustersOf(project);
  assert.equal(cluster.incomplete, false);
  assert.deepEqual(
    cluster.defaults.map((c) => [c.id, c.entries.map((e) => e.key)]),
    [
      [
        "/project/chart/values.yaml#pipeline.configuration",
        ["execution.checkpointing.interval", "state", "state.backend.type"],
      ],
      ["/project/chart/values-prod.yaml#pipeline.configuration", ["parallelism.default"]],
    ],
  );
  const state = checkpointing(cluster);
  assert.equal(state.kind, "on");
  assert.equal(state.kind === "on" && span(state.setting?.entry.valueRange), "2:38-2:44");
  // Every rule checks them, once: they are configurations of the project.
  assert.equal(project.flinkConfigs.filter((c) => c.id.endsWith("#pipeline.configuration")).length, 2);

  const missing = workspaceOf(
    new Map([
      ["/project/chart/templates/fd.yaml", template],
      ["/project/chart/values.yaml", "pipeline:\n  enabled: true\n"],
    ]),
  );
  const [open] = clustersOf(missing.project(missing.projectRootOf("/project/chart/values.yaml")));
  assert.equal(open.incomplete, true);
});

test("hovering a chart value that a template writes into a flinkConfiguration explains the option", () => {
  const ws = workspaceOf(
    new Map([
      [
        "/project/chart/templates/fd.yaml",
        deployment(["  flinkConfiguration:", "    {{- toYaml .Values.pipeline.configuration | nindent 4 }}"]),
      ],
      ["/project/chart/values.yaml", 'pipeline:\n  configuration:\n    execution.checkpointing.interval: "30 s"\n'],
    ]),
  );
  const project = ws.project(ws.projectRootOf("/project/chart/values.yaml"));
  const facts = project.fileFacts("/project/chart/values.yaml");
  assert.ok(facts);
  const hover = hoverAt(facts, { line: 2, character: 10 }, project);
  assert.match(JSON.stringify(hover?.contents ?? ""), /execution\.checkpointing\.interval/);
  assert.equal(hoverAt(facts, { line: 2, character: 10 }, undefined), undefined);
});
