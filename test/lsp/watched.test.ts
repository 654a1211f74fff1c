/**
 * Files created on disk: the watched globs cover every file the server reads, and a new file is analysed under
 * the same rules as the initial load, .gitignore included.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import picomatch from "picomatch";
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type FileEvent,
  HoverRequest,
} from "vscode-languageserver-protocol/node";
import { isCandidateFile } from "../../server/src/core/documents/index";
import { WATCHED_GLOBS } from "../../server/src/lsp/server";
import { startServer, workspaceLoaded } from "./lspClient";

test("every file name the readers accept is watched", () => {
  const watched = picomatch(WATCHED_GLOBS, { dot: true });
  const names = [
    "flink-conf.yaml",
    "conf/config.yaml",
    "k8s/deployment.yml",
    ".beam-flink-lint.yaml",
    ".beam-flink-lint.yml",
    "docker/Dockerfile",
    "Dockerfile.prod",
    "images/job.dockerfile",
    "build.gradle",
    "app/build.gradle.kts",
    "settings.gradle",
    "settings.gradle.kts",
    "gradle.properties",
    "gradle/libs.versions.toml",
    "pom.xml",
    "src/main/java/com/example/Job.java",
    "src/main/scala/com/example/Job.scala",
    "src/main/kotlin/com/example/Job.kt",
    "jobs/pipeline.py",
    "scripts/submit.sh",
    "Makefile",
    "build/rules.mk",
    ".vscode/launch.json",
    "app/.vscode/launch.json",
    "pipeline/orders.py",
    "setup.py",
    "setup.cfg",
    "pyproject.toml",
    "requirements.txt",
    "requirements-dev.txt",
    "requirements/prod.txt",
  ];
  for (const name of names) {
    const path = `/w/${name}`;
    assert.ok(isCandidateFile(path), `${name} is read`);
    assert.ok(watched(path), `${name} is watched`);
  }
  for (const name of ["README.md", "launch.json", "tsconfig.json", "notes.txt", "docs/requirements.md"]) {
    assert.ok(!isCandidateFile(`/w/${name}`), `${name} is not read`);
  }
});

const SUBMIT = "flink run job.jar --checkpointingInterval=0\n";
const LAUNCH = '{\n  "configurations": [{ "args": ["--checkpointingInterval=0"] }]\n}\n';

test("a file created in a .gitignore'd folder is not analysed; shell scripts and launch.json elsewhere are", async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const files: Record<string, string> = {
    ".gitignore": "generated/\n",
    "generated/submit.sh": SUBMIT,
    "scripts/submit.sh": SUBMIT,
    ".vscode/launch.json": LAUNCH,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(client.path(name)), { recursive: true });
    writeFileSync(client.path(name), text);
  }
  await client.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: Object.keys(files).map((name): FileEvent => ({ uri: client.uri(name), type: FileChangeType.Created })),
  });
  const [script, launch] = await Promise.all([
    client.nextDiagnostics(client.uri("scripts/submit.sh")),
    client.nextDiagnostics(client.uri(".vscode/launch.json")),
  ]);
  assert.deepEqual(
    script.diagnostics.map((d) => [d.code, d.range]),
    [["BFL406", { start: { line: 0, character: 42 }, end: { line: 0, character: 43 } }]],
  );
  assert.deepEqual(
    launch.diagnostics.map((d) => [d.code, d.range.start]),
    [["BFL406", { line: 1, character: 57 }]],
  );
  // A request answered after the run means everything that run published has arrived.
  await client.answer(
    client.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri: client.uri("scripts/submit.sh") },
      position: { line: 0, character: 0 },
    }),
  );
  assert.deepEqual(
    client.published.filter((p) => p.uri === client.uri("generated/submit.sh")),
    [],
  );
});
