/**
 * The packaged extension the workbench tests install: beam-flink-lint.vsix as `npm run package` makes it, packed
 * again only when it is missing or older than the bundles. When the bundles live in another folder (BFL_DIST_DIR),
 * the package is assembled next to it instead, so the .vsix holds the bundles under test.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { distPath, repoPath } from "../../harness/fixtures";

const NAME = "beam-flink-lint.vsix";
const BUNDLES = ["extension.js", "server.js"];
/** What .vscodeignore lets into the package, besides the bundles. */
const PACKAGED = [
  "package.json",
  ".vscodeignore",
  "README.md",
  "CHANGELOG.md",
  "LICENSE",
  "docs",
  "syntaxes",
  "schemas",
];

function mtime(path: string): number {
  return statSync(path).mtimeMs;
}

export function packagedVsix(): string {
  const bundles = BUNDLES.map((b) => distPath(b));
  const missing = bundles.filter((b) => !existsSync(b));
  if (missing.length > 0) throw new Error(`missing ${missing.join(", ")}: build first (npm run build)`);
  const inRepo = resolve(distPath()) === resolve(repoPath("dist"));
  const dir = inRepo ? repoPath() : `${resolve(distPath())}-package`;
  const vsix = join(dir, NAME);
  const newest = Math.max(...[...bundles, repoPath("package.json")].map(mtime));
  if (existsSync(vsix) && mtime(vsix) >= newest) return vsix;
  if (!inRepo) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "dist"), { recursive: true });
    for (const item of PACKAGED) cpSync(repoPath(item), join(dir, item), { recursive: true });
    cpSync(repoPath("images", "icon.png"), join(dir, "images", "icon.png"));
    for (const b of BUNDLES) cpSync(distPath(b), join(dir, "dist", b));
  }
  execFileSync(
    process.execPath,
    [repoPath("node_modules", "@vscode", "vsce", "vsce"), "package", "--no-dependencies", "--out", vsix],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  return vsix;
}
