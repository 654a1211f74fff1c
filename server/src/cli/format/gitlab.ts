/**
 * GitLab Code Quality: the subset of the Code Climate issue format GitLab reads from a `codequality` report
 * artifact, a JSON array of
 *
 *   { "description", "check_name", "fingerprint", "severity", "location": { "path", "lines": { "begin" } } }
 *
 * `severity` is GitLab's vocabulary (error → major, warning → minor, info and hint → info). GitLab compares the
 * fingerprints of a merge request's report with the target branch's to tell new findings from old ones, so the
 * fingerprint is the baseline's (the offending text and its context, not the line number: a finding that only
 * moved is not new), made unique per file with the finding's position among those sharing it.
 */
import { fingerprint, fnv1a64 } from "../../core/baseline";
import type { Finding, Severity } from "../../core/findings";
import { displayPath, type LintReport } from "../report";

export type GitlabSeverity = "info" | "minor" | "major" | "critical" | "blocker";

const SEVERITY: Record<Severity, GitlabSeverity> = { error: "major", warning: "minor", info: "info", hint: "info" };

export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: GitlabSeverity;
  location: { path: string; lines: { begin: number } };
  /** Markdown shown when the issue is expanded: the finding's details. */
  content?: { body: string };
}

/** 32 hex digits (the length of GitLab's examples) from two differently seeded 64-bit hashes. */
function hash128(text: string): string {
  return fnv1a64(text) + fnv1a64(text, 0x84222325cbf29ce4n);
}

export function toCodeQuality(report: LintReport): CodeQualityIssue[] {
  const seen = new Map<string, number>();
  return report.findings.map((f: Finding) => {
    const path = displayPath(f.file, report.cwd);
    const text = report.textOf?.(f.file);
    const own = text === undefined ? `${f.range.start.line}:${f.range.start.character}` : fingerprint(f, text);
    const base = `${path}\u0000${f.rule}\u0000${own}`;
    const nth = seen.get(base) ?? 0;
    seen.set(base, nth + 1);
    return {
      description: `${f.rule}: ${f.message}`,
      check_name: f.rule,
      fingerprint: hash128(`${base}\u0000${nth}`),
      severity: SEVERITY[f.severity],
      location: { path, lines: { begin: f.range.start.line + 1 } },
      ...(f.details ? { content: { body: f.details } } : {}),
    };
  });
}

export function formatGitlab(report: LintReport): string {
  return `${JSON.stringify(toCodeQuality(report), null, 2)}\n`;
}
