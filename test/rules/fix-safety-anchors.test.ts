/** Fixes that delete YAML entries keep the anchors an alias uses: such a deletion is not offered as safe. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { anchorsUsedOutside } from "../../server/src/core/documents/yaml/anchors";
import { applyEdits } from "../../server/src/core/text";
import { analyzeAll, loadCase, repoPath, workspaceOf } from "../harness/fixtures";

test("BFL201: deleting an entry whose anchor an alias uses is unsafe; the other deletion stays safe", () => {
  const fx = loadCase(repoPath("test", "fixtures", "rules", "BFL201", "fires-anchor-used-elsewhere"));
  const findings = analyzeAll(workspaceOf(fx.files)).filter((f) => f.rule === "BFL201");
  assert.deepEqual(
    findings.map((f) => [f.range.start.line, f.fixes.map((x) => [x.safety, x.title])]),
    [
      [
        8,
        [
          [
            "unsafe",
            "Delete kubernetes.namespace (it defines the anchor &ns, which an alias uses: define it elsewhere first)",
          ],
        ],
      ],
      [9, [["safe", "Delete kubernetes.cluster-id"]]],
    ],
  );
  // The safe one leaves a manifest that still loads, with the alias intact.
  const file = [...fx.files.keys()][0];
  const text = fx.files.get(file) ?? "";
  const fixed = applyEdits(text, findings[1].fixes[0].changes[0].edits);
  assert.match(fixed, /&ns streaming/);
  const again = analyzeAll(workspaceOf(new Map([[file, fixed]]))).filter((f) => f.rule === "BFL002");
  assert.deepEqual(again, []);
});

test("anchors in the deleted text count only when an alias outside it uses them", () => {
  const text = "a: &x 1\nb: *x\nc: &y 2\nd: [*y]\ne: &z 3\nf: '*zz'\n";
  const line = (n: number) => ({ start: { line: n, character: 0 }, end: { line: n + 1, character: 0 } });
  assert.deepEqual(anchorsUsedOutside(text, line(0)), ["x"]);
  assert.deepEqual(anchorsUsedOutside(text, line(2)), ["y"]);
  assert.deepEqual(anchorsUsedOutside(text, line(4)), []);
  // An alias inside the deleted text itself does not keep the anchor.
  assert.deepEqual(anchorsUsedOutside(text, { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } }), []);
});
