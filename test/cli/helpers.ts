/** Runs the built command line (dist/cli.js) on copies of the projects under test/fixtures/cli. */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { distPath, repoPath } from "../harness/fixtures";

const CLI = resolve(distPath("cli.js"));

/** Only the rules whose output is pinned here; other rules' findings would make the expectations drift. */
export const PINNED_RULES = ["--rule", "*=off", "--rule", "BFL100=warning", "--rule", "BFL001=info"];

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const temps: string[] = [];

/**
 * A fresh copy of a fixture project in a temporary folder outside any Git repository, so that nothing around the
 * repository's own checkout (its .gitignore, a build file at its root) changes what the command line sees.
 */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), "bfl-cli-"));
  temps.push(dir);
  const target = join(dir, name);
  cpSync(repoPath("test", "fixtures", "cli", name), target, { recursive: true });
  return target;
}

export function emptyTempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "bfl-cli-"));
  temps.push(dir);
  return dir;
}

export function removeTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}
