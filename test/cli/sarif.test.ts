/**
 * SARIF output checked against what SARIF 2.1.0 and GitHub code scanning's upload require (no network: the checks
 * are written out here), plus the exact locations and fixes of known findings.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { copyFixture, PINNED_RULES, removeTemps, runCli } from "./helpers";

after(removeTemps);

// biome-ignore lint/suspicious/noExplicitAny: a SARIF log is checked field by field.
type Json = any;

const LEVELS = ["none", "note", "warning", "error"];

function isPositiveInt(n: unknown): boolean {
  return Number.isInteger(n) && (n as number) >= 1;
}

function checkRegion(region: Json, where: string, problems: string[]): void {
  if (!region || !isPositiveInt(region.startLine)) problems.push(`${where}: region.startLine must be an integer ≥ 1`);
  if (region?.startColumn !== undefined && !isPositiveInt(region.startColumn))
    problems.push(`${where}: startColumn < 1`);
  if (region?.endLine !== undefined && region.endLine < region.startLine)
    problems.push(`${where}: endLine < startLine`);
  if (region?.endColumn !== undefined) {
    if (!isPositiveInt(region.endColumn)) problems.push(`${where}: endColumn < 1`);
    if ((region.endLine ?? region.startLine) === region.startLine && region.endColumn < (region.startColumn ?? 1)) {
      problems.push(`${where}: endColumn before startColumn`);
    }
  }
}

function checkArtifact(location: Json, run: Json, where: string, problems: string[]): void {
  const uri = location?.uri;
  if (typeof uri !== "string" || uri === "") {
    problems.push(`${where}: artifactLocation.uri is required`);
    return;
  }
  if (location.uriBaseId !== undefined) {
    if (/^[a-z]+:|^\//i.test(uri)) problems.push(`${where}: a uri with a uriBaseId must be relative`);
    const base = run.originalUriBaseIds?.[location.uriBaseId]?.uri;
    if (typeof base !== "string" || !base.endsWith("/")) {
      problems.push(`${where}: originalUriBaseIds.${location.uriBaseId}.uri must end with /`);
    }
  } else if (!uri.startsWith("file:")) problems.push(`${where}: a relative uri needs a uriBaseId`);
  if (/[\s\\]/.test(uri)) problems.push(`${where}: uri must be percent-encoded with / separators`);
}

/** The requirements a log must meet to be accepted by SARIF consumers such as GitHub code scanning. */
function checkSarif(log: Json): string[] {
  const problems: string[] = [];
  if (log?.version !== "2.1.0") problems.push("version must be 2.1.0");
  if (!Array.isArray(log?.runs) || log.runs.length === 0) return [...problems, "runs must be a non-empty array"];
  log.runs.forEach((run: Json, r: number) => {
    const driver = run?.tool?.driver;
    if (typeof driver?.name !== "string" || driver.name === "")
      problems.push(`runs[${r}]: tool.driver.name is required`);
    const rules: Json[] = driver?.rules ?? [];
    const ids = new Set<string>();
    rules.forEach((rule, i) => {
      const where = `runs[${r}].rules[${i}]`;
      if (typeof rule.id !== "string" || rule.id === "") problems.push(`${where}: id is required`);
      if (ids.has(rule.id)) problems.push(`${where}: duplicate id ${rule.id}`);
      ids.add(rule.id);
      if (typeof rule.shortDescription?.text !== "string") problems.push(`${where}: shortDescription.text`);
      if (typeof rule.fullDescription?.text !== "string") problems.push(`${where}: fullDescription.text`);
      if (rule.helpUri !== undefined && !/^https:\/\/\S+$/.test(rule.helpUri)) problems.push(`${where}: helpUri`);
      if (!LEVELS.includes(rule.defaultConfiguration?.level)) problems.push(`${where}: defaultConfiguration.level`);
      if ((rule.properties?.tags ?? []).length > 20) problems.push(`${where}: more than 20 tags`);
    });
    const results: Json[] = run.results;
    if (!Array.isArray(results)) problems.push(`runs[${r}]: results must be an array`);
    if (results?.length > 25_000) problems.push(`runs[${r}]: more than 25,000 results`);
    (results ?? []).forEach((result, i) => {
      const where = `runs[${r}].results[${i}]`;
      if (typeof result.ruleId !== "string") problems.push(`${where}: ruleId is required`);
      else if (!ids.has(result.ruleId)) problems.push(`${where}: ruleId ${result.ruleId} is not in tool.driver.rules`);
      if (result.ruleIndex !== undefined && rules[result.ruleIndex]?.id !== result.ruleId) {
        problems.push(`${where}: ruleIndex does not point at ${result.ruleId}`);
      }
      if (result.level !== undefined && !LEVELS.includes(result.level))
        problems.push(`${where}: level ${result.level}`);
      if (typeof result.message?.text !== "string" || result.message.text === "")
        problems.push(`${where}: message.text`);
      if (!Array.isArray(result.locations) || result.locations.length === 0) problems.push(`${where}: no location`);
      for (const [j, loc] of (result.locations ?? []).entries()) {
        checkArtifact(loc.physicalLocation?.artifactLocation, run, `${where}.locations[${j}]`, problems);
        checkRegion(loc.physicalLocation?.region, `${where}.locations[${j}]`, problems);
      }
      const related = new Set<number>();
      for (const [j, loc] of (result.relatedLocations ?? []).entries()) {
        if (!Number.isInteger(loc.id) || loc.id < 0 || related.has(loc.id))
          problems.push(`${where}.relatedLocations[${j}]: id`);
        related.add(loc.id);
        checkArtifact(loc.physicalLocation?.artifactLocation, run, `${where}.relatedLocations[${j}]`, problems);
        checkRegion(loc.physicalLocation?.region, `${where}.relatedLocations[${j}]`, problems);
      }
      for (const [j, fix] of (result.fixes ?? []).entries()) {
        for (const [k, change] of (fix.artifactChanges ?? []).entries()) {
          const at = `${where}.fixes[${j}].artifactChanges[${k}]`;
          checkArtifact(change.artifactLocation, run, at, problems);
          if (!Array.isArray(change.replacements) || change.replacements.length === 0)
            problems.push(`${at}: replacements`);
          for (const rep of change.replacements ?? []) checkRegion(rep.deletedRegion, `${at}.deletedRegion`, problems);
        }
      }
    });
  });
  return problems;
}

