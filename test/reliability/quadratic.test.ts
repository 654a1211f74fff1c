/**
 * Inputs that used to cost time quadratic in their size (or more), at 4 MB, just under the 5 MB cap: 4 MB of one
 * duplicated flink-conf.yaml line, a pom of unclosed `<!--`, Java nested 2,000,000 brackets deep. Each is timed
 * against a baseline of the same size in the same test that does the same kind of work without the shape that was
 * quadratic; the bound is a ratio, so a slow machine slows both.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { after, test } from "node:test";
import { allOptionKeys } from "../../server/src/core/knowledge/options";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { emptyTempDir, removeTemps, runCli } from "../cli/helpers";
import { ROOT } from "./invariants";

after(removeTemps);

const MB4 = 4 * 1024 * 1024;

/** Repeats `unit` up to `size` characters. */
function fill(unit: string, size = MB4): string {
  return unit.repeat(Math.floor(size / unit.length));
}

/** Milliseconds to analyse a one-file project, and its findings by rule. */
function analyse(name: string, text: string): { ms: number; rules: Map<string, number> } {
  const ws = new Workspace({ roots: [ROOT] });
  const file = `${ROOT}/${name}`;
  ws.setFile(file, text);
  const start = performance.now();
  const result = ws.analyze(ws.projectRootOf(file));
  const ms = performance.now() - start;
  assert.deepEqual(result.failures, []);
  const rules = new Map<string, number>();
  for (const f of [...result.byFile.values()].flat()) rules.set(f.rule, (rules.get(f.rule) ?? 0) + 1);
  return { ms, rules };
}

/** Linear code takes about as long on both; the shapes that were quadratic took minutes or hours at this size. */
const MAX_RATIO = 5;

function compare(what: string, quadratic: { ms: number }, baseline: { ms: number }): void {
  const ratio = quadratic.ms / Math.max(baseline.ms, 1);
  assert.ok(
    ratio <= MAX_RATIO,
    `${what}: ${quadratic.ms.toFixed(0)} ms against ${baseline.ms.toFixed(0)} ms for the baseline (${ratio.toFixed(1)}×)`,
  );
}

test("4 MB of one duplicated flink-conf.yaml line costs what 4 MB of many keys do (BFL105)", {
  timeout: 120_000,
}, () => {
  const one = "taskmanager.numberOfTaskSlots: 2\n";
  const quadratic = analyse("flink-conf.yaml", fill(one));
  // The same number of lines and of duplicates, spread over every key instead of one.
  const keys = allOptionKeys("1.19");
  let text = "";
  for (let i = 0; text.length < MB4; i++) text += `${keys[i % keys.length]}: 2\n`;
  const baseline = analyse("flink-conf.yaml", text);
  // One finding for the key, with every other occurrence as related information.
  assert.equal(quadratic.rules.get("BFL105"), 1);
  assert.ok((baseline.rules.get("BFL105") ?? 0) > 0);
  compare("one key duplicated", quadratic, baseline);
});

test("a 4 MB pom of unclosed comments costs what one of closed comments does", { timeout: 120_000 }, () => {
  const quadratic = analyse("pom.xml", `<project>${fill("<!--")}`);
  const baseline = analyse("pom.xml", `<project>${fill("<!---->")}`);
  assert.equal(quadratic.rules.get("BFL002"), 1);
  compare("unclosed <!--", quadratic, baseline);
});

test("Java nested 2,000,000 brackets deep costs what the same brackets 101 deep do, and is not analysed (BFL003)", {
  timeout: 120_000,
}, () => {
  const half = MB4 / 2;
  const job = (body: string) => `class Job {\n  void run(KafkaIO k) {\n    use(${body});\n  }\n}\n`;
  const quadratic = analyse("src/Job.java", job(`${"(".repeat(half)}${")".repeat(half)}`));
  const baseline = analyse("src/Job.java", job(fill(`${"(".repeat(101)}${")".repeat(101)}`)));
  assert.equal(quadratic.rules.get("BFL003"), 1);
  assert.equal(baseline.rules.get("BFL003"), 1);
  compare("2,000,000 levels", quadratic, baseline);
});

const DOLLAR_BRACE = "$" + "{";

test("a Kotlin build script of 1 MB of nested dollar-braces costs what one of closed ones does", {
  timeout: 60_000,
}, () => {
  const size = 1024 * 1024;
  const nested = analyse("build.gradle.kts", fill(DOLLAR_BRACE, size));
  compare("nested dollar-braces", nested, analyse("build.gradle.kts", fill(`${DOLLAR_BRACE}}`, size)));
});

test("130,000 findings in one file are reported, not a stack overflow (exit 0, every finding printed)", {
  timeout: 60_000,
}, () => {
  const dir = emptyTempDir();
  writeFileSync(join(dir, "flink-conf.yaml"), "a:\n".repeat(130_000));
  const run = runCli(["--format", "json", "--rule", "*=off", "--rule", "BFL100=warning", "."], dir);
  assert.equal(run.status, 0, run.stderr);
  assert.equal((JSON.parse(run.stdout) as { findings: unknown[] }).findings.length, 130_000);
  const text = runCli(["--rule", "*=off", "--rule", "BFL100=warning", "."], dir);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /✖ 130000 problems \(0 errors, 130000 warnings, 0 info\) in 1 file/);
});

test("loading 5,000 projects, each with its own pom.xml, costs what loading as many plain files does", {
  timeout: 120_000,
}, () => {
  const load = (marker: string) => {
    const ws = new Workspace({ roots: [ROOT] });
    const start = performance.now();
    for (let i = 0; i < 5000; i++) {
      const dir = `${ROOT}/services/team${i % 50}/job${i}`;
      ws.setFile(`${dir}/src/main/java/Job.java`, "class Job {}\n");
      ws.setFile(`${dir}/conf/flink-conf.yaml`, "parallelism.default: 2\n");
      // Each new root marker moves the files below it to a new project: only those are looked at again.
      ws.setFile(`${dir}/${marker}`, "<project><artifactId>job</artifactId></project>\n");
    }
    const ms = performance.now() - start;
    return { ms, roots: ws.projectRoots().length };
  };
  const markers = load("pom.xml");
  const plain = load("notes.xml");
  assert.equal(markers.roots, 5000);
  assert.equal(plain.roots, 1);
  compare("5,000 root markers", markers, plain);
});
