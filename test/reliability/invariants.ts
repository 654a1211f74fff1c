/**
 * What must hold for any input, however broken: reading never fails internally, every range a reader or a rule
 * produces lies inside its file, the rules do not throw, and every fix applies to the text it was made for.
 */
import assert from "node:assert/strict";
import { readDocument } from "../../server/src/core/documents/index";
import type { Finding } from "../../server/src/core/findings";
import type { FileFacts } from "../../server/src/core/model";
import { applyEdits, LineIndex, type Range } from "../../server/src/core/text";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { FIXTURE_ROOT } from "../harness/fixtures";

/** Where generated and fixture projects are mounted (the fixture harness uses the same folder). */
export const ROOT = FIXTURE_ROOT;

/** One file name per reader (and per way of reading YAML). */
export const READER_NAMES = [
  "flink-conf.yaml",
  "conf/config.yaml",
  "k8s/deployment.yaml",
  "chart/values.yaml",
  "chart/templates/deployment.yaml",
  "docker-compose.yml",
  "Dockerfile",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "gradle.properties",
  "gradle/libs.versions.toml",
  "src/main/java/com/example/Job.java",
  ".beam-flink-lint.yaml",
  ".vscode/launch.json",
  "run.sh",
].map((n) => `${ROOT}/${n}`);

function isPosition(v: unknown): v is { line: number; character: number } {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { line?: unknown }).line === "number" &&
    typeof (v as { character?: unknown }).character === "number"
  );
}

function isRange(v: unknown): v is Range {
  return typeof v === "object" && v !== null && isPosition((v as Range).start) && isPosition((v as Range).end);
}

/** Why `r` does not lie inside `text`, or undefined when it does. */
export function rangeProblem(text: string, r: Range, index = new LineIndex(text)): string | undefined {
  for (const p of [r.start, r.end]) {
    if (!Number.isInteger(p.line) || !Number.isInteger(p.character)) return `non-integer position ${JSON.stringify(p)}`;
    if (p.line < 0 || p.line >= index.lineCount) return `line ${p.line} outside 0..${index.lineCount - 1}`;
    const length = index.lineText(p.line).length;
    if (p.character < 0 || p.character > length)
      return `character ${p.character} outside line ${p.line} (length ${length})`;
  }
  if (r.start.line > r.end.line || (r.start.line === r.end.line && r.start.character > r.end.character)) {
    return "start after end";
  }
  return undefined;
}

/**
 * Every range in a file's facts lies inside the file. Ranges next to a `file` naming another file belong to that
 * file and are left alone.
 */
export function checkFacts(facts: FileFacts): void {
  const index = new LineIndex(facts.text);
  const seen = new Set<object>();
  const visit = (v: unknown, path: string, owner: string): void => {
    if (typeof v !== "object" || v === null || seen.has(v)) return;
    seen.add(v);
    if (isRange(v)) {
      if (owner !== facts.file) return;
      const problem = rangeProblem(facts.text, v, index);
      assert.equal(problem, undefined, `${facts.file} ${path}: ${problem} in ${JSON.stringify(v)}`);
      return;
    }
    const record = v as Record<string, unknown>;
    const here = typeof record.file === "string" ? record.file : owner;
    for (const [k, child] of Object.entries(record)) {
      if (k === "text" || typeof child === "function") continue;
      visit(child, `${path}.${k}`, here);
    }
  };
  visit({ ...facts, text: undefined }, "facts", facts.file);
}

/** A reader that threw leaves this problem behind (readDocument's guard): for the fuzzer, a failure. */
function checkNoInternalError(facts: FileFacts): void {
  const internal = facts.syntaxErrors.find((p) => p.message.includes("internal error"));
  assert.equal(internal, undefined, `${facts.file}: ${internal?.message}`);
}

/** Reads a text as `file`: the reader must not fail internally and its facts must stay inside the text. */
export function checkRead(file: string, text: string): FileFacts {
  const facts = readDocument(file, text);
  checkNoInternalError(facts);
  checkFacts(facts);
  return facts;
}

/** The edits of one fix for one file do not overlap (two insertions at one place are fine). */
function overlapProblem(text: string, edits: readonly { range: Range }[]): string | undefined {
  const index = new LineIndex(text);
  const spans = edits
    .map((e) => [index.offsetAt(e.range.start), index.offsetAt(e.range.end)])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][1]) return `edits overlap at offsets ${spans[i - 1]} and ${spans[i]}`;
  }
  return undefined;
}

function checkFinding(ws: Workspace, f: Finding): void {
  const text = ws.text(f.file);
  assert.notEqual(text, undefined, `${f.rule} reports on ${f.file}, which is not in the workspace`);
  const where = `${f.rule} on ${f.file} ${JSON.stringify(f.range)}`;
  assert.equal(rangeProblem(text as string, f.range), undefined, `${where}: ${rangeProblem(text as string, f.range)}`);
  for (const r of f.related) {
    const related = ws.text(r.file);
    assert.notEqual(related, undefined, `${where}: related location in unknown file ${r.file}`);
    assert.equal(rangeProblem(related as string, r.range), undefined, `${where}: related ${JSON.stringify(r.range)}`);
  }
  for (const fix of f.fixes) {
    for (const change of fix.changes) {
      const target = ws.text(change.file);
      assert.notEqual(target, undefined, `${where}: fix "${fix.title}" edits unknown file ${change.file}`);
      for (const e of change.edits) {
        const problem = rangeProblem(target as string, e.range);
        assert.equal(problem, undefined, `${where}: fix "${fix.title}" edit ${JSON.stringify(e.range)}: ${problem}`);
      }
      const overlap = overlapProblem(target as string, change.edits);
      assert.equal(overlap, undefined, `${where}: fix "${fix.title}": ${overlap}`);
    }
  }
}

export interface AnalysisCheck {
  findings: number;
  fixesApplied: number;
}

/** Analyses every project: no rule throws, every finding, related location and fix edit lies inside its file. */
function analyzeChecked(files: ReadonlyMap<string, string>): Finding[] {
  const ws = new Workspace({ roots: [ROOT] });
  for (const [file, text] of files) ws.setFile(file, text);
  const findings: Finding[] = [];
  for (const root of ws.projectRoots()) {
    const result = ws.analyze(root);
    assert.deepEqual(result.failures, [], `rules threw on ${root}`);
    for (const list of result.byFile.values()) findings.push(...list);
  }
  for (const f of findings) checkFinding(ws, f);
  for (const file of ws.allFiles()) {
    const facts = ws.facts(file);
    if (!facts) continue;
    checkNoInternalError(facts);
    checkFacts(facts);
  }
  return findings;
}

/**
 * The analysis invariants on `files`, then again after applying the first fix of each finding that has one (up
 * to `fixLimit` of them, each on its own).
 */
export function checkAnalysis(files: ReadonlyMap<string, string>, fixLimit = 3): AnalysisCheck {
  const findings = analyzeChecked(files);
  let fixesApplied = 0;
  for (const f of findings.filter((x) => x.fixes.length > 0).slice(0, fixLimit)) {
    const fixed = new Map(files);
    for (const change of f.fixes[0].changes) {
      fixed.set(change.file, applyEdits(fixed.get(change.file) ?? "", change.edits));
    }
    analyzeChecked(fixed);
    fixesApplied++;
  }
  return { findings: findings.length, fixesApplied };
}
