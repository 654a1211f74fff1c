/**
 * What the editor tests need on the machine, and what happens when it is missing: the tests fail and say to run
 * scripts/setup-e2e.sh, unless BFL_SKIP_E2E=1 asks to skip them (quick local runs).
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { repoPath } from "../../harness/fixtures";

export const CODE_SERVER = repoPath(".cache", "code-server", "node_modules", ".bin", "code-server");

/** The `skip` option of the editor tests: a reason when BFL_SKIP_E2E=1, else false. */
export const skipE2E: string | false =
  process.env.BFL_SKIP_E2E === "1" ? "BFL_SKIP_E2E=1 skips the editor end-to-end tests" : false;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path of a program found on PATH, or undefined. */
export function which(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && executable(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** Throws, naming every missing program and the setup script, when one of `programs` (names or paths) is missing. */
export function requirePrograms(programs: string[]): void {
  const missing = programs.filter((p) => (p.includes("/") ? !executable(p) : which(p) === undefined));
  if (missing.length > 0) throw new Error(setupMessage(`missing: ${missing.join(", ")}`));
}

export function setupMessage(problem: string): string {
  return `Editor end-to-end tests cannot run (${problem}). Run scripts/setup-e2e.sh to install what they need, or set BFL_SKIP_E2E=1 to skip them.`;
}
