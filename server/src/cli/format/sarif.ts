/**
 * SARIF 2.1.0, the format GitHub code scanning and other CI dashboards read. Locations are relative to
 * %SRCROOT% (the working directory) so that the report can be uploaded from any checkout.
 */
import { pathToFileURL } from "node:url";
import type { Finding, Severity } from "../../core/findings";
import { REPOSITORY_URL, ruleDocsUrl } from "../../core/rules/docsUrl";
import type { Rule } from "../../core/rules/types";
import type { Range } from "../../core/text";
import { displayPath, type LintReport } from "../report";

export const SRCROOT = "%SRCROOT%";

type Level = "error" | "warning" | "note";

const LEVEL: Record<Severity, Level> = { error: "error", warning: "warning", info: "note", hint: "note" };

export interface SarifContext {
  version: string;
  rules: readonly Rule[];
  /** Problems of the run itself (rule failures, files not read), reported as tool notifications. */
  notifications: { level: Level; message: string }[];
}

interface ArtifactLocation {
  uri: string;
  uriBaseId?: string;
}

function artifact(file: string, cwd: string): ArtifactLocation {
  const rel = displayPath(file, cwd);
  if (rel.startsWith("../") || rel === ".." || /^[a-zA-Z]:/.test(rel) || rel.startsWith("/")) {
    return { uri: pathToFileURL(file).href };
  }
  return { uri: rel.split("/").map(encodeURIComponent).join("/"), uriBaseId: SRCROOT };
}

/** SARIF regions are 1-based with an exclusive end column; an empty region stands for its whole line. */
function region(r: Range, exact: boolean): Record<string, number> {
  const out: Record<string, number> = { startLine: r.start.line + 1, startColumn: r.start.character + 1 };
  const empty = r.start.line === r.end.line && r.start.character === r.end.character;
  if (!empty || exact) {
    out.endLine = r.end.line + 1;
    out.endColumn = r.end.character + 1;
  }
  return out;
}

function result(f: Finding, ruleIndex: number, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ruleId: f.rule,
    ...(ruleIndex >= 0 ? { ruleIndex } : {}),
    level: LEVEL[f.severity],
    // The first line is the short message; viewers show the whole text, so the details follow it.
    message: { text: f.details ? `${f.message}\n\n${f.details}` : f.message },
    locations: [{ physicalLocation: { artifactLocation: artifact(f.file, cwd), region: region(f.range, false) } }],
  };
  if (f.related.length > 0) {
    out.relatedLocations = f.related.map((r, id) => ({
      id,
      message: { text: r.message },
      physicalLocation: { artifactLocation: artifact(r.file, cwd), region: region(r.range, false) },
    }));
  }
  if (f.fixes.length > 0) {
    out.fixes = f.fixes.map((fix) => ({
      description: { text: fix.safety === "safe" ? fix.title : `${fix.title} (unsafe: check before applying)` },
      artifactChanges: fix.changes.map((c) => ({
        artifactLocation: artifact(c.file, cwd),
        replacements: c.edits.map((e) => ({
          deletedRegion: region(e.range, true),
          insertedContent: { text: e.newText },
        })),
      })),
    }));
  }
  return out;
}

export function toSarif(report: LintReport, context: SarifContext): Record<string, unknown> {
  const index = new Map(context.rules.map((r, i) => [r.meta.code, i]));
  const rules = context.rules.map((r) => {
    const help = `${r.meta.docs.whatItDoes}\n\n${r.meta.docs.whyItMatters}`;
    return {
      id: r.meta.code,
      name: r.meta.name,
      shortDescription: { text: r.meta.description },
      fullDescription: { text: r.meta.docs.whatItDoes },
      help: { text: help, markdown: help },
      helpUri: ruleDocsUrl(r.meta.code),
      defaultConfiguration: { level: LEVEL[r.meta.severity] },
      properties: { tags: [r.meta.family] },
    };
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "beam-flink-lint",
            version: context.version,
            semanticVersion: context.version,
            informationUri: REPOSITORY_URL,
            rules,
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { uri: pathToFileURL(report.cwd.endsWith("/") ? report.cwd : `${report.cwd}/`).href },
        },
        invocations: [
          {
            executionSuccessful: !context.notifications.some((n) => n.level === "error"),
            toolExecutionNotifications: context.notifications.map((n) => ({
              level: n.level,
              message: { text: n.message },
            })),
          },
        ],
        results: report.findings.map((f) => result(f, index.get(f.rule) ?? -1, report.cwd)),
      },
    ],
  };
}

export function formatSarif(report: LintReport, context: SarifContext): string {
  return `${JSON.stringify(toSarif(report, context), null, 2)}\n`;
}
