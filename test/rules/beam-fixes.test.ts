/**
 * The Beam rules' fixes leave Java that the reader still understands: every `.java.after` file of the BFL4xx
 * fixtures parses without problems and still holds the KafkaIO reads and options of the file before the fix. A fix
 * that broke the syntax would otherwise only show as the finding disappearing.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { longText } from "../../server/src/core/jobcode/intents";
import { FIXTURE_ROOT, loadCase, repoPath } from "../harness/fixtures";

function javaAfters(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) javaAfters(p, out);
    else if (name.endsWith(".java.after")) out.push(p);
  }
  return out;
}

const root = repoPath("test", "fixtures", "rules");
const codes = readdirSync(root).filter((c) => /^BFL4\d\d$/.test(c));

test("the BFL4xx fixtures have Java fixes to check", () => {
  assert.ok(codes.flatMap((c) => javaAfters(join(root, c))).length >= 10);
});

for (const code of codes) {
  for (const after of javaAfters(join(root, code))) {
    const caseDir = after.slice(0, after.indexOf("/", join(root, code).length + 1));
    const rel = after.slice(caseDir.length, -".after".length);
    test(`${code} ${after.slice(join(root, code).length + 1)} is still readable Java`, () => {
      const file = `${FIXTURE_ROOT}${rel}`;
      const before = readDocument(file, loadCase(caseDir).files.get(file) ?? "").code;
      const fixed = readDocument(file, readFileSync(after, "utf8")).code;
      assert.ok(before && fixed, "read as Java");
      assert.deepEqual(fixed.parseProblems, []);
      assert.equal(fixed.kafkaReads.length, before.kafkaReads.length);
      assert.equal(fixed.beamOptions.creations.length, before.beamOptions.creations.length);
    });
  }
}

test("long intervals are written in each language's own literal syntax", () => {
  assert.equal(longText("java", 60_000), "60_000L");
  assert.equal(longText("java", 500), "500L");
  assert.equal(longText("java", 1_800_000), "1_800_000L");
  assert.equal(longText("kotlin", 60_000), "60_000L");
  assert.equal(longText("scala", 60_000), "60000L");
  assert.equal(longText("python", 60_000), "60000");
});
