/**
 * Neovim and Emacs drive the standalone server (`beam-flink-lint-server --stdio`) through the scripts in
 * test/e2e/clients on the same workspace, and must see the same thing: the diagnostics of flink-conf.yaml, the
 * rename fix of the deprecated key among the code actions, and after applying it the re-published diagnostics
 * without that finding.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TestContext } from "node:test";
import { distPath, repoPath } from "../../harness/fixtures";
import { copyWorkspace, describeRun, namespaced, run, tempDir } from "./processes";

const WARNING = 2;
const BEFORE = [
  { code: "BFL103", line: 4, col: 1, severity: WARNING },
  { code: "BFL106", line: 8, col: 37, severity: WARNING },
];
const ACTION = "Rename to `state.backend.type`";
const AFTER = [{ code: "BFL106", line: 8, col: 37, severity: WARNING }];

/** The server as an editor starts it: the installed executable, or the bundle under test (BFL_DIST_DIR). */
function serverCommand(): string[] {
  if (process.env.BFL_DIST_DIR) return [process.execPath, resolve(distPath("server.js")), "--stdio"];
  return [repoPath("bin", "beam-flink-lint-server.js"), "--stdio"];
}

function codes(list: { code: string }[]): string {
  return list
    .map((d) => d.code)
    .sort()
    .join(",");
}

/** Runs an editor on a fresh copy of the workspace with a fresh HOME, and checks what it reports. */
export async function checkEditor(t: TestContext, name: string, argv: (clients: string) => string[]): Promise<void> {
  const dir = tempDir(t, name);
  const folder = copyWorkspace("terminal", dir);
  const home = join(dir, "home");
  mkdirSync(home);
  const file = join(folder, "flink-conf.yaml");
  const original = readFileSync(file, "utf8");
  const [command, args] = namespaced(argv(repoPath("test", "e2e", "clients")));
  const r = await run(command, args, {
    cwd: folder,
    timeoutMs: 60_000,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"),
      XDG_DATA_HOME: join(home, ".local", "share"),
      XDG_STATE_HOME: join(home, ".local", "state"),
      BFL_SERVER: JSON.stringify(serverCommand()),
      BFL_ROOT: folder,
      BFL_FILE: file,
      BFL_EXPECT: codes(BEFORE),
      BFL_EXPECT_AFTER: codes(AFTER),
      BFL_ACTION_CODE: "BFL103",
      BFL_ACTION: ACTION,
    },
  });
  const seen = new Map<string, unknown>();
  for (const line of r.stdout.split("\n")) {
    const m = /^([A-Z]+) (.*)$/.exec(line);
    if (m) seen.set(m[1], JSON.parse(m[2]));
  }
  const what = describeRun(name, r);
  assert.deepEqual(seen.get("BEFORE"), BEFORE, what);
  assert.ok((seen.get("ACTIONS") as string[] | undefined)?.includes(ACTION), what);
  assert.deepEqual(seen.get("AFTER"), AFTER, what);
  assert.equal(seen.get("TEXT"), original.replace("state.backend: rocksdb", "state.backend.type: rocksdb"), what);
  assert.equal(r.code, 0, what);
  t.diagnostic(`${name}: ${r.ms} ms`);
}
