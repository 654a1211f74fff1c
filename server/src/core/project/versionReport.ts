/**
 * Where versions came from, for reports (the CLI's `--format json`): the Flink version each cluster runs with and
 * its evidence, and for a finding whose judgement depends on the Flink version, the version of the configuration
 * it is in. Paths stay absolute here; front ends show them as they show every path.
 */
import type { Finding } from "../findings";
import type { FlinkConfig, FlinkVersionEvidence } from "../model";
import type { Range } from "../text";
import type { ProjectModel } from "../workspace/project";
import { clustersOf, configVersion } from "./clusters";
import { type ConfigVersion, describeEvidence, type VersionStrength } from "./versions";

/**
 * Rules whose verdict depends on the Flink version the configuration runs with: which keys exist, which old names
 * a version still reads, how a value is parsed, which file a version reads, the deployment's own layers.
 */
export const VERSION_DEPENDENT_RULES: ReadonlySet<string> = new Set([
  "BFL102",
  "BFL103",
  "BFL104",
  "BFL106",
  "BFL107",
  "BFL108",
  "BFL112",
  "BFL207",
]);

export interface EvidenceSource {
  minor: string;
  full?: string;
  source: FlinkVersionEvidence["source"];
  kind?: FlinkVersionEvidence["kind"];
  file?: string;
  range?: Range;
}

export interface VersionReport {
  /** `major.minor`, absent when nothing says. */
  flinkVersion?: string;
  strength: VersionStrength;
  /** What was considered, in words (`describeEvidence`). */
  summary: string;
  /** The evidence, the deciding one first. */
  sources: EvidenceSource[];
}

export interface DeploymentReport {
  /** The configuration the cluster starts with. */
  configuration: { file: string; range: Range };
  platform: "kubernetes" | "compose" | "unknown";
  /** The FlinkDeployment's name, when an operator runs it. */
  flinkDeployment?: string;
  /** The Confluent FlinkApplication's name, when CMF runs it. */
  flinkApplication?: string;
  /** The JobManager / TaskManager workloads (Deployments, StatefulSets, compose services) that run it. */
  workloads: { file: string; name?: string; role?: string }[];
  version: VersionReport;
}

export function versionReport(version: ConfigVersion, relative: (file: string) => string): VersionReport {
  const out: VersionReport = {
    strength: version.strength,
    summary: describeEvidence(version, relative),
    sources: version.evidence.map((e) => {
      const s: EvidenceSource = { minor: e.minor, source: e.source };
      if (e.full) s.full = e.full;
      if (e.kind) s.kind = e.kind;
      if (e.location) {
        s.file = e.location.file;
        s.range = e.location.range;
      }
      return s;
    }),
  };
  if (version.minor) out.flinkVersion = version.minor;
  return out;
}

/** Every cluster of the project with the version it runs and where that came from. */
export function deploymentReports(project: ProjectModel, relative: (file: string) => string): DeploymentReport[] {
  return clustersOf(project).map((c) => {
    const report: DeploymentReport = {
      configuration: { file: c.config.file, range: c.config.anchor },
      platform: c.platform,
      workloads: c.workloads.map((w) => {
        const x: { file: string; name?: string; role?: string } = { file: w.file };
        if (w.name) x.name = w.name;
        if (w.role) x.role = w.role;
        return x;
      }),
      version: versionReport(c.version, relative),
    };
    const name = c.deployment?.object.name;
    if (name && c.deployment?.kind === "FlinkApplication") report.flinkApplication = name;
    else if (name) report.flinkDeployment = name;
    return report;
  });
}

function contains(outer: Range, line: number): boolean {
  return outer.start.line <= line && line <= outer.end.line;
}

/** The Flink configuration a position of a file belongs to: the one whose entries or host object span it. */
export function configAt(project: ProjectModel, file: string, range: Range): FlinkConfig | undefined {
  const inFile = project.flinkConfigs.filter((c) => c.file === file);
  if (inFile.length <= 1) return inFile[0];
  const line = range.start.line;
  const byEntries = inFile.find((c) => {
    if (c.entries.length === 0) return false;
    const first = c.entries[0].keyRange.start.line;
    const last = c.entries[c.entries.length - 1].valueRange.end.line;
    return first <= line && line <= last;
  });
  if (byEntries) return byEntries;
  return (
    inFile.find((c) => c.owner && contains(c.owner.range, line)) ?? inFile.find((c) => c.anchor.start.line === line)
  );
}

/** The Flink version behind a finding whose judgement depends on it; undefined for other findings. */
export function findingVersion(project: ProjectModel, finding: Finding): ConfigVersion | undefined {
  if (finding.versionEvidence) return finding.versionEvidence;
  if (!VERSION_DEPENDENT_RULES.has(finding.rule)) return undefined;
  const config = configAt(project, finding.file, finding.range);
  return config ? configVersion(project, config) : undefined;
}
