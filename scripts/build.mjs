// Type-checks and compiles everything to out/ (tests run from there), then bundles the three programs:
// dist/extension.js (VS Code client), dist/server.js (language server), dist/cli.js (command line).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
try {
  execFileSync(process.execPath, [tsc, "-p", root], { stdio: "inherit", cwd: root });
} catch {
  process.exit(1);
}

const esbuild = require("esbuild");
const common = { bundle: true, platform: "node", format: "cjs", target: "node20", sourcemap: true, logLevel: "warning" };
const entries = [
  { entryPoints: [join(root, "client/src/extension.ts")], outfile: join(root, "dist/extension.js"), external: ["vscode"] },
  { entryPoints: [join(root, "server/src/lsp/main.ts")], outfile: join(root, "dist/server.js") },
  { entryPoints: [join(root, "server/src/cli/main.ts")], outfile: join(root, "dist/cli.js") },
];
await Promise.all(
  entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => esbuild.build({ ...common, ...e })),
);
