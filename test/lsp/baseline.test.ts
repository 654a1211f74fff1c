/**
 * The workspace's baseline in the editor: a `.beam-flink-lint-baseline.json` written by the command line at the
 * root of the workspace folder hides the findings it records, as the command line does; editing the offending
 * line shows its finding again, and the file is read again when it changes or goes away.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { DidChangeWatchedFilesNotification, FileChangeType } from "vscode-languageserver-protocol/node";
import { BASELINE_FILE_NAME } from "../../server/src/core/baseline";
import { runCli } from "../cli/helpers";
import { startServer, workspaceLoaded } from "./lspClient";

const ONLY_BFL100 = ["--rule", "*=off", "--rule", "BFL100=warning"];

test("findings the baseline records are not published; an edited line, a new baseline and no baseline are followed", async (t) => {
  const client = await startServer(t, { fixture: "baseline", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const cli = runCli([...ONLY_BFL100, "--write-baseline"], client.path("."));
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(readFileSync(client.path(BASELINE_FILE_NAME), "utf8"), /"rule":"BFL100"/);

  const text = `${readFileSync(client.path("flink-conf.yaml"), "utf8")}web.port=8081\n`;
  const uri = await client.open("flink-conf.yaml", text, "flink-conf");
  const lines = (p: { diagnostics: { code?: string | number; range: { start: { line: number } } }[] }) =>
    p.diagnostics
      .filter((d) => d.code === "BFL100")
      .map((d) => d.range.start.line)
      .sort();

  const opened = await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(lines(opened), [4], "only the line added after the baseline was written");

  await client.change(uri, 2, [
    { range: { start: { line: 3, character: 13 }, end: { line: 3, character: 14 } }, text: "2" },
  ]);
  const edited = await client.nextDiagnostics(uri, (p) => p.version === 2);
  assert.deepEqual(lines(edited), [3, 4], "rest.port=8082 is not the line the baseline recorded");

  // The file saved and the baseline written again: it now records every line, and the server reads it again.
  writeFileSync(client.path("flink-conf.yaml"), text.replace("rest.port=8081", "rest.port=8082"));
  runCli([...ONLY_BFL100, "--write-baseline"], client.path("."));
  await client.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: client.uri(BASELINE_FILE_NAME), type: FileChangeType.Changed }],
  });
  const reread = await client.nextDiagnostics(uri, (p) => lines(p).length === 0);
  assert.deepEqual(lines(reread), []);

  rmSync(client.path(BASELINE_FILE_NAME));
  await client.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: client.uri(BASELINE_FILE_NAME), type: FileChangeType.Deleted }],
  });
  const none = await client.nextDiagnostics(uri, (p) => lines(p).length === 3);
  assert.deepEqual(lines(none), [2, 3, 4], "without a baseline every finding is back");
});

test("a broken baseline hides nothing, and the server goes on", async (t) => {
  const client = await startServer(t, { fixture: "baseline", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  writeFileSync(client.path(BASELINE_FILE_NAME), '{"version": 1, "entries": [');
  const uri = await client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"), "flink-conf");
  const opened = await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(
    opened.diagnostics.filter((d) => d.code === "BFL100").map((d) => d.range.start.line),
    [2, 3],
  );
});
