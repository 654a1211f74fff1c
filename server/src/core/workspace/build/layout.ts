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
  const gradleSubproject = hasAny(files, dir, GRADLE_SCRIPTS) && !hasAny(files, dir, GRADLE_SETTINGS);
  const mavenModule = files.has(inDir(dir, "pom.xml"));
  if (!gradleSubproject && !mavenModule) return undefined;
  for (let a = dirOf(dir); ; a = dirOf(a)) {
    if (gradleSubproject && hasAny(files, a, GRADLE_SETTINGS)) return a;
    if (mavenModule && pomModules(files.text(inDir(a, "pom.xml"))).some((m) => moduleDir(a, m) === dir)) return a;
    if (a === "/") return undefined;
  }
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
