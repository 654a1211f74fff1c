import type { Rule } from "../types";
import { reportAdvisories } from "./advisoryFindings";

const BUILD = `plugins {
    id 'java'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-core:\${beamVersion}"
    implementation "org.apache.beam:beam-sdks-java-io-kafka:\${beamVersion}"
    runtimeOnly "org.apache.beam:beam-runners-flink-1.17:\${beamVersion}"
}
`;

export const rule: Rule = {
  meta: {
    code: "BFL301",
    name: "beam-restore-duplicate-splits",
    family: "build",
    severity: "error",
    description:
      "A Beam version whose Flink runner reads every source split twice after a restore from a checkpoint, a savepoint or a JobManager failover.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        'Reports a Beam version from 2.52.0 up to 2.63.x that a Java Flink runner (`beam-runners-flink-<minor>`) resolves to, at the place where the version is defined: the literal, the Gradle property or variable, the version catalog entry, the Maven property (also in a parent POM or a profile) or the BOM version. Each affected runner artifact is related information; one definition that feeds several modules or profiles is one finding. 2.52.0–2.62.x is an error; 2.63.x is a warning ("may still have"), because whether the fix made it into that release is not settled (see below). When the project has Beam pipelines and none of them streams (no unbounded KafkaIO read, no unbounded IO such as PubsubIO or KinesisIO, no `streaming` option), the finding is information: a batch pipeline does not restore from checkpoints, so only a streaming job built elsewhere with the same dependency meets the bug. The message names Kafka messages unless the job code was read and reads no Kafka (a KinesisIO or PubsubIO pipeline): then it speaks of the messages of the unbounded sources. The records behind the rule are in docs/advisories.md.',
      whyItMatters:
        "From 2.52.0 the Flink runner reads unbounded sources (KafkaIO, KinesisIO, PubsubIO …) through FlinkSource by default, without any experiment flag. When the job restores from a checkpoint or savepoint, or a new JobManager takes over after a failover, the split enumerator assigns every split again to readers that have already restored it: each Kafka partition gets two readers, and every message is read and processed twice. An exactly-once sink does not remove these duplicates; they are real input records.\n\nWhat does not help: `--experiments=use_deprecated_read`; the runner converts reads to primitive reads and runs them through FlinkSource whether or not it is set (tried and confirmed in apache/beam#31313). What does help, at a cost: `--experiments=beam_fn_api`, which the reporter of apache/beam#31313 confirmed fixed the duplicates. It switches how Read is expanded (KafkaIO then runs as a splittable DoFn behind an Impulse), so the job graph changes and the old source state is not reused (plan a start without it), the reporter saw heavy back pressure, and `commitOffsetsInFinalize()` then needs Beam's `checkpointingInterval` > 0. On Beam 2.58.0 the flag is no way out: it routes KafkaIO into the splittable-DoFn read that apache/beam#32196 makes emit duplicates (BFL308).\n\nWhich release has the fix: apache/beam PR #33606 was opened on 2025-01-15 and reviewed on 2025-01-16; the 2.63.0 release candidate's documentation followed on 2025-02-05. The fix's author is listed among the 2.63.0 contributors (\"according to git shortlog\") and not among 2.64.0's, which points to 2.63.0, but neither release's notes mention the fix. So 2.63.x is reported as possibly affected and 2.64.0 is the recommended target.\n\nThe fix upgrades Beam where the version is defined, so every module follows; it is unsafe because a Beam upgrade can change the job's savepoint state: test that the upgraded job restores from a savepoint of the current one.",
      bad: { "build.gradle": BUILD, "gradle.properties": "beamVersion=2.56.0\n" },
      good: { "build.gradle": BUILD, "gradle.properties": "beamVersion=2.64.0\n" },
      whenNotToFire:
        "Beam before 2.52.0 and from 2.64.0; `beam-runners-flink-<minor>-job-server` artifacts and Python pipelines (the portable translator does not use FlinkSource in these releases); versions only the build can compute (Maven version ranges, Gradle dynamic versions, values from method calls).",
      references: [
        "https://github.com/apache/beam/issues/31313",
        "https://github.com/apache/beam/issues/34890",
        "https://github.com/apache/beam/pull/33606 (the fix)",
        "https://github.com/apache/beam/pull/28614 (FlinkSource became the default read path in 2.52.0)",
        "Beam release blogs 2.63.0 and 2.64.0 (website/www/site/content/en/blog/beam-2.63.0.md, beam-2.64.0.md): contributor lists; neither mentions the fix",
        "https://github.com/apache/beam/issues/32196 (why `--experiments=beam_fn_api` does not help on 2.58.0)",
      ],
    },
  },
  check(ctx) {
    reportAdvisories(ctx, "BFL301");
  },
};
