/**
 * What the build-file readers extract, before anything is resolved: declarations and symbol definitions with
 * their source ranges. Resolution (variables, properties, catalogs, parents, BOMs) happens per project in
 * workspace/buildModel.ts, because a version is often defined in another file than the one that uses it.
 */
import type { Range } from "../../text";

/** Literal text as written in the file; `range` covers exactly that text (inside the quotes). */
export interface TextPart {
  text: string;
  range: Range;
  /**
   * False when the source text differs from `text` (escapes, a line break inside): the range then covers the
   * whole literal and no sub-range can be derived from it.
   */
  exact: boolean;
}

/**
 * A reference to a symbol: a Gradle variable or project property (`beamVersion`, `versions.beam`), a catalog
 * entry (`libs.versions.beam`, `libs.beam.runner.flink`), a Maven property (`beam.version`). `range` covers the
 * reference as written (`${beam.version}`, `$beamVersion`, `libs.versions.beam.get()`).
 */
export interface RefPart {
  ref: string;
  range: Range;
}

/** Something only running the build can tell: a method call, a condition, an environment variable. */
export interface ComputedPart {
  computed: true;
  range: Range;
}

export type ValuePart = TextPart | RefPart | ComputedPart;

/** A value as written: literal text, references and computed pieces in sequence (`"g:a:${v}"` has two). */
export interface ValueExpr {
  parts: ValuePart[];
  range: Range;
}

/** A symbol definition: a Gradle variable / extra property / gradle.properties entry, or a Maven property. */
export interface SymbolDefinition {
  name: string;
  value: ValueExpr;
  /** The name as written. */
  nameRange: Range;
  /** Inside an `if`, loop or `try` block: the build may or may not run it. */
  conditional?: boolean;
  /** A script-local variable (`def`, `val`): not visible to subprojects, unlike extra properties. */
  local?: boolean;
}

/** A dependency (or constraint, or BOM import) as declared. */
export interface RawDependency {
  /** `group:artifact[:version]` string notation (Gradle), split after resolution (the artifact may be a variable). */
  notation?: ValueExpr;
  /** Separate coordinates (Gradle map / 3-argument notation, catalog tables, Maven elements). */
  group?: ValueExpr;
  artifact?: ValueExpr;
  version?: ValueExpr;
  /**
   * Where the artifact is named: the coordinate string (inside the quotes), the `name` argument, the catalog
   * accessor or variable, the Maven `<artifactId>` value.
   */
  range: Range;
  /** `platform(…)`, `enforcedPlatform(…)`, or a Maven `<scope>import</scope>` `<type>pom</type>` entry. */
  platform: boolean;
  /** Gradle `constraints { }` and Maven `<dependencyManagement>`: sets versions without adding a dependency. */
  managed: boolean;
  /** Gradle configuration or Maven scope, when written. */
  scope?: string;
}

/** A plugin a script applies by id (`plugins { id("my.beam-conventions") }`, `apply plugin: 'x'`). */
export interface PluginUse {
  id: string;
  /** The id as written, inside the quotes. */
  range: Range;
}

export interface GradleFacts {
  kind: "gradle";
  /**
   * sbt builds (`build.sbt`, `project/*.scala`) give the same facts: module IDs and string `val`s; so do Bazel
   * builds (`MODULE.bazel`, `WORKSPACE`, `.bzl` files): Maven coordinates and string constants.
   */
  dsl: "groovy" | "kotlin" | "sbt" | "bazel";
  /** Variables and extra properties, in source order. */
  definitions: SymbolDefinition[];
  dependencies: RawDependency[];
  /** Plugins the script applies by id. */
  plugins: PluginUse[];
  /**
   * Set for a precompiled script plugin (`buildSrc/src/main/kotlin/<id>.gradle.kts`): the id modules apply it by.
   * Such a script is not a module of its own; its dependencies are added to every module that applies it.
   */
  pluginId?: string;
}

export interface GradlePropertiesFacts {
  kind: "gradleProperties";
  definitions: SymbolDefinition[];
}

export interface CatalogLibrary {
  alias: string;
  /** `module = "g:a"` or the `"g:a:v"` shorthand split into parts, or `group` / `name`. */
  group?: ValueExpr;
  artifact?: ValueExpr;
  /** A literal or a `version.ref` (then a RefPart named `versions.<name>`); absent for BOM-managed entries. */
  version?: ValueExpr;
  /** The alias key as written. */
  range: Range;
}

export interface VersionCatalogFacts {
  kind: "versionCatalog";
  /** The accessor name in build scripts: `libs` for libs.versions.toml. */
  name: string;
  /** `[versions]` entries, named `versions.<name>` so library refs and `libs.versions.x` share one namespace. */
  versions: SymbolDefinition[];
  libraries: CatalogLibrary[];
  bundles: { alias: string; libraries: string[]; range: Range }[];
}

export interface PomCoordinates {
  groupId?: ValueExpr;
  artifactId?: ValueExpr;
  version?: ValueExpr;
}

export interface PomProfile {
  id: string;
  idRange: Range;
  activeByDefault: boolean;
  properties: SymbolDefinition[];
  dependencies: RawDependency[];
}

/** Modules are not recorded here: which build a folder belongs to is read from the text (workspace/build/layout.ts). */
export interface PomFacts {
  kind: "maven";
  project: PomCoordinates & { packaging?: string };
  parent?: PomCoordinates & { relativePath?: string; range: Range };
  properties: SymbolDefinition[];
  /** Dependencies and `<dependencyManagement>` entries (managed: true). */
  dependencies: RawDependency[];
  profiles: PomProfile[];
}

export type BuildFacts = GradleFacts | GradlePropertiesFacts | VersionCatalogFacts | PomFacts;
