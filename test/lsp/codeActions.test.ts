/**
 * Code actions over LSP: a finding's fix (applied, the finding goes away), the suppression actions with the exact
 * comment text, the documentation command, stale diagnostics, and fix-all limited to safe fixes.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  type CodeAction,
  CodeActionRequest,
  type Diagnostic,
  DidChangeConfigurationNotification,
  type TextDocumentEdit,
  type TextEdit,
} from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { startServer, type TestClient, workspaceLoaded } from "./lspClient";

const FILE = "flink-conf.yaml";

async function actions(client: TestClient, uri: string, diagnostics: Diagnostic[], only?: string[]) {
  const range = diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const result = await client.answer(
    client.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range,
      context: { diagnostics, only },
    }),
  );
  return (result ?? []) as CodeAction[];
}

/** The edits an action makes to `uri`, checking that they are versioned for `version`. */
function editsFor(action: CodeAction, uri: string, version: number): TextEdit[] {
  const changes = (action.edit?.documentChanges ?? []) as TextDocumentEdit[];
  assert.deepEqual(
    changes.map((c) => c.textDocument),
    [{ uri, version }],
  );
  return changes[0].edits as TextEdit[];
}

function apply(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create("file:///x", "yaml", 0, text), edits);
}

async function opened(client: TestClient) {
  await workspaceLoaded(client);
  const text = readFileSync(client.path(FILE), "utf8");
  const uri = await client.open(FILE, text);
  const published = await client.nextDiagnostics(uri, (p) => p.version === 1);
  const byCode = (code: string) => published.diagnostics.filter((d) => d.code === code);
  return { text, uri, byCode };
}

test("a finding's fix comes first, preferred when safe, and applying it clears the finding", async (t) => {
  const client = await startServer(t, { fixture: "actions", initializationOptions: { debounceMs: 0 } });
  const { text, uri, byCode } = await opened(client);
  const list = await actions(client, uri, byCode("BFL001"));
  assert.deepEqual(
    list.map((a) => [a.title, a.kind, a.isPreferred ?? false]),
    [
      ["Remove the unused suppression comment", "quickfix", true],
      ["Disable BFL001 for this line", "quickfix", false],
      ["Disable BFL001 for this file", "quickfix", false],
      ["Show documentation for BFL001", "quickfix", false],
    ],
  );
  const edits = editsFor(list[0], uri, 1);
  assert.deepEqual(edits, [
    { range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, newText: "" },
  ]);
  const fixed = apply(text, edits);
  await client.change(uri, 2, [{ text: fixed }]);
  const after = await client.nextDiagnostics(uri, (p) => p.version === 2);
  assert.deepEqual(
    after.diagnostics.filter((d) => d.code === "BFL001"),
    [],
  );
  assert.deepEqual(
    after.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.range.start.line),
    [2],
  );
});

test("disable actions insert the comment in the file's syntax, and the documentation action runs the command", async (t) => {
  const client = await startServer(t, { fixture: "actions", initializationOptions: { debounceMs: 0 } });
  const { text, uri, byCode } = await opened(client);
  const list = await actions(client, uri, byCode("BFL100"));
  assert.deepEqual(
    list.map((a) => a.title),
    ["Disable BFL100 for this line", "Disable BFL100 for this file", "Show documentation for BFL100"],
  );
  assert.deepEqual(editsFor(list[0], uri, 1), [
    {
      range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
      newText: "    # beam-flink-lint-disable-next-line BFL100 -- reason\n",
    },
  ]);
  assert.deepEqual(editsFor(list[1], uri, 1), [
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      newText: "# beam-flink-lint-disable-file BFL100 -- reason\n",
    },
  ]);
  assert.deepEqual(list[2].command, {
    title: "Show documentation for BFL100",
    command: "beamFlinkLint.showRuleDocs",
    arguments: ["BFL100"],
  });
  await client.change(uri, 2, [{ text: apply(text, editsFor(list[0], uri, 1)) }]);
  const after = await client.nextDiagnostics(uri, (p) => p.version === 2);
  assert.deepEqual(
    after.diagnostics.filter((d) => d.code === "BFL100" || (d.code === "BFL001" && d.range.start.line === 3)),
    [],
    "the new comment hides the finding and is not itself unused",
  );
});

test("diagnostics of an older version get no fixes, only suppression and documentation actions", async (t) => {
  const client = await startServer(t, { fixture: "actions", initializationOptions: { debounceMs: 60_000 } });
  const { uri, byCode } = await opened(client);
  await client.change(uri, 2, [
    { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: "# x\n" },
  ]);
  const list = await actions(client, uri, byCode("BFL001"));
  assert.deepEqual(
    list.map((a) => a.title),
    ["Disable BFL001 for this line", "Disable BFL001 for this file", "Show documentation for BFL001"],
  );
});

test("a diagnostic of an earlier run on the same text still gets its fixes", async (t) => {
  const client = await startServer(t, { fixture: "actions", initializationOptions: { debounceMs: 0 } });
  const { uri, byCode } = await opened(client);
  // A settings change runs the project again: same text, new diagnostics, while the editor may still send the old.
  const again = client.nextDiagnostics(uri, (p) => p.version === 1);
  await client.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
  assert.notDeepEqual((await again).diagnostics[0].data, byCode("BFL001")[0].data, "a new run was published");
  const list = await actions(client, uri, byCode("BFL001"));
  assert.equal(list[0].title, "Remove the unused suppression comment");
});

test("fix-all applies only safe fixes, analysing first when the document changed since the last run", async (t) => {
  const client = await startServer(t, { fixture: "actions", initializationOptions: { debounceMs: 60_000 } });
  const { uri, byCode } = await opened(client);
  const unsafe = await actions(client, uri, byCode("BFL112"));
  assert.equal(unsafe[0].isPreferred, false, "the fixture has a finding whose only fix is unsafe");
  const at = { line: 2, character: 0 };
  await client.change(uri, 2, [{ range: { start: at, end: at }, text: "rest.port: 8081\n" }]);
  for (const only of [["source.fixAll.beamFlinkLint"], ["source.fixAll"], ["source"]]) {
    const list = await actions(client, uri, [], only);
    assert.deepEqual(
      list.map((a) => [a.title, a.kind]),
      [["Fix all safe Beam & Flink Lint problems", "source.fixAll.beamFlinkLint"]],
      `only: ${only}`,
    );
    const edits = editsFor(list[0], uri, 2);
    assert.deepEqual(edits, [
      { range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, newText: "" },
    ]);
  }
  const quickFixesOnly = await actions(client, uri, [], ["quickfix"]);
  assert.deepEqual(quickFixesOnly, []);
});
