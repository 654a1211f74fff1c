/**
 * Hover text for a Beam version or a Beam coordinate in a build file: the resolved version and where it is
 * defined, the known bugs that apply to it, the Flink minors that version has runners for, and, on a Flink
 * runner, the Flink minor it needs next to the cluster's.
 */
import { firstUnaffectedVersion, matchAdvisories, matchSeverity } from "../knowledge/advisories";
import { BEAM_GROUP, flinkMinorsFor, isFlinkRunner, matrixNotes, runnerFlinkMinor } from "../knowledge/beamMatrix";
import { isConcreteVersion } from "../knowledge/mavenVersion";
import type { ResolvedDependency } from "../model";
import { comparePositions, type Position, type Range } from "../text";
import type { ProjectModel } from "../workspace/project";

function touches(range: Range, p: Position): boolean {
  return comparePositions(range.start, p) <= 0 && comparePositions(p, range.end) <= 0;
}

function relative(project: ProjectModel, file: string): string {
  return file.startsWith(`${project.root}/`) ? file.slice(project.root.length + 1) : file;
}

function sameDefinition(a: ResolvedDependency, b: ResolvedDependency): boolean {
  const x = a.versionDefinition;
  const y = b.versionDefinition;
  return !!x && !!y && x.file === y.file && comparePositions(x.range.start, y.range.start) === 0;
}

/** The Beam dependencies the cursor is on: all users of a version definition, or one declaration. */
function beamDependenciesAt(
  project: ProjectModel,
  file: string,
  p: Position,
): { deps: ResolvedDependency[]; onDefinition: boolean } {
  const beam = project.dependencies.filter((d) => d.group === BEAM_GROUP);
  const definedHere = beam.find((d) => d.versionDefinition?.file === file && touches(d.versionDefinition.range, p));
  if (definedHere) return { deps: beam.filter((d) => sameDefinition(d, definedHere)), onDefinition: true };
  const declared = beam.find((d) => d.declaration.file === file && touches(d.declaration.range, p));
  return { deps: declared ? [declared] : [], onDefinition: false };
}

/** Where a declaration's version comes from: the definition and the steps to it. */
function origin(project: ProjectModel, dep: ResolvedDependency): string {
  const def = dep.versionDefinition;
  const via = dep.via.length > 0 ? ` via ${dep.via.map((s) => `\`${s}\``).join(" → ")}` : "";
  if (!def) return via ? `resolved${via}` : "written in the declaration";
  return `defined in \`${relative(project, def.file)}\` line ${def.range.start.line + 1}${via}`;
}

function usesLine(deps: ResolvedDependency[]): string {
  const names = deps.map((d) => {
    const where = [d.module && `module ${d.module}`, d.profile && `profile ${d.profile}`].filter(Boolean).join(", ");
    return `\`${d.artifact}\`${where ? ` (${where})` : ""}`;
  });
  return `Used by ${[...new Set(names)].join(", ")}.`;
}

/** The advisories that apply to the project's Beam artifacts at this version (the runners carry the bugs). */
function knownBugs(project: ProjectModel, version: string): string[] {
  const lines = new Map<string, string>();
  for (const dep of project.dependencies) {
    if (dep.group !== BEAM_GROUP || dep.version !== version) continue;
    for (const match of matchAdvisories(dep.group, dep.artifact, version)) {
      const { advisory, range } = match;
      const maybe = range.database_specific.uncertain ? "possibly affected: " : "";
      const fixed = firstUnaffectedVersion(advisory);
      lines.set(
        advisory.id,
        `- **${advisory.database_specific.rule}** (${matchSeverity(match, project.jobApi)}) ${maybe}${advisory.summary} (${advisory.aliases.join(", ")})${fixed ? `; fixed in ${fixed}` : ""}.`,
      );
    }
  }
  return [...lines.values()];
}

function runnerLine(project: ProjectModel, dep: ResolvedDependency): string | undefined {
  const minor = isFlinkRunner(dep.group, dep.artifact) ? runnerFlinkMinor(dep.artifact) : undefined;
  if (!minor) return undefined;
  const cluster = project.flinkVersion;
  const known = cluster && cluster.evidence.source !== "runner" && cluster.evidence.source !== "setting";
  const clusterText = known
    ? ` The project's cluster runs Flink ${cluster.evidence.full ?? cluster.minor}${cluster.evidence.location ? ` (\`${relative(project, cluster.evidence.location.file)}\`)` : ""}.`
    : "";
  return `\`${dep.artifact}\` runs on a Flink ${minor}.x cluster only.${clusterText}`;
}

export function buildHover(project: ProjectModel, file: string, position: Position): string | undefined {
  const { deps, onDefinition } = beamDependenciesAt(project, file, position);
  if (deps.length === 0) return undefined;
  const first = deps[0];
  const version = first.version;
  const out: string[] = [];
  if (version === undefined) {
    out.push(`**Apache Beam**: the version of \`${first.artifact}\` is computed by the build and cannot be read here.`);
  } else {
    out.push(`**Apache Beam ${version}**, ${onDefinition ? "defined here" : origin(project, first)}.`);
  }
  out.push(usesLine(deps));
  const runner = deps.length === 1 ? runnerLine(project, first) : undefined;
  if (runner) out.push(runner);
  if (version !== undefined && isConcreteVersion(version)) {
    const minors = flinkMinorsFor(version);
    if (minors) out.push(`Flink runners in Beam ${version}: ${minors.length > 0 ? minors.join(", ") : "none"}.`);
    for (const note of matrixNotes(version)) out.push(note);
    const bugs = knownBugs(project, version);
    out.push(
      bugs.length > 0 ? `Known bugs:\n${bugs.join("\n")}` : "No known Flink runner bugs of this version on record.",
    );
  }
  return out.join("\n\n");
}
