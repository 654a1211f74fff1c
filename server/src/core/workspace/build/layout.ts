/**
 * Which build a folder belongs to. A Gradle subproject (its own build script, no settings file) belongs to the
 * nearest enclosing folder with a settings file; a Maven module belongs to the enclosing pom that lists it in
 * `<modules>` (in any profile). Both repeat up to the top build, which is the project root.
 */
import { withoutXmlComments } from "../../documents/build/xml";
import { dirOf, joinPath } from "./resolve";

export interface LayoutFiles {
  has(file: string): boolean;
  text(file: string): string | undefined;
}

const GRADLE_SCRIPTS = ["build.gradle", "build.gradle.kts"];
const GRADLE_SETTINGS = ["settings.gradle", "settings.gradle.kts"];

/** The root of the top build `dir` is a part of (`dir` itself when no enclosing build includes it). */
export function topBuildOf(dir: string, files: LayoutFiles): string {
  let current = dir;
  for (let up = includingBuild(current, files); up !== undefined; up = includingBuild(current, files)) current = up;
  return current;
}

function includingBuild(dir: string, files: LayoutFiles): string | undefined {
  const gradleBuild = gradleBuildIncluding(dir, files);
  if (gradleBuild) return gradleBuild;
  const gradleSubproject = hasAny(files, dir, GRADLE_SCRIPTS) && !hasAny(files, dir, GRADLE_SETTINGS);
  const mavenModule = files.has(inDir(dir, "pom.xml"));
  if (!gradleSubproject && !mavenModule) return undefined;
  for (let a = dirOf(dir); ; a = dirOf(a)) {
    if (gradleSubproject && hasAny(files, a, GRADLE_SETTINGS)) return a;
    if (mavenModule && pomModules(files.text(inDir(a, "pom.xml"))).some((m) => moduleDir(a, m) === dir)) return a;
    if (a === "/") return undefined;
  }
}

/**
 * The Gradle build whose build logic a folder holds: `buildSrc` belongs to the build in its parent folder, and a
 * folder named by `includeBuild("build-logic")` in an enclosing settings file belongs to that build (its
 * precompiled script plugins are applied by that build's modules).
 */
function gradleBuildIncluding(dir: string, files: LayoutFiles): string | undefined {
  if (dir === "/") return undefined;
  const parent = dirOf(dir);
  if (dir.slice(dir.lastIndexOf("/") + 1) === "buildSrc") {
    if (hasAny(files, parent, GRADLE_SETTINGS) || hasAny(files, parent, GRADLE_SCRIPTS)) return parent;
  }
  if (!hasAny(files, dir, GRADLE_SCRIPTS) && !hasAny(files, dir, GRADLE_SETTINGS)) return undefined;
  for (let a = parent; ; a = dirOf(a)) {
    for (const name of GRADLE_SETTINGS) {
      const settings = files.text(inDir(a, name));
      if (includedBuilds(settings).some((b) => joinPath(a, b) === dir)) return a;
      // A folder with a settings file of its own that an enclosing settings file includes as a subproject
      // (`include(":apps:prometheus")`) is a part of that build when it is built from there.
      if (includedProjects(settings).some((p) => joinPath(a, p) === dir)) return a;
    }
    if (a === "/") return undefined;
  }
}

/** The folders of the subprojects a settings file includes (`include(":apps", ":apps:job")` → apps, apps/job). */
export function includedProjects(text: string | undefined): string[] {
  if (!text?.includes("include")) return [];
  const bare = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  const out: string[] = [];
  for (const m of bare.matchAll(/\binclude\s*\(?((?:\s*["'][^"'\n]+["']\s*,?)+)/g))
    for (const q of m[1].matchAll(/["']([^"'\n]+)["']/g)) {
      const path = q[1].trim().replace(/^:/, "").replace(/:/g, "/");
      if (path !== "") out.push(path);
    }
  return out;
}

/** `includeBuild("build-logic")` / `includeBuild 'build-logic'` entries of a settings file (comments removed). */
export function includedBuilds(text: string | undefined): string[] {
  if (!text?.includes("includeBuild")) return [];
  const bare = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  return [...bare.matchAll(/\bincludeBuild\s*\(?\s*["']([^"'\n]+)["']/g)].map((m) => m[1].trim().replace(/\/$/, ""));
}

/** `<module>` entries of a pom, read with a cheap scan (comments removed); called for every lookup of a root. */
export function pomModules(text: string | undefined): string[] {
  if (!text?.includes("<module>")) return [];
  const bare = withoutXmlComments(text);
  return [...bare.matchAll(/<module>([^<]*)<\/module>/g)].map((m) => m[1].trim());
}

function moduleDir(parent: string, module: string): string {
  const path = joinPath(parent, module);
  return path.endsWith(".xml") ? dirOf(path) : path;
}

function hasAny(files: LayoutFiles, dir: string, names: string[]): boolean {
  return names.some((n) => files.has(inDir(dir, n)));
}

function inDir(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}
