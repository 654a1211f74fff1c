/**
 * Files a .gitignore pattern matches but git tracks are read, as git itself treats them: the walker reads the
 * repository's index file. These tests build real repositories with the git command line.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { toPosixPath } from "../../server/src/node/files";
import { parseGitIndex } from "../../server/src/node/gitIndex";
import { collectFiles, isCollectable } from "../../server/src/node/walk";
import { emptyTempDir, removeTemps, runCli } from "./helpers";

after(removeTemps);

const CONF = "taskmanager.numberOfTaskSlots: 2\n";

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args],
    {
      cwd,
      encoding: "utf8",
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    },
  );
}

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** A repository whose `tracked` files are committed (added with -f past .gitignore); `untracked` are only on disk. */
function repo(tracked: Record<string, string>, untracked: Record<string, string> = {}): string {
  const root = toPosixPath(emptyTempDir());
  git(root, "init", "-q");
  write(root, tracked);
  git(root, "add", "-f", ".");
  git(root, "commit", "-q", "-m", "init");
  write(root, untracked);
  return root;
}

function relative(root: string, files: string[]): string[] {
  return files.map((f) => f.slice(root.length + 1));
}

const DEPLOYMENT = `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: job
spec:
  image: flink:1.18
  flinkVersion: v1_18
  flinkConfiguration:
    taskmanager.numberOfTaskSlot: "2"
`;

test("a tracked file that a .gitignore pattern matches is read; an untracked one next to it is not", () => {
  const root = repo(
    { ".gitignore": "charts/**/templates/*.yaml\n", "charts/app/templates/flink.yaml": DEPLOYMENT },
    { "charts/app/templates/scratch.yaml": DEPLOYMENT },
  );
  assert.deepEqual(relative(root, collectFiles([root]).files), ["charts/app/templates/flink.yaml"]);
  assert.equal(isCollectable(`${root}/charts/app/templates/flink.yaml`, root), true);
  assert.equal(isCollectable(`${root}/charts/app/templates/scratch.yaml`, root), false);
});

test("an ignored folder that holds tracked files is entered, and only its tracked files are read", () => {
  const root = repo(
    { ".gitignore": "conf/\n", "conf/flink-conf.yaml": CONF, "conf/ha/flink-conf.yaml": CONF },
    { "conf/local/flink-conf.yaml": CONF, "conf/dev-flink-conf.yaml": CONF, "other/flink-conf.yaml": CONF },
  );
  assert.deepEqual(relative(root, collectFiles([root]).files), [
    "conf/flink-conf.yaml",
    "conf/ha/flink-conf.yaml",
    "other/flink-conf.yaml",
  ]);
  assert.equal(isCollectable(`${root}/conf/ha/flink-conf.yaml`, root), true);
  assert.equal(isCollectable(`${root}/conf/local/flink-conf.yaml`, root), false);
});

test("the command line reports on a tracked, ignored manifest", () => {
  const root = repo({ ".gitignore": "*.yaml\n", "k8s/flink.yaml": DEPLOYMENT });
  const r = runCli(["--format", "json", "--rule", "*=off", "--rule", "BFL102=error", "."], root);
  const findings = JSON.parse(r.stdout).findings as { file: string; rule: string; line: number }[];
  assert.deepEqual(
    findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    ["k8s/flink.yaml:9 BFL102"],
  );
  assert.equal(r.status, 1);
});

test("index versions 2, 3 and 4 give the paths git lists, long, shared-prefix and non-ASCII paths included", () => {
  const files: Record<string, string> = { ".gitignore": "*\n" };
  const deep = `${"very-long-folder-name/".repeat(12)}flink-conf.yaml`;
  for (const name of [
    "a.yaml",
    "ab.yaml",
    "abc/d.yaml",
    "abc/de/f.yaml",
    "zürich/flink-conf.yaml",
    deep,
    "x".repeat(7),
  ]) {
    files[name] = CONF;
  }
  const root = repo(files);
  const listed = git(root, "ls-files", "-z").split("\0").filter(Boolean).sort();
  for (const version of ["2", "3", "4"]) {
    git(root, "update-index", "--index-version", version);
    if (version === "3") {
      write(root, { "new/intent.yaml": CONF });
      git(root, "add", "-f", "-N", "new/intent.yaml"); // intent-to-add: an entry with extended flags
    }
    const parsed = parseGitIndex(readFileSync(join(root, ".git", "index")));
    assert.ok(parsed, `version ${version} is read`);
    const expected = git(root, "ls-files", "-z").split("\0").filter(Boolean).sort();
    assert.deepEqual([...parsed.files].sort(), expected, `version ${version}`);
    assert.ok(expected.length >= listed.length);
    assert.equal(readFileSync(join(root, ".git", "index")).readUInt32BE(4), Number(version));
  }
  assert.ok(relative(root, collectFiles([root]).files).includes(deep));
});

test("a worktree's .git file leads to its own index", () => {
  const main = repo({ ".gitignore": "deploy/\n", "deploy/flink-conf.yaml": CONF });
  const worktree = `${main}-wt`;
  git(main, "worktree", "add", "-q", worktree);
  assert.deepEqual(relative(worktree, collectFiles([worktree]).files), ["deploy/flink-conf.yaml"]);
});

test("an index that cannot be read leaves the .gitignore patterns in charge, with no failure", () => {
  const root = repo({ ".gitignore": "conf/\n", "conf/flink-conf.yaml": CONF, "flink-conf.yaml": CONF });
  for (const bytes of [Buffer.from("DIRC\0\0\0\x02\0\0\0\x05garbage"), Buffer.from("not an index"), Buffer.alloc(0)]) {
    writeFileSync(join(root, ".git", "index"), bytes);
    assert.deepEqual(relative(root, collectFiles([root]).files), ["flink-conf.yaml"]);
  }
  for (let cut = 0; cut < 200; cut += 7) {
    assert.doesNotThrow(() => parseGitIndex(Buffer.alloc(cut, 0x44)));
  }
});
