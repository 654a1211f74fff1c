/**
 * GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line per finding, which the runner
 * turns into an annotation on the file and line (in the job log, the run summary and the pull request's diff):
 *
 *   ::error file=conf/flink-conf.yaml,line=3,col=1,endLine=3,endColumn=20,title=BFL100 config-line-ignored::Flink…
 *
 * Lines and columns are 1-based; `endColumn` is the last column of the range (inclusive). Columns are only given
 * for a range on one line, as GitHub requires. Property values escape `%`, `\r`, `\n`, `:` and `,`; the message
 * escapes `%`, `\r` and `\n` (as @actions/core does), so a message spans lines in the annotation.
 */
import type { Finding, Severity } from "../../core/findings";
import { ruleDocsUrl } from "../../core/rules/docsUrl";
import { displayPath, type LintReport } from "../report";

const COMMAND: Record<Severity, string> = { error: "error", warning: "warning", info: "notice", hint: "notice" };

/** Escapes the message of a workflow command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escapes a property value of a workflow command. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function annotation(f: Finding, cwd: string): string {
  const { start, end } = f.range;
  const props: [string, string | number][] = [
    ["file", displayPath(f.file, cwd)],
    ["line", start.line + 1],
  ];
  if (start.line === end.line) {
    props.push(["col", start.character + 1], ["endLine", end.line + 1]);
    props.push(["endColumn", Math.max(start.character + 1, end.character)]);
  } else {
    props.push(["endLine", end.line + 1]);
  }
  props.push(["title", `${f.rule} ${f.name}`]);
  const properties = props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(",");
  return `::${COMMAND[f.severity]} ${properties}::${escapeData([f.message, ...(f.details ? [f.details] : []), ruleDocsUrl(f.rule)].join("\n"))}`;
}

export function formatGithub(report: LintReport): string {
  return report.findings.map((f) => `${annotation(f, report.cwd)}\n`).join("");
}
