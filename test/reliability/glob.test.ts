/**
 * Glob matching of the project configuration (include, exclude, flinkConfigFiles) and of rule patterns: the same
 * answers as picomatch for the syntax people write, in time linear in the path whatever the pattern, and patterns
 * that cannot be used are reported in the project configuration.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { after, test } from "node:test";
import fc from "fast-check";
import picomatch from "picomatch";
import { ruleMatches } from "../../server/src/core/config";
import { readProjectConfig } from "../../server/src/core/documents/projectConfig";
import { globMatch, matchesAny } from "../../server/src/core/glob";
import { emptyTempDir, removeTemps, runCli } from "../cli/helpers";

after(removeTemps);

test("globs match as picomatch does with dot: true, for the syntax people write", () => {
  const atom = fc.constantFrom(
    "a",
    "b",
    ".",
    "/",
    "*",
    "**",
    "?",
    "[ab]",
    "[a-b]",
    "[^a]",
    "{a,b}",
    "{a,b/c}",
    "x",
    "-",
    "yaml",
  );
  // picomatch reads `**` before a brace and runs of three stars in ways of its own; nobody writes those.
  const pattern = fc
    .array(atom, { minLength: 1, maxLength: 7 })
    .map((a) => a.join(""))
    .filter((p) => !/\*\*\{|\*\*\*|\*\.\*$/.test(p));
  // Paths as the walker matches them: relative, without empty, `.` or `..` segments.
  const path = fc
    .array(fc.constantFrom("a", "b", "x", ".", "/", "c", "-", "yaml"), { minLength: 1, maxLength: 9 })
    .map((a) => a.join(""))
    .filter((p) => !/(^|\/)\.\.?(\/|$)/.test(p) && !p.startsWith("/") && !p.endsWith("/") && !p.includes("//"));
  fc.assert(
    fc.property(pattern, path, (p, s) => {
      assert.equal(globMatch(s, p), picomatch.isMatch(s, p, { dot: true }), `${JSON.stringify(p)} on ${s}`);
    }),
    { seed: 0x610b, numRuns: 20_000 },
  );
});

test("the patterns of the README and common project layouts", () => {
  const cases: [string, string, boolean][] = [
    ["charts/third-party/**", "charts/third-party/a/values.yaml", true],
    ["charts/third-party/**", "charts/third-party", true],
    ["charts/third-party/**", "charts/other/values.yaml", false],
    ["conf/flink-*.yaml", "conf/flink-prod.yaml", true],
    ["conf/flink-*.yaml", "conf/sub/flink-prod.yaml", false],
    ["**/test/**", "src/test/resources/flink-conf.yaml", true],
    ["**/test/**", "test/flink-conf.yaml", true],
    ["**/*.yaml", "flink-conf.yaml", true],
    ["**/*.yaml", "a/b/.hidden.yaml", true],
    ["{k8s,helm}/**/*.yaml", "helm/x/values.yaml", true],
    ["{k8s,helm}/**/*.yaml", "docs/values.yaml", false],
    ["!docs/**", "k8s/a.yaml", true],
    ["!docs/**", "docs/a.yaml", false],
    ["./k8s/*.yaml", "k8s/a.yaml", true],
    ["k8s/@(dev|prod)/*.yaml", "k8s/prod/a.yaml", true],
    ["k8s/@(dev|prod)/*.yaml", "k8s/test/a.yaml", false],
    ["k8s/+(a)b.yaml", "k8s/aaab.yaml", true],
    ["k8s/?(x)b.yaml", "k8s/b.yaml", true],
    ["k8s/\\*.yaml", "k8s/*.yaml", true],
    ["k8s/\\*.yaml", "k8s/a.yaml", false],
    ["[!a]*.yaml", "b.yaml", true],
    ["[!a]*.yaml", "a.yaml", false],
  ];
  for (const [p, s, want] of cases) assert.equal(globMatch(s, p), want, `${p} on ${s}`);
  assert.equal(matchesAny("a/b.yaml", ["x/**", "a/*.yaml"]), true);
  assert.equal(matchesAny("a/b.yaml", []), false);
});

test("rule patterns: codes, names and stars; nothing else is special", () => {
  assert.equal(ruleMatches("BFL1*", "BFL101", "checkpointing-disabled"), true);
  assert.equal(ruleMatches("*checkpoint*", "BFL101", "checkpointing-disabled"), true);
  assert.equal(ruleMatches("BFL1?1", "BFL101", "checkpointing-disabled"), false);
  assert.equal(ruleMatches("*", "BFL101", "checkpointing-disabled"), true);
  assert.equal(ruleMatches("BFL2*", "BFL101", "checkpointing-disabled"), false);
});

/** The fastest of three runs of `fn`, in milliseconds. */
function best(fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

test("a pattern full of stars costs about what a plain one does: no backtracking", () => {
  const names = Array.from({ length: 2000 }, (_, i) => `${"a".repeat(80)}${i}`);
  // Warm up both patterns' compiled forms.
  globMatch(names[0], "*c");
  globMatch(names[0], "*a*a*a*a*a*a*a*a*c");
  const plain = best(() => {
    for (const n of names) globMatch(n, "*c");
  });
  const evil = best(() => {
    for (const n of names) globMatch(n, "*a*a*a*a*a*a*a*a*c");
  });
  // The automaton has about nine times the states; backtracking would take longer than the test runs.
  assert.ok(evil / Math.max(plain, 1) < 40, `plain: ${plain.toFixed(1)} ms, many stars: ${evil.toFixed(1)} ms`);
  assert.equal(ruleMatches("*a*a*a*a*a*a*a*a*a*a*a*a*c", "BFL101", "a".repeat(60)), false);
});

test("the command line with an exclude glob full of stars against a long folder name finishes at once", {
  timeout: 60_000,
}, () => {
  const dir = emptyTempDir();
  const long = "a".repeat(80);
  mkdirSync(join(dir, long));
  writeFileSync(join(dir, long, "flink-conf.yaml"), "parallelism.default:2\n");
  const run = (pattern: string) => {
    writeFileSync(join(dir, ".beam-flink-lint.yaml"), `exclude:\n  - "${pattern}"\n`);
    const start = performance.now();
    const r = runCli([".", "--format", "json"], dir);
    return { ms: performance.now() - start, r };
  };
  const plain = run("*c");
  const evil = run("*a*a*a*a*a*a*a*a*c");
  assert.equal(evil.r.status, plain.r.status);
  assert.equal(evil.r.stdout, plain.r.stdout);
  assert.ok(evil.ms / plain.ms < 3, `plain: ${plain.ms.toFixed(0)} ms, many stars: ${evil.ms.toFixed(0)} ms`);
});

test("a glob that cannot be used is a problem of the project configuration (BFL002), and matches nothing", () => {
  const nested = `${"{a,".repeat(40)}b${"}".repeat(40)}`;
  const text = `exclude:\n  - "k8s/!(prod)/**"\n  - "docs/**"\ninclude: "${nested}"\n`;
  const { config, problems } = readProjectConfig("/p/.beam-flink-lint.yaml", text);
  assert.deepEqual(config.exclude, ["docs/**"]);
  assert.deepEqual(config.include, []);
  assert.deepEqual(
    problems.map((p) => [p.range.start.line, p.message]),
    [
      [1, "This glob uses `!(…)`, which is not supported, so it matches nothing."],
      [3, "This glob nests groups more than 32 deep, so it matches nothing."],
    ],
  );
  assert.equal(globMatch("k8s/dev/a.yaml", "k8s/!(prod)/**"), false);
});
