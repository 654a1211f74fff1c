/**
 * The Beam versions of a project as the build rules (BFL301–BFL304) see them: dependencies grouped by the place
 * their version is defined, so that one definition feeding several modules or profiles is one finding there, and
 * the "Upgrade Beam" fix that edits that definition so every use follows.
 */
import { addTo } from "../../arrays";
import type { Fix, Location, RelatedLocation } from "../../findings";
import {
  BEAM_GROUP,
  flinkMinorsFor,
  isFlinkRunner,
  isRunnerPublished,
  runnerFlinkMinor,
} from "../../knowledge/beamMatrix";
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
 * The fix that moves the whole Beam build to `target`: the version written at every place where a Beam version of
 * the modules the site feeds is defined (property, catalog entry, literal), so that no Beam artifact stays behind,
 * and the runner artifact's Flink minor where `target` no longer publishes the current one. None when the site's
 * build does not say where a version is defined, when a definition also sets the version of something that is not
 * Beam, or when the target is not newer.
 */
export function upgradeFix(project: ProjectModel, site: VersionSite, target: string): Fix | undefined {
  if (compareMavenVersions(target, site.version) <= 0) return undefined;
  const sites = new Set<VersionSite>([site]);
  for (const build of beamBuilds(project)) {
    if (!build.sites.some((s) => sameSite(s, site))) continue;
    for (const s of build.sites) if (compareMavenVersions(s.version, target) < 0) sites.add(s);
  }
  return alignFix(project, [...sites], target, `Upgrade Beam to ${target}`);
}

function sameSite(a: VersionSite, b: VersionSite): boolean {
  return key(a.at) === key(b.at) && a.version === b.version;
}

/** One build: a module in a plain build or with one Maven profile activated, and the Beam version sites it uses. */
export interface BeamBuild {
  module: string;
  profile?: string;
  dependencies: ResolvedDependency[];
  sites: VersionSite[];
}

/**
 * The Beam artifacts of each build: per module, the plain build and each Maven profile (the profile's variants in
 * place of the plain declarations they change), with the sites where their versions are defined.
 */
export function beamBuilds(project: ProjectModel): BeamBuild[] {
  let builds = buildsCache.get(project);
  if (builds) return builds;
  const beam = project.dependencies.filter(
    (d) => isBeamArtifact(d) && d.version !== undefined && isConcreteVersion(d.version),
  );
  const byBuild = new Map<string, { module: string; profile?: string; deps: ResolvedDependency[] }>();
  const group = (module: string, profile: string | undefined) => {
    const k = `${module}\u0000${profile ?? ""}`;
    let b = byBuild.get(k);
    if (!b) {
      b = profile === undefined ? { module, deps: [] } : { module, profile, deps: [] };
      byBuild.set(k, b);
    }
    return b;
  };
  for (const d of beam) group(d.module, d.profile).deps.push(d);
  const declared = (d: ResolvedDependency) => `${key(d.declaration)}\u0000${d.artifact}`;
  for (const b of byBuild.values()) {
    if (b.profile === undefined) continue;
    const own = new Set(b.deps.map(declared));
    const plain = byBuild.get(`${b.module}\u0000`)?.deps ?? [];
    b.deps = [...b.deps, ...plain.filter((d) => !own.has(declared(d)))];
  }
  const sites = beamSites(project);
  builds = [...byBuild.values()].map((b) => {
    const deps = new Set(b.deps);
    const used = sites
      .map((s) => ({ ...s, dependencies: s.dependencies.filter((d) => deps.has(d)) }))
      .filter((s) => s.dependencies.length > 0);
    const build: BeamBuild = { module: b.module, dependencies: b.deps, sites: used };
    if (b.profile !== undefined) build.profile = b.profile;
    return build;
  });
  buildsCache.set(project, builds);
  return builds;
}

const buildsCache = new WeakMap<ProjectModel, BeamBuild[]>();