function sarifOf(args: string[], fixture: string): Json {
  const r = runCli([...args, "--format", "sarif"], copyFixture(fixture));
  assert.equal(r.stderr, "");
  return JSON.parse(r.stdout);
}

test("the checker rejects a log GitHub would reject", () => {
  const broken = {
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: { name: "x", rules: [{ id: "A", shortDescription: { text: "a" }, fullDescription: { text: "a" } }] },
        },
        results: [
          { ruleId: "B", ruleIndex: 0, level: "info", message: { text: "" }, locations: [] },
          {
            ruleId: "A",
            message: { text: "m" },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: "/abs/x.yaml", uriBaseId: "%SRCROOT%" },
                  region: { startLine: 0 },
                },
              },
            ],
          },
        ],
      },
    ],
  };
  const problems = checkSarif(broken);
  for (const expected of [
    "rules[0]: defaultConfiguration.level",
    "results[0]: ruleId B is not in tool.driver.rules",
    "results[0]: ruleIndex does not point at B",
    "results[0]: level info",
    "results[0]: message.text",
    "results[0]: no location",
    "a uri with a uriBaseId must be relative",
    "originalUriBaseIds.%SRCROOT%.uri must end with /",
    "region.startLine must be an integer ≥ 1",
  ]) {
    assert.ok(
      problems.some((p) => p.includes(expected)),
      `${expected} in ${problems.join("; ")}`,
    );
  }
});

test("the SARIF log of every fixture project meets the requirements", () => {
  for (const fixture of ["problems", "configured", "fixable", "clean"]) {
    assert.deepEqual(checkSarif(sarifOf([], fixture)), [], fixture);
  }
});

test("tool, rules and the results of known findings", () => {
  const log = sarifOf(PINNED_RULES, "problems");
  const run = log.runs[0];
  const driver = run.tool.driver;
  assert.equal(driver.name, "beam-flink-lint");
  assert.match(driver.version, /^\d+\.\d+\.\d+/);
  assert.equal(driver.informationUri, "https://github.com/beam-flink-lint/beam-flink-lint");
  const bfl100 = driver.rules.find((r: Json) => r.id === "BFL100");
  assert.equal(bfl100.name, "config-line-ignored");
  assert.equal(bfl100.helpUri, "https://github.com/beam-flink-lint/beam-flink-lint/blob/main/docs/rules/BFL100.md");
  assert.equal(bfl100.defaultConfiguration.level, "warning");
  assert.equal(driver.rules.find((r: Json) => r.id === "BFL001").defaultConfiguration.level, "note");

  const summary = run.results.map((r: Json) => {
    const loc = r.locations[0].physicalLocation;
    return `${loc.artifactLocation.uri}:${loc.region.startLine}:${loc.region.startColumn}-${loc.region.endLine}:${loc.region.endColumn} ${r.ruleId} ${r.level}`;
  });
  assert.deepEqual(summary, [
    "flink-conf.yaml:3:1-3:37 BFL100 warning",
    "flink-conf.yaml:4:1-4:29 BFL100 warning",
    "flink-conf.yaml:5:1-5:78 BFL001 note",
    "session/flink-conf.yaml:2:1-2:15 BFL100 warning",
  ]);
  for (const r of run.results) {
    assert.equal(r.locations[0].physicalLocation.artifactLocation.uriBaseId, "%SRCROOT%");
    assert.equal(driver.rules[r.ruleIndex].id, r.ruleId);
  }
  // The fix of the unused suppression deletes its whole line.
  assert.deepEqual(run.results[2].fixes[0].artifactChanges[0].replacements, [
    { deletedRegion: { startLine: 5, startColumn: 1, endLine: 6, endColumn: 1 }, insertedContent: { text: "" } },
  ]);
  assert.equal(run.invocations[0].executionSuccessful, true);
});
