/**
 * The packaged extension the workbench tests install: beam-flink-lint.vsix as `npm run package` makes it
 * (scripts/package-vsix.mjs), packed again only when it is missing or older than the bundles or the manifest.
 * When the bundles live in another folder (BFL_DIST_DIR), the package goes next to it, holding the bundles under
 * test.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { distPath, repoPath } from "../../harness/fixtures";

const NAME = "beam-flink-lint.vsix";
const BUNDLES = ["extension.js", "server.js"];

function mtime(path: string): number {
  return statSync(path).mtimeMs;
}

export function packagedVsix(): string {
  const bundles = BUNDLES.map((b) => distPath(b));
  const missing = bundles.filter((b) => !existsSync(b));
  if (missing.length > 0) throw new Error(`missing ${missing.join(", ")}: build first (npm run build)`);
  const inRepo = resolve(distPath()) === resolve(repoPath("dist"));
  const vsix = inRepo ? repoPath(NAME) : join(`${resolve(distPath())}-package`, NAME);
  const inputs = [...bundles, repoPath("package.json"), repoPath(".vscodeignore")];
  if (existsSync(vsix) && mtime(vsix) >= Math.max(...inputs.map(mtime))) return vsix;
  mkdirSync(dirname(vsix), { recursive: true });
  execFileSync(
    process.execPath,
    [repoPath("scripts", "package-vsix.mjs"), "--out", vsix, "--dist", resolve(distPath())],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return vsix;
}
