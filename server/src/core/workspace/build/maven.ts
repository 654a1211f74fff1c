/**
 * The Maven side of a project's build: parents found in the workspace, properties (also from profiles and
 * parents), `${project.version}` and friends, dependency management (inherited, and imported BOMs), and one
 * evaluation per profile. Everything is interpolated against the consuming pom, as Maven does with the
 * effective model: a child's property overrides the parent's even in the parent's dependencyManagement.
 */

import { pushAll } from "../../arrays";
import type { PomFacts, PomProfile, RawDependency, SymbolDefinition, ValueExpr } from "../../documents/build/facts";
import { literalText } from "../../documents/build/values";
import type { FileFacts, ResolvedDependency } from "../../model";
import {
  type Binding,
  dirOf,
  joinPath,
  pickDefinition,
  relativePath,
  resolvedDependency,
  resolveExpr,
  type Scope,
  type Segment,
  textOf,
} from "./resolve";

/**
 * BOMs not present in the workspace whose content is known: every artifact of `manages` gets the BOM's version.
 * Every Beam BOM (`beam-sdks-java-bom`, `beam-sdks-java-google-cloud-platform-bom`, …) pins the Beam artifacts to
 * its own release.
 */
const KNOWN_BOMS = [{ group: "org.apache.beam", artifact: /^beam-[a-z0-9.-]*-bom$/, manages: "org.apache.beam" }];

/** Built-in model properties and the coordinate each one reads (the parent's when the pom does not say). */
const BUILT_INS = new Map<string, (p: PomFacts) => ValueExpr | undefined>([
  ["project.version", (p) => p.project.version ?? p.parent?.version],
  ["pom.version", (p) => p.project.version ?? p.parent?.version],
  ["version", (p) => p.project.version ?? p.parent?.version],
  ["project.groupId", (p) => p.project.groupId ?? p.parent?.groupId],
  ["pom.groupId", (p) => p.project.groupId ?? p.parent?.groupId],
  ["groupId", (p) => p.project.groupId ?? p.parent?.groupId],
  ["project.artifactId", (p) => p.project.artifactId],
  ["project.parent.version", (p) => p.parent?.version],
  ["parent.version", (p) => p.parent?.version],
  ["project.parent.groupId", (p) => p.parent?.groupId],
  ["project.parent.artifactId", (p) => p.parent?.artifactId],
]);

/** A dependency or management entry with the pom and profile it is written in. */
interface Declared {
  dep: RawDependency;
  file: string;
  profile?: string;
}

/** An explicitly activated profile id, or undefined for a plain build (profiles active by default). */
type Activation = string | undefined;

export interface MavenResult {
  /** What a plain build uses (profiles active by default included). */
  dependencies: ResolvedDependency[];
  /** Dependencies whose version (or presence) changes when a profile is activated, with that profile's name. */
  profileVariants: ResolvedDependency[];
}

export class MavenBuild {
  private readonly poms = new Map<string, PomFacts>();
  private readonly byCoordinates = new Map<string, string>();
  private readonly parents = new Map<string, string | undefined>();
  private readonly scopes = new Map<string, Scope>();
  private readonly builtIns = new Map<string, SymbolDefinition>();
  private othersLoaded = false;

  /** `project`: the files of this project; `others`: poms elsewhere in the workspace (parents, BOMs). */
  constructor(
    private readonly root: string,
    private readonly project: FileFacts[],
    private readonly others: () => FileFacts[],
  ) {
    this.add(project);
  }

  private add(files: FileFacts[]): void {
    for (const f of files) {
      if (f.build?.kind !== "maven" || this.poms.has(f.file)) continue;
      this.poms.set(f.file, f.build);
      const key = this.coordinatesOf(f.build);
      if (key && !this.byCoordinates.has(key)) this.byCoordinates.set(key, f.file);
    }
  }

  /** The workspace pom with these coordinates; the project's own first, then the rest of the workspace. */
  private pomWith(key: string): string | undefined {
    if (!this.byCoordinates.has(key) && !this.othersLoaded) {
      this.othersLoaded = true;
      this.add(this.others());
    }
    return this.byCoordinates.get(key);
  }

  resolve(): MavenResult {
    const dependencies: ResolvedDependency[] = [];
    const profileVariants: ResolvedDependency[] = [];
    for (const f of this.project) {
      if (!this.poms.has(f.file)) continue;
      const plain = this.resolvePom(f.file, undefined);
      pushAll(dependencies, plain);
      const byKey = new Map(plain.map((d) => [variantKey(d), d]));
      for (const id of this.profileIds(f.file)) {
        for (const d of this.resolvePom(f.file, id)) {
          const base = byKey.get(variantKey(d));
          if (base && base.version === d.version && sameLocation(base, d)) continue;
          profileVariants.push({ ...d, profile: id });
        }
      }
    }
    return { dependencies, profileVariants };
  }

