// Builds the VS Code extension package (.vsix) from the bundles: `node scripts/package-vsix.mjs [--out FILE]
// [--dist DIR]`. package.json's `files` list says what the npm package (command line and language server) holds;
// vsce refuses a package.json with `files` next to a .vscodeignore, so the extension is packed in a staging
// folder: the manifest without `files`, .vscodeignore (which decides what the .vsix holds), and the files it lets
// in: the extension and server bundles, tree-sitter grammars (dist/*.wasm), rule docs, grammar, schema, icon.
// Runs offline: vsce packs with --no-dependencies (the bundles have none).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const out = resolve(option("--out", join(root, "beam-flink-lint.vsix")));
const dist = resolve(option("--dist", process.env.BFL_DIST_DIR ?? join(root, "dist")));
const bundles = ["extension.js", "server.js"];
for (const b of bundles) {
  if (!existsSync(join(dist, b))) {
    console.error(`package-vsix: ${join(dist, b)} is missing; build first (node scripts/build.mjs)`);
    process.exit(1);
  }
}

const stage = mkdtempSync(join(tmpdir(), "bfl-vsix-"));
try {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  delete manifest.files;
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const item of [".vscodeignore", "README.md", "CHANGELOG.md", "LICENSE", "docs/rules", "syntaxes", "schemas"]) {
    if (existsSync(join(root, item))) cpSync(join(root, item), join(stage, item), { recursive: true });
  }
  mkdirSync(join(stage, "images"));
  cpSync(join(root, "images", "icon.png"), join(stage, "images", "icon.png"));
  mkdirSync(join(stage, "dist"));
  for (const name of readdirSync(dist)) {
    if (bundles.includes(name) || name.endsWith(".wasm")) cpSync(join(dist, name), join(stage, "dist", name));
  }
  execFileSync(process.execPath, [require.resolve("@vscode/vsce/vsce"), "package", "--no-dependencies", "--out", out], {
    cwd: stage,
    stdio: ["ignore", "pipe", "inherit"],
  });
  console.log(`package-vsix: ${out}`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
