/**
 * The command line and the language server work on the files alone: they run no build tool and no user code, and
 * open no network connection. Both run once normally and once inside a network namespace with no interfaces
 * (`unshare --net`), and must find the same; where strace is installed, the runs are traced as well. Project
 * configuration globs that point outside the workspace reach nothing there.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type TestContext, test } from "node:test";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  ExecuteCommandRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
} from "vscode-languageserver-protocol/node";
import { distPath, repoPath } from "../harness/fixtures";
import { timed } from "../lsp/lspClient";

/** How to run a command without network: as root, or in a user namespace where that is allowed; undefined: neither. */
function netnsPrefix(): string[] | undefined {
  for (const prefix of [
    ["unshare", "--net"],
    ["unshare", "--net", "--map-root-user"],
  ]) {
    const probe = spawnSync(prefix[0], [...prefix.slice(1), "true"], { stdio: "ignore" });
    if (probe.status === 0) return prefix;
  }
  return undefined;
}

const NETNS = netnsPrefix();
const HAS_STRACE = spawnSync("strace", ["-V"], { stdio: "ignore" }).status === 0;

const TOOLS = ["gradle", "gradlew", "mvn", "mvnw", "java", "javac", "kubectl", "helm", "docker", "git", "curl", "wget"];

interface Sandbox {
  /** A copy of every example project: YAML, build files, Java, Dockerfiles. */
  workspace: string;
  /** Exists once anything ran one of the planted programs. */
  marker: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The examples, plus build wrappers and a launch script in the projects and fake build tools first on the PATH:
 * each of them, if run, leaves the marker file behind.
 */
function sandbox(t: TestContext): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bfl-sec-")));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, "workspace");
  cpSync(repoPath("examples"), workspace, { recursive: true });
  const marker = join(root, "something-ran");
  const bin = join(root, "bin");
  mkdirSync(bin);
  const script = `#!/bin/sh\necho "$0 $*" >> '${marker}'\n`;
  for (const tool of TOOLS) {
    writeFileSync(join(bin, tool), script);
    chmodSync(join(bin, tool), 0o755);
  }
  for (const project of ["gradle-beam-job", "maven-beam-job", "beam-kafkaio-job"]) {
    for (const wrapper of ["gradlew", "mvnw", "run.sh"]) {
      writeFileSync(join(workspace, project, wrapper), script);
      chmodSync(join(workspace, project, wrapper), 0o755);
    }
  }
  return { workspace, marker, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: "1" } };
}

/** The command's trace file, when strace is there: every exec and every socket of the whole process tree. */
function traced(prefix: string[], traceFile: string): string[] {
  return HAS_STRACE ? [...prefix, "strace", "-f", "-qq", "-e", "trace=execve,socket,connect", "-o", traceFile] : prefix;
}

