/**
 * Every finding message is one short sentence (at most 120 characters) saying what happens at run time, so the
 * Problems panel and a terminal show it whole; why, versions, sources and how to fix go to the finding's details
 * (its first related information), the hover and the rule page. Checked over the findings of every rule fixture.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzeAll, listCases, loadCase, repoPath, workspaceOf } from "../harness/fixtures";

export const MAX_MESSAGE = 120;

test("every finding message of every rule fixture is at most 120 characters", () => {
  const tooLong = new Map<string, string>();
  let count = 0;
  for (const c of listCases(repoPath("test", "fixtures", "rules"))) {
    const fx = loadCase(c.dir);
    for (const f of analyzeAll(workspaceOf(fx.files, fx.options))) {
      count++;
      if (f.message.length > MAX_MESSAGE) tooLong.set(`${f.rule} [${f.message.length}] ${f.message}`, c.dir);
    }
  }
  assert.ok(count > 100, `the fixtures produced ${count} findings`);
  assert.deepEqual(
    [...tooLong].map(([m, dir]) => `${m}  (${dir})`),
    [],
    "messages over 120 characters",
  );
});

test("a message is one sentence: details go to related information, not after a full stop", () => {
  const several: string[] = [];
  for (const c of listCases(repoPath("test", "fixtures", "rules"))) {
    const fx = loadCase(c.dir);
    for (const f of analyzeAll(workspaceOf(fx.files, fx.options))) {
      // A full stop followed by a capital starts a second sentence (a version such as 1.19 or a path does not).
      if (/[.!?] [A-Z]/.test(f.message)) several.push(`${f.rule}: ${f.message}`);
    }
  }
  assert.deepEqual([...new Set(several)], []);
});