/** The sites of the project's Beam artifacts (vendored artifacts have their own version line and are left out). */
export function beamSites(project: ProjectModel): VersionSite[] {
  return versionSites(project)
    .map((s) => ({ ...s, dependencies: s.dependencies.filter(isBeamArtifact) }))
    .filter((s) => s.dependencies.length > 0);
}

/** An `org.apache.beam` artifact released with Beam (not `beam-vendor-*`, which has its own versions). */
export function isBeamArtifact(d: ResolvedDependency): boolean {
  return d.group === BEAM_GROUP && !d.artifact.startsWith("beam-vendor-");
}

/** Whether a site's definition can be edited: the build says where it is, and it sets only Beam versions. */
export function editableSite(project: ProjectModel, site: VersionSite): boolean {
  const definition = site.definition;
  if (!definition || definition.value !== site.version) return false;
  const defined = key({ file: definition.file, range: definition.range });
  return !project.dependencies.some(
    (d) => d.versionDefinition && key(d.versionDefinition) === defined && !isBeamArtifact(d),
  );
}

/**
 * The Flink minor a runner moves to when `target` no longer publishes its own: the nearest newer minor `target`
 * has, else its newest. Undefined when the runner is still published or the matrix cannot tell.
 */
export function replacementMinor(minor: string, target: string): string | undefined {
  if (isRunnerPublished(target, minor) !== false) return undefined;
  const minors = flinkMinorsFor(target);
  if (!minors || minors.length === 0) return undefined;
  const newer = minors.find((m) => compareMinors(m, minor) > 0);
  return newer ?? minors[minors.length - 1];
}

function compareMinors(a: string, b: string): number {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am - bm || an - bn;
}

/** The edit renaming a runner artifact at its declaration, when the declaration spells the name on one line. */
function runnerRename(project: ProjectModel, dep: ResolvedDependency, minor: string) {
  const { file, range } = dep.declaration;
  if (range.start.line !== range.end.line) return undefined;
  const line = project.fileFacts(file)?.text.split("\n")[range.start.line];
  if (line === undefined) return undefined;
  const written = line.slice(range.start.character, range.end.character);
  const at = written.indexOf(dep.artifact);
  if (at < 0 || written.indexOf(dep.artifact, at + 1) >= 0) return undefined;
  const old = runnerFlinkMinor(dep.artifact) as string;
  const start = range.start.character + at + dep.artifact.length - old.length;
  return {
    file,
    edit: {
      range: {
        start: { line: range.start.line, character: start },
        end: { line: range.start.line, character: start + old.length },
      },
      newText: minor,
    },
  };
}

/**
 * Writes `target` at every site (each an editable definition), and moves runners `target` does not publish to a
 * Flink minor it does. Undefined when a site cannot be edited: a fix that moves only part of the build would leave
 * Beam artifacts of different releases side by side.
 */
export function alignFix(project: ProjectModel, sites: VersionSite[], target: string, title: string): Fix | undefined {
  if (sites.length === 0 || !sites.every((s) => editableSite(project, s))) return undefined;
  const byFile = new Map<string, { range: Range; newText: string }[]>();
  const seen = new Set<string>();
  const add = (file: string, edit: { range: Range; newText: string }) => {
    const k = key({ file, range: edit.range });
    if (seen.has(k)) return;
    seen.add(k);
    addTo(byFile, file, edit);
  };
  const moved: string[] = [];
  for (const site of sites) {
    add(site.at.file, { range: site.at.range, newText: target });
    for (const dep of site.dependencies) {
      const minor = runnerFlinkMinor(dep.artifact);
      const to = minor && isFlinkRunner(dep.group, dep.artifact) ? replacementMinor(minor, target) : undefined;
      if (!minor || !to) continue;
      const rename = runnerRename(project, dep, to);
      if (!rename) continue;
      add(rename.file, rename.edit);
      const text = `${dep.artifact} → beam-runners-flink-${to}`;
      if (!moved.includes(text)) moved.push(text);
    }
  }
  return {
    title: moved.length > 0 ? `${title} (${moved.join(", ")})` : title,
    safety: "unsafe",
    changes: [...byFile].map(([file, edits]) => ({ file, edits })),
  };
}
