/**
 * The extension in a real VS Code workbench: code-server 4.100.3 (VS Code 1.100.3) with the packaged .vsix,
 * driven through headless Chromium by playwright-core. Each scenario runs in its own session (session.ts) inside
 * new network and PID namespaces, so it runs offline and leaves no process behind. Screenshots go to
 * <out>/e2e/screenshots.
 */
import assert from "node:assert/strict";
import { mkdirSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { CODE_SERVER, requirePrograms, skipE2E, which } from "./support/prerequisites";
import { describeRun, namespaced, run, tempDir } from "./support/processes";
import { SCENARIOS } from "./vscode/scenarios";
import type { SessionOptions } from "./vscode/session";
import { packagedVsix } from "./vscode/vsix";

const SESSION = join(__dirname, "vscode", "session.js");
const SCREENSHOTS = resolve(__dirname, "..", "..", "e2e", "screenshots");
const SESSION_TIMEOUT_MS = 120_000;

function session(options: SessionOptions, what: string) {
  const [command, args] = namespaced([process.execPath, SESSION, JSON.stringify(options)]);
  return run(command, args, { timeoutMs: SESSION_TIMEOUT_MS }).then((r) => {
    assert.ok(r.code === 0, describeRun(what, r));
    return r;
  });
}

test("VS Code workbench (code-server)", { skip: skipE2E, timeout: 15 * 60_000 }, async (t) => {
  const runDir = tempDir(t, "vscode");
  requirePrograms([CODE_SERVER, "chromium", "unshare", "ip"]);
  const extensionsDir = join(runDir, "extensions");
  mkdirSync(extensionsDir);
  const base = {
    codeServer: CODE_SERVER,
    chromium: realpathSync(which("chromium") as string),
    extensionsDir,
    screenshotDir: SCREENSHOTS,
  };
  const vsix = packagedVsix();
  const install = await session({ ...base, dir: join(runDir, "install"), vsix }, "installing the .vsix");
  t.diagnostic(`installed ${vsix} in ${install.ms} ms`);

  // BFL_E2E_SCENARIOS=hover,fix-on-save runs only those (when working on one).
  const only = process.env.BFL_E2E_SCENARIOS?.split(",");
  for (const name of Object.keys(SCENARIOS).filter((n) => !only || only.includes(n))) {
    await t.test(name, async (st) => {
      const r = await session({ ...base, dir: join(runDir, name), scenario: name }, name);
      st.diagnostic(`${name}: ${r.ms} ms`);
    });
  }
});
