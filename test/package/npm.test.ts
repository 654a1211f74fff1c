/**
 * The npm package: `npm pack` holds the command line and the language server (bundles without dependencies, the
 * tree-sitter grammars, the schema) and nothing else, installs into an empty folder with no registry at all
 * (`npm install --offline`), and both programs run from there.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { distPath, repoPath } from "../harness/fixtures";

/** npm as the test was started with (`npm test` sets npm_execpath), else the one on PATH. */
function npm(args: string[], cwd: string) {
  const execpath = process.env.npm_execpath;
  const [command, prefix] =
    execpath && /npm-cli\.js$/.test(execpath) ? [process.execPath, [execpath]] : ["npm", [] as string[]];
  const r = spawnSync(command, [...prefix, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
    // No registry can be reached: a registry URL nobody listens on, and a cache of our own.
    env: { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_cache: join(cwd, ".npm-cache") },
  });
  assert.equal(r.status, 0, `npm ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The package root as it is published: the repository's files, the bundles under test and their grammars. */
function stage(dir: string): void {
  for (const item of ["package.json", "README.md", "LICENSE", "CHANGELOG.md", "bin", "schemas", "docs"]) {
    if (existsSync(repoPath(item))) cpSync(repoPath(item), join(dir, item), { recursive: true });
  }
  mkdirSync(join(dir, "dist"));
  for (const name of readdirSync(distPath())) cpSync(distPath(name), join(dir, "dist", name));
}

function lspMessage(body: unknown): string {
  const json = JSON.stringify(body);
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}

/** Sends initialize to a server over stdio and returns its answer. */
function initialize(
  server: ChildProcess,
): Promise<{ result?: { serverInfo?: { name: string }; capabilities: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`no answer to initialize; got ${JSON.stringify(buffer)}`)), 20_000);
    server.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const m = /Content-Length: (\d+)\r\n\r\n/.exec(buffer);
      if (!m) return;
      const start = m.index + m[0].length;
      if (Buffer.byteLength(buffer.slice(start)) < Number(m[1])) return;
      clearTimeout(timer);
      resolve(JSON.parse(buffer.slice(start, start + Number(m[1]))));
    });
    server.stdin?.write(
      lspMessage({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { processId: null, rootUri: null, capabilities: {} },
      }),
    );
  });
}

test("npm pack gives an installable package with both programs and no dependencies", {
  timeout: 300_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "bfl-npm-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, "package");
  mkdirSync(root);
  stage(root);
  const packed = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], root)) as {
    filename: string;
    size: number;
    files: { path: string }[];
  }[];
  const files = packed[0].files.map((f) => f.path).sort();
  assert.deepEqual(files, [
    "CHANGELOG.md",
    "LICENSE",
    "README.md",
    "bin/beam-flink-lint-server.js",
    "bin/beam-flink-lint.js",
    "dist/cli.js",
    "dist/server.js",
    "dist/tree-sitter-kotlin.wasm",
    "dist/tree-sitter-python.wasm",
    "dist/tree-sitter-scala.wasm",
    "dist/web-tree-sitter.wasm",
    "package.json",
    "schemas/beam-flink-lint.schema.json",
  ]);
  const manifest = JSON.parse(readFileSync(repoPath("package.json"), "utf8"));
  assert.equal(manifest.dependencies, undefined, "the bundles need nothing at run time");
  assert.notEqual(manifest.private, true, "the package can be published");
  t.diagnostic(`package: ${packed[0].size} bytes`);

  const project = join(dir, "consumer");
  mkdirSync(project);
  npm(["install", "--offline", "--no-audit", "--no-fund", join(dir, packed[0].filename)], project);
  assert.deepEqual(
    readdirSync(join(project, "node_modules")).filter((n) => !n.startsWith(".")),
    ["beam-flink-lint"],
  );
  const bin = join(project, "node_modules", ".bin");

  const version = spawnSync(join(bin, "beam-flink-lint"), ["--version"], { encoding: "utf8" });
  assert.equal(version.stdout, `${manifest.version}\n`);
  assert.equal(version.status, 0);

  const lintDir = join(dir, "to-lint");
  mkdirSync(lintDir);
  writeFileSync(join(lintDir, "flink-conf.yaml"), "taskmanager.numberOfTaskSlots: 2\nrest.port=8081\n");
  const args = ["--rule", "*=off", "--rule", "BFL100=error", "--format", "json"];
  const lint = spawnSync(join(bin, "beam-flink-lint"), args, { cwd: lintDir, encoding: "utf8" });
  assert.equal(lint.status, 1, lint.stderr);
  const report = JSON.parse(lint.stdout) as { findings: { file: string; rule: string; line: number }[] };
  assert.deepEqual(
    report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ["flink-conf.yaml:2 BFL100"],
  );
  writeFileSync(join(lintDir, "flink-conf.yaml"), "taskmanager.numberOfTaskSlots: 2\nrest.port: 8081\n");
  assert.equal(spawnSync(join(bin, "beam-flink-lint"), args, { cwd: lintDir }).status, 0);

  const server = spawn(join(bin, "beam-flink-lint-server"), ["--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  t.after(() => server.kill());
  const answer = await initialize(server);
  assert.equal(answer.result?.serverInfo?.name, "beam-flink-lint");
  assert.equal(answer.result?.capabilities.hoverProvider, true);
  const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  server.stdin?.write(lspMessage({ jsonrpc: "2.0", id: 2, method: "shutdown" }));
  server.stdin?.write(lspMessage({ jsonrpc: "2.0", method: "exit" }));
  assert.equal(await exited, 0);
});