  /**
   * The version a BOM sets for `group:artifact`: from the BOM's pom when it is in the workspace, else from what is
   * known about the BOM. `bomVersion` is the resolved version of the BOM import itself.
   */
  bomVersion(
    bomGroup: string,
    bomArtifact: string,
    bomVersion: Segment[] | undefined,
    group: string,
    artifact: string,
    seen = new Set<string>(),
  ): Segment[] | undefined {
    const file = this.pomWith(`${bomGroup}:${bomArtifact}`);
    if (file && !seen.has(file)) {
      seen.add(file);
      const found = this.managedVersion(file, undefined, group, artifact, seen);
      if (found) return found.map((s) => ({ ...s, via: [`${bomArtifact} (${this.rel(file)})`, ...s.via] }));
    }
    const known = KNOWN_BOMS.find((b) => b.group === bomGroup && b.artifact.test(bomArtifact) && b.manages === group);
    if (!known || !bomVersion) return undefined;
    return bomVersion.map((s) => ({ ...s, via: [`${bomArtifact} ${textOf(bomVersion) ?? ""}`.trim(), ...s.via] }));
  }

  // -------------------------------------------------------------------------------------------

  private resolvePom(file: string, activation: Activation): ResolvedDependency[] {
    const scope = this.scope(file, activation);
    const module = this.rel(dirOf(file));
    const out: ResolvedDependency[] = [];
    for (const { dep, profile } of this.declared(file, activation)) {
      if (dep.managed && !dep.platform) continue;
      const groupSegments = dep.group && resolveExpr(dep.group, file, scope);
      const artifactSegments = dep.artifact && resolveExpr(dep.artifact, file, scope);
      const group = textOf(groupSegments);
      const artifact = textOf(artifactSegments);
      if (!group || !artifact) continue;
      const version = dep.version
        ? resolveExpr(dep.version, file, scope)
        : this.managedVersion(file, activation, group, artifact, new Set([file]));
      const fromProfile = [...(artifactSegments ?? []), ...(version ?? [])].flatMap((s) => s.profiles)[0];
      const profileName = activation ?? profile ?? fromProfile;
      out.push(
        resolvedDependency(
          {
            group,
            artifact,
            declaration: { file, range: dep.range },
            module,
            platform: dep.platform,
            profile: profileName,
          },
          version,
          [],
        ),
      );
    }
    return out;
  }

  /** The version dependency management (inherited, or from imported BOMs) gives `group:artifact` in `file`. */
  private managedVersion(
    file: string,
    activation: Activation,
    group: string,
    artifact: string,
    seen: Set<string>,
  ): Segment[] | undefined {
    const scope = this.scope(file, activation);
    const entries = this.chain(file)
      .reverse()
      .flatMap((pom) => this.declared(pom, activation))
      .filter((d) => d.dep.managed);
    // Entries written directly win over imported BOMs; among them the nearest pom (declared last here) wins.
    for (const d of [...entries].reverse()) {
      if (d.dep.platform || !d.dep.version) continue;
      if (textOf(d.dep.group && resolveExpr(d.dep.group, d.file, scope)) !== group) continue;
      if (textOf(d.dep.artifact && resolveExpr(d.dep.artifact, d.file, scope)) !== artifact) continue;
      const label = `dependencyManagement (${this.rel(d.file)})`;
      return resolveExpr(d.dep.version, d.file, scope).map((s) => ({ ...s, via: [label, ...s.via] }));
    }
    for (const d of [...entries].reverse()) {
      if (!d.dep.platform) continue;
      const bomGroup = textOf(d.dep.group && resolveExpr(d.dep.group, d.file, scope));
      const bomArtifact = textOf(d.dep.artifact && resolveExpr(d.dep.artifact, d.file, scope));
      if (!bomGroup || !bomArtifact) continue;
      const bomVersion = d.dep.version && resolveExpr(d.dep.version, d.file, scope);
      const found = this.bomVersion(bomGroup, bomArtifact, bomVersion, group, artifact, seen);
      if (found) return found;
    }
    return undefined;
  }

  /** Dependencies and management entries of one pom (not its parents) under an activation. */
  private declared(file: string, activation: Activation): Declared[] {
    const pom = this.poms.get(file);
    if (!pom) return [];
    const base: Declared[] = pom.dependencies.map((dep) => ({ dep, file }));
    const fromProfiles = this.activeProfiles(pom, activation).flatMap((p) =>
      p.dependencies.map((dep) => ({ dep, file, profile: p.id })),
    );
    return [...base, ...fromProfiles];
  }

