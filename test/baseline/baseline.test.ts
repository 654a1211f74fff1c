/**
 * The baseline matching the command line and the language server share (core/baseline.ts): findings recorded
 * stay hidden when lines move, show again when their line changes, and entries that match nothing are stale.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  applyBaseline,
  type Baseline,
  type BaselineContext,
  baselinePath,
  createBaseline,
  fingerprint,
  formatBaseline,
  parseBaseline,
} from "../../server/src/core/baseline";
import type { Finding } from "../../server/src/core/findings";
import { analyzeAll, FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const CONF = `${FIXTURE_ROOT}/conf/flink-conf.yaml`;
const MANIFEST = `${FIXTURE_ROOT}/k8s/deployment.yaml`;

/** Two ignored lines (BFL100), twice the same ignored line, and a deprecated key inside a ConfigMap (BFL103). */
const CONF_TEXT = [
  "taskmanager.numberOfTaskSlots: 4",
  "execution.checkpointing.interval:30s",
  "state.backend.type = rocksdb",
  "rest.port=8081",
  "rest.port=8081",
  "",
].join("\n");
const MANIFEST_TEXT = [
  "apiVersion: v1",
  "kind: ConfigMap",
  "metadata:",
  "  name: flink-config",
  "data:",
  "  flink-conf.yaml: |",
  "    state.backend: rocksdb",
  "    execution.checkpointing.interval: 1 min",
  "",
].join("\n");

function analyse(files: Record<string, string>): { findings: Finding[]; ctx: BaselineContext } {
  const map = new Map(Object.entries(files));
  const ws = workspaceOf(map, { severityOverrides: [{ rule: "*", severity: "off" }, ...ON] });
  return { findings: analyzeAll(ws), ctx: { root: FIXTURE_ROOT, textOf: (f) => map.get(f) } };
}
const ON = [
  { rule: "BFL100", severity: "warning" as const },
  { rule: "BFL103", severity: "warning" as const },
];

function summary(fs: readonly Finding[]): string[] {
  return fs.map((f) => `${f.file.slice(FIXTURE_ROOT.length + 1)}:${f.range.start.line + 1} ${f.rule}`);
}

const BEFORE = { [CONF]: CONF_TEXT, [MANIFEST]: MANIFEST_TEXT };

function recorded(): Baseline {
  const { findings, ctx } = analyse(BEFORE);
  assert.deepEqual(summary(findings).sort(), [
    "conf/flink-conf.yaml:2 BFL100",
    "conf/flink-conf.yaml:3 BFL100",
    "conf/flink-conf.yaml:4 BFL100",
    "conf/flink-conf.yaml:5 BFL100",
    "k8s/deployment.yaml:7 BFL103",
  ]);
  return createBaseline(findings, ctx);
}

test("a baseline records file, rule and fingerprint, counts identical findings, and hides what it recorded", () => {
  const baseline = recorded();
  assert.deepEqual(baseline.entries.map((e) => `${e.file} ${e.rule} ×${e.count}`).sort(), [
    "conf/flink-conf.yaml BFL100 ×1",
    "conf/flink-conf.yaml BFL100 ×1",
    "conf/flink-conf.yaml BFL100 ×2",
    "k8s/deployment.yaml BFL103 ×1",
  ]);
  const sorted = [...baseline.entries].sort((a, b) =>
    a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.fingerprint < b.fingerprint ? -1 : 1,
  );
  assert.deepEqual(baseline.entries, sorted, "entries are sorted by file, rule and fingerprint");
  const { findings, ctx } = analyse(BEFORE);
  const match = applyBaseline(baseline, findings, ctx);
  assert.deepEqual(match.shown, []);
  assert.equal(match.hidden.length, 5);
  assert.deepEqual(match.stale, []);
});

test("lines inserted, removed and moved elsewhere keep the findings hidden; so does re-indenting", () => {
  const baseline = recorded();
  const moved = {
    [CONF]: [
      "# comment",
      "rest.port=8081",
      "",
      "taskmanager.numberOfTaskSlots: 8",
      "state.backend.type = rocksdb",
      "rest.port=8081",
      "execution.checkpointing.interval:30s",
      "",
    ].join("\n"),
    [MANIFEST]: MANIFEST_TEXT.replace(
      "metadata:\n  name: flink-config\n",
      "metadata:\n  name: flink-config\n  labels:\n    app: flink\n",
    ).replace(
      "    state.backend: rocksdb\n    execution.checkpointing.interval: 1 min\n",
      "    execution.checkpointing.interval: 1 min\n    state.backend:   rocksdb\n",
    ),
  };
  const { findings, ctx } = analyse(moved);
  assert.equal(findings.length, 5);
  const match = applyBaseline(baseline, findings, ctx);
  assert.deepEqual(summary(match.shown), []);
  assert.deepEqual(match.stale, []);
});

test("changing the offending line shows the finding again, and the old entry is stale", () => {
  const baseline = recorded();
  const edited = {
    [CONF]: CONF_TEXT.replace("state.backend.type = rocksdb", "state.backend.type = hashmap"),
    [MANIFEST]: MANIFEST_TEXT,
  };
  const { findings, ctx } = analyse(edited);
  const match = applyBaseline(baseline, findings, ctx);
  assert.deepEqual(summary(match.shown), ["conf/flink-conf.yaml:3 BFL100"]);
  assert.deepEqual(
    match.stale.map((e) => [e.file, e.rule, e.count]),
    [["conf/flink-conf.yaml", "BFL100", 1]],
  );
});

