/**
 * Inputs at and past the limits: huge and deeply nested files, YAML alias bombs, XML entity bombs, files over the
 * size cap. Each must finish, stay inside its bounds and keep every range valid; times are compared as ratios.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { test } from "node:test";
import { DiagnosticSeverity } from "vscode-languageserver-protocol/node";
import { flinkConf, gradle, javaJob, manifest, pom } from "../../bench/generate";
import { Random } from "../../bench/random";
import { readDocument } from "../../server/src/core/documents/index";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { runCli } from "../cli/helpers";
import { startServer } from "../lsp/lspClient";
import { checkAnalysis, ROOT } from "./invariants";

/** The fastest of `runs` analyses of a one-file project, in milliseconds. */
function analysisTime(file: string, text: string, runs = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const ws = new Workspace({ roots: [ROOT] });
    ws.setFile(file, text);
    const start = performance.now();
    const result = ws.analyze(ws.projectRootOf(file));
    best = Math.min(best, performance.now() - start);
    assert.deepEqual(result.failures, []);
  }
  return best;
}

/** Ten times the input may cost at most thirty times the time: linear with room for noise, never quadratic. */
const MAX_GROWTH = 30;

test("a 200,000-line flink-conf.yaml is analysed, in time linear in its length", { timeout: 120_000 }, () => {
  const block = flinkConf(60, new Random(1)).split("\n");
  const conf = (lines: number) => Array.from({ length: lines }, (_, i) => block[i % block.length]).join("\n");
  const file = `${ROOT}/flink-conf.yaml`;
  const small = analysisTime(file, conf(20_000), 2);
  const big = analysisTime(file, conf(200_000), 2);
  assert.ok(big / small <= MAX_GROWTH, `20,000 lines: ${small.toFixed(0)} ms, 200,000 lines: ${big.toFixed(0)} ms`);
});

test("every reader and the rules scale linearly: ten times the file, at most thirty times the time", {
  timeout: 120_000,
}, () => {
  const inputs: [string, (n: number) => string][] = [
    ["k8s/flink.yaml", (n) => manifest(n / 10, n * 20, new Random(2))],
    ["pom.xml", (n) => pom(n * 5, new Random(3))],
    ["build.gradle", (n) => gradle(n * 10, false, new Random(4))],
    ["build.gradle.kts", (n) => gradle(n * 10, true, new Random(5))],
    ["src/main/java/Job.java", (n) => javaJob(n * 10, new Random(6))],
  ];
  for (const [name, generate] of inputs) {
    const file = `${ROOT}/${name}`;
    const small = analysisTime(file, generate(20));
    const big = analysisTime(file, generate(200));
    assert.ok(big / small <= MAX_GROWTH, `${name}: ${small.toFixed(1)} ms, ten times larger: ${big.toFixed(1)} ms`);
  }
});

const DEEP = 10_000;
const open = (s: string) => s.repeat(DEEP);

/** Nesting 10,000 levels deep in the syntax of each reader. */
const NESTED: Record<string, string> = {
  "flink-conf.yaml": `env.java.opts: ${open("[")}${open("]")}\n`,
  "conf/config.yaml": `jobmanager:\n  x: ${open("{a: ")}1${open("}")}\n`,
  "k8s/flink.yaml": `apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nspec: ${open("{a: ")}1${open("}")}\n`,
  "k8s/seq.yaml": `apiVersion: v1\nkind: ConfigMap\ndata: ${open("[")}${open("]")}\n`,
  "chart/values.yaml": `flinkConfiguration: ${open("[")}${open("]")}\n`,
  "docker-compose.yml": `services:\n  a: ${open("[")}${open("]")}\n`,
  "pom.xml": `<project>${open("<a>")}${open("</a>")}</project>`,
  "build.gradle": `dependencies { implementation(${open("(")}'a:b:1'${open(")")}) }\n${open("{")}${open("}")}`,
  "build.gradle.kts": `dependencies { implementation(${open("listOf(")}"a:b:1"${open(")")}) }`,
  "gradle/libs.versions.toml": `[versions]\na = ${open("[")}${open("]")}\nb = ${open("{ c = ")}1${open("}")}\n`,
  "src/Job.java": `class J { void f(Pipeline p) { p.apply(KafkaIO.read().withTopic(${open("(")}"t"${open(")")})); ${open("{")}${open("}")} } }`,
  ".vscode/launch.json": `{"configurations": ${open("[")}${open("]")}}`,
  Dockerfile: `FROM flink:1.18\nRUN ${open("(")}\n`,
};

test("nesting 10,000 levels deep, in every format, is read without failing", { timeout: 120_000 }, () => {
  for (const [name, text] of Object.entries(NESTED)) checkAnalysis(new Map([[`${ROOT}/${name}`, text]]), 1);
});

const MB = "x".repeat(1024 * 1024);

/** One line of a megabyte, where each reader looks hardest: a value, a string, a text node. */
const LONG_LINES: Record<string, string> = {
  "flink-conf.yaml": `env.java.opts: ${MB}\nstate.backend: rocksdb\n`,
  "conf/config.yaml": `jobmanager:\n  memory.process.size: "${MB}"\n`,
  "k8s/flink.yaml": `apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nspec:\n  image: flink:${MB}\n  flinkConfiguration:\n    a: ${MB}\n`,
  "chart/values.yaml": `flinkConfiguration: "${MB}"\n`,
  "docker-compose.yml": `services:\n  jm:\n    image: flink:1.18\n    environment:\n      FLINK_PROPERTIES: "${MB}"\n`,
  "pom.xml": `<project><properties><a>${MB}</a></properties><version>${MB}</version></project>`,
  "build.gradle": `dependencies { implementation 'org.apache.beam:beam-sdks-java-core:${MB}' }\n`,
  "gradle.properties": `beamVersion=${MB}\n`,
  "gradle/libs.versions.toml": `[versions]\nbeam = "${MB}"\n`,
  "src/Job.java": `class J { void f(Pipeline p) { p.apply(KafkaIO.read().withTopic("${MB}")); } }`,
  Dockerfile: `FROM flink:1.18\nENV FLINK_PROPERTIES="${MB}"\n`,
  "run.sh": `java -jar job.jar --checkpointingInterval=${MB}\n`,
  ".beam-flink-lint.yaml": `flinkVersion: "${MB}"\n`,
};

