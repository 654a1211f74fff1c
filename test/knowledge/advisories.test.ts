/**
 * The advisory records: every file in knowledge/advisories is bundled and well-formed, and the matcher puts each
 * Beam version on the right side of every boundary.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { SEVERITY_ORDER } from "../../server/src/core/findings";
import {
  ADVISORIES,
  ADVISORY_FACTS,
  type Advisory,
  advisoriesOfRule,
  firstUnaffectedVersion,
  matchAdvisories,
  matchSeverity,
  rangeBounds,
  titleFor,
} from "../../server/src/core/knowledge/advisories";
import { compareMavenVersions } from "../../server/src/core/knowledge/mavenVersion";
import type { JobApiUsage } from "../../server/src/core/model";
import { range } from "../../server/src/core/text";
import { repoPath } from "../harness/fixtures";

const FACTS: readonly string[] = ADVISORY_FACTS;

function problems(record: Advisory): string[] {
  const out: string[] = [];
  const at = (what: string) => out.push(`${record.id}: ${what}`);
  if (!/^BFLA-\d{4}-\d{4}$/.test(record.id)) at("id must look like BFLA-2024-0001");
  for (const field of ["schema_version", "published", "modified", "summary", "details"] as const) {
    if (typeof record[field] !== "string" || record[field].trim() === "") at(`${field} is empty`);
  }
  const upstream = (a: string) => /^[\w.-]+\/[\w.-]+#\d+$/.test(a) || /^[A-Z][A-Z0-9]+-\d+$/.test(a);
  if (record.aliases.length === 0 || !record.aliases.every(upstream)) {
    at("aliases must be owner/repo#number or a JIRA key (FLINK-35749)");
  }
  if (record.references.length === 0) at("no references");
  const specific = record.database_specific;
  if (!/^BFL\d{3}$/.test(specific.rule)) at("database_specific.rule must be a rule code");
  if (!specific.effect?.trim()) at("database_specific.effect is empty");
  if (!specific.component?.trim()) at("database_specific.component is empty");
  if (!specific.title?.trim()) at("database_specific.title is empty");
  const without = specific.titleWithout;
  if (without && (!FACTS.includes(without.fact) || !FACTS.includes(without.seenIn) || !without.title?.trim())) {
    at("titleWithout needs known facts and a title");
  }
  if (specific.advice !== undefined && !Array.isArray(specific.advice)) at("database_specific.advice must be a list");
  for (const a of specific.advice ?? []) {
    if (typeof a !== "string" && (!a.text?.trim() || (a.introduced === undefined && a.fixed === undefined))) {
      at("an advice object needs a text and the versions it is for");
    }
  }
  for (const c of specific.conditions ?? []) {
    if (!FACTS.includes(c.uses)) at(`unknown fact ${c.uses}`);
    if (!(c.severity in SEVERITY_ORDER)) at(`unknown severity ${c.severity}`);
    if (!c.because?.trim() || !c.at?.trim()) at(`condition ${c.uses} needs 'because' and 'at'`);
  }
  if (record.affected.length === 0) at("no affected packages");
  for (const affected of record.affected) {
    const { ecosystem, name } = affected.package;
    if (ecosystem === "Maven" ? !/^[^:\s]+:[^:\s]+$/.test(name) : ecosystem !== "PyPI" || !/^[a-z0-9-]+$/.test(name)) {
      at("package must be a Maven group:artifact pattern or a normalized PyPI name");
    }
    for (const f of affected.database_specific?.requires ?? [])
      if (!FACTS.includes(f)) at(`unknown required fact ${f}`);
    if (affected.ranges.length === 0) at("no ranges");
    for (const r of affected.ranges) {
      const { introduced, fixed } = rangeBounds(r);
      if (r.type !== "ECOSYSTEM") at("ranges must be of type ECOSYSTEM");
      if (introduced === undefined) at("a range without introduced");
      if (introduced && fixed && compareMavenVersions(introduced, fixed) >= 0)
        at(`range ${introduced}–${fixed} is empty`);
      if (!(r.database_specific?.severity in SEVERITY_ORDER)) at("a range without a severity");
      if (r.database_specific?.uncertain && !r.database_specific.note?.trim()) at("an uncertain range needs a note");
    }
  }
  return out;
}

const NO_USE: JobApiUsage = { commitOffsetsInFinalize: [], pubsubRead: [], useDeprecatedRead: [] };

function at(version: string, artifact = "beam-runners-flink-1.17") {
  return matchAdvisories("org.apache.beam", artifact, version).map((m) => ({
    rule: m.advisory.database_specific.rule,
    severity: matchSeverity(m, NO_USE),
  }));
}

test("every record in the folder is bundled, once, under its file name", () => {
  const files = readdirSync(repoPath("server", "src", "core", "knowledge", "advisories"))
    .filter((n) => n.endsWith(".json"))
    .sort();
  assert.deepEqual(ADVISORIES.map((a) => `${a.id}.json`).sort(), files);
});

test("every record is well-formed", () => {
  assert.deepEqual(ADVISORIES.flatMap(problems), []);
});

test("the records of BFL301 and BFL302 name their upstream issues", () => {
  assert.deepEqual(
    advisoriesOfRule("BFL301").flatMap((a) => a.aliases),
    ["apache/beam#31313", "apache/beam#34890"],
  );
  assert.deepEqual(
    advisoriesOfRule("BFL302").flatMap((a) => a.aliases),
    ["apache/beam#30539", "apache/beam#29902"],
  );
});

test("BFL301: silent before 2.52.0, error up to 2.62.x, warning on 2.63.x, silent from 2.64.0", () => {
  const bfl301 = (v: string) => at(v).filter((m) => m.rule === "BFL301");
  assert.deepEqual(bfl301("2.51.0"), []);
  assert.deepEqual(bfl301("2.52.0"), [{ rule: "BFL301", severity: "error" }]);
  assert.deepEqual(bfl301("2.62.1"), [{ rule: "BFL301", severity: "error" }]);
  assert.deepEqual(bfl301("2.63.0-RC1"), [{ rule: "BFL301", severity: "error" }]);
  assert.deepEqual(bfl301("2.63.0"), [{ rule: "BFL301", severity: "warning" }]);
  assert.deepEqual(bfl301("2.63.2"), [{ rule: "BFL301", severity: "warning" }]);
  assert.deepEqual(bfl301("2.64.0"), []);
  assert.deepEqual(bfl301("2.70.0"), []);
  const [uncertain] = matchAdvisories("org.apache.beam", "beam-runners-flink-1.19", "2.63.0");
  assert.equal(uncertain.range.database_specific.uncertain, true);
  assert.match(uncertain.range.database_specific.note ?? "", /2\.64\.0/);
});

test("BFL302: 2.52.0 up to 2.55.x, silent from 2.56.0", () => {
  const bfl302 = (v: string) => at(v, "beam-runners-flink-1.16").filter((m) => m.rule === "BFL302");
  assert.deepEqual(bfl302("2.51.0"), []);
  assert.deepEqual(bfl302("2.52.0"), [{ rule: "BFL302", severity: "warning" }]);
  assert.deepEqual(bfl302("2.55.1"), [{ rule: "BFL302", severity: "warning" }]);
  assert.deepEqual(bfl302("2.56.0"), []);
});

test("only Java Flink runners are affected: not the job server, not other Beam artifacts", () => {
  assert.deepEqual(at("2.56.0", "beam-runners-flink-1.17-job-server"), []);
  assert.deepEqual(at("2.56.0", "beam-sdks-java-core"), []);
  assert.deepEqual(at("2.56.0", "beam-runners-direct-java"), []);
  assert.deepEqual(matchAdvisories("org.apache.flink", "beam-runners-flink-1.17", "2.56.0"), []);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference as a pom writes it
  assert.equal(at("2.56.0", "beam-runners-flink-${flink.minor}").length, 1, "a name the build fills in later");
});

test("conditions of the job code raise the severity and say where", () => {
  const [match] = matchAdvisories("org.apache.beam", "beam-runners-flink-1.16", "2.54.0").filter(
    (m) => m.advisory.database_specific.rule === "BFL302",
  );
  const place = { file: "/p/Job.java", range: range(3, 8, 3, 31) };
  assert.equal(matchSeverity(match, NO_USE), "warning");
  assert.equal(matchSeverity(match, { ...NO_USE, commitOffsetsInFinalize: [place] }), "error");
  assert.equal(matchSeverity(match, { ...NO_USE, pubsubRead: [place] }), "error");
  assert.equal(matchSeverity(match, { ...NO_USE, useDeprecatedRead: [place] }), "warning");
});

test("the first version past every range", () => {
  const [bfl301] = advisoriesOfRule("BFL301");
  const [bfl302] = advisoriesOfRule("BFL302");
  assert.equal(firstUnaffectedVersion(bfl301), "2.64.0");
  assert.equal(firstUnaffectedVersion(bfl302), "2.56.0");
});

test("BFL301's title names Kafka unless the job code was read and reads no Kafka", () => {
  const [bfl301] = advisoriesOfRule("BFL301");
  const place = { file: "/p/Job.java", range: range(3, 8, 3, 31) };
  const kafka = "after a restore, every Kafka message is read and processed twice";
  assert.equal(titleFor(bfl301, {}), kafka, "no job code read: the build alone");
  assert.equal(titleFor(bfl301, { beamPipeline: [place], kafkaCode: [place] }), kafka);
  assert.equal(
    titleFor(bfl301, { beamPipeline: [place], unboundedRead: [place] }),
    "after a restore, every message of its unbounded sources is read and processed twice",
  );
  const [bfl302] = advisoriesOfRule("BFL302");
  assert.equal(titleFor(bfl302, { beamPipeline: [place] }), bfl302.database_specific.title, "no variant: the title");
});

test("the generated record index and the table in docs/advisories.md list every record (npm run gen:docs)", () => {
  const run = spawnSync(process.execPath, [repoPath("scripts", "gen-advisories.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const doc = readFileSync(repoPath("docs", "advisories.md"), "utf8");
  for (const record of ADVISORIES) assert.ok(doc.includes(`[${record.id}](`), `${record.id} is in docs/advisories.md`);
});
