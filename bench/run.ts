/**
 * `npm run bench`: generates the inputs from a seed, measures editing latency (with the floor parser and
 * yaml-language-server side by side), the default-debounce latency, cold start, memory and CLI throughput, and
 * writes bench/RESULTS.md and bench/latency.svg.
 *
 * Options: `--seed=<n>`, `--edits=<n>` (measured edits per file, default 200), `--only=<phase,…>` (editing,
 * debounce, cold, memory, cli), `--out=<folder>` (where to write the report; default bench/).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { isCandidateFile } from "../server/src/core/documents/index";
import { latencyChart } from "./chart";
import { measureDefaultDebounce, measureEditing } from "./editing";
import { DEFAULT_SEED, digest, editInputs, workspace, writeFiles } from "./generate";
import { REPO } from "./paths";
import { Random } from "./random";
import { type Report, renderReport } from "./report";
import { measureCli, measureColdStart, measureMemory } from "./system";

function option(name: string): string | undefined {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg?.slice(name.length + 3);
}

const PHASES = ["editing", "debounce", "cold", "memory", "cli"] as const;

async function main(): Promise<void> {
  const seed = Number(option("seed") ?? DEFAULT_SEED);
  const edits = Number(option("edits") ?? 200);
  const only = option("only")?.split(",") ?? [...PHASES];
  const outDir = option("out") ?? join(REPO, "bench");
  const log = (line: string) => process.stderr.write(`${line}\n`);

  const work = mkdtempSync(join(tmpdir(), "bfl-bench-"));
  try {
    const inputs = editInputs(seed);
    const editing = join(work, "editing");
    writeFiles(
      editing,
      inputs.map((i) => [i.path, i.text] as [string, string]),
    );
    const ws = workspace(1000, new Random(seed + 1));
    const wsDir = join(work, "workspace");
    writeFiles(wsDir, ws.files);
    log(`inputs in ${work}`);

    const report: Report = {
      seed,
      edits,
      warmup: Math.min(20, edits),
      digest: digest([...inputs.map((i) => [i.path, i.text] as [string, string]), ...ws.files]),
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at start`,
      workspaceFiles: [...ws.files.keys()].filter(isCandidateFile).length,
      projects: ws.projects,
    };
    const opts = { warmup: report.warmup, edits, seed };
    if (only.includes("editing")) report.editing = await measureEditing(editing, inputs, opts, log);
    if (only.includes("debounce")) {
      const typical = inputs.filter((i) => !i.name.startsWith("Java 10,000"));
      report.debounce = await measureDefaultDebounce(editing, typical, { warmup: 3, edits: 20, seed }, log);
    }
    if (only.includes("cold")) report.cold = await measureColdStart(work, inputs, log);
    if (only.includes("memory")) report.memory = await measureMemory(editing, wsDir, inputs, log);
    if (only.includes("cli")) report.cli = await measureCli(wsDir, log);
    report.loadAfter = loadavg()[0];

    // The hand-written analysis (what was profiled, what limits the misses) closes the report.
    const notesFile = join(REPO, "bench", "ANALYSIS.md");
    const notes = existsSync(notesFile) ? readFileSync(notesFile, "utf8") : "";
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, "RESULTS.md"), renderReport(report, notes));
    if (report.editing) writeFileSync(join(outDir, "latency.svg"), latencyChart(report.editing));
    log(`wrote ${join(outDir, "RESULTS.md")}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
