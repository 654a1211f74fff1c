/**
 * The language server under load, over stdio: bursts of incremental edits, many rounds of them, open/close loops;
 * and a rule that throws, inside the server's analyzer. Times and memory are compared between rounds of the same
 * run (ratios), never against fixed numbers.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { test } from "node:test";
import type { Connection, TextDocuments } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { analyzeProject } from "../../server/src/core/engine";
import { ALL_RULES } from "../../server/src/core/rules/index";
import type { Rule } from "../../server/src/core/rules/types";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { Analyzer } from "../../server/src/lsp/analysis";
import { DEFAULT_SETTINGS } from "../../server/src/lsp/protocol";
import { WorkspaceHost } from "../../server/src/lsp/workspaceHost";
import { startServer, type TestClient, workspaceLoaded } from "../lsp/lspClient";

/** Resident memory of the server process in MB (Linux /proc). */
function serverRss(client: TestClient): number {
  const status = readFileSync(`/proc/${client.proc.pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]) / 1024;
}

const CONF = [
  "taskmanager.numberOfTaskSlots: 4",
  "parallelism.default: 2",
  "restart-strategy.type: fixed-delay",
  "restart-strategy.fixed-delay.delay: 10",
  "",
].join("\n");

/** Line 3 holds `delay: 10`; each edit rewrites its last digit, so every version is a new text of the same shape. */
const DIGIT = { line: 3, character: 37 };

function digitEdit(version: number) {
  return {
    range: { start: DIGIT, end: { line: DIGIT.line, character: DIGIT.character + 1 } },
    text: String(version % 10),
  };
}

async function openConf(client: TestClient): Promise<string> {
  await workspaceLoaded(client);
  const uri = await client.open("burst/flink-conf.yaml", CONF);
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  return uri;
}

test("1,000 rapid incremental edits: diagnostics for the last version only, matching its text", {
  timeout: 90_000,
}, async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 1000, analyzeWorkspaceOnOpen: false },
  });
  const uri = await openConf(client);
  const from = client.published.length;
  for (let v = 2; v <= 1001; v++) await client.change(uri, v, [digitEdit(v)]);
  const last = await client.nextDiagnostics(uri, (p) => p.version === 1001);
  const forDoc = client.published.slice(from).filter((p) => p.uri === uri);
  assert.deepEqual(
    forDoc.map((p) => p.version),
    [1001],
    "a burst inside the debounce is analysed once, for its last version",
  );
  // Version 1001 ends with `delay: 11`: a bare number of milliseconds (BFL106), like every version before it.
  assert.ok(last.diagnostics.some((d) => d.code === "BFL106" && d.range.start.line === DIGIT.line));
});

test("many rounds of edits: no growing lag and stable memory", { timeout: 120_000 }, async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 0, analyzeWorkspaceOnOpen: false },
  });
  const uri = await openConf(client);
  const rounds: { lag: number; rss: number }[] = [];
  let version = 1;
  for (let round = 0; round < 12; round++) {
    const start = performance.now();
    for (let i = 0; i < 100; i++) await client.change(uri, ++version, [digitEdit(version)]);
    const target = version;
    await client.nextDiagnostics(uri, (p) => p.version === target);
    rounds.push({ lag: performance.now() - start, rss: serverRss(client) });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // The first rounds warm up (compilation, caches); compare settled early rounds with the last ones, by median, so
  // that one garbage collection or a busy machine does not decide.
  const early = rounds.slice(2, 7);
  const late = rounds.slice(-5);
  const lag = median(late.map((r) => r.lag)) / median(early.map((r) => r.lag));
  const memory = median(late.map((r) => r.rss)) / median(early.map((r) => r.rss));
  t.diagnostic(`lag per 100 edits: ${rounds.map((r) => r.lag.toFixed(0)).join(", ")} ms`);
  t.diagnostic(`server RSS: ${rounds.map((r) => r.rss.toFixed(0)).join(", ")} MB`);
  assert.ok(lag < 3, `the last rounds took ${lag.toFixed(1)} times as long as the early ones`);
  assert.ok(memory < 1.5, `the server grew ${memory.toFixed(2)} times between the early and the last rounds`);
});

test("open/close loops: every close withdraws the diagnostics, nothing piles up", { timeout: 120_000 }, async (t) => {
  const client = await startServer(t, {
    fixture: "basic",
    initializationOptions: { debounceMs: 0, analyzeWorkspaceOnOpen: false },
  });
  await workspaceLoaded(client);
  const onDisk = client.uri("flink-conf.yaml");
  const diskText = readFileSync(client.path("flink-conf.yaml"), "utf8");
  const rss: number[] = [];
  for (let round = 0; round < 8; round++) {
    for (let i = 0; i < 25; i++) {
      // A document that exists only in the editor: closing it takes it out of the workspace.
      const uri = await client.open(`scratch/${i}/flink-conf.yaml`, CONF);
      await client.nextDiagnostics(uri, (p) => p.version === 1 && p.diagnostics.length > 0);
      const cleared = client.nextDiagnostics(uri, (p) => p.diagnostics.length === 0);
      await client.conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
      await cleared;
      // A document on disk: closing it goes back to the disk text, whose diagnostics stay.
      await client.conn.sendNotification("textDocument/didOpen", {
        textDocument: { uri: onDisk, languageId: "yaml", version: 1, text: diskText },
      });
      await client.nextDiagnostics(onDisk, (p) => p.version === 1);
      await client.conn.sendNotification("textDocument/didClose", { textDocument: { uri: onDisk } });
    }
    rss.push(serverRss(client));
  }
  const last = client.diagnostics.get(onDisk);
  assert.ok(last && last.diagnostics.length > 0, "the disk file keeps its findings after the last close");
  t.diagnostic(`server RSS per 25 loops: ${rss.map((r) => r.toFixed(0)).join(", ")} MB`);
  const settled = rss.slice(1, 3).reduce((a, b) => a + b, 0) / 2;
  assert.ok(
    rss[rss.length - 1] / settled < 1.5,
    `RSS went from ${settled.toFixed(0)} to ${rss[rss.length - 1].toFixed(0)} MB`,
  );
});

const THROWING: Rule = {
  meta: { ...ALL_RULES[0].meta, code: "BFL999", name: "always-throws" },
  check() {
    throw new Error("boom");
  },
};

test("a rule that throws is contained: reported as a failure, the other rules' findings unchanged", () => {
  const ws = new Workspace({ roots: ["/p"] });
  ws.setFile("/p/flink-conf.yaml", CONF);
  const project = ws.project("/p");
  const clean = analyzeProject(project, {}, ALL_RULES);
  const withThrow = analyzeProject(project, {}, [THROWING, ...ALL_RULES]);
  assert.deepEqual(withThrow.byFile, clean.byFile);
  assert.deepEqual(
    withThrow.failures.map((f) => [f.rule, f.error.split("\n")[0]]),
    [["BFL999", "Error: boom"]],
  );
});

test("the server's analyzer logs a throwing rule once, however often it runs, and still publishes", () => {
  const errors: string[] = [];
  const published: { uri: string; diagnostics: { code?: unknown }[] }[] = [];
  const connection = {
    console: {
      error: (m: string) => errors.push(m),
      warn: () => undefined,
      log: () => undefined,
      info: () => undefined,
    },
    sendDiagnostics: (p: { uri: string; diagnostics: { code?: unknown }[] }) => published.push(p),
    sendNotification: () => undefined,
  } as unknown as Connection;
  const documents = { get: () => undefined } as unknown as TextDocuments<TextDocument>;
  const host = new WorkspaceHost();
  host.setFolders(["/p"]);
  host.workspace.setFile("/p/flink-conf.yaml", CONF);
  const analyzer = new Analyzer(connection, documents, host, async () => DEFAULT_SETTINGS);
  const rules = ALL_RULES as Rule[];
  rules.unshift(THROWING);
  try {
    for (let run = 0; run < 3; run++) analyzer.analyzeNow("/p", DEFAULT_SETTINGS);
  } finally {
    rules.splice(rules.indexOf(THROWING), 1);
  }
  assert.equal(errors.length, 1, errors.join("\n"));
  assert.match(errors[0], /BFL999/);
  const codes = published.flatMap((p) => p.diagnostics.map((d) => d.code));
  assert.ok(codes.includes("BFL106"), `published: ${JSON.stringify(codes)}`);
});
