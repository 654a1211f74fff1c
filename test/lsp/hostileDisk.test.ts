/**
 * The language server against hostile documents and disks: a document far over the size limit is never parsed,
 * not even for a hover; a file replaced on disk by a huge file or a FIFO is not read again; a FIFO named
 * `.gitignore` does not stop the workspace from loading; links out of the workspace folder are not followed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import {
  CodeActionRequest,
  CompletionRequest,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type FileEvent,
  HoverRequest,
} from "vscode-languageserver-protocol/node";
import { emptyTempDir, removeTemps } from "../cli/helpers";
import { startServer, timed, workspaceLoaded } from "./lspClient";

after(removeTemps);

const mkfifo = (path: string) => assert.equal(spawnSync("mkfifo", [path]).status, 0, "mkfifo");

/** Writing a large message to the server's (unreferenced) pipe holds no handle: keep the test's loop alive. */
function keepAlive(t: { after(fn: () => void): void }): void {
  const timer = setInterval(() => undefined, 1000);
  t.after(() => clearInterval(timer));
}

test("hover, completion and code actions on a 150 MB document answer at once, without parsing it", {
  timeout: 120_000,
}, async (t) => {
  keepAlive(t);
  // Parsing 150 MB of YAML takes gigabytes; with a 1 GB heap the server would die trying. Settings come from the
  // editor, as in VS Code: the hover arrives while the server still waits for them.
  const client = await startServer(t, {
    fixture: "basic",
    settings: { debounceMs: 0 },
    execArgv: ["--max-old-space-size=1024"],
  });
  await workspaceLoaded(client);
  const line = "taskmanager.numberOfTaskSlots: 2\n";
  const text = line.repeat(Math.ceil((150 * 1024 * 1024) / line.length));
  const uri = await client.open("big/flink-conf.yaml", text);
  const position = { line: 0, character: 3 };
  const hover = await timed(
    "the hover",
    client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position }),
  );
  assert.equal(hover, null);
  const completion = await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
  assert.equal(completion, null);
  const actions = await client.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: position, end: position },
    context: { diagnostics: [], only: ["source.fixAll.beamFlinkLint"] },
  });
  assert.deepEqual(actions, []);
  await client.until("the size note", () => client.diagnostics.get(uri)?.version === 1);
  const published = client.diagnostics.get(uri) ?? assert.fail();
  assert.equal(published.diagnostics.length, 1);
  assert.match(String(published.diagnostics[0].message), /larger than 5 MB, so it is not analysed/);
  assert.equal(client.proc.exitCode, null, "the server is still running");
});

test("a loaded file replaced on disk by a 100 MB file or a FIFO is not read again: it is named, and left out", {
  timeout: 60_000,
}, async (t) => {
  keepAlive(t);
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  for (const name of ["a", "b"]) {
    mkdirSync(client.path(name));
    writeFileSync(client.path(`${name}/flink-conf.yaml`), "parallelism.default:2\n");
  }
  const uris = ["a", "b"].map((n) => client.uri(`${n}/flink-conf.yaml`));
  const created = uris.map((uri) => client.nextDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === "BFL100")));
  await client.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: uris.map((uri): FileEvent => ({ uri, type: FileChangeType.Created })),
  });
  await Promise.all(created);

  const big = client.path("a/flink-conf.tmp");
  writeFileSync(big, "taskmanager.numberOfTaskSlots: 2\n".repeat(Math.ceil((100 * 1024 * 1024) / 33)));
  renameSync(big, client.path("a/flink-conf.yaml"));
  rmSync(client.path("b/flink-conf.yaml"));
  mkfifo(client.path("b/flink-conf.yaml"));
  const notes = uris.map((uri) =>
    client.nextDiagnostics(uri, (p) => p.diagnostics.length === 1 && p.diagnostics[0].code === undefined),
  );
  await client.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: uris.map((uri): FileEvent => ({ uri, type: FileChangeType.Changed })),
  });
  const [tooLarge, fifo] = await Promise.all(notes);
  assert.equal(tooLarge.diagnostics[0].severity, DiagnosticSeverity.Information);
  assert.match(
    String(tooLarge.diagnostics[0].message),
    /^This file is not analysed: 100\.0 MB is more than the 5\.0 MB limit\.$/,
  );
  assert.match(String(fifo.diagnostics[0].message), /^This file is not analysed: a FIFO, not a regular file\.$/);
  assert.equal(await client.shutdown(), 0, "the server exits: no read is left hanging on the FIFO");
});

test("a FIFO named .gitignore or .beam-flink-lint.yaml does not stop the workspace from loading", {
  timeout: 60_000,
}, async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 0 },
    prepare: (folder) => {
      mkfifo(join(folder, ".gitignore"));
      mkdirSync(join(folder, "sub"));
      writeFileSync(join(folder, "sub", "flink-conf.yaml"), "parallelism.default:2\n");
      mkfifo(join(folder, "sub", ".beam-flink-lint.yaml"));
    },
  });
  await workspaceLoaded(client);
  assert.equal(await client.shutdown(), 0);
});

test("a link out of the workspace folder is not followed when the folder is loaded", { timeout: 60_000 }, async (t) => {
  keepAlive(t);
  const outside = emptyTempDir();
  writeFileSync(join(outside, "flink-conf.yaml"), "parallelism.default:2\n");
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 0 },
    prepare: (folder) => symlinkSync(outside, join(folder, "linked"), "dir"),
  });
  await workspaceLoaded(client);
  const linked = client.uri("linked/flink-conf.yaml");
  const inside = client.uri("flink-conf.yaml");
  await client.answer(
    client.conn.sendRequest("workspace/executeCommand", { command: "beamFlinkLint.server.lintWorkspace" }),
  );
  await client.until("the workspace file's diagnostics", () => client.diagnostics.has(inside));
  assert.equal(client.diagnostics.has(linked), false);
  assert.equal(client.diagnostics.has(pathToFileURL(join(outside, "flink-conf.yaml")).href), false);
});
