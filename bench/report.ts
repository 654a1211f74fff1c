/** Renders bench/RESULTS.md from the measurements: the targets first, then every table, then the method. */
import type { DebouncedResult, EditingResult } from "./editing";
import type { Summary } from "./stats";
import type { CliResult, ColdStart, MemoryResult } from "./system";

export interface Report {
  seed: number;
  edits: number;
  warmup: number;
  digest: string;
  machine: string;
  workspaceFiles: number;
  projects: number;
  editing?: EditingResult[];
  debounce?: DebouncedResult[];
  cold?: ColdStart;
  memory?: MemoryResult;
  cli?: CliResult;
  loadAfter?: number;
  /** The languages of the workspace's jobs, in words (runs before Scala, Kotlin and Python were added: unset). */
  workspaceJobs?: string;
  /** Phases that failed, with why. */
  failed?: string[];
}

/** Below this floor a ratio means little: the fixed cost of a request dominates. */
export const RATIO_FLOOR_MS = 5;

/** Inputs whose floor is an incremental tree-sitter re-parse. */
const TREE_SITTER = new Set(["scala", "kotlin", "python"]);

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const x = (v: number) => `${v.toFixed(2)}×`;
const mb = (v: number) => `${v.toFixed(0)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KB`;
const triple = (s: Summary) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.max)}`;
const met = (ok: boolean) => (ok ? "met" : "**missed**");

function table(head: string[], rows: string[][]): string[] {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}

function targets(r: Report): string[] {
  const rows: string[][] = [];
  for (const e of r.editing ?? []) {
    if (TREE_SITTER.has(e.input.floor)) {
      // Issue 10's target for 500- and 2,000-line Scala, Kotlin and Python files: the ratio, whatever the floor.
      if (e.input.ratioTarget === undefined) continue;
      const ratio = e.ours.p50 / e.floor.p50;
      rows.push([
        `server ÷ incremental-parse floor ≤ ${e.input.ratioTarget} (${e.input.name})`,
        `${x(ratio)} (p50 ${ms(e.ours.p50)} ÷ ${ms(e.floor.p50)} ms)`,
        met(ratio <= e.input.ratioTarget),
      ]);
    } else if (e.floor.p50 >= RATIO_FLOOR_MS) {
      const ratio = e.ours.p50 / e.floor.p50;
      rows.push([
        `server ÷ floor ≤ 1.5 (${e.input.name})`,
        `${x(ratio)} (p50 ${ms(e.ours.p50)} ÷ ${ms(e.floor.p50)} ms)`,
        met(ratio <= 1.5),
      ]);
    } else {
      rows.push([
        `p95 ≤ 10 ms where the floor is under 5 ms (${e.input.name})`,
        `p95 ${ms(e.ours.p95)} ms; fixed overhead ${ms(e.ours.p50 - e.floor.p50)} ms`,
        met(e.ours.p95 <= 10),
      ]);
    }
  }
  for (const e of r.editing ?? []) {
    if (e.input.target === undefined) continue;
    rows.push([
      `p95 ≤ ${e.input.target} ms (${e.input.name})`,
      `${ms(e.ours.p95)} ms`,
      met(e.ours.p95 <= e.input.target),
    ]);
  }
  for (const e of r.editing ?? []) {
    if (!e.peer) continue;
    rows.push([
      `ours ≤ yaml-language-server (${e.input.name})`,
      `p50 ${ms(e.ours.p50)} vs ${ms(e.peer.p50)} ms (${x(e.ours.p50 / e.peer.p50)}), p95 ${ms(e.ours.p95)} vs ${ms(e.peer.p95)} ms`,
      met(e.ours.p50 <= e.peer.p50 && e.ours.p95 <= e.peer.p95),
    ]);
  }
  if (r.cold)
    rows.push([
      "cold start to first YAML diagnostics ≤ 300 ms",
      `p50 ${ms(r.cold.yaml.p50)} ms, max ${ms(r.cold.yaml.max)} ms`,
      met(r.cold.yaml.p50 <= 300),
    ]);
  if (r.cold?.scala)
    rows.push([
      `cold start to first diagnostics in a Scala file ≤ 800 ms (${r.cold.scalaFile})`,
      `p50 ${ms(r.cold.scala.p50)} ms, max ${ms(r.cold.scala.max)} ms`,
      met(r.cold.scala.p50 <= 800),
    ]);
  if (r.cold?.sql)
    rows.push([
      `cold start to first SQL diagnostics ≤ 1.5 s (${r.cold.sqlFile})`,
      `p50 ${ms(r.cold.sql.p50)} ms, max ${ms(r.cold.sql.max)} ms`,
      met(r.cold.sql.p50 <= 1500),
    ]);
  if (r.memory) {
    // The target is the RSS once the file is open; what editing adds, and the peak while reading, are shown too.
    rows.push([
      `server RSS ≤ 250 MB after opening ${r.memory.javaFile}`,
      `${mb(r.memory.javaOpenMB)} (${mb(r.memory.javaEditedMB)} after 20 more edits; peak ${mb(r.memory.javaPeakMB)})`,
      met(r.memory.javaOpenMB <= 250),
    ]);
  }
  if (r.memory?.scala) {
    const m = r.memory.scala;
    rows.push([
      `server RSS ≤ 300 MB after opening ${m.file}`,
      `${mb(m.openMB)} (peak ${mb(m.openPeakMB)} while reading it; ${mb(m.editedMB)} after 20 more edits; peak ${mb(m.peakMB)})`,
      met(m.openMB <= 300),
    ]);
  }
  if (r.cli) {
    const ratio = r.cli.cli.seconds / r.cli.floor.seconds;
    rows.push([
      `CLI ÷ read+parse floor ≤ 1.5 (${r.projects}-project workspace${r.workspaceJobs ? `, ${r.workspaceJobs}` : ", Java jobs"})`,
      `${x(ratio)} (${r.cli.cli.seconds.toFixed(2)} ÷ ${r.cli.floor.seconds.toFixed(2)} s)`,
      met(ratio <= 1.5),
    ]);
  }
  return table(["target", "measured", ""], rows);
}

function editingTable(results: EditingResult[]): string[] {
  return table(
    [
      "input",
      "lines",
      "size",
      "this server p50 / p95 / max",
      "floor p50 / p95",
      "server ÷ floor (p50)",
      "overhead p50",
      "findings",
    ],
    results.map((e) => [
      e.input.name,
      String(e.lines),
      kb(e.bytes),
      triple(e.ours),
      `${ms(e.floor.p50)} / ${ms(e.floor.p95)}`,
      x(e.ours.p50 / e.floor.p50),
      e.ours.p50 >= e.floor.p50 ? `${ms(e.ours.p50 - e.floor.p50)} ms` : "below the floor",
      String(e.diagnostics),
    ]),
  );
}

function peerTable(results: EditingResult[]): string[] {
  return table(
    [
      "input",
      "this server p50 / p95 / max",
      "yaml-language-server p50 / p95 / max",
      "ours ÷ theirs (p50)",
      "ours ÷ theirs (p95)",
    ],
    results
      .filter((e) => e.peer)
      .map((e) => {
        const peer = e.peer as Summary;
        return [e.input.name, triple(e.ours), triple(peer), x(e.ours.p50 / peer.p50), x(e.ours.p95 / peer.p95)];
      }),
  );
}

function debounceTable(results: DebouncedResult[]): string[] {
  return table(
    [
      "input",
      "this server (debounce 200 ms) p50 / p95 / max",
      "yaml-language-server (its fixed 200 ms) p50 / p95 / max",
    ],
    results.map((d) => [d.input.name, triple(d.ours), d.peer ? triple(d.peer) : "–"]),
  );
}

function coldRows(c: ColdStart): [string, Summary][] {
  const rows: [string, Summary][] = [
    [c.yamlFile, c.yaml],
    [c.javaFile, c.java],
  ];
  if (c.scala) rows.push([c.scalaFile ?? "Scala", c.scala]);
  if (c.sql) rows.push([c.sqlFile ?? "SQL", c.sql]);
  return rows;
}

export function renderReport(r: Report, analysis: string): string {
  const out: string[] = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts); every input is generated from the seed, nothing is downloaded.",
    "Absolute figures depend on the machine and its load; the ratios are what should carry over.",
    "",
    `- Machine: ${r.machine}${r.loadAfter !== undefined ? `; ${r.loadAfter.toFixed(1)} at the end` : ""}.`,
    `- Seed ${r.seed}; inputs digest \`${r.digest}\`; ${r.edits} measured edits per file after ${r.warmup} warm-up edits.`,
    "- Times in milliseconds; p50 / p95 / max over the measured edits.",
    ...(r.failed ?? []).map((f) => `- **Failed phase** ${f}`),
    "",
    "## Targets",
    "",
    ...targets(r),
    "",
  ];
  if (r.editing) {
    out.push(
      "## Editing latency (debounce 0)",
      "",
      "From sending `textDocument/didChange` to receiving the `publishDiagnostics` of that version, over stdio, one edit",
      "at a time. The setting `beamFlinkLint.debounceMs` is 0 (sent through `workspace/configuration`, as an editor",
      "does). The floor is the chosen parser alone on the same text, timed right after each edit in the benchmark",
      "process: Flink's line reader for flink-conf.yaml, `yaml` parseAllDocuments for manifests, `@xml-tools/parser`",
      "for the pom, the Gradle tokenizer for build scripts, java-parser on each class member for Java. For Scala,",
      "Kotlin and Python it is what an editor that keeps a tree-sitter tree pays: the kept tree edited with the edit's",
      "own offsets and re-parsed incrementally, the text handed over in chunks as the product does.",
      "",
      ...editingTable(r.editing),
      "",
      "![Editing latency against file size](latency.svg)",
      "",
    );
    if (r.editing.some((e) => e.peer)) {
      out.push(
        "## Side by side with yaml-language-server",
        "",
        "yaml-language-server (npm, syntax validation only: no schema store, no schemas) gets the same edits from the",
        "same client, each right after ours. Its 200 ms validation delay has no setting; the launcher",
        "(bench/yamlPeer.ts) sets it to 0 so that both servers run without a debounce.",
        "",
        ...peerTable(r.editing),
        "",
      );
    }
  }
  if (r.debounce) {
    out.push(
      "## With the default debounce",
      "",
      "What a user sees after the last keystroke with the defaults (20 edits per file after 3 warm-up edits).",
      "",
      ...debounceTable(r.debounce),
      "",
    );
  }
  if (r.cold) {
    out.push(
      "## Cold start",
      "",
      "From spawning `node dist/server.js --stdio` to the first diagnostics of a file opened right after",
      "`initialize`; the workspace folder holds only that file. The Java figure includes loading java-parser, the",
      "Scala figure compiling the Scala grammar (`tree-sitter-scala.wasm`, 3.8 MB) and the first full parse.",
      "",
      ...table(
        ["file", "p50", "p95", "max", "runs"],
        coldRows(r.cold).map(([file, t]) => [file, ms(t.p50), ms(t.p95), ms(t.max), String(t.n)]),
      ),
      "",
    );
  }
  if (r.memory) {
    const m = r.memory;
    out.push(
      "## Memory",
      "",
      "Resident memory of the server process (`VmRSS`; the peak is `VmHWM`, over the process's whole life).",
      "",
      ...table(
        ["situation", "server RSS", "peak RSS"],
        [
          [`${m.javaFile} opened`, mb(m.javaOpenMB), "–"],
          [`${m.javaFile} after 20 more edits`, mb(m.javaEditedMB), mb(m.javaPeakMB)],
          ...(m.scala
            ? [
                [`${m.scala.file} opened`, mb(m.scala.openMB), mb(m.scala.openPeakMB)],
                [`${m.scala.file} after 20 more edits`, mb(m.scala.editedMB), mb(m.scala.peakMB)],
              ]
            : []),
          [
            `${r.projects}-project workspace (${r.workspaceFiles} files to analyse) loaded and analysed`,
            mb(m.workspaceMB),
            mb(m.workspacePeakMB),
          ],
        ],
      ),
      "",
      `Loading that workspace took ${(m.workspaceLoadMs / 1000).toFixed(1)} s (spawn to the end of the load progress); analysing every`,
      `project (the "Analyse All Files" command) took ${(m.workspaceAnalyseMs / 1000).toFixed(1)} s and published findings for ${m.diagnosticsPublished} files.`,
      "",
    );
  }
  if (r.cli) {
    const c = r.cli;
    out.push(
      "## CLI throughput",
      "",
      `\`node dist/cli.js . --format json\` on the ${r.projects}-project workspace, against a floor run`,
      "(bench/scanFloor.ts) that walks the same paths with the same walker, reads every file and parses it with its",
      `parser, and does nothing else. Median of ${c.runs} alternating runs; peak RSS is the highest of them.`,
      "",
      ...table(
        ["run", "files", "seconds", "files/s", "peak RSS"],
        [
          ["CLI", String(c.files), c.cli.seconds.toFixed(2), c.cli.filesPerSecond.toFixed(0), mb(c.cli.maxRssMB)],
          [
            "floor (read + parse)",
            String(c.files),
            c.floor.seconds.toFixed(2),
            c.floor.filesPerSecond.toFixed(0),
            mb(c.floor.maxRssMB),
          ],
        ],
      ),
      "",
      `CLI ÷ floor: ${x(c.cli.seconds / c.floor.seconds)} (time). The CLI reported ${c.findings} findings.`,
      "",
    );
  }
  if (analysis.trim()) out.push(analysis.trim(), "");
  return out.join("\n");
}
