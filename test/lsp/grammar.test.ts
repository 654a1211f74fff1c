/**
 * The flink-conf TextMate grammar, tokenized by the same engine VS Code uses (vscode-textmate + Oniguruma):
 * comments only where Flink sees them, key / separator / value, units and booleans, skipped lines as invalid.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, test } from "node:test";
import * as oniguruma from "vscode-oniguruma";
import { type IGrammar, INITIAL, parseRawGrammar, Registry } from "vscode-textmate";
import { repoPath } from "../harness/fixtures";

const SCOPE = "source.flink-conf";
let grammar: IGrammar;

before(async () => {
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const path = repoPath("syntaxes", "flink-conf.tmLanguage.json");
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => (scope === SCOPE ? parseRawGrammar(readFileSync(path, "utf8"), path) : null),
  });
  const loaded = await registry.loadGrammar(SCOPE);
  assert.ok(loaded, "the grammar loads");
  grammar = loaded;
});

/** Each token of a line with its innermost scope, without the whitespace-only tokens of the root scope. */
function tokens(line: string): [string, string][] {
  return grammar
    .tokenizeLine(line, INITIAL)
    .tokens.map((t): [string, string] => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]])
    .filter(([text, scope]) => !(scope === SCOPE && text.trim() === ""));
}

const KEY = "entity.name.tag.key.flink-conf";
const SEP = "punctuation.separator.key-value.flink-conf";
const VALUE = "string.unquoted.value.flink-conf";
const COMMENT = "comment.line.number-sign.flink-conf";
const INVALID = "invalid.illegal.ignored-line.flink-conf";

test("a comment line", () => {
  assert.deepEqual(tokens("  # JobManager settings"), [["# JobManager settings", COMMENT]]);
});

test("key, separator, number and a trailing comment", () => {
  assert.deepEqual(tokens("taskmanager.numberOfTaskSlots: 4  # one per core"), [
    ["taskmanager.numberOfTaskSlots", KEY],
    [": ", SEP],
    ["4", "constant.numeric.flink-conf"],
    ["# one per core", COMMENT],
  ]);
});

test("durations and memory sizes: number and unit", () => {
  assert.deepEqual(tokens("execution.checkpointing.interval: 30 s"), [
    ["execution.checkpointing.interval", KEY],
    [": ", SEP],
    ["30", "constant.numeric.flink-conf"],
    [" ", VALUE],
    ["s", "keyword.other.unit.flink-conf"],
  ]);
  assert.deepEqual(tokens("jobmanager.memory.process.size: 1600m").slice(2), [
    ["1600", "constant.numeric.flink-conf"],
    ["m", "keyword.other.unit.flink-conf"],
  ]);
});

test("booleans and placeholders", () => {
  assert.deepEqual(tokens("state.backend.incremental: TRUE").slice(2), [
    ["TRUE", "constant.language.boolean.flink-conf"],
  ]);
  const placeholder = "$" + "{S3_SECRET}";
  assert.deepEqual(tokens(`s3.secret-key: ${placeholder}`).slice(2), [
    [placeholder, "variable.other.placeholder.flink-conf"],
  ]);
});

test("'#' after a non-space character and ': ' inside the value belong to the value", () => {
  assert.deepEqual(tokens("env.java.opts.all: -Da=b#c"), [
    ["env.java.opts.all", KEY],
    [": ", SEP],
    ["-Da=b#c", VALUE],
  ]);
  assert.deepEqual(tokens("s3.endpoint: http://minio: 9000").slice(2), [
    ["http://minio: ", VALUE],
    ["9000", "constant.numeric.flink-conf"],
  ]);
});

test("lines Flink skips (no ': ') are invalid; their comment stays a comment", () => {
  assert.deepEqual(tokens("execution.checkpointing.interval:30s"), [["execution.checkpointing.interval:30s", INVALID]]);
  assert.deepEqual(tokens("parallelism.default = 4 # four"), [
    ["parallelism.default = 4", INVALID],
    ["# four", COMMENT],
  ]);
});
