/** The file walker shared by the command line and the language server, on small trees built per test. */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { toPosixPath } from "../../server/src/node/files";
import { loadWorkspace } from "../../server/src/node/loadWorkspace";
import { collectFiles, isCollectable } from "../../server/src/node/walk";
import { emptyTempDir, removeTemps } from "./helpers";

after(removeTemps);

/** Writes files (relative path → text) under a new temporary folder; returns the folder with `/` separators. */
function tree(files: Record<string, string>): string {
  const root = emptyTempDir();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return toPosixPath(root);
}

function relative(root: string, files: string[]): string[] {
  return files.map((f) => f.slice(root.length + 1));
}

const CONF = "taskmanager.numberOfTaskSlots: 2\n";

test("collects the files the product reads and skips dependency and build folders", () => {
  const root = tree({
    "flink-conf.yaml": CONF,
    "k8s/deployment.yml": "kind: Deployment\n",
    "pom.xml": "<project/>\n",
    "docker/Dockerfile": "FROM flink:1.19\n",
    "README.md": "# job\n",
    "src/Main.java": "class Main {}\n",
    "notes.txt": "x\n",
    "node_modules/lib/flink-conf.yaml": CONF,
    ".git/config.yaml": CONF,
    "target/classes/flink-conf.yaml": CONF,
    "build/flink-conf.yaml": CONF,
    "out/flink-conf.yaml": CONF,
    "dist/flink-conf.yaml": CONF,
    ".gradle/flink-conf.yaml": CONF,
  });
  const found = collectFiles([root]);
  assert.deepEqual(relative(root, found.files), [
    "docker/Dockerfile",
    "flink-conf.yaml",
    "k8s/deployment.yml",
    "pom.xml",
    "src/Main.java",
  ]);
  assert.deepEqual(found.roots, [root]);
  assert.deepEqual(found.notes, []);
  assert.deepEqual(found.context, []);
});

test("a skipped folder given explicitly is walked", () => {
  const root = tree({ "build/flink-conf.yaml": CONF });
  assert.deepEqual(relative(root, collectFiles([`${root}/build`]).files), ["build/flink-conf.yaml"]);
});

test("honours .gitignore files, nested ones and negations included", () => {
  const root = tree({
    ".gitignore": "scratch/\n*.local.yaml\n",
    "scratch/flink-conf.yaml": CONF,
    "dev.local.yaml": CONF,
    "deploy/.gitignore": "!keep.local.yaml\nold/\n",
    "deploy/keep.local.yaml": CONF,
    "deploy/other.local.yaml": CONF,
    "deploy/old/flink-conf.yaml": CONF,
    "deploy/flink-conf.yaml": CONF,
  });
  assert.deepEqual(relative(root, collectFiles([root]).files), ["deploy/flink-conf.yaml", "deploy/keep.local.yaml"]);
});

test(".gitignore files between the repository root and a given folder apply", () => {
  const root = tree({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "generated/\n",
    "jobs/a/generated/flink-conf.yaml": CONF,
    "jobs/a/flink-conf.yaml": CONF,
  });
  assert.deepEqual(relative(root, collectFiles([`${root}/jobs/a`]).files), ["jobs/a/flink-conf.yaml"]);
});

test("the project config's exclude and flinkConfigFiles decide what is read", () => {
  const root = tree({
    ".beam-flink-lint.yaml": "exclude:\n  - generated/**\n  - '**/*.tmp.yaml'\nflinkConfigFiles:\n  - conf/*.conf\n",
    "generated/flink-conf.yaml": CONF,
    "k8s/job.tmp.yaml": "kind: ConfigMap\n",
    "conf/prod.conf": CONF,
    "conf/notes.txt": "x\n",
    "flink-conf.yaml": CONF,
  });
  assert.deepEqual(relative(root, collectFiles([root]).files), [
    ".beam-flink-lint.yaml",
    "conf/prod.conf",
    "flink-conf.yaml",
  ]);
});

test("a nested build root is its own project: the outer project config does not reach into it", () => {
  const root = tree({
    ".beam-flink-lint.yaml": "exclude:\n  - '**/flink-conf.yaml'\n",
    "flink-conf.yaml": CONF,
    "job/pom.xml": "<project/>\n",
    "job/flink-conf.yaml": CONF,
  });
  assert.deepEqual(relative(root, collectFiles([root]).files), [
    ".beam-flink-lint.yaml",
    "job/flink-conf.yaml",
    "job/pom.xml",
  ]);
});

test("a given subfolder brings its project's config and other files as context", () => {
  const root = tree({
    ".beam-flink-lint.yaml": "exclude:\n  - deploy/old/**\n",
    "pom.xml": "<project/>\n",
    "deploy/flink-conf.yaml": CONF,
    "deploy/old/flink-conf.yaml": CONF,
    "conf/flink-conf.yaml": CONF,
    "other/pom.xml": "<project/>\n",
    "other/flink-conf.yaml": CONF,
  });
  const found = collectFiles(["deploy"], { cwd: root });
  assert.deepEqual(relative(root, found.files), ["deploy/flink-conf.yaml"]);
  assert.deepEqual(relative(root, found.context), [".beam-flink-lint.yaml", "conf/flink-conf.yaml", "pom.xml"]);
  assert.deepEqual(found.roots, [`${root}/deploy`]);
});

