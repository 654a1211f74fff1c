/**
 * The Gradle side of a project's build: each build script is a module; a name in a script resolves to the
 * script's own variables and extra properties, then its folder's gradle.properties, then the extra properties and
 * gradle.properties of the enclosing modules up to the root (what a subproject inherits). Catalog accessors
 * (`libs.x.y`, `libs.versions.x`, `libs.bundles.x`) resolve against the project's version catalogs. Version-less
 * dependencies take their version from `constraints { }` or a `platform(…)` BOM of the module or its parents.
 */

import { addTo, pushAll } from "../../arrays";
import { BAZEL_ROOT_FILES } from "../../documents/build/bazel";
import type {
  CatalogLibrary,
  GradleFacts,
  RawDependency,
  SymbolDefinition,
  VersionCatalogFacts,
} from "../../documents/build/facts";
import { sbtBuildDir } from "../../documents/build/sbt";
import type { FileFacts, ResolvedDependency } from "../../model";
import type { MavenBuild } from "./maven";
import {
  type Binding,
  dirOf,
  pickDefinition,
  relativePath,
  resolvedDependency,
  resolveExpr,
  type Scope,
  type Segment,
  splitNotation,
  textOf,
} from "./resolve";

interface Script {
  file: string;
  facts: GradleFacts;
}

interface Catalog {
  file: string;
  facts: VersionCatalogFacts;
}

/** A dependency read from a script, its version not yet looked up in constraints and platforms. */
interface Declaration {
  group: string;
  artifact: string;
  version?: Segment[];
  raw: RawDependency;
  file: string;
  via: string[];
}

const SETTINGS = /(^|\/)settings\.gradle(\.kts)?$/;

export class GradleBuild {
  private readonly scripts = new Map<string, Script[]>();
  private readonly properties = new Map<string, { file: string; defs: SymbolDefinition[] }>();
  private readonly catalogs = new Map<string, Catalog>();
  private readonly scopes = new Map<string, Scope>();
  private readonly declarations = new Map<string, Declaration[]>();
  /** Precompiled script plugins (buildSrc, included builds) by the id modules apply them with. */
  private readonly plugins = new Map<string, Script>();

  constructor(
    private readonly root: string,
    files: FileFacts[],
    private readonly boms: MavenBuild,
  ) {
    // A Bazel workspace's `.bzl` files belong to the build at its root, which loads them.
    const bazelRoots = new Set(
      files
        .filter((f) => f.build?.kind === "gradle" && f.build.dsl === "bazel" && isBazelRootFile(f.file))
        .map((f) => dirOf(f.file)),
    );
    for (const f of files) {
      const build = f.build;
      if (build?.kind === "gradle" && build.pluginId) {
        if (!this.plugins.has(build.pluginId)) this.plugins.set(build.pluginId, { file: f.file, facts: build });
      } else if (build?.kind === "gradle" && !SETTINGS.test(f.file)) {
        // The meta-build's `project/*.scala` and `project/*.sbt` configure the build of the folder above.
        const dir =
          build.dsl === "sbt"
            ? sbtBuildDir(f.file)
            : build.dsl === "bazel"
              ? bazelRootOf(dirOf(f.file), bazelRoots)
              : dirOf(f.file);
        addTo(this.scripts, dir, { file: f.file, facts: build });
      } else if (build?.kind === "gradleProperties") {
        this.properties.set(dirOf(f.file), { file: f.file, defs: build.definitions });
      } else if (build?.kind === "versionCatalog") {
        // The root's gradle/ folder holds the build's catalogs; a nested one of the same name is another build's.
        const known = this.catalogs.get(build.name);
        if (!known || f.file.length < known.file.length) this.catalogs.set(build.name, { file: f.file, facts: build });
      }
    }
  }

  resolve(): ResolvedDependency[] {
    const out: ResolvedDependency[] = [];
    for (const [dir, scripts] of this.scripts) {
      const module = relativePath(this.root, dir);
      const managing = this.managingDeclarations(dir);
      const own = new Set([...scripts, ...this.appliedPlugins(scripts)].map((s) => s.file));
      for (const d of this.moduleDeclarations(dir)) {
        if (d.raw.managed && !d.raw.platform) continue;
        if (!own.has(d.file)) continue;
        const version = d.version ?? this.managedVersion(d, managing);
        const id = {
          group: d.group,
          artifact: d.artifact,
          declaration: { file: d.file, range: d.raw.range },
          module,
          platform: d.raw.platform,
        };
        out.push(resolvedDependency(id, version, d.via));
      }
    }
    return out;
  }

