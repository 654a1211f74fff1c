/**
 * Which Flink version a configuration runs with, and how sure that is. The version of a configuration comes from
 * the deployment that runs it: a FlinkDeployment's own `flinkVersion` and image, the image of the compose service
 * or Kubernetes pod that mounts it (or the Dockerfile that builds that image), a Helm chart's values. Only when no
 * deployment claims a configuration do project-wide signals apply, and then the evidence is weak.
 *
 * The strength decides fix safety (ARCHITECTURE.md, "Fix safety"): a fix whose meaning depends on the version is
 * safe only when the version is `pinned`.
 */
import type { FlinkVersionEvidence } from "../model";
import { type ProjectModel, parseMinor } from "../workspace/project";

export type VersionStrength =
  /** The configuration's own deployment (or the project configuration) names one Flink minor. */
  | "pinned"
  /** Inferred from other files of the project, the editor setting or `--flink-version`, or a guessed binding. */
  | "weak"
  /** The deployment's own layers name different minors (BFL207), or, with no deployment, the project's files do. */
  | "conflicting"
  /** Nothing names a version. */
  | "unknown";

export interface ConfigVersion {
  /** `major.minor`, undefined when nothing says. */
  minor?: string;
  strength: VersionStrength;
  /** The evidence the version was decided from (first: the one that decided). */
  evidence: FlinkVersionEvidence[];
}

export const UNKNOWN_VERSION: ConfigVersion = { strength: "unknown", evidence: [] };

function minorOf(e: FlinkVersionEvidence): string | undefined {
  const p = parseMinor(e.minor);
  return p ? `${p.major}.${p.minor}` : undefined;
}

/** Evidence order within one deployment: what the operator is told, then the image, then the rest. */
const OWN_ORDER: FlinkVersionEvidence["source"][] = ["flinkDeployment", "image", "dependency", "runner", "setting"];

/**
 * A deployment's version from its own evidence. The project configuration's `flinkVersion`, when set, is the
 * user's word and wins. `bound` is false when the deployment was tied to the configuration by a guess (nearest
 * folder) rather than by a mount or an owner: its version is then weak.
 */
export function versionFrom(project: ProjectModel, own: FlinkVersionEvidence[], bound = true): ConfigVersion {
  const pinnedByConfig = project.flinkVersion?.evidence.source === "projectConfig" ? project.flinkVersion : undefined;
  if (pinnedByConfig) return { minor: pinnedByConfig.minor, strength: "pinned", evidence: [pinnedByConfig.evidence] };
  const known = own.filter((e) => minorOf(e) !== undefined);
  if (known.length === 0) return projectWide(project);
  const sorted = [...known].sort((a, b) => OWN_ORDER.indexOf(a.source) - OWN_ORDER.indexOf(b.source));
  const minors = new Set(sorted.map(minorOf));
  const strength: VersionStrength = minors.size > 1 ? "conflicting" : bound ? "pinned" : "weak";
  return { minor: minorOf(sorted[0]), strength, evidence: sorted };
}

/** The project-wide version (weak unless the project configuration pins it). */
export function projectWide(project: ProjectModel): ConfigVersion {
  const v = project.flinkVersion;
  if (!v) return UNKNOWN_VERSION;
  if (v.evidence.source === "projectConfig") return { minor: v.minor, strength: "pinned", evidence: [v.evidence] };
  const considered = [v.evidence, ...v.others];
  // The setting or flag is a default for when the files say nothing; it does not conflict with what they say.
  const fromFiles = new Set(considered.filter((e) => e.source !== "setting").map(minorOf));
  return { minor: v.minor, strength: fromFiles.size > 1 ? "conflicting" : "weak", evidence: considered };
}

/** Compares a version with `major.minor`; undefined when the version is unknown. */
export function atLeast(version: ConfigVersion | string | undefined, wanted: string): boolean | undefined {
  const minor = typeof version === "string" ? version : version?.minor;
  const have = minor ? parseMinor(minor) : undefined;
  const want = parseMinor(wanted);
  if (!have || !want) return undefined;
  return have.major !== want.major ? have.major > want.major : have.minor >= want.minor;
}

