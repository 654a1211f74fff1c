/**
 * The CI formats: GitHub workflow-command annotations, GitLab Code Quality and JUnit XML, pinned on the fixture
 * projects (positions and messages come from the JSON format of the same run, so the shapes are what is pinned).
 */
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { parse as parseXml } from "@xml-tools/parser";
import { annotation, escapeData, escapeProperty } from "../../server/src/cli/format/github";
import { toCodeQuality } from "../../server/src/cli/format/gitlab";
import type { JsonReport } from "../../server/src/cli/format/json";
import { formatJunit, xmlAttribute, xmlText } from "../../server/src/cli/format/junit";
import type { Finding } from "../../server/src/core/findings";
import { repoPath } from "../harness/fixtures";
import { copyFixture, emptyTempDir, PINNED_RULES, removeTemps, runCli } from "./helpers";

after(removeTemps);

const DOCS = "https://github.com/beam-flink-lint/beam-flink-lint/blob/main/docs/rules/";

function jsonOf(dir: string): JsonReport {
  const r = runCli([...PINNED_RULES, "--format", "json"], dir);
  return JSON.parse(r.stdout) as JsonReport;
}

test("--format github: one workflow command per finding, with file, range, title, the message and its details", () => {
  const dir = copyFixture("problems");
  const findings = jsonOf(dir).findings;
  assert.deepEqual(
    findings.map((f) => `${f.file}:${f.line} ${f.rule}`),
    [
      "flink-conf.yaml:3 BFL100",
      "flink-conf.yaml:4 BFL100",
      "flink-conf.yaml:5 BFL001",
      "session/flink-conf.yaml:2 BFL100",
    ],
  );
  const r = runCli([...PINNED_RULES, "--format", "github"], dir);
  assert.equal(r.status, 0);
  assert.equal(r.stderr, "");
  const command = { warning: "warning", info: "notice", error: "error" } as Record<string, string>;
  const name = { BFL100: "config-line-ignored", BFL001: "unused-suppression" } as Record<string, string>;
  assert.equal(
    r.stdout,
    findings
      .map(
        (f) =>
          `::${command[f.severity]} file=${f.file},line=${f.line},col=${f.column},endLine=${f.endLine},endColumn=${f.endColumn - 1},title=${f.rule} ${name[f.rule]}::${[f.message, f.details, `${DOCS}${f.rule}.md`].filter(Boolean).join("%0A")}\n`,
      )
      .join(""),
  );
  assert.match(
    r.stdout,
    /^::warning file=flink-conf\.yaml,line=3,col=1,endLine=3,endColumn=36,title=BFL100 config-line-ignored::/,
  );
  assert.equal(runCli([...PINNED_RULES, "--format", "github"], copyFixture("clean")).stdout, "");
});

test("GitHub escaping: %, CR and LF everywhere; colon and comma in properties only", () => {
  assert.equal(escapeData("50%\r\nof it: a, b"), "50%25%0D%0Aof it: a, b");
  assert.equal(escapeProperty("50%\r\nof it: a, b"), "50%25%0D%0Aof it%3A a%2C b");
  const f: Finding = {
    rule: "BFL100",
    name: "config-line-ignored",
    severity: "error",
    message: "100% sure: a, b\nnext",
    file: "/w/conf/a,b:c%.yaml",
    range: { start: { line: 4, character: 2 }, end: { line: 4, character: 2 } },
    related: [],
    tags: [],
    fixes: [],
  };
  assert.equal(
    annotation(f, "/w"),
    `::error file=conf/a%2Cb%3Ac%25.yaml,line=5,col=3,endLine=5,endColumn=3,title=BFL100 config-line-ignored::100%25 sure: a, b%0Anext%0A${DOCS}BFL100.md`,
  );
  const twoLines = { ...f, range: { start: { line: 1, character: 0 }, end: { line: 3, character: 1 } } };
  assert.match(annotation(twoLines, "/w"), /^::error file=[^,]+,line=2,endLine=4,title=/, "no columns across lines");
});

test("--format gitlab: Code Quality issues with GitLab's fields and severities, fingerprints unique and stable", () => {
  const dir = copyFixture("problems");
  const findings = jsonOf(dir).findings;
  const r = runCli([...PINNED_RULES, "--format", "gitlab"], dir);
  assert.equal(r.status, 0);
  const issues = JSON.parse(r.stdout) as Record<string, unknown>[];
  assert.deepEqual(
    issues.map(({ fingerprint: _, ...rest }) => rest),
    findings.map((f) => ({
      description: `${f.rule}: ${f.message}`,
      check_name: f.rule,
      severity: f.severity === "warning" ? "minor" : "info",
      location: { path: f.file, lines: { begin: f.line } },
      ...(f.details ? { content: { body: f.details } } : {}),
    })),
  );
  const prints = issues.map((i) => i.fingerprint as string);
  assert.ok(
    prints.every((p) => /^[0-9a-f]{32}$/.test(p)),
    JSON.stringify(prints),
  );
  assert.equal(new Set(prints).size, prints.length, "unique");
  // Lines inserted above move the findings; GitLab must not see them as new.
  const conf = join(dir, "flink-conf.yaml");
  writeFileSync(conf, `# moved down\n\n${readFileSync(conf, "utf8")}`);
  const moved = JSON.parse(runCli([...PINNED_RULES, "--format", "gitlab"], dir).stdout) as Record<string, unknown>[];
  assert.deepEqual(
    moved.map((i) => (i.location as { lines: { begin: number } }).lines.begin),
    [5, 6, 7, 2],
  );
  assert.deepEqual(
    moved.map((i) => i.fingerprint),
    prints,
  );
  assert.equal(runCli([...PINNED_RULES, "--format", "gitlab"], copyFixture("clean")).stdout, "[]\n");
  const severities = toCodeQuality({
    cwd: "/w",
    filesAnalyzed: 1,
    findings: (["error", "warning", "info", "hint"] as const).map((severity, line) => ({
      rule: "BFL100",
      name: "config-line-ignored",
      severity,
      message: "m",
      file: "/w/a.yaml",
      range: { start: { line, character: 0 }, end: { line, character: 1 } },
      related: [],
      tags: [],
      fixes: [],
    })),
  }).map((i) => i.severity);
  assert.deepEqual(severities, ["major", "minor", "info", "info"]);
});

