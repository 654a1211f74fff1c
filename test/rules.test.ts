/**
 * Runs every rule fixture under test/fixtures/rules/<CODE>/<case>: the findings of <CODE> must be exactly the
 * markers (code, range, severity, message part); `fires-*` cases must have markers, `silent-*` cases none.
 * Where `<file>.after` exists, applying each finding's first fix must give that text and clear the finding.
 * A case whose case.json has `todo` runs as a todo test.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyEdits } from "../server/src/core/text";
import {
  analyzeAll,
  asExpectation,
  listCases,
  loadCase,
  repoPath,
  sortExpectations,
  workspaceOf,
} from "./harness/fixtures";

const root = repoPath("test", "fixtures", "rules");

for (const c of listCases(root)) {
  const todo = loadCase(c.dir).todo;
  test(`${c.code} ${c.name}`, todo ? { todo } : {}, () => {
    const fx = loadCase(c.dir);
    if (c.name.startsWith("fires")) assert.ok(fx.expectations.length > 0, "a fires-* case needs markers");
    if (c.name.startsWith("silent")) assert.equal(fx.expectations.filter((e) => e.rule === c.code).length, 0);
    const ws = workspaceOf(fx.files, fx.options);
    const findings = analyzeAll(ws).filter((f) => f.rule === c.code);
    const wanted = fx.expectations.filter((e) => e.rule === c.code);
    const actual = findings.map((f) => {
      // Several findings can start at one place: each takes the expectation there whose text it contains.
      const here = wanted.filter(
        (w) => w.file === f.file && w.line === f.range.start.line && w.start === f.range.start.character,
      );
      const e =
        here.find(
          (w) => w.severity === f.severity && (w.messagePart === undefined || f.message.includes(w.messagePart)),
        ) ?? here[0];
      return asExpectation(f, e?.messagePart);
    });
    assert.deepEqual(sortExpectations(actual), sortExpectations(wanted));

    for (const [file, expected] of fx.afters) {
      // The findings whose first fix edits the file: its own, and those whose fix reaches other files (an upgrade
      // that moves the runner declared in another file with the version).
      const own = findings.filter((f) => f.fixes.length > 0 && f.fixes[0].changes.some((ch) => ch.file === file));
      assert.ok(own.length > 0, `${file}.after exists but no finding's fix edits it`);
      const edits = own.flatMap((f) => f.fixes[0].changes.filter((ch) => ch.file === file).flatMap((ch) => ch.edits));
      const fixed = applyEdits(fx.files.get(file) ?? "", edits);
      assert.equal(fixed, expected, `text after fixing ${file}`);
      const again = new Map(fx.files);
      again.set(file, fixed);
      const remaining = analyzeAll(workspaceOf(again, fx.options)).filter((f) => f.rule === c.code && f.file === file);
      assert.deepEqual(
        remaining.map((f) => f.message),
        [],
        "the fix clears the finding",
      );
    }
  });
}
