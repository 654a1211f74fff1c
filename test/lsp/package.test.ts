/**
 * The .vsix: packaging the manifest, .vscodeignore and bundles with vsce (offline, no dependencies) gives exactly
 * the bundles, rule documentation, grammar, schema, icon, license and readme, and every path the manifest names
 * is inside the package.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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

test("vsce packages exactly the shipped files, and the manifest's paths are all inside", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "bfl-vsix-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const shipped = [
    "package.json",
    ".vscodeignore",
    "LICENSE",
    "README.md",
    "CHANGELOG.md",
    "docs",
    "syntaxes",
    "schemas",
    "images",
  ];
  for (const name of shipped)
    if (existsSync(repoPath(name))) cpSync(repoPath(name), join(dir, name), { recursive: true });
  for (const bundle of ["extension.js", "server.js", "server.js.map", "cli.js"]) {
    if (existsSync(distPath(bundle))) cpSync(distPath(bundle), join(dir, "dist", bundle));
  }
  const vsix = join(dir, "out.vsix");
  const run = spawnSync(
    process.execPath,
    [require.resolve("@vscode/vsce/vsce"), "package", "--no-dependencies", "--out", vsix],
    { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 },
  );
  assert.equal(run.status, 0, `vsce failed:\n${run.stdout}\n${run.stderr}`);

  const entries = readZip(readFileSync(vsix));
  const expected = [
    "extension.vsixmanifest",
    "[Content_Types].xml",
    "extension/package.json",
    "extension/LICENSE.txt",
    "extension/dist/extension.js",
    "extension/dist/server.js",
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
});
