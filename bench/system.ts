/** Whole-process figures: cold start, server memory, CLI throughput against a read-and-parse floor. */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { BenchClient } from "./client";
import { ourServer, startOn } from "./editing";
import { digitEdits } from "./edits";
import type { EditInput } from "./generate";
import { benchFile, distFile } from "./paths";
import { median, type Summary, summarize } from "./stats";

const COLD_RUNS = 7;

export interface ColdStart {
  /** Spawn → first diagnostics of the opened file. */
  yaml: Summary;
  java: Summary;
  yamlFile: string;
  javaFile: string;
  /** The Scala figure includes compiling the Scala grammar. */
  scala?: Summary;
  scalaFile?: string;
  /** A SQL script: the server's own statement scanner, no parser to load. */
  sql?: Summary;
  sqlFile?: string;
}

function byName(inputs: EditInput[], prefix: string): EditInput {
  const input = inputs.find((i) => i.name.startsWith(prefix));
  if (!input) throw new Error(`no input ${prefix}`);
  return input;
}

async function coldOnce(folder: string, input: EditInput): Promise<number> {
  const start = performance.now();
  const client = BenchClient.start(ourServer({}));
  try {
    await client.initialize([folder]);
    const uri = pathToFileURL(join(folder, input.path.split("/").slice(1).join("/"))).href;
    await client.open(uri, input.languageId, input.text);
    const p = await client.published(uri, 0, 1);
    return p.at - start;
  } finally {
    await client.stop();
  }
}

/** Each run is a fresh process whose only workspace folder holds the one file it opens. */
export async function measureColdStart(
  work: string,
  inputs: EditInput[],
  log: (l: string) => void,
): Promise<ColdStart> {
  const yaml = byName(inputs, "flink-conf 300");
  const java = byName(inputs, "Java 500");
  const scala = byName(inputs, "Scala 500");
  const sql = byName(inputs, "SQL script");
  const folders: [EditInput, string][] = [
    [yaml, join(work, "cold-yaml")],
    [java, join(work, "cold-java")],
    [scala, join(work, "cold-scala")],
    [sql, join(work, "cold-sql")],
  ];
  for (const [input, folder] of folders) {
    const file = join(folder, input.path.split("/").slice(1).join("/"));
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, input.text);
  }
  const times: number[][] = folders.map(() => []);
  // Alternate, so that all see the same machine load.
  for (let run = 0; run < COLD_RUNS; run++) {
    for (let k = 0; k < folders.length; k++) times[k].push(await coldOnce(folders[k][1], folders[k][0]));
  }
  const result = {
    yaml: summarize(times[0]),
    java: summarize(times[1]),
    scala: summarize(times[2]),
    sql: summarize(times[3]),
    yamlFile: yaml.name,
    javaFile: java.name,
    scalaFile: scala.name,
    sqlFile: sql.name,
  };
  log(
    `cold start: YAML p50 ${result.yaml.p50.toFixed(0)} ms, Java p50 ${result.java.p50.toFixed(0)} ms, Scala p50 ${result.scala.p50.toFixed(0)} ms, SQL p50 ${result.sql.p50.toFixed(0)} ms`,
  );
  return result;
}

/** One large file opened in a fresh server: RSS after its first diagnostics, and after 20 more edits. */
export interface FileMemory {
  file: string;
  openMB: number;
  /** Peak (VmHWM) once the file is open: what reading it took. */
  openPeakMB: number;
  editedMB: number;
  /** Peak over the process's whole life. */
  peakMB: number;
}

export interface MemoryResult {
  javaFile: string;
  /** RSS after the file's first diagnostics, and after 20 more edits; peak over the process's life. */
  javaOpenMB: number;
  javaEditedMB: number;
  javaPeakMB: number;
  /** The 10,000-line Scala file, the same way. */
  scala?: FileMemory;
  /** Workspace: load from disk, then analyse every project (the "analyse workspace" command). */
  workspaceLoadMs: number;
  workspaceAnalyseMs: number;
  workspaceMB: number;
  workspacePeakMB: number;
  diagnosticsPublished: number;
}

/** Opens one large file in a fresh server (its folder the only workspace folder), then edits it 20 times. */
async function fileMemory(editing: string, input: EditInput, log: (l: string) => void): Promise<FileMemory> {
  const server = await startOn(ourServer({ debounceMs: 0 }), editing, [input], 1);
  try {
    const uri = pathToFileURL(join(editing, input.path)).href;
    await server.open(uri, input.languageId, input.text);
    await server.published(uri, 0, 1);
    const open = server.memory();
    const edits = digitEdits(input.text, 20, 7);
    for (let i = 0; i < edits.length; i++) {
      const from = server.publications.length;
      await server.change(uri, i + 2, [edits[i].change]);
      await server.published(uri, from, i + 2);
    }
    const edited = server.memory();
    const result = {
      file: input.name,
      openMB: open.rssMB,
      openPeakMB: open.peakMB,
      editedMB: edited.rssMB,
      peakMB: edited.peakMB,
    };
    log(
      `memory: ${input.name} ${result.openMB.toFixed(0)} MB after open (peak ${result.openPeakMB.toFixed(0)} MB), ${result.editedMB.toFixed(0)} MB after 20 edits, peak ${result.peakMB.toFixed(0)} MB`,
    );
    return result;
  } finally {
    await server.stop();
  }
}

