/**
 * One workbench session, run by vscode.test.ts inside `unshare --net --pid --fork --mount-proc`: no network but
 * loopback, and every process it starts (code-server, its extension host, the language server, Chromium) ends
 * with it. Usage: `node session.js <JSON SessionOptions>`. Prints what it did with timings; exit code 0 = passed.
 *
 * `--install` only installs the .vsix into the extensions folder; otherwise it starts code-server with a fresh
 * HOME and user data folder, opens a fresh copy of the scenario's workspace in Chromium, and runs the scenario.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { copyWorkspace } from "../support/processes";
import { SCENARIOS } from "./scenarios";
import { Workbench } from "./workbench";

export interface SessionOptions {
  codeServer: string;
  chromium: string;
  extensionsDir: string;
  /** A fresh folder for this session: HOME, user data, workspace copy and logs go there. */
  dir: string;
  /** `--install`: the .vsix to install; else the scenario to run. */
  vsix?: string;
  scenario?: string;
  screenshotDir?: string;
}

const PORT = 18080;

/** What a user who tries the extension has: defaults, minus the noise of a first start. */
const USER_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.editor.enablePreview": false,
  "security.workspace.trust.enabled": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "git.enabled": false,
  // Typed text goes in as typed: no suggestion is accepted and nothing is re-indented behind the test's back.
  "editor.quickSuggestions": { other: "off", comments: "off", strings: "off" },
  "editor.suggestOnTriggerCharacters": false,
  "editor.autoIndent": "none",
  "editor.stickyScroll.enabled": false,
};

const started = Date.now();
function log(text: string): void {
  process.stdout.write(`${String(Date.now() - started).padStart(6)} ms  ${text}\n`);
}

async function waitForHealth(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("code-server did not answer on /healthz within 30 s");
}

async function runScenario(o: SessionOptions, name: string): Promise<void> {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`no scenario ${name}`);
  const home = join(o.dir, "home");
  const data = join(o.dir, "data");
  mkdirSync(join(data, "User"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(data, "User", "settings.json"), JSON.stringify(USER_SETTINGS, null, 2));
  const folder = copyWorkspace(scenario.workspace, o.dir);
  const logFile = openSync(join(o.dir, "code-server.log"), "w");
  const server: ChildProcess = spawn(
    o.codeServer,
    [
      "--auth=none",
      `--bind-addr=127.0.0.1:${PORT}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      `--user-data-dir=${data}`,
      `--extensions-dir=${o.extensionsDir}`,
      folder,
    ],
    { env: { ...process.env, HOME: home }, stdio: ["ignore", logFile, logFile] },
  );
  server.on("exit", (code) => log(`code-server exited with ${code}`));
  await waitForHealth();
  log("code-server is up");
  const browser = await chromium.launch({
    executablePath: o.chromium,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const wb = new Workbench(page, folder);
    await wb.open(`http://127.0.0.1:${PORT}/?folder=${encodeURIComponent(folder)}`);
    log("workbench is up");
    await scenario.run(wb, {
      folder,
      screenshot: async () => {
        if (!o.screenshotDir) return;
        mkdirSync(o.screenshotDir, { recursive: true });
        await wb.screenshot(join(o.screenshotDir, `${name}.png`));
        log("screenshot saved");
      },
    });
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const o = JSON.parse(process.argv[2] ?? "{}") as SessionOptions;
  execFileSync("ip", ["link", "set", "lo", "up"]);
  if (o.vsix) {
    const home = join(o.dir, "home");
    mkdirSync(home, { recursive: true });
    execFileSync(
      o.codeServer,
      [`--user-data-dir=${join(o.dir, "data")}`, `--extensions-dir=${o.extensionsDir}`, "--install-extension", o.vsix],
      { env: { ...process.env, HOME: home }, stdio: "inherit" },
    );
  } else {
    await runScenario(o, o.scenario ?? "");
  }
  log("PASS");
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    log(`FAIL ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
