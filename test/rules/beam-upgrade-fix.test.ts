/**
 * The "Upgrade Beam" fix on every BFL301/BFL302 fixture that has one: after applying it, each edited file still
 * reads without syntax errors, every dependency that used the edited definition resolves to the target version
 * (the same dependencies as before), and the rule reports nothing anywhere in the workspace.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Finding } from "../../server/src/core/findings";
import type { ResolvedDependency } from "../../server/src/core/model";
import { applyEdits } from "../../server/src/core/text";
import type { Workspace } from "../../server/src/core/workspace/workspace";
import { analyzeAll, listCases, loadCase, repoPath, workspaceOf } from "../harness/fixtures";

function dependencies(ws: Workspace): ResolvedDependency[] {
  return ws.projectRoots().flatMap((root) => ws.project(root).dependencies);
}

/** The dependencies whose version is defined at the finding's place, as artifact / module / profile. */
function usersOf(ws: Workspace, finding: Finding): string[] {
  return dependencies(ws)
    .filter((d) => d.versionDefinition?.file === finding.file)
    .filter((d) => d.versionDefinition?.range.start.line === finding.range.start.line)
    .map((d) => `${d.artifact} ${d.module} ${d.profile ?? ""} ${d.version}`)
    .sort();
}

const cases = listCases(repoPath("test", "fixtures", "rules")).filter(
  (c) => (c.code === "BFL301" || c.code === "BFL302") && c.name.startsWith("fires-"),
);

for (const c of cases) {
  const fx = loadCase(c.dir);
  if (fx.afters.size === 0) continue;
  test(`${c.code} ${c.name}: the upgrade moves every use of the definition to the target`, () => {
    const ws = workspaceOf(fx.files, fx.options);
    const findings = analyzeAll(ws).filter((f) => f.rule === c.code && f.fixes.length > 0);
    assert.ok(findings.length > 0);
    const files = new Map(fx.files);
    const expected: string[] = [];
    for (const finding of findings) {
      const fix = finding.fixes[0];
      const title = /^Upgrade Beam to (\S+)(?: \((.* → .*)\))?$/.exec(fix.title);
      const target = title?.[1];
      assert.ok(target, fix.title);
      // Runners the target no longer publishes move to another Flink minor with it: "a → b, c → d".
      const moves = new Map((title?.[2] ?? "").split(", ").map((m) => m.split(" → ") as [string, string]));
      assert.equal(fix.safety, "unsafe");
      expected.push(
        ...usersOf(ws, finding).map((u) => {
          const [artifact, ...rest] = u.replace(/\S+$/, target).split(" ");
          return [moves.get(artifact) ?? artifact, ...rest].join(" ");
        }),
      );
      for (const change of fix.changes) files.set(change.file, applyEdits(files.get(change.file) ?? "", change.edits));
    }
    assert.ok(expected.length > 0, "the definition has users");
    const fixed = workspaceOf(files, fx.options);
    for (const finding of findings) {
      for (const change of finding.fixes[0].changes) {
        assert.deepEqual(fixed.facts(change.file)?.syntaxErrors, [], `${change.file} still reads`);
      }
    }
    const after = findings.flatMap((f) => usersOf(fixed, f)).sort();
    assert.deepEqual(after, expected.sort());
    assert.deepEqual(
      analyzeAll(fixed)
        .filter((f) => f.rule === c.code)
        .map((f) => f.message),
      [],
    );
  });
}
