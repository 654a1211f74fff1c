/**
 * The CI integrations in the repository root: the pre-commit hook definition and the composite GitHub Action,
 * whose script runs here the way the runner runs it (bash, inputs as environment variables).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parse } from "yaml";
import { isCandidateFile } from "../../server/src/core/documents/index";
import { copyFixture, removeTemps } from "../cli/helpers";
import { distPath, repoPath } from "../harness/fixtures";

after(removeTemps);

interface Hook {
  id: string;
  entry: string;
  language: string;
  files: string;
  require_serial?: boolean;
}

test("the pre-commit hook runs the package's command on the files the linter reads, in one process", () => {
  const hooks = parse(readFileSync(repoPath(".pre-commit-hooks.yaml"), "utf8")) as Hook[];
  assert.equal(hooks.length, 1);
  const [hook] = hooks;
  const manifest = JSON.parse(readFileSync(repoPath("package.json"), "utf8"));
  assert.equal(hook.id, "beam-flink-lint");
  assert.equal(hook.language, "node");
  assert.ok(Object.hasOwn(manifest.bin, hook.entry), `${hook.entry} is a program of the package`);
  assert.equal(hook.require_serial, true);
  // pre-commit matches `files` with Python's re.search; this pattern means the same in JavaScript.
  const files = new RegExp(hook.files);
  const read = [
    "flink-conf.yaml",
    "conf/config.yaml",
    "k8s/deploy.yml",
    ".beam-flink-lint.yaml",
    "Dockerfile",
    "docker/Dockerfile.prod",
    "images/job.dockerfile",
    "build.gradle",
    "app/build.gradle.kts",
    "settings.gradle.kts",
    "gradle.properties",
    "gradle/libs.versions.toml",
    "pom.xml",
    "src/main/java/com/example/Job.java",
    "src/main/scala/com/example/Job.scala",
    "src/main/kotlin/com/example/Job.kt",
    "pipelines/orders.py",
    "requirements.txt",
    "pyproject.toml",
    "Makefile",
    "scripts/submit.sh",
    ".vscode/launch.json",
  ];
  for (const name of read) {
    assert.ok(isCandidateFile(`/repo/${name}`), `${name} is read`);
    assert.ok(files.test(name), `${name} is passed to the hook`);
  }
  for (const name of ["README.md", "package.json", "launch.json", "job.rb", "notpom.xml", "my-build.gradle"]) {
    assert.ok(!isCandidateFile(`/repo/${name}`), `${name} is not read`);
    assert.ok(!files.test(name), `${name} is not passed to the hook`);
  }
});

interface Action {
  runs: { using: string; steps: { shell: string; run: string; env: Record<string, string> }[] };
  inputs: Record<string, { default: string }>;
}

const action = parse(readFileSync(repoPath("action.yml"), "utf8")) as Action;

/** Runs the action's step as the runner does: bash, the inputs in the environment, the workspace as cwd. */
function runAction(inputs: Record<string, string>, cwd: string) {
  const [step] = action.runs.steps;
  const actionDir = mkdtempSync(join(tmpdir(), "bfl-action-"));
  mkdirSync(join(actionDir, "dist"));
  cpSync(distPath("cli.js"), join(actionDir, "dist", "cli.js"));
  cpSync(repoPath("package.json"), join(actionDir, "package.json"));
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", GITHUB_ACTION_PATH: actionDir };
  for (const [name, value] of Object.entries(step.env)) {
    const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value)?.[1];
    assert.ok(input, `${name} comes from an input`);
    env[name] = inputs[input] ?? action.inputs[input].default;
  }
  const r = spawnSync("bash", ["-c", step.run], { cwd, env, encoding: "utf8" });
  rmSync(actionDir, { recursive: true, force: true });
  return r;
}

test("the action is a composite bash step that takes its inputs from the environment only", () => {
  assert.equal(action.runs.using, "composite");
  assert.equal(action.runs.steps.length, 1);
  assert.equal(action.runs.steps[0].shell, "bash");
  assert.doesNotMatch(action.runs.steps[0].run, /\$\{\{/, "no expression is pasted into the script");
  assert.deepEqual(Object.keys(action.inputs).sort(), [
    "args",
    "baseline",
    "flink-version",
    "format",
    "max-warnings",
    "output-file",
    "paths",
    "version",
  ]);
});

test("the action annotates findings and fails on errors; a clean project passes", () => {
  const dir = copyFixture("problems");
  const failing = runAction({ args: "--rule *=off --rule BFL100=error", paths: "flink-conf.yaml session" }, dir);
  assert.equal(failing.status, 1, failing.stderr);
  const lines = failing.stdout.trim().split("\n");
  assert.deepEqual(
    lines.map((l) => /^::(\w+) file=([^,]+),line=(\d+),/.exec(l)?.slice(1).join(" ")),
    ["error flink-conf.yaml 3", "error flink-conf.yaml 4", "error session/flink-conf.yaml 2"],
  );
  const warnings = runAction({ args: "--rule *=off --rule BFL100=warning", "max-warnings": "2" }, dir);
  assert.equal(warnings.status, 1, "more warnings than max-warnings");
  assert.equal(runAction({ args: "--rule *=off --rule BFL100=warning" }, dir).status, 0);
  const sarif = runAction({ format: "sarif", "output-file": "lint.sarif", args: "--rule BFL100=error" }, dir);
  assert.equal(sarif.stdout, "");
  assert.equal(JSON.parse(readFileSync(join(dir, "lint.sarif"), "utf8")).version, "2.1.0");
  assert.equal(runAction({}, copyFixture("clean")).status, 0);
});
