/**
 * The Beam versions of a project as the build rules (BFL301–BFL304) see them: dependencies grouped by the place
 * their version is defined, so that one definition feeding several modules or profiles is one finding there, and
 * the "Upgrade Beam" fix that edits that definition so every use follows.
 */
import type { Fix, Location, RelatedLocation } from "../../findings";
import { BEAM_GROUP, flinkMinorsFor, isRunnerPublished, runnerFlinkMinor } from "../../knowledge/beamMatrix";
import { compareMavenVersions, isConcreteVersion } from "../../knowledge/mavenVersion";
import type { Located, ResolvedDependency } from "../../model";
import type { Range } from "../../text";
import type { ProjectModel } from "../../workspace/project";

export interface VersionSite {
  version: string;
  /** The version literal at its definition, when the build says where it is. */
  definition?: Located<string>;
  /** Where findings about the version point: the version at its definition, else the declaration. */
  at: Location;
  /** Every dependency whose version is defined here, in the project's order. */
  dependencies: ResolvedDependency[];
}

/** The version text inside a definition token that also holds quotes or other characters around it. */
function versionRange(definition: Located<string>): Range {
  const { raw, value, range } = definition;
  const offset = raw.indexOf(value);
  if (raw === value || offset < 0 || range.start.line !== range.end.line) return range;
  const start = range.start.character + offset;
  return {
    start: { line: range.start.line, character: start },
    end: { line: range.start.line, character: start + value.length },
  };
}

function key(l: Location): string {
  return `${l.file}\u0000${l.range.start.line}:${l.range.start.character}`;
}

/** The project's dependencies with a concrete version, one site per place where a version is defined. */
export function versionSites(project: ProjectModel): VersionSite[] {
  const sites = new Map<string, VersionSite>();
  for (const dep of project.dependencies) {
    if (dep.version === undefined || !isConcreteVersion(dep.version)) continue;
    const definition = dep.versionDefinition;
    const at = definition ? { file: definition.file, range: versionRange(definition) } : dep.declaration;
    const k = `${definition ? "definition" : "declaration"}\u0000${key(at)}`;
    let site = sites.get(k);
    if (!site) {
      site = { version: dep.version, definition, at, dependencies: [] };
      sites.set(k, site);
    }
    site.dependencies.push(dep);
  }
  return [...sites.values()];
}

function where(dep: ResolvedDependency): string {
  const parts: string[] = [];
  if (dep.module) parts.push(`module ${dep.module}`);
  if (dep.profile) parts.push(`profile ${dep.profile}`);
  return parts.join(", ");
}

/** "beam-runners-flink-1.17 (module app; module worker, profile flink-runner)": what a definition feeds. */
export function describeUses(deps: ResolvedDependency[]): string {
  const byArtifact = new Map<string, string[]>();
  for (const dep of deps) {
    const places = byArtifact.get(dep.artifact) ?? [];
    const w = where(dep);
    if (w && !places.includes(w)) places.push(w);
    byArtifact.set(dep.artifact, places);
  }
  return [...byArtifact]
    .map(([artifact, places]) => (places.length > 0 ? `${artifact} (${places.join("; ")})` : artifact))
    .join(", ");
}

/** Related information at each dependency's declaration, saying how its version gets there. */
export function usesAsRelated(deps: ResolvedDependency[], version: string): RelatedLocation[] {
  return deps.map((dep) => {
    const w = where(dep);
    const via = dep.via.length > 0 ? ` via ${dep.via.join(" → ")}` : "";
    return {
      ...dep.declaration,
      message: `${dep.artifact}${w ? ` (${w})` : ""} gets Beam ${version}${via}.`,
    };
  });
}

/** The Flink runners among some dependencies, with the Flink minor in their name. */
function runnerMinors(deps: ResolvedDependency[]): string[] {
  const minors = deps.map((d) => runnerFlinkMinor(d.artifact)).filter((m): m is string => m !== undefined);
  return [...new Set(minors)];
}

const SAVEPOINT_CAVEAT =
  "A Beam upgrade can change the job's savepoint state: test that the upgraded job restores from a savepoint of the current one before rolling it out.";

/**
 * The Beam version the upgrade fix writes: the configured target, raised to `atLeast` (the first release without
 * the bug) when the configuration names an older one.
 */
export function upgradeTarget(project: ProjectModel, atLeast: string | undefined): string {
  const configured = project.config.beamUpgradeTarget;
  return atLeast !== undefined && compareMavenVersions(configured, atLeast) < 0 ? atLeast : configured;
}

/**
 * What the message says about the upgrade: runners of the current version that the target no longer publishes
 * must move to another Flink minor with it.
 */
export function upgradeAdvice(site: VersionSite, target: string, fix: Fix | undefined): string {
  const how = fix ? `Upgrade Beam to ${target} where the version is defined` : `Upgrade Beam to ${target} or newer`;
  const dropped = runnerMinors(site.dependencies).filter((m) => isRunnerPublished(target, m) === false);
  const minors = flinkMinorsFor(target);
  const move =
    dropped.length > 0 && minors
      ? `; Beam ${target} has no runner for Flink ${dropped.join(" or ")} (it has ${minors.join(", ")}), so move the runner artifact and the cluster to one of those with it`
      : "";
  return `${how}${move}. ${SAVEPOINT_CAVEAT}`;
}

/**
 * The fix that writes `target` at the version's definition, so every module and profile that uses it follows.
 * None when the build does not say where the version is defined, when the definition also sets the version of
 * something that is not Beam, or when the target is not newer.
 */
export function upgradeFix(project: ProjectModel, site: VersionSite, target: string): Fix | undefined {
  const definition = site.definition;
  if (!definition || definition.value !== site.version) return undefined;
  if (compareMavenVersions(target, site.version) <= 0) return undefined;
  const defined = key({ file: definition.file, range: definition.range });
  const shared = project.dependencies.some(
    (d) => d.versionDefinition && key(d.versionDefinition) === defined && d.group !== BEAM_GROUP,
  );
  if (shared) return undefined;
  return {
    title: `Upgrade Beam to ${target}`,
    safety: "unsafe",
    changes: [{ file: definition.file, edits: [{ range: site.at.range, newText: target }] }],
  };
}
