/**
 * The Java reader keeps parse results by unit text and shifts them to where the unit stands now. A warm read must
 * give exactly the facts of a cold one, whatever moved: lines added above, a member edited, members reordered.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { javaJob } from "../../bench/generate";
import { Random } from "../../bench/random";
import { cachedParseUnit, clearParseCache } from "../../server/src/core/documents/java/parseCache";
import { readJava } from "../../server/src/core/documents/java/reader";
import { parseUnit } from "../../server/src/core/documents/java/syntax";
import { tokenize } from "../../server/src/core/documents/java/tokens";
import { memberUnits } from "../../server/src/core/documents/java/units";
import { corpusFiles } from "./corpus";

const FILE = "/project/src/main/java/Job.java";

/** The facts as data: functions (edit builders) are closures, equal only by what they build, not by reference. */
function read(text: string): unknown {
  return JSON.parse(JSON.stringify(readJava(FILE, text)));
}

function cold(text: string): unknown {
  clearParseCache();
  return read(text);
}

/** Reads `before` (filling the cache), then `after`; the second read must equal a cold read of `after`. */
function assertSameWarm(before: string, after: string, what: string): void {
  const expected = cold(after);
  clearParseCache();
  read(before);
  assert.deepEqual(read(after), expected, what);
}

const javaTexts = () => [
  ...corpusFiles()
    .filter((f) => f.file.endsWith(".java"))
    .map((f) => f.text),
  javaJob(400, new Random(11)),
];

test("every unit's kept result, shifted, equals a parse at its offset", () => {
  let units = 0;
  for (const text of javaTexts()) {
    const found = memberUnits(tokenize(text)) ?? [{ start: 0, end: text.length, rule: "blockStatements" as const }];
    for (const u of found) {
      const source = text.slice(u.start, u.end);
      for (const base of [u.start, u.start + 1234]) {
        cachedParseUnit(source, u.rule, 0);
        assert.deepEqual(cachedParseUnit(source, u.rule, base), parseUnit(source, u.rule, base), source.slice(0, 80));
      }
      units++;
    }
  }
  assert.ok(units > 100, `${units} units`);
});

test("lines added above every member: the kept results are shifted to their new place", () => {
  for (const text of javaTexts()) {
    const at = text.indexOf("{") + 1;
    assertSameWarm(text, `${text.slice(0, at)}\n  // moved\r\n  int added = 1;\n${text.slice(at)}`, text.slice(0, 80));
  }
});

test("a member edited, broken, and mended: every read equals a cold one", () => {
  const text = javaJob(300, new Random(12));
  const broken = text.replace(".withoutMetadata())", ".withoutMetadata()");
  const edited = text.replace('"group-', '"consumer-group-');
  assert.notEqual(broken, text);
  assert.notEqual(edited, text);
  assertSameWarm(text, broken, "broken");
  assertSameWarm(broken, edited, "mended with a longer name");
  assertSameWarm(edited, text, "back to the start");
});

test("members swapped: the same texts at other offsets", () => {
  const text = javaJob(200, new Random(13));
  const parts = text.split("\n\n");
  const swapped = [parts[0], parts[2], parts[1], ...parts.slice(3)].join("\n\n");
  assert.notEqual(swapped, text);
  assertSameWarm(text, swapped, "swapped");
});