export async function measureMemory(
  editing: string,
  wsDir: string,
  inputs: EditInput[],
  log: (l: string) => void,
): Promise<MemoryResult> {
  const java = await fileMemory(editing, byName(inputs, "Java 10,000"), log);
  const scala = await fileMemory(editing, byName(inputs, "Scala 10,000"), log);

  const start = performance.now();
  const ws = BenchClient.start(ourServer({}));
  try {
    await ws.initialize([wsDir]);
    await ws.progressEnds(1);
    const loaded = performance.now();
    await ws.command("beamFlinkLint.server.lintWorkspace");
    const analysed = performance.now();
    const { rssMB, peakMB } = ws.memory();
    const result: MemoryResult = {
      javaFile: java.file,
      javaOpenMB: java.openMB,
      javaEditedMB: java.editedMB,
      javaPeakMB: java.peakMB,
      scala,
      workspaceLoadMs: loaded - start,
      workspaceAnalyseMs: analysed - loaded,
      workspaceMB: rssMB,
      workspacePeakMB: peakMB,
      diagnosticsPublished: new Set(
        ws.publications.filter((p) => p.params.diagnostics.length > 0).map((p) => p.params.uri),
      ).size,
    };
    log(
      `memory: workspace ${rssMB.toFixed(0)} MB after the scan (peak ${peakMB.toFixed(0)} MB), load ${(result.workspaceLoadMs / 1000).toFixed(1)} s, analysis ${(result.workspaceAnalyseMs / 1000).toFixed(1)} s`,
    );
    return result;
  } finally {
    await ws.stop();
  }
}

interface ProcessRun {
  ms: number;
  maxRssMB: number;
  stdout: string;
}

function runNode(args: string[], cwd: string, rssFile: string): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ["--require", benchFile("maxrss.js"), ...args], {
      cwd,
      env: { ...process.env, BFL_BENCH_MAXRSS: rssFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      const ms = performance.now() - start;
      if (code !== 0) reject(new Error(`${args.join(" ")} exited with ${code}: ${stderr.slice(0, 2000)}`));
      else resolve({ ms, maxRssMB: Number(readFileSync(rssFile, "utf8")) / 1024, stdout });
    });
  });
}

export interface CliResult {
  files: number;
  runs: number;
  cli: { seconds: number; filesPerSecond: number; maxRssMB: number };
  floor: { seconds: number; filesPerSecond: number; maxRssMB: number };
  findings: number;
}

const CLI_RUNS = 3;

/** Alternates CLI and floor runs and takes the median of each. */
export async function measureCli(wsDir: string, log: (l: string) => void): Promise<CliResult> {
  const scratch = join(wsDir, "..", "cli-out");
  mkdirSync(scratch, { recursive: true });
  const reportFile = join(scratch, "report.json");
  const cliRuns: ProcessRun[] = [];
  const floorRuns: ProcessRun[] = [];
  let files = 0;
  let parsed = 0;
  let findings = 0;
  try {
    for (let run = 0; run < CLI_RUNS; run++) {
      const cli = await runNode(
        [distFile("cli.js"), ".", "--format", "json", "--output-file", reportFile, "--exit-zero"],
        wsDir,
        join(scratch, "cli.rss"),
      );
      cliRuns.push(cli);
      const report = JSON.parse(readFileSync(reportFile, "utf8")) as { filesAnalyzed: number; findings: unknown[] };
      files = report.filesAnalyzed;
      findings = report.findings.length;
      const floor = await runNode([benchFile("scanFloor.js"), "."], wsDir, join(scratch, "floor.rss"));
      floorRuns.push(floor);
      parsed = (JSON.parse(floor.stdout) as { files: number }).files;
      log(
        `cli run ${run + 1}: ${(cli.ms / 1000).toFixed(1)} s (${files} files), floor ${(floor.ms / 1000).toFixed(1)} s (${parsed} files)`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const sum = (runs: ProcessRun[], count: number) => {
    const seconds = median(runs.map((r) => r.ms)) / 1000;
    return { seconds, filesPerSecond: count / seconds, maxRssMB: Math.max(...runs.map((r) => r.maxRssMB)) };
  };
  return { files, runs: CLI_RUNS, cli: sum(cliRuns, files), floor: sum(floorRuns, parsed), findings };
}
