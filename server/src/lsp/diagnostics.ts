/** Findings as LSP diagnostics. */
import { type Diagnostic, DiagnosticSeverity, DiagnosticTag } from "vscode-languageserver/node";
import type { Finding, FindingTag, Severity } from "../core/findings";
import { ruleDocsUrl } from "../core/rules/docsUrl";
import { SERVER_SOURCE } from "./protocol";

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

const TAG: Record<FindingTag, DiagnosticTag> = {
  deprecated: DiagnosticTag.Deprecated,
  unnecessary: DiagnosticTag.Unnecessary,
};

/**
 * What a diagnostic carries back to the server in codeAction requests: the analysis it came from and its
 * finding's place in that analysis's list for the file. The server looks the finding up again and drops it
 * when the document changed since (its fixes were computed for the old text).
 */
export interface DiagnosticData {
  analysis: number;
  index: number;
  rule: string;
}

export function isDiagnosticData(v: unknown): v is DiagnosticData {
  if (typeof v !== "object" || v === null) return false;
  const d = v as Record<string, unknown>;
  return typeof d.analysis === "number" && typeof d.index === "number" && typeof d.rule === "string";
}

export function toDiagnostic(finding: Finding, data: DiagnosticData, uriOf: (file: string) => string): Diagnostic {
  const diagnostic: Diagnostic = {
    range: finding.range,
    severity: SEVERITY[finding.severity],
    source: SERVER_SOURCE,
    code: finding.rule,
    codeDescription: { href: ruleDocsUrl(finding.rule) },
    message: finding.message,
    data,
  };
  const related = finding.details
    ? [{ file: finding.file, range: finding.range, message: finding.details }, ...finding.related]
    : finding.related;
  if (related.length > 0) {
    diagnostic.relatedInformation = related.map((r) => ({
      location: { uri: uriOf(r.file), range: r.range },
      message: r.message,
    }));
  }
  if (finding.tags.length > 0) diagnostic.tags = finding.tags.map((t) => TAG[t]);
  return diagnostic;
}
