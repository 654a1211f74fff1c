/**
 * The command line as users run it: exit codes, options, the text and JSON formats, --fix. Output is pinned on
 * fixtures whose findings come from BFL100 and BFL001 only (see PINNED_RULES).
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { repoPath } from "../harness/fixtures";
import { copyFixture, PINNED_RULES, removeTemps, runCli } from "./helpers";

after(removeTemps);

const IGNORED_DETAILS =
  "flink-conf.yaml is read line by line: a key and its value are separated by a colon followed by a space (`key: value`).";
const IGNORED_LINE =
  "Flink ignores this line because it has no ': ' between key and value; the setting does not apply.";
const UNUSED_BFL100 = "No finding of 'BFL100' is reported where this comment applies, so it hides nothing.";

describe("text format", () => {
  test("lists findings grouped by file, then a summary with fixable counts", () => {
    const r = runCli(PINNED_RULES, copyFixture("problems"));
    assert.equal(r.stderr, "");
    assert.equal(
      r.stdout,
      [
        `flink-conf.yaml:3:1  warning  BFL100  ${IGNORED_LINE}`,
        `flink-conf.yaml:4:1  warning  BFL100  ${IGNORED_LINE}`,
        `flink-conf.yaml:5:1  info     BFL001  ${UNUSED_BFL100}`,
        "",
        `session/flink-conf.yaml:2:1  warning  BFL100  ${IGNORED_LINE}`,
        "",
        "✖ 4 problems (0 errors, 3 warnings, 1 info) in 2 files (2 analysed)",
        "  1 problem fixable with --fix",
        "",
      ].join("\n"),
    );
    assert.equal(r.status, 0);
  });

  test("says so when nothing is found", () => {
    const r = runCli(PINNED_RULES, copyFixture("clean"));
    assert.equal(r.stdout, "No problems found in 1 file.\n");
    assert.equal(r.status, 0);
  });

  test("paths are relative to the working directory, whatever path is given", () => {
    const dir = copyFixture("problems");
    const r = runCli([...PINNED_RULES, join(dir, "session")], join(dir, ".."));
    assert.match(r.stdout, /^problems\/session\/flink-conf\.yaml:2:1 {2}warning {2}BFL100 /m);
    assert.match(r.stdout, /in 1 file \(1 analysed\)/);
  });

  test("no colour codes when the output is not a terminal", () => {
    const r = runCli(PINNED_RULES, copyFixture("problems"), { NO_COLOR: "" });
    assert.ok(!r.stdout.includes("\u001b["));
  });
});

describe("exit codes", () => {
  test("1 when there are errors, and the summary counts them", () => {
    const r = runCli([...PINNED_RULES, "--rule", "BFL100=error"], copyFixture("problems"));
    assert.equal(r.status, 1);
    assert.match(r.stdout, /✖ 4 problems \(3 errors, 0 warnings, 1 info\) in 2 files/);
  });

  test("--exit-zero keeps 0 despite errors", () => {
    const r = runCli([...PINNED_RULES, "--rule", "BFL100=error", "--exit-zero"], copyFixture("problems"));
    assert.equal(r.status, 0);
    assert.match(r.stdout, /3 errors/);
  });

  test("--max-warnings: more warnings than allowed is 1, as many is 0, -1 is no limit", () => {
    const dir = copyFixture("problems");
    const over = runCli([...PINNED_RULES, "--max-warnings", "2"], dir);
    assert.equal(over.status, 1);
    assert.match(over.stderr, /too many warnings \(3; --max-warnings is 2\)/);
    assert.equal(runCli([...PINNED_RULES, "--max-warnings", "3"], dir).status, 0);
    assert.equal(runCli([...PINNED_RULES, "--max-warnings=-1"], dir).status, 0);
    assert.equal(runCli([...PINNED_RULES, "--max-warnings", "-1"], dir).status, 0);
  });

  test("info findings never fail the run", () => {
    const r = runCli([...PINNED_RULES, "--rule", "BFL100=off", "--max-warnings", "0"], copyFixture("problems"));
    assert.match(r.stdout, /1 problem \(0 errors, 0 warnings, 1 info\)/);
    assert.equal(r.status, 0);
  });

  const usage: [string, string[], RegExp][] = [
    ["an unknown option", ["--bogus"], /unknown option '--bogus'/],
    ["an unknown short option", ["-x"], /unknown option '-x'/],
    ["a flag given a value", ["--fix=yes"], /--fix takes no value/],
    ["a missing value", ["--format"], /--format needs a value/],
    ["an unknown format", ["--format", "xml"], /--format must be one of text, json, sarif/],
    ["an unknown rule", ["--rule", "BFL999=error"], /no rule is called 'BFL999'/],
    ["an unknown severity", ["--rule", "BFL100=fatal"], /--rule takes CODE=severity/],
    ["a bad Flink version", ["--flink-version", "latest"], /--flink-version must be a version/],
    ["a bad warning limit", ["--max-warnings", "-2"], /--max-warnings must be a whole number/],
    ["--fix-type without --fix", ["--fix-type", "all"], /--fix-type only applies together with --fix/],
    ["a path that does not exist", ["no-such-folder"], /no such file or folder: no-such-folder/],
    ["a --config file that does not exist", ["--config", "missing.yaml"], /cannot read --config missing\.yaml/],
  ];
  for (const [what, args, message] of usage) {
    test(`2 for ${what}`, () => {
      const r = runCli(args, copyFixture("clean"));
      assert.equal(r.status, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, "");
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    });
  }

  test("no rule fails on any fixture project with every rule on", () => {
    const root = repoPath("test", "fixtures", "cli");
    for (const name of readdirSync(root)) {
      const r = runCli(["--format", "json"], copyFixture(name));
      assert.notEqual(r.status, 2, `${name}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /internal error/);
    }
  });
});

describe("options", () => {
  test("--help and --version", () => {
    const dir = copyFixture("clean");
    const help = runCli(["--help"], dir);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: beam-flink-lint \[options\] \[path \.\.\.\]/);
    for (const option of ["--format", "--fix-type", "--max-warnings", "--rule", "--no-inline-config", "--exit-zero"]) {
      assert.ok(help.stdout.includes(option), option);
    }
    const version = runCli(["--version"], dir);
    assert.equal(version.status, 0);
    assert.equal(version.stdout, `${JSON.parse(readFileSync(repoPath("package.json"), "utf8")).version}\n`);
  });

  test("--quiet reports errors only", () => {
    const r = runCli(
      [...PINNED_RULES, "--rule", "BFL001=error", "--quiet", "--format", "json"],
      copyFixture("problems"),
    );
    const report = JSON.parse(r.stdout);
    assert.deepEqual(
      report.findings.map((f: { rule: string; severity: string }) => `${f.rule} ${f.severity}`),
      ["BFL001 error"],
    );
    assert.equal(r.status, 1);
  });

  test("--quiet drops warnings from the --max-warnings count", () => {
    const r = runCli([...PINNED_RULES, "--quiet", "--max-warnings", "0"], copyFixture("problems"));
    assert.equal(r.stdout, "No problems found in 2 files.\n");
    assert.equal(r.status, 0);
  });

  test("--flink-version is the version assumed where the project does not say", () => {
    // BFL108: Flink 2.0 no longer reads flink-conf.yaml; with no version known it stays silent.
    const args = ["--rule", "*=off", "--rule", "BFL108=error", "--format", "json"];
    const dir = copyFixture("clean");
    const rules = (run: { stdout: string }) => JSON.parse(run.stdout).findings.map((f: { rule: string }) => f.rule);
    assert.deepEqual(rules(runCli(args, dir)), []);
    assert.deepEqual(rules(runCli([...args, "--flink-version", "2.0"], dir)), ["BFL108"]);
  });

  test("--output-file writes the report there and nothing to standard output", () => {
    const dir = copyFixture("problems");
    const r = runCli([...PINNED_RULES, "--format", "json", "--output-file", "report.json"], dir);
    assert.equal(r.stdout, "");
    assert.equal(JSON.parse(readFileSync(join(dir, "report.json"), "utf8")).findings.length, 4);
  });

  test("--no-inline-config ignores suppression comments", () => {
    const dir = copyFixture("clean");
    const r = runCli([...PINNED_RULES, "--no-inline-config"], dir);
    assert.match(r.stdout, /^flink-conf\.yaml:4:1 {2}warning {2}BFL100 /m);
    assert.doesNotMatch(r.stdout, /BFL001/);
  });

  test("--config applies one project configuration in place of the projects' own", () => {
    const dir = copyFixture("configured");
    writeFileSync(join(dir, "..", "central.yaml"), "rules:\n  BFL100: warning\n");
    const r = runCli(["--config", "../central.yaml", "--format", "json"], dir);
    const report = JSON.parse(r.stdout);
    // The project's exclude, flinkConfigFiles and severities no longer apply; its suppression comment still does.
    assert.deepEqual(
      report.findings
        .filter((f: { rule: string }) => f.rule === "BFL100" || f.rule === "BFL001")
        .map(
          (f: { file: string; line: number; rule: string; severity: string }) =>
            `${f.file}:${f.line} ${f.rule} ${f.severity}`,
        ),
      ["generated/flink-conf.yaml:1 BFL100 warning"],
    );
    assert.equal(report.filesAnalyzed, 3);
  });

  test("--config with problems is a usage error that names them", () => {
    const dir = copyFixture("clean");
    writeFileSync(join(dir, "bad.yaml"), "rules:\n  BFL100: loud\ncolour: red\n");
    const r = runCli(["--config", "bad.yaml"], dir);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /bad\.yaml:2:11: 'loud' is not a rule setting/);
    assert.match(r.stderr, /bad\.yaml:3:1: Unknown setting 'colour'/);
  });
});

describe("project configuration and ignored files", () => {
  test(".beam-flink-lint.yaml sets severities, turns rules off, excludes files and names Flink configurations", () => {
    const r = runCli(["--format", "json"], copyFixture("configured"));
    const report = JSON.parse(r.stdout);
    const pinned = report.findings.filter((f: { rule: string }) => f.rule === "BFL100" || f.rule === "BFL001");
    assert.deepEqual(
      pinned.map(
        (f: { file: string; line: number; rule: string; severity: string }) =>
          `${f.file}:${f.line} ${f.rule} ${f.severity}`,
      ),
      ["conf/prod.conf:2 BFL100 error"],
    );
    assert.ok(report.findings.every((f: { file: string }) => !f.file.startsWith("generated/")));
    // .beam-flink-lint.yaml, flink-conf.yaml and conf/prod.conf; not generated/ nor conf/README.txt.
    assert.equal(report.filesAnalyzed, 3);
    assert.equal(r.status, 1);
  });

  test("--rule overrides the project configuration", () => {
    const r = runCli([...PINNED_RULES, "--format", "json"], copyFixture("configured"));
    assert.deepEqual(
      JSON.parse(r.stdout).findings.map(
        (f: { file: string; rule: string; severity: string }) => `${f.file} ${f.rule} ${f.severity}`,
      ),
      ["conf/prod.conf BFL100 warning"],
    );
    assert.equal(r.status, 0);
  });

  test("files a .gitignore names are not analysed", () => {
    const dir = copyFixture("problems");
    writeFileSync(join(dir, ".gitignore"), "session/\n");
    const r = runCli(PINNED_RULES, dir);
    assert.doesNotMatch(r.stdout, /session\//);
    assert.match(r.stdout, /in 1 file \(1 analysed\)/);
  });

  test("a file given by name is analysed even when a .gitignore names it", () => {
    const dir = copyFixture("problems");
    writeFileSync(join(dir, ".gitignore"), "session/\n");
    const r = runCli([...PINNED_RULES, "session/flink-conf.yaml"], dir);
    assert.match(r.stdout, /^session\/flink-conf\.yaml:2:1 /m);
  });
});

describe("JSON format", () => {
  test("the contract: relative paths, 1-based positions, exclusive end column", () => {
    const r = runCli([...PINNED_RULES, "--format", "json"], copyFixture("problems"));
    assert.equal(r.status, 0);
    assert.deepEqual(JSON.parse(r.stdout), {
      findings: [
        {
          file: "flink-conf.yaml",
          rule: "BFL100",
          name: "config-line-ignored",
          severity: "warning",
          line: 3,
          column: 1,
          endLine: 3,
          endColumn: 37,
          message: IGNORED_LINE,
          details: IGNORED_DETAILS,
        },
        {
          file: "flink-conf.yaml",
          rule: "BFL100",
          name: "config-line-ignored",
          severity: "warning",
          line: 4,
          column: 1,
          endLine: 4,
          endColumn: 29,
          message: IGNORED_LINE,
          details: IGNORED_DETAILS,
        },
        {
          file: "flink-conf.yaml",
          rule: "BFL001",
          name: "unused-suppression",
          severity: "info",
          line: 5,
          column: 1,
          endLine: 5,
          endColumn: 78,
          message: UNUSED_BFL100,
          details: "Remove the comment before it hides a real problem.",
        },
        {
          file: "session/flink-conf.yaml",
          rule: "BFL100",
          name: "config-line-ignored",
          severity: "warning",
          line: 2,
          column: 1,
          endLine: 2,
          endColumn: 15,
          message: IGNORED_LINE,
          details: IGNORED_DETAILS,
        },
      ],
      filesAnalyzed: 2,
      deployments: ["flink-conf.yaml", "session/flink-conf.yaml"].map((configuration, i) => ({
        configuration,
        line: i === 0 ? 2 : 1,
        platform: "unknown",
        workloads: [],
        version: { strength: "unknown", summary: "the Flink version is not known", sources: [] },
      })),
    });
  });

  test("evidence: a version-dependent finding names its configuration's Flink version and where it came from", () => {
    const r = runCli(["--rule", "*=off", "--rule", "BFL103=warning", "--format", "json"], copyFixture("versions"));
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.findings, [
      {
        file: "k8s/orders.yaml",
        rule: "BFL103",
        name: "deprecated-key",
        severity: "warning",
        line: 11,
        column: 5,
        endLine: 11,
        endColumn: 26,
        message: report.findings[0].message,
        related: [
          {
            file: "k8s/orders.yaml",
            line: 11,
            column: 5,
            endLine: 11,
            endColumn: 26,
            message: "Rename it to `execution.checkpointing.dir` before a Flink upgrade drops the old key.",
          },
        ],
        evidence: {
          flinkVersion: "1.20",
          strength: "pinned",
          summary:
            "Flink 1.20: 1.20 from the FlinkDeployment's flinkVersion in k8s/orders.yaml, 1.20 from an image tag in k8s/orders.yaml",
          sources: [
            { minor: "1.20", source: "flinkDeployment", file: "k8s/orders.yaml", line: 7, column: 17 },
            { minor: "1.20", full: "1.20.1", source: "image", file: "k8s/orders.yaml", line: 6, column: 16 },
          ],
        },
      },
    ]);
    assert.match(report.findings[0].message, /execution\.checkpointing\.dir/);
    // The standalone cluster beside it runs its own image's Flink 1.18, not the FlinkDeployment's 1.20.
    assert.deepEqual(
      report.deployments.map(
        (d: {
          configuration: string;
          platform: string;
          version: { flinkVersion: string; strength: string; sources: { file: string }[] };
        }) => [
          d.configuration,
          d.platform,
          d.version.flinkVersion,
          d.version.strength,
          [...new Set(d.version.sources.map((s) => s.file))],
        ],
      ),
      [
        ["standalone/conf/flink-conf.yaml", "compose", "1.18", "pinned", ["standalone/docker-compose.yml"]],
        ["k8s/orders.yaml", "kubernetes", "1.20", "pinned", ["k8s/orders.yaml"]],
      ],
    );
    assert.equal(report.deployments[1].flinkDeployment, "orders");
  });

  test("evidence: a finding lists at most 10 sources, one of each minor among them; its deployment entry lists all", () => {
    const dir = copyFixture("versions");
    mkdirSync(join(dir, "many", "conf"), { recursive: true });
    writeFileSync(join(dir, "many", ".beam-flink-lint.yaml"), "rules: {}\n");
    writeFileSync(join(dir, "many", "conf", "flink-conf.yaml"), "taskmanager.heap.size: 2g\n");
    for (let i = 1; i <= 12; i++) {
      const minor = 16 + (i % 5);
      writeFileSync(
        join(dir, "many", `job-${i}.yaml`),
        [
          "apiVersion: flink.apache.org/v1beta1",
          "kind: FlinkDeployment",
          "metadata:",
          `  name: job-${i}`,
          "spec:",
          `  image: flink:1.${minor}`,
          `  flinkVersion: v1_${minor}`,
          "",
        ].join("\n"),
      );
    }
    const r = runCli(["many", "--rule", "*=off", "--rule", "BFL103=warning", "--format", "json"], dir);
    const report = JSON.parse(r.stdout);
    const [finding] = report.findings;
    assert.equal(finding.rule, "BFL103");
    assert.equal(finding.evidence.strength, "conflicting");
    assert.equal(finding.evidence.sources.length, 10);
    const minors = (e: { sources: { minor: string }[] }) => [...new Set(e.sources.map((s) => s.minor))].sort();
    assert.deepEqual(minors(finding.evidence), ["1.16", "1.17", "1.18", "1.19", "1.20"]);
    const own = report.deployments.find(
      (d: { configuration: string }) => d.configuration === "many/conf/flink-conf.yaml",
    );
    assert.ok(own.version.sources.length > 10, `${own.version.sources.length} sources`);
    assert.equal(own.version.moreSources, undefined);
    assert.equal(finding.evidence.moreSources, own.version.sources.length - 10);
    assert.deepEqual(minors(own.version), minors(finding.evidence));
  });

  test("evidence: a runner and a connector built for another Flink minor name the cluster version they were compared with", () => {
    const dir = copyFixture("versions");
    writeFileSync(
      join(dir, "k8s", "build.gradle"),
      [
        "dependencies {",
        "    implementation 'org.apache.beam:beam-runners-flink-1.18:2.61.0'",
        "    implementation 'org.apache.flink:flink-connector-kafka:3.2.0-1.18'",
        "}",
        "",
      ].join("\n"),
    );
    const r = runCli(
      ["--rule", "*=off", "--rule", "BFL303=error", "--rule", "BFL307=warning", "--format", "json"],
      dir,
    );
    const report = JSON.parse(r.stdout);
    const shown = report.findings.map(
      (f: {
        rule: string;
        line: number;
        evidence?: { flinkVersion: string; strength: string; sources: unknown[] };
      }) => [f.rule, f.line, f.evidence?.flinkVersion, f.evidence?.strength, f.evidence?.sources],
    );
    assert.deepEqual(shown, [
      [
        "BFL303",
        2,
        "1.20",
        "pinned",
        [
          { minor: "1.20", source: "flinkDeployment", file: "k8s/orders.yaml", line: 7, column: 17 },
          { minor: "1.20", full: "1.20.1", source: "image", file: "k8s/orders.yaml", line: 6, column: 16 },
        ],
      ],
      [
        "BFL307",
        3,
        "1.20",
        "weak",
        [{ minor: "1.20", source: "flinkDeployment", file: "k8s/orders.yaml", line: 7, column: 17 }],
      ],
    ]);
  });

  test("text and SARIF carry no evidence", () => {
    const dir = copyFixture("versions");
    const text = runCli(["--rule", "*=off", "--rule", "BFL103=warning"], dir).stdout;
    assert.doesNotMatch(text, /pinned|evidence/);
    const sarif = runCli(["--rule", "*=off", "--rule", "BFL103=warning", "--format", "sarif"], dir).stdout;
    assert.doesNotMatch(sarif, /"evidence"|"deployments"/);
  });
});

describe("--fix", () => {
  const fixed = "taskmanager.numberOfTaskSlots: 4\nparallelism.default: 2\nrest.port: 8081\n";

  test("applies safe fixes, writes the file and reports what is left", () => {
    const dir = copyFixture("fixable");
    const r = runCli([...PINNED_RULES, "--fix"], dir);
    assert.equal(readFileSync(join(dir, "flink-conf.yaml"), "utf8"), fixed);
    assert.equal(r.stdout, "No problems found in 1 file.\n");
    assert.equal(r.status, 0);
  });

  test("leaves unsafe fixes alone unless asked", () => {
    // BFL101's fix (insert a checkpoint interval) is unsafe: it changes what the job does.
    const rules = ["--rule", "*=off", "--rule", "BFL001=info", "--rule", "BFL101=warning"];
    const dir = copyFixture("fixable");
    const safe = runCli([...rules, "--fix", "--format", "json"], dir);
    assert.equal(readFileSync(join(dir, "flink-conf.yaml"), "utf8"), fixed);
    assert.deepEqual(
      JSON.parse(safe.stdout).findings.map((f: { rule: string }) => f.rule),
      ["BFL101"],
    );

    const again = copyFixture("fixable");
    runCli([...rules, "--fix", "--fix-type", "unsafe"], again);
    const text = readFileSync(join(again, "flink-conf.yaml"), "utf8");
    assert.match(text, /^execution\.checkpointing\.interval: /m, "the unsafe fix was applied");
    assert.match(text, /beam-flink-lint-disable-line/, "the safe fix was not");

    const all = copyFixture("fixable");
    runCli([...rules, "--fix", "--fix-type", "all"], all);
    const both = readFileSync(join(all, "flink-conf.yaml"), "utf8");
    assert.match(both, /^execution\.checkpointing\.interval: /m);
    assert.doesNotMatch(both, /beam-flink-lint-disable/);
  });

  test("keeps a byte order mark and Windows line breaks", () => {
    const dir = copyFixture("fixable");
    const file = join(dir, "flink-conf.yaml");
    writeFileSync(file, `\uFEFF${readFileSync(file, "utf8").replace(/\n/g, "\r\n")}`);
    runCli([...PINNED_RULES, "--fix"], dir);
    assert.equal(readFileSync(file, "utf8"), `\uFEFF${fixed.replace(/\n/g, "\r\n")}`);
  });

  test("without --fix nothing is written", () => {
    const dir = copyFixture("fixable");
    const before = readFileSync(join(dir, "flink-conf.yaml"), "utf8");
    runCli(PINNED_RULES, dir);
    assert.equal(readFileSync(join(dir, "flink-conf.yaml"), "utf8"), before);
  });
});