test("lines of a megabyte, in every format, are read and analysed", { timeout: 120_000 }, () => {
  for (const [name, text] of Object.entries(LONG_LINES)) checkAnalysis(new Map([[`${ROOT}/${name}`, text]]), 1);
});

/** `levels` of nine aliases to the level below: fully expanded, 9^levels copies of "boom". */
function aliasBomb(levels: number, indent: string): string {
  const lines = [`${indent}l0: &l0 ["boom", "boom", "boom", "boom", "boom", "boom", "boom", "boom", "boom"]`];
  for (let i = 1; i <= levels; i++)
    lines.push(
      `${indent}l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  lines.push(`${indent}all: *l${levels}`);
  return lines.join("\n");
}

test("YAML alias bombs are never expanded", { timeout: 60_000 }, () => {
  const bomb = aliasBomb(9, "    ");
  const files: Record<string, string> = {
    "k8s/flink.yaml": `apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: x\nspec:\n  flinkConfiguration:\n${bomb}\n`,
    "k8s/cm.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flink-config\ndata:\n  x:\n${bomb}\n`,
    "conf/config.yaml": `jobmanager:\n  rpc:\n${bomb}\n`,
    "chart/values.yaml": `flinkConfiguration:\n${bomb}\n`,
    "docker-compose.yml": `services:\n  jm:\n    environment:\n${bomb}\n`,
    ".beam-flink-lint.yaml": `rules:\n${bomb}\n`,
  };
  for (const [name, text] of Object.entries(files)) {
    const file = `${ROOT}/${name}`;
    const heapBefore = process.memoryUsage().heapUsed;
    checkAnalysis(new Map([[file, text]]), 1);
    const facts = readDocument(file, text);
    // Expanded, the values alone would take gigabytes; what the reader keeps is of the size of the text.
    const kept = JSON.stringify(facts, (k, v) => (k === "text" ? undefined : v)).length;
    assert.ok(kept < 50 * text.length, `${name}: ${kept} characters of facts from ${text.length} of text`);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 200 * 1024 * 1024, `${name}: the heap grew too much`);
  }
});

test("XML entities are never expanded, and external entities never read", { timeout: 60_000 }, () => {
  const entities = [' <!ENTITY lol "lol">', ' <!ENTITY secret SYSTEM "file:///etc/passwd">'];
  for (let i = 1; i <= 9; i++)
    entities.push(
      ` <!ENTITY lol${i} "${Array(10)
        .fill(i === 1 ? "&lol;" : `&lol${i - 1};`)
        .join("")}">`,
    );
  const text = [
    '<?xml version="1.0"?>',
    "<!DOCTYPE project [",
    ...entities,
    "]>",
    "<project>",
    "  <groupId>com.example</groupId><artifactId>job</artifactId><version>&lol9;</version>",
    "  <properties><beam.version>&secret;</beam.version></properties>",
    "  <dependencies><dependency><groupId>org.apache.beam</groupId><artifactId>beam-sdks-java-core</artifactId>",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference as the pom writes it
    "    <version>${beam.version}</version></dependency></dependencies>",
    "</project>",
    "",
  ].join("\n");
  const file = `${ROOT}/pom.xml`;
  checkAnalysis(new Map([[file, text]]), 1);
  const facts = JSON.stringify(readDocument(file, text), (k, v) => (k === "text" ? undefined : v));
  assert.doesNotMatch(facts, /lollol/);
  assert.doesNotMatch(facts, /root:/);
});

test("the language server: a document over the default 5 MB cap gets one information diagnostic", {
  timeout: 60_000,
}, async (t) => {
  const client = await startServer(t, { fixture: "basic", initializationOptions: { debounceMs: 0 } });
  const line = "state.backend: rocksdb\n";
  const text = line.repeat(Math.ceil((5.5 * 1024 * 1024) / line.length));
  const uri = await client.open("flink-conf.yaml", text);
  const published = await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.equal(published.diagnostics.length, 1);
  assert.equal(published.diagnostics[0].severity, DiagnosticSeverity.Information);
  assert.match(String(published.diagnostics[0].message), /larger than 5 MB/);
});

test("the command line: a file over the 5 MB cap is named in a note and not analysed", { timeout: 60_000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), "bfl-limits-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ["big", "small"]) mkdirSync(join(dir, name));
  writeFileSync(join(dir, "big", "flink-conf.yaml"), "state.backend: rocksdb\n".repeat(260_000));
  writeFileSync(join(dir, "small", "flink-conf.yaml"), "state.backend: rocksdb\n");
  const run = runCli([".", "--format", "json"], dir);
  assert.match(run.stderr, /big\/flink-conf\.yaml: not read: .* is more than the 5\.0 MB limit/);
  const report = JSON.parse(run.stdout) as { findings: { file: string }[]; filesAnalyzed: number };
  assert.equal(report.filesAnalyzed, 1);
  assert.ok(report.findings.length > 0);
  assert.ok(report.findings.every((f) => f.file.startsWith("small/")));
});