  /** Constraints and platforms of the module and of the modules enclosing it, nearest first. */
  private managingDeclarations(dir: string): Declaration[] {
    return this.enclosing(dir).flatMap((d) =>
      this.moduleDeclarations(d).filter((x) => x.raw.managed || x.raw.platform),
    );
  }

  private managedVersion(d: Declaration, managing: Declaration[]): Segment[] | undefined {
    for (const m of managing) {
      if (!m.raw.platform && m.version && m.group === d.group && m.artifact === d.artifact) {
        return m.version.map((s) => ({ ...s, via: [`constraint (${this.rel(m.file)})`, ...s.via] }));
      }
    }
    for (const m of managing) {
      if (!m.raw.platform) continue;
      const found = this.boms.bomVersion(m.group, m.artifact, m.version, d.group, d.artifact);
      if (found) return found;
    }
    return undefined;
  }

  /** Every dependency, constraint and platform the scripts of one folder declare, resolved except for BOMs. */
  private moduleDeclarations(dir: string): Declaration[] {
    let out = this.declarations.get(dir);
    if (out) return out;
    out = [];
    const scope = this.scope(dir);
    const scripts = this.scripts.get(dir) ?? [];
    for (const script of scripts) {
      for (const raw of script.facts.dependencies) pushAll(out, this.declaration(raw, script.file, scope));
    }
    for (const plugin of this.appliedPlugins(scripts)) {
      const via = `plugin ${plugin.facts.pluginId} (${this.rel(plugin.file)})`;
      const pluginScope = this.pluginScope(plugin, dir);
      for (const raw of plugin.facts.dependencies) {
        for (const d of this.declaration(raw, plugin.file, pluginScope)) out.push({ ...d, via: [via, ...d.via] });
      }
    }
    this.declarations.set(dir, out);
    return out;
  }

  /** The precompiled script plugins some scripts apply, also through the plugins those apply. */
  private appliedPlugins(scripts: Script[]): Script[] {
    const out: Script[] = [];
    const queue = scripts.flatMap((s) => s.facts.plugins ?? []);
    const seen = new Set<string>();
    while (queue.length > 0) {
      const use = queue.shift() as { id: string };
      if (seen.has(use.id)) continue;
      seen.add(use.id);
      const plugin = this.plugins.get(use.id);
      if (!plugin) continue;
      out.push(plugin);
      pushAll(queue, plugin.facts.plugins ?? []);
    }
    return out;
  }