test("files larger than the limit are reported, not read", () => {
  const root = tree({ "flink-conf.yaml": CONF, "big/flink-conf.yaml": `${"# padding\n".repeat(20)}${CONF}` });
  const found = collectFiles([root], { maxFileBytes: 100 });
  assert.deepEqual(relative(root, found.files), ["flink-conf.yaml"]);
  assert.equal(found.notes.length, 1);
  assert.equal(found.notes[0].path, `${root}/big/flink-conf.yaml`);
  assert.match(found.notes[0].message, /^not read: .* is more than the .* limit$/);
});

test("stops at the file limit and says so once", () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 5; i++) files[`c${i}/flink-conf.yaml`] = CONF;
  const root = tree(files);
  const found = collectFiles([root], { maxFiles: 3 });
  assert.equal(found.files.length, 3);
  assert.equal(found.notes.length, 1);
  assert.match(found.notes[0].message, /^stopped after 3 files/);
});

test("symbolic links are followed without looping or counting a folder twice", () => {
  const root = tree({ "conf/flink-conf.yaml": CONF });
  symlinkSync(root, join(root, "conf", "loop"), "dir");
  symlinkSync(join(root, "conf"), join(root, "alias"), "dir");
  const found = collectFiles([root]);
  assert.equal(found.files.length, 1);
  assert.match(found.files[0], /\/(conf|alias)\/flink-conf\.yaml$/);
});

test("given files: read even when ignored; unknown kinds and missing paths are reported", () => {
  const root = tree({ ".gitignore": "*.yaml\n", "flink-conf.yaml": CONF, "notes.txt": "x\n" });
  const found = collectFiles(["flink-conf.yaml", "notes.txt", "nope.yaml"], { cwd: root });
  assert.deepEqual(relative(root, found.files), ["flink-conf.yaml"]);
  assert.deepEqual(found.roots, [root]);
  assert.deepEqual(found.missing, ["nope.yaml"]);
  assert.equal(found.notes.length, 1);
  assert.match(found.notes[0].message, /not a kind of file beam-flink-lint reads/);
});

test("no paths means the working directory", () => {
  const root = tree({ "flink-conf.yaml": CONF });
  assert.deepEqual(relative(root, collectFiles([], { cwd: root }).files), ["flink-conf.yaml"]);
});

test("loadWorkspace reads the files into a workspace, without byte order marks", () => {
  const root = tree({ "flink-conf.yaml": `\uFEFF${CONF}`, "session/flink-conf.yaml": "rest.port=8081\n" });
  const loaded = loadWorkspace([root], { keepBytes: true });
  assert.deepEqual(relative(root, loaded.files), ["flink-conf.yaml", "session/flink-conf.yaml"]);
  assert.equal(loaded.workspace.text(`${root}/flink-conf.yaml`), CONF);
  assert.deepEqual(
    [...loaded.disk].filter(([, d]) => d.bom).map(([f]) => f),
    [`${root}/flink-conf.yaml`],
  );
  assert.deepEqual(loaded.workspace.projectRoots(), [root]);
  const findings = [...loaded.workspace.analyze(root).byFile.values()].flat().filter((f) => f.rule === "BFL100");
  assert.deepEqual(
    findings.map((f) => f.file),
    [`${root}/session/flink-conf.yaml`],
  );
});

test("isCollectable gives the walk's verdict for one file", () => {
  const root = tree({
    ".gitignore": "scratch/\n*.local.yaml\n",
    ".beam-flink-lint.yaml": "exclude:\n  - generated\nflinkConfigFiles:\n  - conf/*.conf\n",
    "scratch/flink-conf.yaml": CONF,
    "dev.local.yaml": CONF,
    "deploy/.gitignore": "!keep.local.yaml\n",
    "deploy/keep.local.yaml": CONF,
    "generated/flink-conf.yaml": CONF,
    "conf/prod.conf": CONF,
    "conf/notes.txt": "x\n",
    "node_modules/x/flink-conf.yaml": CONF,
    "job/pom.xml": "<project/>\n",
    "job/generated/flink-conf.yaml": CONF,
    "big.yaml": `${"# padding\n".repeat(20)}${CONF}`,
  });
  const all = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => toPosixPath(join(e.parentPath, e.name)))
    .sort();
  const walked = new Set(collectFiles([root], { maxFileBytes: 100 }).files);
  assert.ok(walked.has(`${root}/job/generated/flink-conf.yaml`), "the outer exclude does not reach into job/");
  for (const file of all) {
    assert.equal(isCollectable(file, root, { maxFileBytes: 100 }), walked.has(file), file.slice(root.length + 1));
  }
  assert.equal(isCollectable(`${root}/../elsewhere/flink-conf.yaml`, root), false);
});
