/**
 * The rule documentation is generated and its examples are executed:
 * - docs/rules and the README's rule table equal what `npm run gen:docs` would write now;
 * - every rule's ❌ example makes that rule report at least once, and its ✅ example keeps it silent.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { RULES_END, RULES_START, renderDocs } from "../scripts/gen-docs";
import { ALL_RULES } from "../server/src/core/rules/index";
import type { ExampleFiles } from "../server/src/core/rules/types";
import { analyzeAll, FIXTURE_ROOT, repoPath, workspaceOf } from "./harness/fixtures";

function findingsOf(code: string, example: ExampleFiles) {
  const files = new Map(Object.entries(example).map(([name, text]) => [`${FIXTURE_ROOT}/${name}`, text]));
  return analyzeAll(workspaceOf(files)).filter((f) => f.rule === code);
}

for (const rule of ALL_RULES) {
  const { code } = rule.meta;
  test(`${code} ❌ example makes the rule report`, () => {
    assert.ok(Object.keys(rule.meta.docs.bad).length > 0, "the ❌ example has no files");
    assert.ok(findingsOf(code, rule.meta.docs.bad).length > 0, `${code} stays silent on its ❌ example`);
  });
  test(`${code} ✅ example keeps the rule silent`, () => {
    assert.ok(Object.keys(rule.meta.docs.good).length > 0, "the ✅ example has no files");
    const messages = findingsOf(code, rule.meta.docs.good).map(
      (f) => `${f.file}:${f.range.start.line + 1} ${f.message}`,
    );
    assert.deepEqual(messages, [], `${code} reports on its ✅ example`);
  });
}

test("README.md has the generated rule table section", () => {
  const readme = readFileSync(repoPath("README.md"), "utf8");
  assert.ok(readme.includes(RULES_START) && readme.includes(RULES_END));
});

test("docs are up to date (run `npm run gen:docs`)", () => {
  const readmePath = repoPath("README.md");
  const expected = renderDocs(existsSync(readmePath) ? readFileSync(readmePath, "utf8") : undefined);
  const stale: string[] = [];
  for (const [rel, content] of expected) {
    const path = repoPath(...rel.split("/"));
    if (!existsSync(path) || readFileSync(path, "utf8") !== content) stale.push(rel);
  }
  const dir = repoPath("docs", "rules");
  const extra = existsSync(dir)
    ? readdirSync(dir).filter((name) => name.endsWith(".md") && !expected.has(`docs/rules/${name}`))
    : [];
  assert.deepEqual({ stale, extra }, { stale: [], extra: [] });
});