test("--format junit: a testsuite per analysed file, a failing testcase per finding, a passing one for clean files", () => {
  const dir = copyFixture("problems");
  const findings = jsonOf(dir).findings;
  const r = runCli([...PINNED_RULES, "--format", "junit"], dir);
  assert.equal(r.status, 0);
  const name = { BFL100: "config-line-ignored", BFL001: "unused-suppression" } as Record<string, string>;
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/'/g, "&apos;").replace(/"/g, "&quot;");
  const testcase = (f: JsonReport["findings"][number]) =>
    [
      `    <testcase name="${f.rule} ${name[f.rule]} at ${f.line}:${f.column}" classname="${f.file}" time="0">`,
      `      <failure message="${esc(f.message)}" type="${f.severity}">${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}`,
      ...(f.details ? [f.details] : []),
      `${DOCS}${f.rule}.md</failure>`,
      "    </testcase>",
    ].join("\n");
  const [a, b, c, d] = findings;
  assert.equal(
    r.stdout,
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="beam-flink-lint" tests="4" failures="4" errors="0" time="0">',
      '  <testsuite name="flink-conf.yaml" tests="3" failures="3" errors="0" skipped="0" time="0">',
      testcase(a),
      testcase(b),
      testcase(c),
      "  </testsuite>",
      '  <testsuite name="session/flink-conf.yaml" tests="1" failures="1" errors="0" skipped="0" time="0">',
      testcase(d),
      "  </testsuite>",
      "</testsuites>",
      "",
    ].join("\n"),
  );
  const parsed = parseXml(r.stdout);
  assert.deepEqual(parsed.lexErrors, []);
  assert.deepEqual(parsed.parseErrors, []);
  assert.equal(
    runCli([...PINNED_RULES, "--format", "junit"], copyFixture("clean")).stdout,
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="beam-flink-lint" tests="1" failures="0" errors="0" time="0">',
      '  <testsuite name="flink-conf.yaml" tests="1" failures="0" errors="0" skipped="0" time="0">',
      '    <testcase name="no problems" classname="flink-conf.yaml" time="0"/>',
      "  </testsuite>",
      "</testsuites>",
      "",
    ].join("\n"),
  );
});

test("JUnit escaping: markup characters, quotes, line breaks in attributes and characters XML forbids", () => {
  assert.equal(xmlText(`a<b>&"c'\u0001\ud800`), `a&lt;b&gt;&amp;"c'\ufffd\ufffd`);
  assert.equal(xmlAttribute(`<a href="x">'\n\t`), "&lt;a href=&quot;x&quot;&gt;&apos;&#10;&#9;");
  const xml = formatJunit({
    cwd: "/w",
    filesAnalyzed: 1,
    analysedFiles: ["/w/a&b.yaml"],
    findings: [
      {
        rule: "BFL100",
        name: "config-line-ignored",
        severity: "error",
        message: 'key "<x>" & \u0007bell\nsecond line',
        file: "/w/a&b.yaml",
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        related: [],
        tags: [],
        fixes: [],
      },
    ],
  });
  const parsed = parseXml(xml);
  assert.deepEqual([parsed.lexErrors, parsed.parseErrors], [[], []]);
  assert.match(xml, /<failure message="key &quot;&lt;x&gt;&quot; &amp; \ufffdbell&#10;second line" type="error">/);
  assert.match(xml, /<testsuite name="a&amp;b\.yaml"/);
});

test("--format rejects unknown formats and lists the known ones", () => {
  const r = runCli(["--format", "checkstyle"], copyFixture("clean"));
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--format must be one of text, json, sarif, github, gitlab, junit \(got 'checkstyle'\)/);
});

test("--format json: a finding's related locations come with it (the code that enables checkpointing)", () => {
  const dir = emptyTempDir();
  cpSync(repoPath("test", "fixtures", "rules", "BFL101", "fires-scala-info-job-enables-checkpointing"), dir, {
    recursive: true,
  });
  writeFileSync(join(dir, "flink-conf.yaml"), "jobmanager.rpc.address: jobmanager\nstate.checkpoints.dir: s3://c\n");
  const run = runCli(["--format", "json", "--exit-zero"], dir);
  const finding = (JSON.parse(run.stdout) as JsonReport).findings.find((f) => f.rule === "BFL101");
  assert.ok(finding, "BFL101 is reported");
  assert.equal(finding.severity, "info");
  assert.deepEqual(
    finding.related?.map((r) => [r.file, r.line, r.message]),
    [["job/src/main/scala/com/example/orders/OrdersJob.scala", 11, "The job code enables checkpointing here."]],
  );
});
