/**
 * Hover text for a Beam version or a Beam coordinate in a build file: the resolved version and where it is
 * defined, the known bugs that apply to it, the Flink minors that version has runners for, and, on a Flink
 * runner, the Flink minor it needs next to the cluster's.
 */
import type { CatalogLibrary, RawDependency, ValueExpr } from "../documents/build/facts";
import { firstUnaffectedVersion, matchAdvisories, matchSeverity, requirementsMet } from "../knowledge/advisories";
import { BEAM_GROUP, flinkMinorsFor, isFlinkRunner, matrixNotes, runnerFlinkMinor } from "../knowledge/beamMatrix";
import { isConcreteVersion } from "../knowledge/mavenVersion";
import type { ResolvedDependency } from "../model";
import { advisoryFacts } from "../rules/build/advisoryFacts";
import { comparePositions, type Position, type Range } from "../text";
import type { ProjectModel } from "../workspace/project";
import { type HoverText, relative, touches } from "./hoverText";

function sameDefinition(a: ResolvedDependency, b: ResolvedDependency): boolean {
  const x = a.versionDefinition;
  const y = b.versionDefinition;
  return !!x && !!y && x.file === y.file && comparePositions(x.range.start, y.range.start) === 0;
}

interface Target {
  deps: ResolvedDependency[];
  onDefinition: boolean;
  /** The token under the cursor. */
  range: Range;
}

/** The ranges of a value written in parts: the whole value. */
function exprRanges(...exprs: (ValueExpr | undefined)[]): Range[] {
  return exprs.flatMap((e) => (e ? [e.range] : []));
}

function literal(e: ValueExpr | undefined): string | undefined {
  if (!e || e.parts.some((part) => !("text" in part))) return undefined;
  return e.parts.map((part) => ("text" in part ? part.text : "")).join("");
}

/** Dependencies and managed entries as a Gradle script or a pom declares them (profiles included). */
function rawDependencies(project: ProjectModel, file: string): RawDependency[] {
  const build = project.fileFacts(file)?.build;
  if (build?.kind === "gradle") return build.dependencies;
  if (build?.kind === "maven") return [...build.dependencies, ...build.profiles.flatMap((p) => p.dependencies)];
  return [];
}

/** A declaration's other tokens: the group and version elements of a pom, the parts of a Gradle map notation. */
function onDeclarationParts(project: ProjectModel, beam: ResolvedDependency[], file: string, p: Position) {
  for (const raw of rawDependencies(project, file)) {
    const range = exprRanges(raw.group, raw.version).find((r) => touches(r, p));
    if (!range) continue;
    const at = raw.range.start;
    const dep = beam.find((d) => d.declaration.file === file && comparePositions(d.declaration.range.start, at) === 0);
    if (dep) return { dep, range };
  }
  return undefined;
}

/** A `[libraries]` entry of a version catalog: its alias, module, group, name or version. */
function onCatalogLibrary(project: ProjectModel, beam: ResolvedDependency[], file: string, p: Position) {
  const build = project.fileFacts(file)?.build;
  if (build?.kind !== "versionCatalog") return undefined;
  for (const lib of build.libraries) {
    const range = [lib.range, ...exprRanges(lib.group, lib.artifact, lib.version)].find((r) => touches(r, p));
    if (!range || literal(lib.group) !== BEAM_GROUP) continue;
    const deps = catalogUsers(build.name, lib, beam);
    if (deps.length > 0) return { deps, range };
  }
  return undefined;
}

/** The declarations that use a catalog library: its coordinate, reached through this alias when that is known. */
function catalogUsers(catalog: string, lib: CatalogLibrary, beam: ResolvedDependency[]): ResolvedDependency[] {
  const same = beam.filter((d) => d.artifact === literal(lib.artifact));
  const accessor = `${catalog}.${lib.alias} `;
  const through = same.filter((d) => d.via.some((step) => step.startsWith(accessor)));
  return through.length > 0 ? through : same;
}

/** The Beam dependencies the cursor is on: all users of a version definition, or one declaration. */
function beamDependenciesAt(project: ProjectModel, file: string, p: Position): Target | undefined {
  const beam = project.dependencies.filter((d) => d.group === BEAM_GROUP);
  const definedHere = beam.find((d) => d.versionDefinition?.file === file && touches(d.versionDefinition.range, p));
  if (definedHere?.versionDefinition) {
    const deps = beam.filter((d) => sameDefinition(d, definedHere));
    return { deps, onDefinition: true, range: definedHere.versionDefinition.range };
  }
  const declared = beam.find((d) => d.declaration.file === file && touches(d.declaration.range, p));
  if (declared) return { deps: [declared], onDefinition: false, range: declared.declaration.range };
  const part = onDeclarationParts(project, beam, file, p);
  if (part) return { deps: [part.dep], onDefinition: false, range: part.range };
  const library = onCatalogLibrary(project, beam, file, p);
  return library && { ...library, onDefinition: false };
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
    const facts = advisoryFacts(project);
    for (const match of matchAdvisories(dep.group, dep.artifact, version)) {
      if (!requirementsMet(match, facts)) continue;
      const { advisory, range } = match;
      const maybe = range.database_specific.uncertain ? "possibly affected: " : "";
      const fixed = firstUnaffectedVersion(advisory);
      lines.set(
        advisory.id,
        `- **${advisory.database_specific.rule}** (${matchSeverity(match, facts)}) ${maybe}${advisory.summary} (${advisory.aliases.join(", ")})${fixed ? `; fixed in ${fixed}` : ""}.`,
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

/** The hover of the Beam version or coordinate under the cursor, with the range of that token. */
export function buildHoverAt(project: ProjectModel, file: string, position: Position): HoverText | undefined {
  const target = beamDependenciesAt(project, file, position);
  if (!target || target.deps.length === 0) return undefined;
  return { markdown: markdownOf(project, target), range: target.range };
}

/** The markdown of {@link buildHoverAt} alone. */
export function buildHover(project: ProjectModel, file: string, position: Position): string | undefined {
  return buildHoverAt(project, file, position)?.markdown;
}

function markdownOf(project: ProjectModel, { deps, onDefinition }: Target): string {
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
