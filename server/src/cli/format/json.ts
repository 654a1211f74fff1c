/**
 * The JSON format, a stable contract for scripts: findings with 1-based line and column (the end column is
 * exclusive, as in ESLint) and paths relative to the working directory.
 */
import type { Finding } from "../../core/findings";
import type { VersionReport } from "../../core/project/versionReport";
import type { Range } from "../../core/text";
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
  /** Why, the versions and sources involved, how to fix it (the message is one short sentence). */
  details?: string;
  /** For findings whose judgement depends on the Flink version: that version and where it came from. */
  evidence?: JsonVersion;
  /** The other places the finding involves (the code that enables checkpointing, the Kafka read, …). */
  related?: JsonRelated[];
}

export interface JsonRelated {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

/** A Flink version and its evidence: `pinned` by the deployment that runs it, `weak`, `conflicting`, `unknown`. */
export interface JsonVersion {
  flinkVersion?: string;
  strength: string;
  /** What was considered, in words. */
  summary: string;
  sources: {
    minor: string;
    full?: string;
    source: string;
    /** For a `flinkDeployment` source, the resource when it is not a FlinkDeployment (`FlinkApplication`, …). */
    kind?: string;
    file?: string;
    line?: number;
    column?: number;
  }[];
  /** In a finding: how many sources are left out (the deployment's entry in `deployments` lists them all). */
  moreSources?: number;
}

/** The most sources a finding's evidence lists; each minor they name keeps at least one. */
export const FINDING_SOURCES = 10;

export interface JsonDeployment {
  /** The configuration the cluster starts with, and where. */
  configuration: string;
  line: number;
  platform: string;
  flinkDeployment?: string;
  /** The Confluent FlinkApplication whose cluster this is. */
  flinkApplication?: string;
  workloads: { file: string; name?: string; role?: string }[];
  version: JsonVersion;
}

export interface JsonReport {
  findings: JsonFinding[];
  filesAnalyzed: number;
  /** Every cluster of the analysed projects with the Flink version it runs and the evidence. */
  deployments?: JsonDeployment[];
}

/** Up to `limit` sources in their order, the first of each minor always among them. */
function someSources(sources: VersionReport["sources"], limit: number): VersionReport["sources"] {
  if (sources.length <= limit) return sources;
  const keep = new Set<number>();
  const minors = new Set<string>();
  sources.forEach((s, i) => {
    if (!minors.has(s.minor)) {
      minors.add(s.minor);
      keep.add(i);
    }
  });
  for (let i = 0; i < sources.length && keep.size < limit; i++) keep.add(i);
  return sources.filter((_, i) => keep.has(i));
}

function jsonVersion(v: VersionReport, cwd: string, limit = Number.POSITIVE_INFINITY): JsonVersion {
  const listed = someSources(v.sources, limit);
  return {
    ...(v.flinkVersion ? { flinkVersion: v.flinkVersion } : {}),
    strength: v.strength,
    summary: v.summary,
    ...(listed.length < v.sources.length ? { moreSources: v.sources.length - listed.length } : {}),
    sources: listed.map((s) => ({
      minor: s.minor,
      ...(s.full ? { full: s.full } : {}),
      source: s.source,
      ...(s.kind ? { kind: s.kind } : {}),
      ...(s.file ? { file: displayPath(s.file, cwd) } : {}),
      ...(s.range ? position(s.range) : {}),
    })),
  };
}

function position(r: Range): { line: number; column: number } {
  return { line: r.start.line + 1, column: r.start.character + 1 };
}

export function toJsonReport(report: LintReport): JsonReport {
  const { versions, cwd } = report;
  // Findings of one configuration share one version report.
  const shown = new Map<VersionReport, JsonVersion>();
  const finding = (f: Finding): JsonFinding => {
    const out: JsonFinding = {
      file: displayPath(f.file, cwd),
      rule: f.rule,
      name: f.name,
      severity: f.severity,
      line: f.range.start.line + 1,
      column: f.range.start.character + 1,
      endLine: f.range.end.line + 1,
      endColumn: f.range.end.character + 1,
      message: f.message,
      ...(f.details ? { details: f.details } : {}),
    };
    if (f.related.length > 0) {
      out.related = f.related.map((r) => ({
        file: displayPath(r.file, cwd),
        line: r.range.start.line + 1,
        column: r.range.start.character + 1,
        endLine: r.range.end.line + 1,
        endColumn: r.range.end.character + 1,
        message: r.message,
      }));
    }
    const evidence = versions?.finding(f);
    if (evidence) {
      let json = shown.get(evidence);
      if (!json) {
        json = jsonVersion(evidence, cwd, FINDING_SOURCES);
        shown.set(evidence, json);
      }
      out.evidence = json;
    }
    return out;
  };
  const json: JsonReport = { findings: report.findings.map(finding), filesAnalyzed: report.filesAnalyzed };
  if (versions) {
    json.deployments = versions.deployments.map((d) => ({
      configuration: displayPath(d.configuration.file, cwd),
      line: d.configuration.range.start.line + 1,
      platform: d.platform,
      ...(d.flinkDeployment ? { flinkDeployment: d.flinkDeployment } : {}),
      ...(d.flinkApplication ? { flinkApplication: d.flinkApplication } : {}),
      workloads: d.workloads.map((w) => ({ ...w, file: displayPath(w.file, cwd) })),
      version: jsonVersion(d.version, cwd),
    }));
  }
  return json;
}

export function formatJson(report: LintReport): string {
  return `${JSON.stringify(toJsonReport(report))}\n`;
}
