/**
 * `--baseline` and `--write-baseline`: which findings a run reports, and the baseline file it writes. The matching
 * is the core's (core/baseline.ts), shared with the language server. Entry paths are relative to the folder of the
 * baseline file; an entry counts as analysed (so it can be stale or pruned) when its file is under the paths this
 * run lints, so linting one folder leaves the entries of the others alone.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import {
  applyBaseline,
  BASELINE_FILE_NAME,
  type Baseline,
  type BaselineContext,
  createBaseline,
  formatBaseline,
  parseBaseline,
} from "../core/baseline";
import type { Finding } from "../core/findings";
import { toPosixPath } from "../node/files";
import { type CliOptions, UsageError } from "./args";
import { displayPath } from "./report";

export interface BaselineOutcome {
  /** The findings to report. */
  findings: Finding[];
  /** What to tell the user (standard error): hidden findings, stale entries, what was written. */
  notes: string[];
}

function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

function readBaseline(file: string, shown: string, option: string): { baseline?: Baseline; notes: string[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${option} ${shown}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const read = parseBaseline(text);
  if (!read.baseline) throw new UsageError(`${shown} is not a baseline file: ${read.problems.join("; ")}`);
  return { baseline: read.baseline, notes: read.problems.map((p) => `${shown}: ${p}; that entry is ignored`) };
}

/**
 * Applies `--baseline` (hides recorded findings, reports stale entries) or `--write-baseline` (records the
 * findings, keeping the entries of files this run did not analyse, and reports none of them). Without either,
 * the findings pass unchanged.
 */
export function applyBaselineOptions(
  options: CliOptions,
  cwd: string,
  findings: Finding[],
  textOf: (file: string) => string | undefined,
  analysedFiles: ReadonlySet<string>,
): BaselineOutcome {
  const writing = options.writeBaseline !== undefined;
  if (!writing && options.baseline === undefined) return { findings, notes: [] };
  const given = options.writeBaseline || options.baseline || BASELINE_FILE_NAME;
  const file = toPosixPath(given, cwd);
  const shown = displayPath(file, cwd) || given;
  const root = posix.dirname(file);
  const ctx: BaselineContext = { root, textOf };
  const linted = (options.paths.length > 0 ? options.paths : ["."]).map((p) => toPosixPath(p, cwd));
  const inScope = (entryFile: string) => {
    const abs = posix.normalize(posix.join(root, entryFile));
    return analysedFiles.has(abs) || linted.some((p) => abs === p || abs.startsWith(p.endsWith("/") ? p : `${p}/`));
  };

  if (!writing) {
    const { baseline, notes } = readBaseline(file, shown, "--baseline");
    const match = applyBaseline(baseline as Baseline, findings, ctx, inScope);
    if (match.hidden.length > 0)
      notes.push(`${plural(match.hidden.length, "finding")} hidden by the baseline ${shown}`);
    if (match.stale.length > 0) {
      const gone = match.stale.reduce((n, e) => n + e.count, 0);
      notes.push(
        `${plural(gone, "finding")} recorded in ${shown} ${gone === 1 ? "is" : "are"} no longer found (fixed, or the line changed); --write-baseline removes ${gone === 1 ? "it" : "them"}:`,
        ...match.stale.map((e) =>
          `  ${e.file}  ${e.rule}${e.count > 1 ? ` ×${e.count}` : ""}  ${e.message ?? ""}`.trimEnd(),
        ),
      );
    }
    return { findings: match.shown, notes };
  }

  const previous = existsSync(file) ? readBaseline(file, shown, "--write-baseline") : { notes: [] };
  const notes = [...previous.notes];
  const before = previous.baseline && applyBaseline(previous.baseline, findings, ctx, inScope);
  const baseline = createBaseline(findings, ctx, previous.baseline, inScope);
  try {
    writeFileSync(file, formatBaseline(baseline), "utf8");
  } catch (e) {
    throw new UsageError(`cannot write --write-baseline ${shown}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const added = before ? before.shown.length : findings.length;
  const removed = before ? before.stale.reduce((n, e) => n + e.count, 0) : 0;
  notes.push(
    `recorded ${plural(findings.length, "finding")} in ${shown} (${added} new, ${removed} no longer found and removed)`,
  );
  return { findings: [], notes };
}
