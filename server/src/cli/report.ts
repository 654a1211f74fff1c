/** What one run found, in the shape every output format starts from. */
import { relative, sep } from "node:path";
import type { Finding } from "../core/findings";
import type { DeploymentReport, VersionReport } from "../core/project/versionReport";

export interface LintReport {
  /** Paths are shown relative to this folder. */
  cwd: string;
  /** Findings on the analysed files, sorted by file and position. */
  findings: Finding[];
  filesAnalyzed: number;
  /** The analysed files (absolute), for formats that list files without findings too (JUnit). */
  analysedFiles?: string[];
  /** The text each file was analysed with, for fingerprints (GitLab Code Quality). */
  textOf?: (file: string) => string | undefined;
  /** Where versions came from (JSON): the Flink version behind a version-dependent finding, and every cluster's. */
  versions?: {
    finding(f: Finding): VersionReport | undefined;
    deployments: DeploymentReport[];
  };
}

/** Paths already shown, per working directory: a report names the same files thousands of times. */
const shownPaths = new Map<string, Map<string, string>>();
const MAX_SHOWN = 100_000;

/** A file's path as shown to the user: relative to the working directory, with `/`. */
export function displayPath(file: string, cwd: string): string {
  let known = shownPaths.get(cwd);
  if (!known) {
    if (shownPaths.size > 16) shownPaths.clear();
    known = new Map();
    shownPaths.set(cwd, known);
  }
  let shown = known.get(file);
  if (shown === undefined) {
    const rel = relative(cwd, file);
    shown = sep === "/" ? rel : rel.split(sep).join("/");
    if (known.size >= MAX_SHOWN) known.clear();
    known.set(file, shown);
  }
  return shown;
}

export function fixSafetyOf(f: Finding): "safe" | "unsafe" | undefined {
  if (f.fixes.some((x) => x.safety === "safe")) return "safe";
  return f.fixes.length > 0 ? "unsafe" : undefined;
}
