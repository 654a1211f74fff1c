/**
 * The .vsix: scripts/package-vsix.mjs (vsce, offline, no dependencies) gives exactly the bundles, tree-sitter
 * grammars, rule documentation, TextMate grammar, schema, icon, license and readme, every path the manifest names
 * is inside the package, and it meets what Open VSX asks for.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { inflateRawSync } from "node:zlib";
import { distPath, repoPath } from "../harness/fixtures";

/** The entries of a zip file, read from its central directory. */
function readZip(zip: Buffer): Map<string, () => Buffer> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, "a zip file");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, () => Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    entries.set(name, () => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(data) : data;
    });
    at += 46 + skip;
  }
  return entries;
}

function filesIn(dir: string, suffix: string): string[] {
  return readdirSync(repoPath(dir))
    .filter((f) => f.endsWith(suffix))
    .map((f) => `${dir}/${f}`);
}

test("the .vsix holds exactly the shipped files (grammars included), and the manifest's paths are all inside", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "bfl-vsix-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The bundles under test, their source maps and the command line (neither belongs in the .vsix), and a
  // tree-sitter grammar as the build will copy it next to the bundles.
  const dist = join(dir, "dist");
  mkdirSync(dist);
  for (const bundle of ["extension.js", "server.js", "server.js.map", "cli.js"]) {
    if (existsSync(distPath(bundle))) cpSync(distPath(bundle), join(dist, bundle));
  }
  writeFileSync(join(dist, "tree-sitter-yaml.wasm"), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  const vsix = join(dir, "out.vsix");
  const run = spawnSync(process.execPath, [repoPath("scripts", "package-vsix.mjs"), "--out", vsix, "--dist", dist], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  assert.equal(run.status, 0, `packaging failed:\n${run.stdout}\n${run.stderr}`);

  const entries = readZip(readFileSync(vsix));
  const expected = [
    "extension.vsixmanifest",
    "[Content_Types].xml",
    "extension/package.json",
    "extension/LICENSE.txt",
    "extension/dist/extension.js",
    "extension/dist/server.js",
    "extension/dist/tree-sitter-yaml.wasm",
    "extension/images/icon.png",
    ...(existsSync(repoPath("README.md")) ? ["extension/readme.md"] : []),
    ...(existsSync(repoPath("CHANGELOG.md")) ? ["extension/changelog.md"] : []),
    ...[...filesIn("docs/rules", ".md"), ...filesIn("syntaxes", ".json"), ...filesIn("schemas", ".json")].map(
      (f) => `extension/${f}`,
    ),
  ];
  assert.deepEqual([...entries.keys()].sort(), expected.sort());
  assert.ok(filesIn("docs/rules", ".md").includes("docs/rules/BFL100.md"), "rule pages are shipped");

  const manifest = JSON.parse(entries.get("extension/package.json")?.().toString("utf8") ?? "{}");
  const named = [
    manifest.main,
    manifest.icon,
    ...manifest.contributes.grammars.map((g: { path: string }) => g.path),
    ...manifest.contributes.languages.map((l: { configuration: string }) => l.configuration),
    ...manifest.contributes.yamlValidation.map((v: { url: string }) => v.url),
  ];
  for (const path of named) {
    assert.ok(entries.has(`extension/${path.replace(/^\.\//, "")}`), `${path} is in the package`);
  }
  // What Open VSX needs to publish it: a license (field and file), the repository, an icon.
  assert.equal(manifest.license, "Apache-2.0");
  assert.match(entries.get("extension/LICENSE.txt")?.().toString("utf8") ?? "", /Apache License\s+Version 2\.0/);
  assert.match(manifest.repository?.url ?? "", /^https:\/\/github\.com\//);
  assert.equal(manifest.files, undefined, "the npm file list stays out of the extension's manifest");
  const size = readFileSync(vsix).length;
  t.diagnostic(`.vsix: ${size} bytes`);
  assert.ok(size < 1_500_000, `the .vsix stays small (${size} bytes)`);
});
