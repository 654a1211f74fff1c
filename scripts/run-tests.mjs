// Runs every compiled test file (out/test/**/*.test.js) with Node's test runner.
// Arguments are substrings that select test files, e.g. `node scripts/run-tests.mjs lsp cli`.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(process.env.BFL_OUT_DIR ? resolve(process.env.BFL_OUT_DIR) : join(root, "out"), "test");
const files = [];
const walk = (d) => {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith(".test.js")) files.push(p);
  }
};
walk(dir);
const filters = process.argv.slice(2);
const selected = files.filter((f) => filters.length === 0 || filters.some((s) => relative(dir, f).includes(s))).sort();
if (selected.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
const setup = join(root, "scripts", "test-setup.mjs");
const r = spawnSync(process.execPath, ["--import", setup, "--test", "--test-reporter=spec", ...selected], {
  stdio: "inherit",
  cwd: root,
});
process.exit(r.status ?? 1);
