import {
  flinkMinorsFor,
  isFlinkRunner,
  isRunnerPublished,
  runnerAvailability,
  runnerFlinkMinor,
} from "../../knowledge/beamMatrix";
import { compareMavenVersions } from "../../knowledge/mavenVersion";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { versionSites } from "./beamVersions";

const BUILD = `plugins {
    id 'java'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-core:\${beamVersion}"
    runtimeOnly "org.apache.beam:beam-runners-flink-1.19:\${beamVersion}"
}
`;

/** When Beam has, had or will have the runner, for the message. */
function availability(minor: string, version: string): string {
  const artifact = `beam-runners-flink-${minor}`;
  const r = runnerAvailability(minor);
  if (!r) return `no Beam release publishes ${artifact}`;
  if (compareMavenVersions(version, r.since) < 0) return `${artifact} exists from Beam ${r.since}`;
  return `${artifact} was dropped in Beam ${r.removedIn}`;
}

export const rule: Rule = {
  meta: {
    code: "BFL304",
    name: "runner-artifact-not-published",
    family: "build",
    severity: "error",
    description: "A Beam Flink runner artifact that Beam does not publish for the Beam version the build asks for.",
    fix: "none",
    docs: {
      whatItDoes:
        "Checks each `beam-runners-flink-<minor>` artifact against the Beam ↔ Flink matrix (which Flink minors each Beam release has a runner for) and reports the Beam version where it is defined, with the runner artifacts that do not exist for it as related information. Examples: `beam-runners-flink-1.19` before Beam 2.61.0, `-1.20` before 2.70.0, `-2.0` before 2.72.0, `-1.17` from 2.75.0.",
      whyItMatters:
        'The build cannot resolve an artifact that was never published ("Could not find artifact org.apache.beam:beam-runners-flink-1.19:jar:2.60.0"), and a runner dropped from a release is not upgraded with the rest of Beam. The fix is a pair that exists: a newer Beam for a new Flink minor, or the runner of a Flink minor that release still has (and the cluster moved to it).',
      bad: { "build.gradle": BUILD, "gradle.properties": "beamVersion=2.60.0\n" },
      good: { "build.gradle": BUILD, "gradle.properties": "beamVersion=2.64.0\n" },
      whenNotToFire:
        "Beam versions outside the matrix's span (older than 2.10.0, or newer than the newest release it describes) for Flink minors it does not list: a newer Beam may have added them. `-job-server` artifacts; runner names or versions the build computes.",
      references: [
        "https://beam.apache.org/documentation/runners/flink/ (Flink version compatibility)",
        "https://github.com/apache/beam/issues/32647 (Flink 1.20 runner)",
        "https://github.com/apache/beam/issues/36947 (Flink 2.0 runner)",
      ],
    },
  },
  check(ctx) {
    for (const site of versionSites(ctx.project)) {
      const missing = site.dependencies.filter((d) => {
        const minor = isFlinkRunner(d.group, d.artifact) ? runnerFlinkMinor(d.artifact) : undefined;
        return minor !== undefined && isRunnerPublished(site.version, minor) === false;
      });
      if (missing.length === 0) continue;
      const minors = [...new Set(missing.map((d) => runnerFlinkMinor(d.artifact) as string))];
      const artifacts = minors.map((m) => `beam-runners-flink-${m}`).join(" and ");
      const published = flinkMinorsFor(site.version);
      const has =
        published && published.length > 0 ? ` Beam ${site.version} has Flink runners for ${published.join(", ")}.` : "";
      ctx.report({
        file: site.at.file,
        range: site.at.range,
        message: fitting(
          `Beam ${site.version} does not publish ${artifacts}: the build cannot resolve it.`,
          `Beam ${site.version} does not publish this runner: the build cannot resolve it.`,
        ),
        details: `${minors.map((m) => availability(m, site.version)).join("; ")}.${has} Pick a Beam version that has the runner for your Flink minor, or the runner of a Flink minor this version has.`,
        related: missing.map((d) => ({
          ...d.declaration,
          message: `${d.artifact} does not exist for Beam ${site.version}.`,
        })),
      });
    }
  },
};