  /** Names as a precompiled plugin applied in `dir` sees them: its own variables, then the applying project's. */
  private pluginScope(plugin: Script, dir: string): Scope {
    const key = `plugin\n${plugin.file}\n${dir}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      const self: Scope = (ref, skip) => {
        const def = pickDefinition(plugin.facts.definitions, ref, skip);
        if (def === "ambiguous") return def;
        if (def) return { def, file: plugin.file, scope: self, label: `${ref} (${this.rel(plugin.file)})` };
        return this.scope(dir)(ref, skip);
      };
      scope = self;
      this.scopes.set(key, scope);
    }
    return scope;
  }

  private declaration(raw: RawDependency, file: string, scope: Scope): Declaration[] {
    const single = raw.notation?.parts.length === 1 ? raw.notation.parts[0] : undefined;
    if (single && "ref" in single) {
      const fromCatalog = this.catalogDeclarations(single.ref, raw, file);
      if (fromCatalog) return fromCatalog;
    }
    let fields: (Segment[] | undefined)[];
    if (raw.notation) fields = splitNotation(resolveExpr(raw.notation, file, scope));
    else {
      fields = [raw.group, raw.artifact, raw.version].map((e) => e && resolveExpr(e, file, scope));
    }
    const [groupSegs, artifactSegs, version] = fields;
    const group = textOf(groupSegs);
    const artifact = textOf(artifactSegs);
    if (!group || !artifact) return [];
    const empty = version?.every((s) => s.text === "" && !s.unknown);
    return [{ group, artifact, version: empty ? undefined : version, raw, file, via: [] }];
  }

  /** `libs.beam.runner.flink`, `libs.bundles.beam`: undefined when the reference is not a catalog accessor. */
  private catalogDeclarations(ref: string, raw: RawDependency, file: string): Declaration[] | undefined {
    const dot = ref.indexOf(".");
    const catalog = dot > 0 ? this.catalogs.get(ref.slice(0, dot)) : undefined;
    if (!catalog) return undefined;
    const alias = ref.slice(dot + 1);
    let libraries: CatalogLibrary[];
    if (alias.startsWith("bundles.")) {
      const bundle = catalog.facts.bundles.find((b) => b.alias === alias.slice("bundles.".length));
      libraries = (bundle?.libraries ?? []).flatMap((a) => catalog.facts.libraries.filter((l) => l.alias === a));
    } else libraries = catalog.facts.libraries.filter((l) => l.alias === alias);
    const scope = this.catalogScope(catalog);
    return libraries.flatMap((lib) => {
      const group = textOf(lib.group && resolveExpr(lib.group, catalog.file, scope));
      const artifact = textOf(lib.artifact && resolveExpr(lib.artifact, catalog.file, scope));
      if (!group || !artifact) return [];
      const version = lib.version && resolveExpr(lib.version, catalog.file, scope);
      return [{ group, artifact, version, raw, file, via: [`${ref} (${this.rel(catalog.file)})`] }];
    });
  }

  private catalogScope(catalog: Catalog): Scope {
    const key = `catalog\n${catalog.file}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      const self: Scope = (ref, skip) => {
        const def = pickDefinition(catalog.facts.versions, ref, skip);
        if (!def || def === "ambiguous") return def;
        return { def, file: catalog.file, scope: self, label: `${ref} (${this.rel(catalog.file)})` };
      };
      scope = self;
      this.scopes.set(key, scope);
    }
    return scope;
  }

  /** Names as a script in `dir` sees them. */
  private scope(dir: string): Scope {
    let scope = this.scopes.get(dir);
    if (scope) return scope;
    scope = (ref, skip) => {
      const catalogVersion = /^(\w+)\.(versions\..+)$/.exec(ref);
      const catalog = catalogVersion ? this.catalogs.get(catalogVersion[1]) : undefined;
      if (catalog && catalogVersion) {
        const found = this.catalogScope(catalog)(catalogVersion[2], skip);
        return found && found !== "ambiguous" ? { ...found, label: `${ref} (${this.rel(catalog.file)})` } : found;
      }
      for (const d of this.enclosing(dir)) {
        for (const script of [...(this.scripts.get(d) ?? [])].reverse()) {
          // Script variables (`def`, `val`) are the script's own; extra properties are inherited by subprojects.
          const defs = d === dir ? script.facts.definitions : script.facts.definitions.filter((x) => !x.local);
          const found = this.bind(defs, ref, skip, script.file, d);
          if (found) return found;
        }
        const props = this.properties.get(d);
        const found = props && this.bind(props.defs, ref, skip, props.file, d);
        if (found) return found;
      }
      return undefined;
    };
    this.scopes.set(dir, scope);
    return scope;
  }

  private bind(
    defs: SymbolDefinition[],
    ref: string,
    skip: ReadonlySet<SymbolDefinition>,
    file: string,
    dir: string,
  ): Binding | "ambiguous" | undefined {
    const def = pickDefinition(defs, ref, skip);
    if (!def || def === "ambiguous") return def;
    return { def, file, scope: this.scope(dir), label: `${ref} (${this.rel(file)})` };
  }

  /** `dir` and its parent folders up to the project root, nearest first. */
  private enclosing(dir: string): string[] {
    const out = [dir];
    for (let d = dir; d !== this.root && d !== "/" && d.startsWith(this.root); ) {
      d = dirOf(d);
      out.push(d);
    }
    return out;
  }

  private rel(file: string): string {
    return relativePath(this.root, file);
  }
}

function isBazelRootFile(file: string): boolean {
  return (BAZEL_ROOT_FILES as readonly string[]).includes(file.slice(file.lastIndexOf("/") + 1));
}

/** The nearest folder at or above `dir` that is a Bazel workspace's root, else `dir` itself. */
function bazelRootOf(dir: string, roots: ReadonlySet<string>): string {
  for (let d = dir; ; d = dirOf(d)) {
    if (roots.has(d)) return d;
    if (d === "/") return dir;
  }
}