test("a third copy of a line recorded twice is reported; one copy fixed leaves one stale count", () => {
  const baseline = recorded();
  const third = analyse({ [CONF]: `${CONF_TEXT}rest.port=8081\n`, [MANIFEST]: MANIFEST_TEXT });
  assert.deepEqual(summary(applyBaseline(baseline, third.findings, third.ctx).shown), [
    "conf/flink-conf.yaml:6 BFL100",
  ]);
  const fixed = analyse({
    [CONF]: CONF_TEXT.replace("rest.port=8081\n", "rest.port: 8081\n"),
    [MANIFEST]: MANIFEST_TEXT,
  });
  const match = applyBaseline(baseline, fixed.findings, fixed.ctx);
  assert.deepEqual(match.shown, []);
  assert.deepEqual(
    match.stale.map((e) => [e.file, e.count]),
    [["conf/flink-conf.yaml", 1]],
  );
});

test("the enclosing line is part of the context: the same key under another parent is a different finding", () => {
  const baseline = recorded();
  const other = MANIFEST_TEXT.replace("  flink-conf.yaml: |", "  config.yaml: |");
  const { findings, ctx } = analyse({ [CONF]: CONF_TEXT, [MANIFEST]: other });
  const bfl103 = findings.filter((f) => f.rule === "BFL103");
  assert.equal(bfl103.length, 1, "the key is still deprecated under config.yaml");
  assert.deepEqual(summary(applyBaseline(baseline, findings, ctx).shown), ["k8s/deployment.yaml:7 BFL103"]);
});

test("entries of files a run did not analyse are neither stale nor pruned", () => {
  const baseline = recorded();
  const onlyConf = analyse({ [CONF]: CONF_TEXT.replace("rest.port=8081\nrest.port=8081\n", "") });
  const inConf = (file: string) => file.startsWith("conf/");
  const match = applyBaseline(baseline, onlyConf.findings, onlyConf.ctx, inConf);
  assert.deepEqual(
    match.stale.map((e) => [e.file, e.count]),
    [["conf/flink-conf.yaml", 2]],
  );
  const rewritten = createBaseline(onlyConf.findings, onlyConf.ctx, baseline, inConf);
  assert.deepEqual(
    rewritten.entries.map((e) => `${e.file} ${e.rule} ×${e.count}`),
    ["conf/flink-conf.yaml BFL100 ×1", "conf/flink-conf.yaml BFL100 ×1", "k8s/deployment.yaml BFL103 ×1"],
  );
});

test("the file format: one entry per line, sorted, read back unchanged; broken files and entries are reported", () => {
  const baseline = recorded();
  const text = formatBaseline(baseline);
  assert.match(
    text,
    /^\{\n {2}"version": 1,\n {2}"entries": \[\n {4}\{"file":"conf\/flink-conf\.yaml","rule":"BFL100","fingerprint":"[0-9a-f]{16}","count":2,"message":"/,
  );
  assert.equal(text.split("\n").length, baseline.entries.length + 6);
  assert.deepEqual(parseBaseline(text), { baseline, problems: [] });
  assert.deepEqual(parseBaseline(formatBaseline({ version: 1, entries: [] })), {
    baseline: { version: 1, entries: [] },
    problems: [],
  });
  assert.match(parseBaseline("{").problems[0], /^not valid JSON/);
  assert.match(parseBaseline('{"version": 2, "entries": []}').problems[0], /unsupported version 2/);
  assert.match(parseBaseline("[]").problems[0], /expected an object/);
  const partly = parseBaseline(
    '{"version":1,"entries":[{"file":"a.yaml","rule":"BFL100","fingerprint":"0123456789abcdef"},{"file":"b.yaml","rule":"BFL100","fingerprint":"xyz","count":1}]}',
  );
  assert.deepEqual(partly.baseline?.entries, [
    { file: "a.yaml", rule: "BFL100", fingerprint: "0123456789abcdef", count: 1 },
  ]);
  assert.deepEqual(partly.problems, [
    "entry 2 is not {file, rule, fingerprint (16 hex digits), count (a positive whole number)}",
  ]);
});

test("fingerprints do not depend on the line number or the message, and paths may leave the baseline's folder", () => {
  const { findings } = analyse(BEFORE);
  const f = findings.find((x) => x.rule === "BFL103") as Finding;
  const down = (n: number) => ({
    start: { line: f.range.start.line + n, character: f.range.start.character },
    end: { line: f.range.end.line + n, character: f.range.end.character },
  });
  assert.equal(fingerprint(f, MANIFEST_TEXT), fingerprint({ ...f, range: down(2) }, `# top\n\n${MANIFEST_TEXT}`));
  assert.equal(fingerprint(f, MANIFEST_TEXT), fingerprint({ ...f, message: "reworded" }, MANIFEST_TEXT));
  assert.notEqual(fingerprint(f, MANIFEST_TEXT), fingerprint({ ...f, rule: "BFL104" }, MANIFEST_TEXT));
  assert.equal(baselinePath("/repo", "/repo/k8s/a.yaml"), "k8s/a.yaml");
  assert.equal(baselinePath("/repo/ci", "/repo/k8s/a.yaml"), "../k8s/a.yaml");
  assert.equal(baselinePath("/", "/a.yaml"), "a.yaml");
});
