/**
 * The baseline in the editor: each workspace folder's `.beam-flink-lint-baseline.json` (what `beam-flink-lint
 * --write-baseline` writes there) hides the findings it records, matched as the command line matches them
 * (core/baseline.ts). The file is read when first needed and again whenever its size or modification time
 * changes (checked on every analysis, so editors that do not report file changes see edits too); a file that
 * cannot be read hides nothing and says why in the log, once per version of the file.
 */
import { readFileSync, statSync } from "node:fs";
import { applyBaseline, BASELINE_FILE_NAME, type Baseline, parseBaseline } from "../core/baseline";
import { compareFindings, type Finding } from "../core/findings";

interface Cached {
  /** Size and modification time of the file that was read. */
  stamp: string;
  baseline?: Baseline;
}

export function isBaselineFile(path: string): boolean {
  return path.endsWith(`/${BASELINE_FILE_NAME}`);
}

export class Baselines {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly log: (message: string) => void) {}

  /** The baseline at the root of a workspace folder; undefined when there is none (or it cannot be read). */
  forFolder(folder: string): Baseline | undefined {
    const file = `${folder.replace(/\/$/, "")}/${BASELINE_FILE_NAME}`;
    let stamp: string;
    try {
      const st = statSync(file);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      this.cache.delete(folder);
      return undefined;
    }
    const cached = this.cache.get(folder);
    if (cached?.stamp === stamp) return cached.baseline;
    let baseline: Baseline | undefined;
    try {
      const read = parseBaseline(readFileSync(file, "utf8"));
      baseline = read.baseline;
      for (const problem of read.problems) this.log(`${file}: ${problem}`);
      if (baseline) this.log(`Baseline ${file}: ${baseline.entries.length} entries`);
    } catch (e) {
      this.log(`${file} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.cache.set(folder, { stamp, baseline });
    return baseline;
  }

  /**
   * The findings of one analysis without those the folder's baseline hides; the same map when there is no
   * baseline. `textOf` gives the text each finding was computed from (the editor's text of open documents).
   */
  filter(
    folder: string | undefined,
    byFile: ReadonlyMap<string, Finding[]>,
    textOf: (file: string) => string | undefined,
  ): ReadonlyMap<string, Finding[]> {
    const baseline = folder === undefined ? undefined : this.forFolder(folder);
    if (!baseline || baseline.entries.length === 0) return byFile;
    const root = (folder as string).replace(/\/$/, "") || "/";
    const all = [...byFile.values()].flat().sort(compareFindings);
    const { hidden } = applyBaseline(baseline, all, { root, textOf });
    if (hidden.length === 0) return byFile;
    const gone = new Set(hidden);
    const out = new Map<string, Finding[]>();
    for (const [file, findings] of byFile)
      out.set(
        file,
        findings.filter((f) => !gone.has(f)),
      );
    return out;
  }
}
