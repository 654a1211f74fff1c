/**
 * Settings come from workspace/configuration for each document and apply at once when they change: severity
 * customizations, enable, run mode, the assumed Flink version (reported in the status notification).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import {
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  DidSaveTextDocumentNotification,
} from "vscode-languageserver-protocol/node";
import { startServer, type TestClient, workspaceLoaded } from "./lspClient";

async function openConf(client: TestClient): Promise<string> {
  await workspaceLoaded(client);
  return client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"));
}

function severities(client: TestClient, uri: string, code: string): (DiagnosticSeverity | undefined)[] {
  return (client.diagnostics.get(uri)?.diagnostics ?? []).filter((d) => d.code === code).map((d) => d.severity);
}

test("rules.customizations apply in order, and are read for the document being analysed", async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    settings: {
      debounceMs: 0,
      rules: {
        customizations: [
          { rule: "BFL1*", severity: "hint" },
          { rule: "config-line-ignored", severity: "upgrade" },
        ],
      },
    },
  });
  const uri = await openConf(client);
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(severities(client, uri, "BFL100"), [DiagnosticSeverity.Information]);
  assert.ok(client.configurationScopes.includes(uri), "settings are asked for the document's URI");
});

test("a settings change re-publishes with the new settings; enable: false withdraws everything", async (t) => {
  const client = await startServer(t, { fixture: "basic", settings: { debounceMs: 0 } });
  const uri = await openConf(client);
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(severities(client, uri, "BFL100"), [DiagnosticSeverity.Warning]);

  client.settings = { debounceMs: 0, rules: { customizations: [{ rule: "BFL100", severity: "error" }] } };
  await client.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  await client.nextDiagnostics(uri, (p) => p.diagnostics.some((d) => d.severity === DiagnosticSeverity.Error));
  assert.deepEqual(severities(client, uri, "BFL100"), [DiagnosticSeverity.Error]);

  client.settings = { debounceMs: 0, enable: false };
  await client.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  await client.nextDiagnostics(uri, (p) => p.diagnostics.length === 0);
  assert.deepEqual(client.diagnostics.get(uri)?.diagnostics, []);
});

test("run: onSave analyses on save, not while typing", async (t) => {
  const client = await startServer(t, { fixture: "basic", settings: { debounceMs: 0, run: "onSave" } });
  const uri = await openConf(client);
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  const before = client.published.length;
  await client.change(uri, 2, [
    { range: { start: { line: 3, character: 22 }, end: { line: 3, character: 22 } }, text: " " },
  ]);
  await client.conn.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  const saved = await client.nextDiagnostics(uri, (p) => p.version === 2);
  assert.deepEqual(
    saved.diagnostics.filter((d) => d.code === "BFL100"),
    [],
  );
  assert.equal(client.published.slice(before).filter((p) => p.uri === uri).length, 1, "one run: the save");
});

test("the assumed Flink version setting shows in the status notification", async (t) => {
  const client = await startServer(t, { fixture: "basic", settings: { debounceMs: 0, flinkVersion: "1.18" } });
  const uri = await openConf(client);
  await client.until("a status notification", () =>
    client.notifications.some((n) => n.method === "beamFlinkLint/status"),
  );
  const status = client.notifications.find((n) => n.method === "beamFlinkLint/status")?.params;
  assert.deepEqual(status, {
    uri,
    flinkVersion: "1.18",
    versionSource: "Flink 1.18 from the beamFlinkLint.flinkVersion setting",
    files: 1,
    counts: { error: 0, warning: 2, info: 0, hint: 0 },
    off: false,
  });
});

test("the status of a Flink configuration names the version of the deployment that runs it", async (t) => {
  const files: Record<string, string> = {
    "k8s/orders.yaml": [
      "apiVersion: flink.apache.org/v1beta1",
      "kind: FlinkDeployment",
      "metadata:",
      "  name: orders",
      "spec:",
      "  image: flink:1.20.1",
      "  flinkVersion: v1_20",
      "  flinkConfiguration:",
      "    execution.checkpointing.interval: 1 min",
      "",
    ].join("\n"),
    "standalone/docker-compose.yml": [
      "services:",
      "  jobmanager:",
      "    image: flink:1.18.1",
      "    command: jobmanager",
      "    volumes:",
      "      - ./conf:/opt/flink/conf",
      "",
    ].join("\n"),
    "standalone/conf/flink-conf.yaml": "execution.checkpointing.interval: 1 min\n",
  };
  const client = await startServer(t, {
    fixture: "basic",
    settings: { debounceMs: 0 },
    prepare(folder) {
      rmSync(join(folder, "flink-conf.yaml"));
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(folder, file)), { recursive: true });
        writeFileSync(join(folder, file), text);
      }
    },
  });
  await workspaceLoaded(client);
  const statusOf = async (file: string) => {
    const uri = await client.open(file, files[file]);
    await client.until(`the status of ${file}`, () =>
      client.notifications.some(
        (n) => n.method === "beamFlinkLint/status" && (n.params as { uri: string }).uri === uri,
      ),
    );
    const params = client.notifications
      .filter((n) => n.method === "beamFlinkLint/status" && (n.params as { uri: string }).uri === uri)
      .at(-1)?.params as { flinkVersion?: string; versionSource?: string };
    return `${params.flinkVersion}: ${params.versionSource}`;
  };
  assert.equal(
    await statusOf("standalone/conf/flink-conf.yaml"),
    "1.18: Flink 1.18: 1.18 from an image tag in standalone/docker-compose.yml",
  );
  assert.match(await statusOf("k8s/orders.yaml"), /^1\.20: Flink 1\.20: 1\.20 from the FlinkDeployment's flinkVersion/);
});
