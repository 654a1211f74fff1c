/**
 * Diagnostics over LSP: what is published on open and change, for which version, with which fields; debouncing
 * and stale runs; cross-file publishing; the workspace command; files changed on disk; the size limit.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import {
  CodeActionRequest,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  ExecuteCommandRequest,
  FileChangeType,
  HoverRequest,
} from "vscode-languageserver-protocol/node";
import { startServer, workspaceLoaded } from "./lspClient";

const BFL100_MESSAGE =
  "Flink ignores this line because it has no ': ' between key and value; the setting does not apply.";

function withoutData<T extends { data?: unknown }>(d: T): Omit<T, "data"> {
  const { data: _, ...rest } = d;
  return rest;
}

test("didOpen publishes the finding with code, range, severity, source and docs link for that version", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  const uri = await client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"));
  const published = await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(published.diagnostics.filter((d) => d.code === "BFL100").map(withoutData), [
    {
      range: { start: { line: 3, character: 2 }, end: { line: 3, character: 23 } },
      severity: DiagnosticSeverity.Warning,
      source: "beam-flink-lint",
      code: "BFL100",
      codeDescription: { href: "https://github.com/beam-flink-lint/beam-flink-lint/blob/main/docs/rules/BFL100.md" },
      message: BFL100_MESSAGE,
      // The details: why, and how to write the line, under the message at the finding's own place.
      relatedInformation: [
        {
          location: { uri, range: { start: { line: 3, character: 2 }, end: { line: 3, character: 23 } } },
          message:
            "flink-conf.yaml is read line by line: a key and its value are separated by a colon followed by a space (`key: value`).",
        },
      ],
    },
  ]);
});

test("an incremental change publishes diagnostics for the new version only", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  const uri = await client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"));
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  await client.change(uri, 2, [
    { range: { start: { line: 3, character: 22 }, end: { line: 3, character: 22 } }, text: " " },
  ]);
  const v2 = await client.nextDiagnostics(uri, (p) => p.version === 2);
  assert.deepEqual(
    v2.diagnostics.filter((d) => d.code === "BFL100"),
    [],
  );
  await client.change(uri, 3, [
    { range: { start: { line: 1, character: 29 }, end: { line: 1, character: 31 } }, text: "=" },
  ]);
  const v3 = await client.nextDiagnostics(uri, (p) => p.version === 3);
  assert.deepEqual(
    v3.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.range),
    [{ start: { line: 1, character: 0 }, end: { line: 1, character: 31 } }],
  );
});

test("a change within the debounce time makes the pending run stale: only the newest version is published", async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 100, analyzeWorkspaceOnOpen: false },
  });
  await workspaceLoaded(client);
  const uri = await client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"));
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  const before = client.published.length;
  const at = { line: 0, character: 0 };
  await client.change(uri, 2, [{ range: { start: at, end: at }, text: "# one\n" }]);
  await client.change(uri, 3, [{ range: { start: at, end: at }, text: "# two\n" }]);
  const v3 = await client.nextDiagnostics(uri, (p) => p.version === 3);
  assert.deepEqual(
    v3.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.range.start.line),
    [5],
  );
  const versions = client.published
    .slice(before)
    .filter((p) => p.uri === uri)
    .map((p) => p.version);
  assert.deepEqual(versions, [3]);
});

test("cross-file: editing the project config republishes a closed file's diagnostics", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const confUri = client.uri("flink-conf.yaml");
  const projectUri = await client.open(".beam-flink-lint.yaml", "rules:\n  BFL100: error\n");
  const closed = await client.nextDiagnostics(confUri);
  assert.equal(closed.version, undefined, "a closed file is published without a version");
  assert.deepEqual(
    closed.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.severity),
    [DiagnosticSeverity.Error],
  );
  await client.change(projectUri, 2, [{ text: "rules:\n  BFL100: off\n" }]);
  const after = await client.nextDiagnostics(confUri);
  assert.deepEqual(
    after.diagnostics.filter((d) => d.code === "BFL100"),
    [],
  );
});

test("cross-file: editing a compose file clears a finding in the closed flink-conf.yaml it relates to", async (t) => {
  const client = await startServer(t, { fixture: "crossfile", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const confUri = client.uri("flink-conf.yaml");
  const composeUri = await client.open("docker-compose.yml", readFileSync(client.path("docker-compose.yml"), "utf8"));
  const before = await client.nextDiagnostics(confUri);
  const [finding] = before.diagnostics.filter((d) => d.code === "BFL110");
  assert.deepEqual(finding.range, { start: { line: 1, character: 21 }, end: { line: 1, character: 22 } });
  assert.deepEqual(
    finding.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]),
    [
      [confUri, 1],
      [composeUri, 8],
      [confUri, 0],
    ],
  );
  await client.change(composeUri, 2, [
    { range: { start: { line: 8, character: 16 }, end: { line: 8, character: 17 } }, text: "4" },
  ]);
  const after = await client.nextDiagnostics(confUri);
  assert.deepEqual(
    after.diagnostics.filter((d) => d.code === "BFL110"),
    [],
  );
});

test("analysis on open publishes the findings of files that are not open, without any request", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  const published = await client.nextDiagnostics(client.uri("flink-conf.yaml"));
  assert.deepEqual(
    published.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.range.start.line),
    [3],
  );
  assert.equal(published.version, undefined, "a file that is not open is published without a version");
});

test("lintWorkspace publishes the findings of files that are not open", async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 0, analyzeWorkspaceOnOpen: false },
  });
  await workspaceLoaded(client);
  const confUri = client.uri("flink-conf.yaml");
  assert.equal(client.diagnostics.has(confUri), false, "nothing is published before the command");
  await client.answer(
    client.conn.sendRequest(ExecuteCommandRequest.type, { command: "beamFlinkLint.server.lintWorkspace" }),
  );
  const published = client.diagnostics.get(confUri);
  assert.deepEqual(
    published?.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.range.start.line),
    [3],
  );
});

test("a file changed on disk is read again and its project re-analysed", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const confUri = client.uri("flink-conf.yaml");
  const uri = await client.open("other/config.yaml", "taskmanager.numberOfTaskSlots: 2\n");
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  writeFileSync(client.path(".beam-flink-lint.yaml"), "rules:\n  BFL100: info\n");
  await client.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: client.uri(".beam-flink-lint.yaml"), type: FileChangeType.Created }],
  });
  const published = await client.nextDiagnostics(confUri);
  assert.deepEqual(
    published.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.severity),
    [DiagnosticSeverity.Information],
  );
});

test("closing a document falls back to the disk text", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const projectUri = await client.open(".beam-flink-lint.yaml", "rules:\n  BFL100: error\n");
  const confUri = client.uri("flink-conf.yaml");
  await client.nextDiagnostics(confUri, (p) => p.diagnostics.some((d) => d.severity === DiagnosticSeverity.Error));
  await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: projectUri } });
  const after = await client.nextDiagnostics(confUri);
  assert.deepEqual(
    after.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.severity),
    [DiagnosticSeverity.Warning],
  );
});

test("a document over the size limit gets one information diagnostic instead of analysis", async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 0, maxFileSizeMB: 0.0001 },
  });
  const text = `${"# padding line\n".repeat(10)}parallelism.default:2\n`;
  const uri = await client.open("flink-conf.yaml", text);
  const published = await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.equal(published.diagnostics.length, 1);
  assert.equal(published.diagnostics[0].severity, DiagnosticSeverity.Information);
  assert.match(String(published.diagnostics[0].message), /larger than 0.0001 MB/);
  await client.change(uri, 2, [{ text: "parallelism.default:2\n" }]);
  const small = await client.nextDiagnostics(uri, (p) => p.version === 2);
  assert.deepEqual(
    small.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.range.start.line),
    [0],
  );
});

test("malformed or unexpected requests get an empty answer and the server keeps answering", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  const uri = await client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"));
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  const position = { line: 1, character: 3 };
  assert.equal(
    await client.answer(
      client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: "untitled:Untitled-1" }, position }),
    ),
    null,
  );
  const bogus = {
    range: { start: position, end: position },
    message: "x",
    source: "beam-flink-lint",
    code: "BFL100",
    data: { analysis: 999, index: 42, rule: "BFL100" },
  };
  const actions = await client.answer(
    client.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: bogus.range,
      context: { diagnostics: [bogus] },
    }),
  );
  assert.deepEqual(
    actions?.map((a) => a.title),
    ["Disable BFL100 for this line", "Disable BFL100 for this file", "Show documentation for BFL100"],
  );
  const hover = await client.answer(client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position }));
  assert.ok(hover, "a normal request still answers");
});

test("shutdown and exit end the server with code 0", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  assert.equal(await client.shutdown(), 0);
});
