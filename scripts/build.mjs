// Type-checks and compiles everything to out/ (tests run from there), then bundles the three programs:
// dist/extension.js (VS Code client), dist/server.js (language server), dist/cli.js (command line).
// BFL_OUT_DIR / BFL_DIST_DIR move the two output folders (to build several checkouts side by side);
// BFL_ALLOW_TYPE_ERRORS=1 keeps going after type errors (tsc still emits).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
const outDir = process.env.BFL_OUT_DIR ? resolve(process.env.BFL_OUT_DIR) : join(root, "out");
const distDir = process.env.BFL_DIST_DIR ? resolve(process.env.BFL_DIST_DIR) : join(root, "dist");
try {
  execFileSync(
    process.execPath,
    [tsc, "-p", root, "--outDir", outDir, "--tsBuildInfoFile", join(outDir, ".tsbuildinfo")],
    { stdio: "inherit", cwd: root },
  );
} catch {
  if (process.env.BFL_ALLOW_TYPE_ERRORS !== "1") process.exit(1);
}

const esbuild = require("esbuild");
const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
};
const entries = [
  {
    entryPoints: [join(root, "client/src/extension.ts")],
    outfile: join(distDir, "extension.js"),
    external: ["vscode"],
  },
  { entryPoints: [join(root, "server/src/lsp/main.ts")], outfile: join(distDir, "server.js") },
  { entryPoints: [join(root, "server/src/cli/main.ts")], outfile: join(distDir, "cli.js") },
];
await Promise.all(entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => esbuild.build({ ...common, ...e })));

// The tree-sitter runtime and the Scala, Kotlin and Python grammars are loaded from beside the bundles.
const wasmFiles = [
  "web-tree-sitter/web-tree-sitter.wasm",
  "tree-sitter-scala/tree-sitter-scala.wasm",
  "@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm",
  "tree-sitter-python/tree-sitter-python.wasm",
];
mkdirSync(distDir, { recursive: true });
for (const file of wasmFiles) copyFileSync(require.resolve(file), join(distDir, file.slice(file.lastIndexOf("/") + 1)));
