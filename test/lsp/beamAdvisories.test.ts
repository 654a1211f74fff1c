/**
 * Known-bug findings over LSP: BFL302 on a build file follows the job code of the same project. Opening a Java
 * file that commits Kafka offsets in finalize raises the finding on gradle.properties from warning to error and
 * points at the call.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { DiagnosticSeverity, type PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { startServer, workspaceLoaded } from "./lspClient";

const JOB = `package com.example;

class Orders {
  Object read() {
    return KafkaIO.<String, String>read().withTopic("orders").commitOffsetsInFinalize();
  }
}
`;

function bfl302(p: PublishDiagnosticsParams) {
  return p.diagnostics.filter((d) => d.code === "BFL302");
}

test("opening Java code that uses commitOffsetsInFinalize raises BFL302 on the build file to error", async (t) => {
  const client = await startServer(t, { fixture: "beam-job", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const propsUri = await client.open(
    "gradle.properties",
    readFileSync(client.path("gradle.properties"), "utf8"),
    "properties",
  );
  const before = await client.nextDiagnostics(propsUri, (p) => bfl302(p).length > 0);
  const [warning] = bfl302(before);
  assert.equal(warning.severity, DiagnosticSeverity.Warning);
  assert.deepEqual(warning.range, { start: { line: 0, character: 12 }, end: { line: 0, character: 18 } });

  const jobUri = await client.open("src/main/java/com/example/Orders.java", JOB, "java");
  const after = await client.nextDiagnostics(propsUri, (p) => bfl302(p)[0]?.severity === DiagnosticSeverity.Error);
  const [error] = bfl302(after);
  assert.deepEqual(error.range, warning.range);
  assert.ok(
    error.relatedInformation?.some((r) =>
      /because the job commits Kafka offsets with commitOffsetsInFinalize\(\)/.test(r.message),
    ),
  );
  assert.deepEqual(
    error.relatedInformation?.filter((r) => r.location.uri === jobUri).map((r) => r.location.range),
    [{ start: { line: 4, character: 62 }, end: { line: 4, character: 85 } }],
  );
});
