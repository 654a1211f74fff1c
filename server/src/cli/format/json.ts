/**
 * The JSON format, a stable contract for scripts: findings with 1-based line and column (the end column is
 * exclusive, as in ESLint) and paths relative to the working directory.
 */
import { displayPath, type LintReport } from "../report";

export interface JsonFinding {
  file: string;
  rule: string;
  name: string;
  severity: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

export interface JsonReport {
  findings: JsonFinding[];
  filesAnalyzed: number;
}

export function toJsonReport(report: LintReport): JsonReport {
  return {
    findings: report.findings.map((f) => ({
      file: displayPath(f.file, report.cwd),
      rule: f.rule,
      name: f.name,
      severity: f.severity,
      line: f.range.start.line + 1,
      column: f.range.start.character + 1,
      endLine: f.range.end.line + 1,
      endColumn: f.range.end.character + 1,
      message: f.message,
    })),
    filesAnalyzed: report.filesAnalyzed,
  };
}

export function formatJson(report: LintReport): string {
  return `${JSON.stringify(toJsonReport(report))}\n`;
}
