/**
 * Job code over LSP: findings on a Java file follow the project's Flink configuration, a half-typed method costs
 * only its own facts, the read hover shows the merged consumer configuration, and a long generated class is
 * analysed within a bounded memory.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  DiagnosticSeverity,
  type Hover,
  HoverRequest,
  type MarkupContent,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { generateJob } from "../java/gen";
import { startServer, type TestClient, workspaceLoaded } from "./lspClient";

const JOB = "src/main/java/com/example/OrdersPipeline.java";
const INTERVAL = "execution.checkpointing.interval: 1 min\n";

function markdown(h: Hover | null): string {
  return (h?.contents as MarkupContent | undefined)?.value ?? "";
}

function bfl404(p: PublishDiagnosticsParams) {
  return p.diagnostics.filter((d) => d.code === "BFL404");
}

async function openProject(t: Parameters<typeof startServer>[0]) {
  const client = await startServer(t, { fixture: "java-crossfile", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const jobUri = await client.open(JOB, readFileSync(client.path(JOB), "utf8"), "java");
  return { client, jobUri };
}

test("adding and removing the cluster's checkpoint interval moves BFL404 on the Java file between error and warning", async (t) => {
  const { client, jobUri } = await openProject(t);
  const first = await client.nextDiagnostics(jobUri, (p) => bfl404(p).length > 0);
  const [error] = bfl404(first);
  assert.equal(error.severity, DiagnosticSeverity.Error);
  assert.deepEqual(error.range, { start: { line: 11, character: 35 }, end: { line: 11, character: 66 } });

  const confUri = await client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"));
  const end = { line: 2, character: 0 };
  const warned = client.nextDiagnostics(jobUri, (p) => bfl404(p)[0]?.severity === DiagnosticSeverity.Warning);
  await client.change(confUri, 2, [{ range: { start: end, end }, text: INTERVAL }]);
  const [warning] = bfl404(await warned);
  assert.deepEqual(warning.range, error.range);
  assert.equal(
    warning.message,
    "Beam's checkpointingInterval option is never set, so Beam treats checkpointing as off.",
  );
  // The details, under the message: the cluster's interval and what it does not do for Beam.
  assert.match(
    String(warning.relatedInformation?.[0].message),
    /execution\.checkpointing\.interval 1 min in flink-conf\.yaml:3 may make Flink checkpoint/,
  );
  assert.deepEqual(
    warning.relatedInformation?.filter((r) => r.location.uri === confUri).map((r) => r.location.range),
    [{ start: { line: 2, character: 34 }, end: { line: 2, character: 39 } }],
  );

  const errorAgain = client.nextDiagnostics(jobUri, (p) => bfl404(p)[0]?.severity === DiagnosticSeverity.Error);
  await client.change(confUri, 3, [{ range: { start: end, end: { line: 3, character: 0 } }, text: "" }]);
  assert.deepEqual(bfl404(await errorAgain)[0].range, error.range);
});

const BROKEN = `package com.example;

class Broken {
  Object typing() {
    return KafkaIO.<String, String>read().withTopic("half-typed"
  }

  Object orders() {
    return KafkaIO.<String, String>read().withTopic("orders").commitOffsetsInFinalize();
  }
}
`;

test("a Java file with a syntax error in one method still reports the findings of another", async (t) => {
  const { client } = await openProject(t);
  const uri = await client.open("src/main/java/com/example/Broken.java", BROKEN, "java");
  const published = await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(
    published.diagnostics.filter((d) => d.code === "BFL402").map((d) => [d.severity, d.range.start.line]),
    [[DiagnosticSeverity.Error, 8]],
  );
  // The syntax error is the compiler's business; that the method was not checked is said, as information.
  assert.deepEqual(
    published.diagnostics
      .filter((d) => d.range.start.line < 7)
      .map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character]),
    [["BFL003", DiagnosticSeverity.Information, 3, 9]],
  );
});

test("hover on a KafkaIO read over LSP: the merged consumer configuration and the commit mode", async (t) => {
  const { client, jobUri } = await openProject(t);
  const hover = await client.answer(
    client.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri: jobUri },
      position: { line: 14, character: 12 },
    }),
  );
  assert.deepEqual(hover?.range, { start: { line: 14, character: 8 }, end: { line: 14, character: 38 } });
  const text = markdown(hover);
  assert.ok(text.startsWith("**KafkaIO read** of `orders`\n\nCommit mode: **finalize**"), text);
  assert.match(text, /Nothing in the project sets `checkpointingInterval`.*\(BFL404\)/);
  assert.match(
    text,
    /\n\| `group\.id` \| `"orders-consumer"` \| `withConsumerConfigUpdates`, `src\/main\/java\/com\/example\/OrdersPipeline\.java` line 20 \|$/,
  );
});

/** The resident set size of a process, from /proc (Linux). */
function residentMegabytes(client: TestClient): number {
  const status = readFileSync(`/proc/${client.proc.pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
  assert.ok(kb, "VmRSS in /proc/<pid>/status");
  return Number(kb[1]) / 1024;
}

test("the server stays below 400 MB resident after opening a generated 10,000-line Java file", async (t) => {
  const { client, jobUri } = await openProject(t);
  await client.nextDiagnostics(jobUri, (p) => p.version === 1);
  const initial = residentMegabytes(client);
  const job = generateJob(10_000);
  const uri = await client.open("src/main/java/com/example/GeneratedJob.java", job.text, "java");
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  const lines = job.text.split("\n");
  const before = job.text.slice(0, job.text.lastIndexOf("KafkaIO.<String, String>read()")).split("\n");
  const position = { line: before.length - 1, character: before[before.length - 1].length + 1 };
  const hover = await client.answer(client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position }));
  assert.match(markdown(hover), new RegExp(`^\\*\\*KafkaIO read\\*\\* of \`topic-${job.reads - 1}\``));
  const after = residentMegabytes(client);
  t.diagnostic(
    `server RSS: ${initial.toFixed(0)} MB before, ${after.toFixed(0)} MB after opening ${lines.length} lines of Java`,
  );
  assert.ok(after < 400, `${after.toFixed(0)} MB`);
});
