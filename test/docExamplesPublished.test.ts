/**
 * The documented example projects only use artifacts that exist: no rule's ❌ or ✅ example asks for a Beam Flink
 * runner that Beam never published for that Beam version (BFL304), except BFL304's own ❌ example.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ALL_RULES } from "../server/src/core/rules/index";
import type { ExampleFiles } from "../server/src/core/rules/types";
import { analyzeAll, FIXTURE_ROOT, workspaceOf } from "./harness/fixtures";

function unpublished(example: ExampleFiles): string[] {
  const files = new Map(Object.entries(example).map(([name, text]) => [`${FIXTURE_ROOT}/${name}`, text]));
  return analyzeAll(workspaceOf(files))
    .filter((f) => f.rule === "BFL304")
    .map((f) => `${f.file}:${f.range.start.line + 1} ${f.message}`);
}

for (const rule of ALL_RULES) {
  const { code, docs } = rule.meta;
  test(`${code}: the documented examples use published runner artifacts`, () => {
    if (code !== "BFL304") assert.deepEqual(unpublished(docs.bad), [], "❌ example");
    assert.deepEqual(unpublished(docs.good), [], "✅ example");
  });
}
