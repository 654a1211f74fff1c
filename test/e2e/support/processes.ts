/** Running the editors as child processes: output collected, a hard time limit, and a fresh HOME and workspace. */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { repoPath } from "../../harness/fixtures";

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/**
 * Runs a program to its end, or SIGKILLs it after `timeoutMs` (SIGKILL because `unshare --fork` ignores SIGTERM
 * while it waits; its `--kill-child` then takes the whole PID namespace down).
 */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/**
 * The command line that runs `argv` in new network and PID namespaces (offline, and every process it starts ends
 * with it): as root directly, else in a user namespace that maps the user to root.
 */
export function namespaced(argv: string[]): [string, string[]] {
  const userns = process.getuid?.() === 0 ? [] : ["--user", "--map-root-user"];
  return ["unshare", [...userns, "--net", "--pid", "--fork", "--mount-proc", "--kill-child", ...argv]];
}

/** What a failed run printed, for assertion messages. */
export function describeRun(what: string, r: RunResult): string {
  const how = r.timedOut ? "timed out" : `exited with ${r.code ?? r.signal}`;
  return `${what} ${how} after ${r.ms} ms\n--- stdout\n${r.stdout.slice(-6000)}\n--- stderr\n${r.stderr.slice(-4000)}`;
}

/** A temporary folder removed when the test ends (real path: editors report resolved paths). */
export function tempDir(t: TestContext, prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `bfl-e2e-${prefix}-`)));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh copy of a fixture workspace from test/e2e/workspaces, or of `examples/<name>` (editors save into it). */
export function copyWorkspace(name: string, into: string): string {
  // `examples/<name>`: one of the example projects a new user runs first, as it is in the repository.
  const source = name.startsWith("examples/")
    ? repoPath(...name.split("/"))
    : repoPath("test", "e2e", "workspaces", name);
  const target = join(into, name.split("/").pop() as string);
  cpSync(source, target, { recursive: true });
  return target;
}
