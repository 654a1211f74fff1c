/**
 * The rule registry is consistent with the files around it: codes and names are well-formed and unique, each rule
 * lives in its own file in its family's folder and is registered, and each has a doc page, fixtures that fire and
 * stay silent, a tested fix where it claims one, and complete documentation metadata.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ALL_RULES } from "../server/src/core/rules/index";
import type { RuleFamily } from "../server/src/core/rules/types";
import { repoPath } from "./harness/fixtures";

const FAMILY_FOLDERS: Record<RuleFamily, string> = {
  meta: "meta",
  "flink-config": "config",
  kubernetes: "kubernetes",
  build: "build",
  beam: "beam",
  datastream: "datastream",
  sql: "sql",
};

const RULE_FILE = /^bfl\d{3}-.+\.ts$/;

function listDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort();
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listFiles(p).map((f) => `${name}/${f}`));
    else out.push(name);
  }
  return out;
}

function duplicates(xs: string[]): string[] {
  return xs.filter((x, i) => xs.indexOf(x) !== i);
}

const rulesDir = repoPath("server", "src", "core", "rules");
const fixturesDir = repoPath("test", "fixtures", "rules");
const docsDir = repoPath("docs", "rules");

test("rule codes are unique and look like BFLnnn", () => {
  const codes = ALL_RULES.map((r) => r.meta.code);
  assert.deepEqual(
    codes.filter((c) => !/^BFL\d{3}$/.test(c)),
    [],
  );
  assert.deepEqual(duplicates(codes), []);
});

test("rule names are unique and kebab-case", () => {
  const names = ALL_RULES.map((r) => r.meta.name);
  assert.deepEqual(
    names.filter((n) => !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(n)),
    [],
  );
  assert.deepEqual(duplicates(names), []);
});

test("each rule is the file bfl<code>-<name>.ts in its family's folder, and each rule file is registered", () => {
  const onDisk = new Set<string>();
  for (const folder of listDirs(rulesDir)) {
    for (const name of readdirSync(join(rulesDir, folder))) if (RULE_FILE.test(name)) onDisk.add(`${folder}/${name}`);
  }
  const expected = ALL_RULES.map(
    (r) => `${FAMILY_FOLDERS[r.meta.family]}/${r.meta.code.toLowerCase()}-${r.meta.name}.ts`,
  );
  assert.deepEqual(
    expected.filter((f) => !onDisk.has(f)),
    [],
    "rules whose file is not where its code, name and family say",
  );
  assert.deepEqual(
    [...onDisk].filter((f) => !expected.includes(f)).sort(),
    [],
    "rule files that are not registered in ALL_RULES (or disagree with their metadata)",
  );
});

test("every rule has a doc page and every doc page has a rule", () => {
  const codes = ALL_RULES.map((r) => r.meta.code).sort();
  const pages = existsSync(docsDir)
    ? readdirSync(docsDir)
        .filter((n) => /^BFL\d{3}\.md$/.test(n))
        .map((n) => n.slice(0, -3))
        .sort()
    : [];
  assert.deepEqual(
    codes.filter((c) => !pages.includes(c)),
    [],
    "rules without docs/rules/<CODE>.md (run `npm run gen:docs`)",
  );
  assert.deepEqual(
    pages.filter((p) => !codes.includes(p)),
    [],
    "doc pages of rules that do not exist",
  );
});

test("every rule has fires-* and silent-* fixtures, and every fixture folder is a rule", () => {
  const codes = ALL_RULES.map((r) => r.meta.code);
  const problems: string[] = [];
  for (const code of codes) {
    const cases = listDirs(join(fixturesDir, code));
    if (!cases.some((c) => c.startsWith("fires-"))) problems.push(`${code}: no fires-* case`);
    if (!cases.some((c) => c.startsWith("silent-"))) problems.push(`${code}: no silent-* case`);
  }
  for (const folder of listDirs(fixturesDir)) if (!codes.includes(folder)) problems.push(`${folder}: not a rule`);
  assert.deepEqual(problems, []);
});

test("every rule with a fix tests it with an .after file", () => {
  const missing = ALL_RULES.filter((r) => r.meta.fix !== "none")
    .filter((r) => !listFiles(join(fixturesDir, r.meta.code)).some((f) => f.endsWith(".after")))
    .map((r) => r.meta.code);
  assert.deepEqual(missing, []);
});

test("every rule's metadata and documentation are complete", () => {
  const problems: string[] = [];
  const blank = (s: string) => s.trim().length === 0;
  for (const { meta } of ALL_RULES) {
    const at = (what: string) => problems.push(`${meta.code}: ${what}`);
    if (!(meta.family in FAMILY_FOLDERS)) at(`unknown family ${meta.family}`);
    if (!["error", "warning", "info", "hint"].includes(meta.severity)) at(`unknown severity ${meta.severity}`);
    if (!["safe", "unsafe", "none"].includes(meta.fix)) at(`unknown fix safety ${meta.fix}`);
    if (blank(meta.description)) at("empty description");
    const { docs } = meta;
    if (blank(docs.whatItDoes)) at("empty whatItDoes");
    if (blank(docs.whyItMatters)) at("empty whyItMatters");
    if (blank(docs.whenNotToFire)) at("empty whenNotToFire");
    for (const side of ["bad", "good"] as const) {
      const files = Object.entries(docs[side]);
      if (files.length === 0) at(`no ${side} example files`);
      for (const [name, text] of files) if (blank(name) || blank(text)) at(`${side} example file '${name}' is empty`);
    }
    if (docs.references.length === 0) at("no references");
    docs.references.forEach((r, i) => {
      if (blank(r)) at(`reference ${i + 1} is empty`);
    });
  }
  assert.deepEqual(problems, []);
});