  /** The profile named by the activation, else those active by default (Maven drops them when another is active). */
  private activeProfiles(pom: PomFacts, activation: Activation): PomProfile[] {
    const named = activation === undefined ? [] : pom.profiles.filter((p) => p.id === activation);
    return named.length > 0 ? named : pom.profiles.filter((p) => p.activeByDefault);
  }

  private profileIds(file: string): string[] {
    const ids = new Set<string>();
    for (const pom of this.chain(file)) for (const p of this.poms.get(pom)?.profiles ?? []) if (p.id) ids.add(p.id);
    return [...ids];
  }

  /** Properties as the consuming pom `file` sees them: built-ins, then each pom of its parent chain. */
  private scope(file: string, activation: Activation): Scope {
    const key = `${file}\n${activation ?? ""}`;
    let scope = this.scopes.get(key);
    if (scope) return scope;
    scope = (ref, skip): Binding | undefined => {
      const builtIn = this.builtIn(file, ref);
      if (builtIn && !skip.has(builtIn.def)) return builtIn;
      for (const pomFile of this.chain(file)) {
        const pom = this.poms.get(pomFile) as PomFacts;
        for (const profile of this.activeProfiles(pom, activation).reverse()) {
          const def = pickDefinition(profile.properties, ref, skip);
          if (def && def !== "ambiguous") return this.binding(def, pomFile, file, activation, ref, profile.id);
        }
        const def = pickDefinition(pom.properties, ref, skip);
        if (def && def !== "ambiguous") return this.binding(def, pomFile, file, activation, ref);
      }
      return undefined;
    };
    this.scopes.set(key, scope);
    return scope;
  }

  private binding(
    def: SymbolDefinition,
    defFile: string,
    consumer: string,
    activation: Activation,
    ref: string,
    profile?: string,
  ): Binding {
    const where = profile ? `${this.rel(defFile)}, profile ${profile}` : this.rel(defFile);
    const binding: Binding = {
      def,
      file: defFile,
      scope: this.scope(consumer, activation),
      label: `\${${ref}} (${where})`,
    };
    if (profile) binding.profile = profile;
    return binding;
  }

  private builtIn(file: string, ref: string): Binding | undefined {
    const read = BUILT_INS.get(ref);
    const pom = this.poms.get(file);
    const value = read && pom ? read(pom) : undefined;
    if (!value) return undefined;
    const key = `${file}\n${ref}`;
    let def = this.builtIns.get(key);
    if (!def) {
      def = { name: ref, value, nameRange: value.range };
      this.builtIns.set(key, def);
    }
    return { def, file, scope: this.scope(file, undefined), label: `\${${ref}} (${this.rel(file)})` };
  }

  /** The pom and its parents found in the workspace, nearest first. */
  private chain(file: string): string[] {
    const out = [file];
    for (let p = this.parentOf(file); p && !out.includes(p); p = this.parentOf(p)) out.push(p);
    return out;
  }

  /** The parent pom: at `<relativePath>` (default `../pom.xml`) when its coordinates match, else any workspace pom with them. */
  private parentOf(file: string): string | undefined {
    if (this.parents.has(file)) return this.parents.get(file);
    const parent = this.poms.get(file)?.parent;
    let found: string | undefined;
    if (parent) {
      const key = `${literalText(parent.groupId)}:${literalText(parent.artifactId)}`;
      const rel = parent.relativePath ?? "../pom.xml";
      if (rel !== "") {
        let candidate = joinPath(dirOf(file), rel);
        if (!candidate.endsWith(".xml")) candidate = `${candidate}/pom.xml`;
        const pom = this.poms.get(candidate);
        if (pom && this.coordinatesOf(pom) === key) found = candidate;
      }
      found ??= this.pomWith(key);
      if (found === file) found = undefined;
    }
    this.parents.set(file, found);
    return found;
  }

  private coordinatesOf(pom: PomFacts): string | undefined {
    const group = literalText(pom.project.groupId ?? pom.parent?.groupId);
    const artifact = literalText(pom.project.artifactId);
    return group && artifact ? `${group}:${artifact}` : undefined;
  }

  private rel(file: string): string {
    return relativePath(this.root, file);
  }
}

function variantKey(d: ResolvedDependency): string {
  const at = d.declaration.range.start;
  return `${d.declaration.file}:${at.line}:${at.character}:${d.group}:${d.artifact}`;
}

function sameLocation(a: ResolvedDependency, b: ResolvedDependency): boolean {
  const x = a.versionDefinition;
  const y = b.versionDefinition;
  if (!x || !y) return x === y;
  return (
    x.file === y.file &&
    x.range.start.line === y.range.start.line &&
    x.range.start.character === y.range.start.character
  );
}