/** Programs started (after the first, node itself) and internet sockets opened, from a trace. */
function traceProblems(traceFile: string): string[] {
  if (!HAS_STRACE) return [];
  const lines = readFileSync(traceFile, "utf8").split("\n");
  const execs = lines.filter((l) => /execve\(/.test(l) && !/ENOENT/.test(l));
  const sockets = lines.filter((l) => /socket\(AF_INET6?\b/.test(l) || /connect\(.*AF_INET/.test(l));
  return [...execs.slice(1), ...sockets];
}

function runCli(box: Sandbox, prefix: string[]): { stdout: string; problems: string[] } {
  const traceFile = join(box.workspace, "..", `cli-${prefix.length}.trace`);
  const command = [
    ...traced(prefix, traceFile),
    process.execPath,
    resolve(distPath("cli.js")),
    ".",
    "--format",
    "json",
  ];
  const r = spawnSync(command[0], command.slice(1), { cwd: box.workspace, env: box.env, encoding: "utf8" });
  assert.ok((r.status === 0 || r.status === 1) && r.stdout.length > 0, `exit ${r.status}: ${r.stderr}`);
  return { stdout: r.stdout, problems: traceProblems(traceFile) };
}

/** Diagnostics per file after the server loaded the workspace and analysed every project. */
async function runServer(box: Sandbox, prefix: string[]): Promise<{ findings: string; problems: string[] }> {
  const traceFile = join(box.workspace, "..", `server-${prefix.length}.trace`);
  const command = [...traced(prefix, traceFile), process.execPath, resolve(distPath("server.js")), "--stdio"];
  const proc: ChildProcess = spawn(command[0], command.slice(1), { env: box.env, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  const reader = new StreamMessageReader(proc.stdout as NodeJS.ReadableStream);
  const conn = createProtocolConnection(reader, new StreamMessageWriter(proc.stdin as NodeJS.WritableStream));
  const latest = new Map<string, string[]>();
  let loaded!: () => void;
  const loadEnded = new Promise<void>((resolve) => {
    loaded = resolve;
  });
  const inWorkspace = `${pathToFileURL(box.workspace).href}/`;
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    const file = p.uri.startsWith(inWorkspace) ? p.uri.slice(inWorkspace.length) : p.uri;
    latest.set(
      file,
      p.diagnostics.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`).sort(),
    );
  });
  conn.onRequest(WorkDoneProgressCreateRequest.type, (p) => {
    conn.onProgress(WorkDoneProgress.type, p.token, (v) => {
      if (v.kind === "end") loaded();
    });
  });
  conn.onUnhandledNotification(() => undefined);
  conn.listen();
  try {
    const uri = pathToFileURL(box.workspace).href;
    await timed(
      "initialize",
      conn.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: uri,
        capabilities: { window: { workDoneProgress: true } },
        workspaceFolders: [{ uri, name: "examples" }],
      }),
    );
    await conn.sendNotification(InitializedNotification.type, {});
    await timed("the workspace load", loadEnded);
    await timed(
      "the workspace analysis",
      conn.sendRequest(ExecuteCommandRequest.type, {
        command: "beamFlinkLint.server.lintWorkspace",
        arguments: [],
      }),
    );
    await timed("shutdown", conn.sendRequest(ShutdownRequest.type));
    await conn.sendNotification(ExitNotification.type);
    await timed("exit", exited);
  } finally {
    conn.dispose();
    if (proc.exitCode === null) proc.kill();
  }
  const findings = [...latest].filter(([, d]) => d.length > 0).sort(([a], [b]) => (a < b ? -1 : 1));
  return { findings: JSON.stringify(findings, null, 1), problems: traceProblems(traceFile) };
}

test("the command line finds the same without a network, and runs nothing", {
  skip: NETNS ? false : "unshare --net is not available here (needs root or user namespaces)",
}, (t) => {
  const box = sandbox(t);
  const normal = runCli(box, []);
  const isolated = runCli(box, NETNS as string[]);
  assert.ok(JSON.parse(normal.stdout).findings.length > 0, "the examples have findings");
  assert.equal(isolated.stdout, normal.stdout);
  assert.deepEqual([...normal.problems, ...isolated.problems], []);
  assert.equal(existsSync(box.marker), false, existsSync(box.marker) ? readFileSync(box.marker, "utf8") : "");
});

test("the language server finds the same without a network, and runs nothing", {
  skip: NETNS ? false : "unshare --net is not available here (needs root or user namespaces)",
  timeout: 60_000,
}, async (t) => {
  const box = sandbox(t);
  const normal = await runServer(box, []);
  const isolated = await runServer(box, NETNS as string[]);
  assert.notEqual(normal.findings, "[]", "the examples have findings");
  assert.equal(isolated.findings, normal.findings);
  assert.deepEqual([...normal.problems, ...isolated.problems], []);
  assert.equal(existsSync(box.marker), false, existsSync(box.marker) ? readFileSync(box.marker, "utf8") : "");
});

test("project configuration globs that point outside the workspace reach nothing there", async (t) => {
  const box = sandbox(t);
  const outside = join(box.workspace, "..", "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "flink-conf.yaml"), "state.backend: rocksdb\nparallelism.default:2\n");
  writeFileSync(join(outside, "secrets.conf"), "state.backend: rocksdb\n");
  const project = join(box.workspace, "clean-cluster");
  writeFileSync(
    join(project, ".beam-flink-lint.yaml"),
    [
      "include:",
      '  - "**"',
      '  - "../**"',
      '  - "../../outside/**"',
      `  - "${outside}/**"`,
      "flinkConfigFiles:",
      '  - "../../outside/*.conf"',
      `  - "${outside}/*.conf"`,
      '  - "/etc/*"',
      "",
    ].join("\n"),
  );
  const cli = JSON.parse(runCli(box, []).stdout) as { findings: { file: string }[] };
  const files = [...new Set(cli.findings.map((f) => f.file))];
  assert.ok(files.length > 0);
  assert.deepEqual(
    files.filter((f) => f.startsWith("..") || f.startsWith("/")),
    [],
  );
  const server = await runServer(box, []);
  assert.doesNotMatch(server.findings, /outside|\/etc\//);
});
