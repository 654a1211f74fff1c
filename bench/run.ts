/**
 * `npm run bench`: generates the inputs from a seed, measures editing latency (with the floor parser and
 * yaml-language-server side by side), the default-debounce latency, cold start, memory and CLI throughput, and
 * writes bench/RESULTS.md, bench/latency.svg and the measurements themselves (bench/results.json).
 *
 * Options: `--seed=<n>`, `--edits=<n>` (measured edits per file, default 200), `--only=<phase,…>` (editing,
 * debounce, cold, memory, cli), `--inputs=<text,…>` (edit only the inputs whose name contains one of them, e.g.
 * `--inputs=Scala,Python`), `--out=<folder>` (where to write; default bench/), `--render` (no measuring: write the
 * report again from results.json, after the analysis text changed).
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

async function measure(
  seed: number,
  edits: number,
  only: string[],
  names: string[] | undefined,
  log: (line: string) => void,
): Promise<Report> {
  const work = mkdtempSync(join(tmpdir(), "bfl-bench-"));
  try {
    const inputs = editInputs(seed);
    const edited = names ? inputs.filter((i) => names.some((n) => i.name.includes(n))) : inputs;
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
      workspaceJobs: "a quarter of the jobs in Scala, Kotlin and Python",
    };
    const opts = { warmup: report.warmup, edits, seed };
    // A phase that fails (a timeout on a loaded machine) is named in the report; the others are still written.
    const phase = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
      if (!only.includes(name)) return undefined;
      try {
        return await run();
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        log(`${name} failed: ${why}`);
        report.failed = [...(report.failed ?? []), `${name}: ${why}`];
        return undefined;
      }
    };
    report.editing = await phase("editing", () => measureEditing(editing, edited, opts, log));
    const typical = edited.filter((i) => !i.name.includes("10,000"));
    report.debounce = await phase("debounce", () =>
      measureDefaultDebounce(editing, typical, { warmup: 3, edits: 20, seed }, log),
    );
    report.cold = await phase("cold", () => measureColdStart(work, inputs, log));
    report.memory = await phase("memory", () => measureMemory(editing, wsDir, inputs, log));
    report.cli = await phase("cli", () => measureCli(wsDir, log));
    report.loadAfter = loadavg()[0];
    return report;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The report, the chart, and the measurements without the input texts (they follow from the seed). */
function write(outDir: string, report: Report, log: (line: string) => void): void {
  // The hand-written analysis (what was profiled, what limits the misses) closes the report.
  const notesFile = join(REPO, "bench", "ANALYSIS.md");
  const notes = existsSync(notesFile) ? readFileSync(notesFile, "utf8") : "";
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "RESULTS.md"), renderReport(report, notes));
  if (report.editing) writeFileSync(join(outDir, "latency.svg"), latencyChart(report.editing));
  writeFileSync(
    join(outDir, "results.json"),
    `${JSON.stringify(report, (key, value) => (key === "text" ? undefined : value), 1)}\n`,
  );
  log(`wrote ${join(outDir, "RESULTS.md")}`);
}

async function main(): Promise<void> {
  const outDir = option("out") ?? join(REPO, "bench");
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (process.argv.includes("--render")) {
    write(outDir, JSON.parse(readFileSync(join(outDir, "results.json"), "utf8")) as Report, log);
    return;
  }
  const seed = Number(option("seed") ?? DEFAULT_SEED);
  const edits = Number(option("edits") ?? 200);
  const only = option("only")?.split(",") ?? [...PHASES];
  write(outDir, await measure(seed, edits, only, option("inputs")?.split(","), log), log);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