/** How a message names where a weak or conflicting version came from: `Flink 1.20 (from k8s/orders.yaml)`. */
export function consideredText(version: ConfigVersion): string {
  const minors = [...new Set(version.evidence.map(minorOf).filter((m): m is string => m !== undefined))];
  if (minors.length === 0) return "an unknown Flink version";
  return minors.map((m) => `Flink ${m}`).join(" or ");
}

/** How a message names a `flinkDeployment` source: "the FlinkDeployment's flinkVersion", "the FlinkApplication's …". */
export function flinkVersionFieldLabel(e: FlinkVersionEvidence): string {
  return `the ${e.kind ?? "FlinkDeployment"}'s flinkVersion`;
}

const SOURCE_LABEL: Record<FlinkVersionEvidence["source"], string> = {
  flinkDeployment: "the FlinkDeployment's flinkVersion",
  image: "a Flink image tag",
  dependency: "a Flink dependency",
  runner: "the Beam Flink runner artifact",
  projectConfig: "flinkVersion in the project configuration",
  setting: "the editor setting or --flink-version",
};

/**
 * Where a configuration's version comes from, for hovers and reports: `Flink 1.18.1 from a Flink image tag
 * (docker-compose.yml), this configuration's deployment`; weak and conflicting versions say so.
 */
export function describeVersion(version: ConfigVersion, relative: (file: string) => string): string {
  const [e] = version.evidence;
  if (!version.minor || !e) return "Flink version not detected: facts are for the newest Flink version.";
  const where = e.location ? ` (${relative(e.location.file)})` : "";
  const label = e.source === "flinkDeployment" ? flinkVersionFieldLabel(e) : SOURCE_LABEL[e.source];
  const what = `Flink ${e.full ?? version.minor} from ${label}${where}`;
  if (version.strength === "pinned")
    return e.source === "projectConfig" ? `${what}.` : `${what}: the deployment that runs this configuration.`;
  if (version.strength === "conflicting")
    return `${what}; its deployment also names ${consideredText(version)}, so version-dependent fixes are not applied automatically.`;
  return `${what}, elsewhere in the project: no deployment of this configuration says, so version-dependent fixes are not applied automatically.`;
}

/** The distinct minors a version's evidence names, oldest first. */
export function minorsOf(version: ConfigVersion): string[] {
  const minors = [...new Set(version.evidence.map(minorOf).filter((m): m is string => m !== undefined))];
  return minors.sort((a, b) => {
    const x = parseMinor(a) as { major: number; minor: number };
    const y = parseMinor(b) as { major: number; minor: number };
    return x.major - y.major || x.minor - y.minor;
  });
}

const EVIDENCE_LABEL: Record<FlinkVersionEvidence["source"], string> = {
  flinkDeployment: "the FlinkDeployment's flinkVersion",
  image: "an image tag",
  dependency: "a Flink dependency",
  runner: "the Beam runner artifact",
  projectConfig: "the project configuration",
  setting: "the assumed version (editor setting or --flink-version)",
};

/**
 * What was considered for a version that is not pinned, for fix titles: "Flink 1.20 is not pinned: 1.20 from an
 * image tag in Dockerfile", "the project names Flink 1.20 and 1.21: …", "the Flink version is not known".
 */
export function describeEvidence(version: ConfigVersion, relative: (file: string) => string): string {
  if (!version.minor) return "the Flink version is not known";
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const ev of version.evidence) {
    const where = ev.location ? ` in ${relative(ev.location.file)}` : "";
    const label = ev.source === "flinkDeployment" ? flinkVersionFieldLabel(ev) : EVIDENCE_LABEL[ev.source];
    const text = `${minorOf(ev) ?? ev.minor} from ${label}${where}`;
    if (!seen.has(text)) parts.push(text);
    seen.add(text);
  }
  const list = parts.slice(0, 3).join(", ") + (parts.length > 3 ? ", …" : "");
  if (version.strength === "conflicting") return `the project names Flink ${minorsOf(version).join(" and ")}: ${list}`;
  if (version.strength === "weak") return `Flink ${version.minor} is not pinned: ${list}`;
  return `Flink ${version.minor}: ${list}`;
}
