import type { Location, RelatedLocation } from "../../findings";
import { advisoriesOfRule, firstUnaffectedVersion, matchAdvisories } from "../../knowledge/advisories";
import type { ResolvedDependency } from "../../model";
import { beamArgs } from "../../project/beam";
import { range } from "../../text";
import type { ProjectModel } from "../../workspace/project";
import { upgradeTarget } from "../build/beamVersions";
import { textAt } from "../configEdits";
import type { Rule } from "../types";

const EXPERIMENT = "use_deprecated_read";

const BUILD = (version: string) => `plugins {
    id 'java'
    id 'application'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-io-kafka:${version}"
    runtimeOnly "org.apache.beam:beam-runners-flink-1.18:${version}"
}

run {
    args = ['--runner=FlinkRunner', '--experiments=${EXPERIMENT}', '--checkpointingInterval=60000']
}
`;

/** The experiment's name inside a single-line range of a flag, else the whole range. */
function nameIn(project: ProjectModel, at: Location): Location {
  const { start, end } = at.range;
  const offset = start.line === end.line ? textAt(project, at.file, at.range).indexOf(EXPERIMENT) : -1;
  if (offset < 0) return at;
  const character = start.character + offset;
  return { file: at.file, range: range(start.line, character, start.line, character + EXPERIMENT.length) };
}

/** Where the experiment is named: Java strings (job code, tests) and flags passed from outside the code. */
function experimentUses(project: ProjectModel): Location[] {
  const flags = beamArgs(project)
    .filter((a) => a.source !== "javaString" && a.name === "experiments" && a.value?.includes(EXPERIMENT))
    .map((a) => nameIn(project, { file: a.file, range: a.valueRange ?? a.range }));
  return [...project.jobApi.useDeprecatedRead, ...flags];
}

/** The project's Flink runners on a Beam version with the restore double-read bug, and the release that fixes it. */
function affectedRunners(project: ProjectModel): { deps: ResolvedDependency[]; fixedIn?: string } {
  const records = advisoriesOfRule("BFL301");
  const deps: ResolvedDependency[] = [];
  let fixedIn: string | undefined;
  for (const dep of project.dependencies) {
    if (dep.version === undefined) continue;
    const matches = matchAdvisories(dep.group, dep.artifact, dep.version, records);
    if (matches.length === 0) continue;
    deps.push(dep);
    fixedIn ??= firstUnaffectedVersion(matches[0].advisory);
  }
  return { deps, fixedIn };
}

export const rule: Rule = {
  meta: {
    code: "BFL407",
    name: "use-deprecated-read-no-effect",
    family: "beam",
    severity: "info",
    description:
      "The `use_deprecated_read` experiment, which does not avoid the restore double-read bug of the project's Beam Flink runner.",
    fix: "none",
    docs: {
      whatItDoes:
        'Reports each place that names the `use_deprecated_read` experiment (a Java string such as `"--experiments=use_deprecated_read"` or `ExperimentalOptions.addExperiment(options, "use_deprecated_read")`, or an `--experiments=` flag in a launch configuration, a Gradle task, a script, a Dockerfile or a FlinkDeployment\'s `job.args`) when the project\'s Java Flink runner resolves to a Beam version with the restore double-read bug (BFL301: 2.52.0 up to 2.63.x).',
      whyItMatters:
        "The experiment is often added as a workaround for the double read after a restore, but it does not change anything there: the classic Flink runner converts unbounded reads to primitive reads and runs them through FlinkSource whether or not it is set, and KafkaIO already uses its legacy read on Flink. After a restore every partition is still read twice. Only a Beam upgrade (2.64.0 or newer) fixes it; the experiment can go when the upgrade lands.",
      bad: { "build.gradle": BUILD("2.57.0") },
      good: { "build.gradle": BUILD("2.64.0") },
      whenNotToFire:
        "When no Flink runner of the project is on an affected Beam version (before 2.52.0, from 2.64.0, `-job-server` artifacts).",
      references: [
        'https://github.com/apache/beam/issues/31313 ("tried with --experiments=use_deprecated_read, the behavior is the same")',
        "https://github.com/apache/beam/issues/34890",
        "https://github.com/apache/beam/pull/33606 (the fix)",
        "Beam FlinkRunner.run: SplittableParDo.convertReadBasedSplittableDoFnsToPrimitiveReadsIfNecessary unless beam_fn_api",
      ],
    },
  },
  check(ctx) {
    const { project } = ctx;
    const uses = experimentUses(project);
    if (uses.length === 0) return;
    const { deps, fixedIn } = affectedRunners(project);
    if (deps.length === 0) return;
    const versions = [...new Set(deps.map((d) => d.version))].join(", ");
    const target = upgradeTarget(project, fixedIn);
    const related: RelatedLocation[] = deps.map((d) => ({
      ...(d.versionDefinition ? { file: d.versionDefinition.file, range: d.versionDefinition.range } : d.declaration),
      message: `${d.artifact} resolves to Beam ${d.version} here.`,
    }));
    for (const use of uses) {
      ctx.report({
        file: use.file,
        range: use.range,
        message: `The ${EXPERIMENT} experiment does not avoid the restore double-read bug: every partition is still read twice.`,
        details: `The Flink runner in Beam ${versions} (BFL301, apache/beam#31313) reads Kafka through FlinkSource whether or not it is set, so after a restore every partition is still read twice. Upgrade Beam to ${target} or newer; the experiment is not needed for this.`,
        related,
      });
    }
  },
};
