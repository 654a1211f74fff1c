import { addTo } from "../../arrays";
import type { RelatedLocation } from "../../findings";
import { compareMavenVersions } from "../../knowledge/mavenVersion";
import type { ResolvedDependency } from "../../model";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { alignFix, type BeamBuild, beamBuilds, type VersionSite } from "./beamVersions";

const BUILD = (runnerVersion: string) => `plugins {
    id 'java'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-core:\${beamVersion}"
    implementation "org.apache.beam:beam-sdks-java-io-kafka:\${beamVersion}"
    runtimeOnly "org.apache.beam:beam-runners-flink-1.19:${runnerVersion}"
}
`;

function key(site: VersionSite): string {
  const at = site.at.range.start;
  return `${site.at.file}\u0000${at.line}:${at.character}`;
}

const isGradle = (file: string) => /\.(gradle|gradle\.kts|toml|properties)$/.test(file);

/**
 * The sites whose versions the build really uses. Gradle's conflict resolution lets a `platform(…)` raise a
 * dependency declared with an older version to the platform's (the highest requested version wins), so such a
 * site does not make the build mixed; with Maven the version written on the dependency wins over the BOM.
 */
function effectiveSites(build: BeamBuild): VersionSite[] {
  const floors = build.sites
    .filter((s) => s.dependencies.some((d) => d.platform && isGradle(d.declaration.file)))
    .map((s) => s.version)
    .sort(compareMavenVersions);
  const floor = floors[floors.length - 1];
  if (floor === undefined) return build.sites;
  return build.sites.filter(
    (s) =>
      compareMavenVersions(s.version, floor) >= 0 ||
      !s.dependencies.every((d) => !d.platform && isGradle(d.declaration.file)),
  );
}

function artifacts(deps: ResolvedDependency[]): string {
  return [...new Set(deps.map((d) => d.artifact))].join(", ");
}

function buildName(b: BeamBuild): string {
  const parts: string[] = [];
  if (b.module) parts.push(`module ${b.module}`);
  if (b.profile) parts.push(`profile ${b.profile}`);
  return parts.join(", ");
}

export const rule: Rule = {
  meta: {
    code: "BFL305",
    name: "mixed-beam-versions",
    family: "build",
    severity: "error",
    description: "Beam artifacts of one build resolve to different Beam releases.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Resolves every `org.apache.beam` artifact of each build (a module with its BOMs and platforms, its version catalog and properties, its precompiled convention plugins; with Maven, also each profile) and reports the build when they resolve to different Beam versions. The finding points at the place that defines the oldest version; the places that define the others are related information. `beam-vendor-*` artifacts have their own version line and are not compared.",
      whyItMatters:
        "Beam's Java artifacts are built and released together: the runner, the SDK core and the IO modules of one release call each other's internal APIs, which change between releases. On one classpath, artifacts of different releases fail when the job starts or while it runs (NoSuchMethodError, missing classes, coders that no longer match), and the build tool silently picks one version of the shared ones. It also hides a known bug: upgrading only the runner (for example to leave BFL301's window) leaves a build that looks upgraded but is not one Beam release. The fix writes the newest version at every place an older one is defined; it is unsafe because it upgrades Beam for the other artifacts, which can change the job's savepoint state.",
      bad: { "build.gradle": BUILD("2.64.0"), "gradle.properties": "beamVersion=2.56.0\n" },
      good: { "build.gradle": BUILD("2.64.0"), "gradle.properties": "beamVersion=2.64.0\n" },
      whenNotToFire:
        "Different modules of a multi-project build pinned to different Beam versions (each module is a build of its own and is judged alone); different Maven profiles (each activation is judged alone); `beam-vendor-*` artifacts; versions the build computes (ranges, dynamic versions, method calls).",
      references: [
        "https://beam.apache.org/documentation/sdks/java-dependencies/ (Beam SDK for Java dependencies)",
        "Beam blog, Managing Beam dependencies in Java (2023-06-23): the BOM keeps every Beam artifact at one release",
      ],
    },
  },
  check(ctx) {
    const reported = new Map<string, string[]>();
    const pending: { id: string; build: BeamBuild; lowest: VersionSite; others: VersionSite[]; highest: string }[] = [];
    for (const build of beamBuilds(ctx.project)) {
      const sites = effectiveSites(build);
      const versions = [...new Set(sites.map((s) => s.version))].sort(compareMavenVersions);
      if (versions.length < 2) continue;
      const highest = versions[versions.length - 1];
      const lowest = sites.find((s) => s.version === versions[0]) as VersionSite;
      const others = sites.filter((s) => s !== lowest);
      const id = [lowest, ...others].map(key).sort().join("\n");
      const names = reported.get(id);
      if (names) {
        names.push(buildName(build));
        continue;
      }
      reported.set(id, [buildName(build)]);
      pending.push({ id, build, lowest, others, highest });
    }
    for (const { id, build, lowest, others, highest } of pending) {
      const byVersion = new Map<string, VersionSite[]>();
      for (const s of [lowest, ...others]) addTo(byVersion, s.version, s);
      const versions = [...byVersion.keys()].sort(compareMavenVersions);
      const listed = versions
        .map((v) => `${v} (${artifacts((byVersion.get(v) ?? []).flatMap((s) => s.dependencies))})`)
        .join(", ");
      const names = (reported.get(id) ?? []).filter((n) => n !== "");
      const where = names.length > 0 ? ` in ${names.join("; ")}` : "";
      const behind = [lowest, ...others].filter((s) => compareMavenVersions(s.version, highest) < 0);
      const fix = alignFix(ctx.project, behind, highest, `Align every Beam artifact at ${highest}`);
      const related: RelatedLocation[] = [
        ...others.map((s) => ({
          ...s.at,
          message: `Beam ${s.version} is defined here for ${artifacts(s.dependencies)}.`,
        })),
        ...lowest.dependencies.map((d) => ({
          ...d.declaration,
          message: `${d.artifact} gets Beam ${lowest.version}${d.via.length > 0 ? ` via ${d.via.join(" → ")}` : ""}.`,
        })),
      ];
      ctx.report({
        file: lowest.at.file,
        range: lowest.at.range,
        message: fitting(
          `Beam artifacts of one build resolve to different releases${where}: the job fails at start or at run time.`,
          "Beam artifacts of one build resolve to different releases: the job fails at start or at run time.",
        ),
        details: `The releases: ${listed}. Beam's artifacts only work with those of their own release: on one classpath they fail with NoSuchMethodError, missing classes or coders that no longer match. Define one Beam version (${highest}) for every Beam artifact${build.dependencies.some((d) => d.platform) ? "" : ", or import the Beam BOM (beam-sdks-java-bom) once"}.`,
        related,
        fixes: fix ? [fix] : [],
      });
    }
  },
};
