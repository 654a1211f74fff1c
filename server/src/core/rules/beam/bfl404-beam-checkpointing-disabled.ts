import type { Fix, Location, RelatedLocation } from "../../findings";
import type { BeamKafkaRead, JobCode, OptionsCreation } from "../../jobcode/facts";
import { longText, replaceValueEdit, setBeamOptionEdit } from "../../jobcode/intents";
import { long } from "../../jobcode/render";
import {
  fileMayStream,
  isStreaming,
  jobReads,
  type OptionValue,
  optionAppliesTo,
  optionValues,
  type Runner,
  runnerNamedIn,
  runnerOf,
} from "../../project/beam";
import { checkpointing, clustersOf } from "../../project/clusters";
import { codeOf, productionCode } from "../../project/jobCode";
import type { ProjectModel } from "../../workspace/project";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { flinkJob } from "./exampleFiles";
import { fixOf, place, relatedAt } from "./pipelines";

const OPTION = "checkpointingInterval";

const job = (setInterval: string) => `package com.example;

import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.kafka.common.serialization.StringDeserializer;

public class OrdersPipeline {
  public static void main(String[] args) {
    FlinkPipelineOptions options = PipelineOptionsFactory.fromArgs(args).as(FlinkPipelineOptions.class);${setInterval}
    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply(
        KafkaIO.<String, String>read()
            .withBootstrapServers("kafka:9092")
            .withTopic("orders")
            .withKeyDeserializer(StringDeserializer.class)
            .withValueDeserializer(StringDeserializer.class)
            .withConsumerConfigUpdates(java.util.Map.of("group.id", "orders-consumer"))
            .commitOffsetsInFinalize());
    pipeline.run();
  }
}
`;

/** A checkpoint interval that a cluster configuration sets, which Beam's own logic does not see. */
function clusterInterval(project: ProjectModel): { label: string; related: RelatedLocation } | undefined {
  for (const cluster of clustersOf(project)) {
    const state = checkpointing(cluster);
    if (state.kind !== "on") continue;
    if (state.setting) {
      const { entry, config } = state.setting;
      const label = `${entry.key} ${entry.value} in ${place({ file: config.file, range: entry.valueRange })}`;
      return {
        label,
        related: {
          file: config.file,
          range: entry.valueRange,
          message: `The cluster configuration sets ${entry.key} here.`,
        },
      };
    }
    const upgradeMode = cluster.deployment?.upgradeMode;
    if (upgradeMode && cluster.deployment) {
      const kind = cluster.deployment.kind;
      const message = `The Flink Kubernetes Operator sets a 5 min checkpoint interval for this last-state ${kind}.`;
      return {
        label: `The operator's 5 min interval for a last-state ${kind}`,
        related: relatedAt(upgradeMode, message),
      };
    }
  }
  return undefined;
}

/** Where a finding about a job class without the option points: its options, else its `Pipeline.create`. */
function anchorOf(java: JobCode): { at: Location; creation?: OptionsCreation } | undefined {
  const creations = java.beamOptions.creations;
  const creation = creations.find((c) => c.variable && c.insertion) ?? creations[0];
  if (creation) return { at: creation, creation };
  const pipeline = java.beamOptions.pipelines[0];
  return pipeline ? { at: pipeline } : undefined;
}

function insertFix(creation: OptionsCreation | undefined, millis: number): Fix | undefined {
  if (!creation) return undefined;
  const flinkTyped =
    creation.declaredType === "FlinkPipelineOptions" ||
    (!creation.declaredType && creation.asClass === "FlinkPipelineOptions");
  // A variable of a generic options type needs the Flink view for the setter.
  const view =
    flinkTyped || !creation.variable || creation.language === "python"
      ? undefined
      : creation.language === "scala"
        ? `${creation.variable}.as(classOf[org.apache.beam.runners.flink.FlinkPipelineOptions])`
        : creation.language === "kotlin"
          ? `${creation.variable}.\`as\`(org.apache.beam.runners.flink.FlinkPipelineOptions::class.java)`
          : `${creation.variable}.as(org.apache.beam.runners.flink.FlinkPipelineOptions.class)`;
  const insert = setBeamOptionEdit(creation, "checkpointingInterval", long(millis), view);
  if (!insert) return undefined;
  return fixOf(`Checkpoint every ${millis} ms: ${insert.text}`, "unsafe", [{ file: creation.file, edit: insert.edit }]);
}

function replaceFix(project: ProjectModel, v: OptionValue, millis: number): Fix {
  const language = codeOf(project, v.file)?.language ?? "java";
  const edit = v.setting
    ? replaceValueEdit(language, v.setting.value, long(millis)).edit
    : { range: v.range, newText: String(millis) };
  return fixOf(`Checkpoint every ${millis} ms`, "unsafe", [{ file: v.file, edit }]);
}

/** What a missing interval does to pipelines with these reads: the severity and the words of the finding. */
function consequences(
  reads: BeamKafkaRead[],
  runner: Runner,
  cluster: ReturnType<typeof clusterInterval>,
): { severity: "error" | "warning"; outcome: string; effect: string; related: RelatedLocation[] } {
  const commits = reads.flatMap((r) => (r.commitOffsetsInFinalize ? [r.commitOffsetsInFinalize] : []));
  const severity = commits.some((c) => !c.conditional) && !cluster ? "error" : "warning";
  const outcome = cluster
    ? "Beam treats checkpointing as off"
    : commits.length > 0
      ? "the Flink runner takes no checkpoints and commits no offsets"
      : "the Flink runner takes no checkpoints";
  const effect = cluster
    ? `. ${cluster.label} may make Flink checkpoint (only if the configuration the job is submitted with contains it), but Beam still treats checkpointing as off: idle source readers shut down at once and transforms that need stable input are rejected${commits.length > 0 ? ", and the offset commits in finalize depend on checkpoints the runner did not ask for" : ""}.`
    : commits.length > 0
      ? ", so the Flink runner takes no checkpoints: commitOffsetsInFinalize() never commits an offset (commits happen when a checkpoint completes), and after any failure the pipeline restarts without state from auto.offset.reset."
      : ", so the Flink runner takes no checkpoints: after any failure or restart the pipeline loses its state and its Kafka reads start over from the committed offsets or auto.offset.reset, re-reading or skipping data.";
  const related: RelatedLocation[] = [
    ...(runner.evidence ? [runner.evidence] : []),
    ...(cluster ? [cluster.related] : []),
    ...commits.map((c) => relatedAt(c, "Offsets are committed in finalize here.")),
  ];
  return { severity, outcome, effect, related };
}

/** The effect clause (", so …" or ". …") as a sentence of its own. */
function sentenceOf(effect: string): string {
  const text = effect.replace(/^[.,]\s*/, "");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** How the message tells a job class to set the option, in its own language. */
function adviceFor(code: JobCode, millis: number): string {
  if (code.language === "python") return `Pass --checkpointing_interval=${millis} to the pipeline options.`;
  const setter =
    code.language === "kotlin"
      ? `options.${OPTION} = ${longText(code.language, millis)}`
      : `options.setCheckpointingInterval(${longText(code.language, millis)})`;
  return `Set it on the pipeline options: ${setter}, or pass --${OPTION}=${millis}.`;
}

export const rule: Rule = {
  meta: {
    code: "BFL404",
    name: "beam-checkpointing-disabled",
    family: "beam",
    severity: "error",
    description: "A streaming Beam pipeline on the Flink runner whose `checkpointingInterval` option is not set.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        'Reports a streaming Beam pipeline on the Flink runner whose Beam option `checkpointingInterval` is set nowhere in the project: not in code (`setCheckpointingInterval`), not as a flag (`--checkpointingInterval=` in a Java string, `.vscode/launch.json`, a Gradle `run` task, a shell script, a Dockerfile, a FlinkDeployment\'s `job.args`), or only to -1. The finding is on the pipeline options of each job class. Each job file is judged on the settings that may apply to it: its own, those of a file that creates no pipelines itself (a shared options helper), those of another job (its setters and the flags it writes itself) only when it names that job, and flags of launch files unless their file names other jobs and not this one; so the `setCheckpointingInterval` of one job does not vouch for the others. It is an error when a read always commits offsets in finalize and nothing enables checkpointing, a warning otherwise, also when only a cluster configuration (`execution.checkpointing.interval`) sets an interval. The runner is Flink when code or a flag names `FlinkRunner`, or when a Flink runner is the only Beam runner the build puts on the classpath; a job file that names its own runner (`options.setRunner(DirectRunner.class)`, `runner="DirectRunner"`) is judged on that runner. The pipeline streams when it has an unbounded read or sets `streaming`; a job file whose own Kafka reads are all bounded is batch, whatever other files of the project read, and so is one that reads no Kafka itself, shows no unbounded source of its own and names no file whose reads stream (a batch report beside a Kafka helper it never calls).',
      whyItMatters:
        "Beam's `checkpointingInterval` defaults to -1, which means no checkpointing: the Flink runner never takes a checkpoint, so after any failure the pipeline restarts without state, and `commitOffsetsInFinalize()` never commits an offset, because offsets are committed when a checkpoint completes. A cluster-side `execution.checkpointing.interval` only applies if the configuration the job is submitted with contains it, and even then Beam believes checkpointing is off: idle source readers shut down at once, transforms that need stable input (KafkaIO's exactly-once sink) are rejected. The fix inserts `options.setCheckpointingInterval(60_000L);` after the options are created (the interval comes from `checkpointInterval` in the project configuration); it is unsafe because checkpoints need a reachable checkpoint storage and change the job's run-time behaviour.",
      bad: flinkJob(job("")),
      good: flinkJob(job("\n    options.setCheckpointingInterval(60_000L);")),
      whenNotToFire:
        "When the option is set anywhere in the project (also only in a FlinkDeployment's `job.args`, or to a value only known at run time, or in a branch); pipelines on other runners (DirectRunner, Dataflow) or whose runner cannot be told; batch pipelines (bounded reads only); test sources.",
      references: [
        'Beam FlinkPipelineOptions.getCheckpointingInterval: default -1, "Default: No checkpointing."',
        "Beam FlinkExecutionEnvironments.configureCheckpointing (acts only when checkpointingInterval != -1)",
        "https://github.com/apache/beam/issues/21318 (cluster execution.checkpointing.interval, no checkpoints for a Beam job)",
        "https://github.com/apache/beam/pull/31186 (cluster checkpoint settings not used for Beam pipelines without --flinkConfDir)",
        "https://github.com/apache/beam/issues/30539 (offsets committed in finalize on the Flink runner)",
      ],
    },
  },
  check(ctx) {
    const { project } = ctx;
    const runner = runnerOf(project);
    if (runner.kind !== "flink" || !isStreaming(project)) return;
    const values = optionValues(project, OPTION);
    // Values that may turn checkpointing on: each counts for the job files it may apply to.
    const enabling = values.filter((v) => v.unknown || v.number !== -1);
    const millis = project.config.checkpointIntervalMillis;
    const cluster = clusterInterval(project);
    if (values.length > 0 && enabling.length === 0) {
      const { severity, outcome, effect, related } = consequences(jobReads(project), runner, cluster);
      for (const v of values) {
        ctx.report({
          file: v.file,
          range: v.range,
          message: fitting(
            `${OPTION} ${v.text} turns Beam's checkpointing off, so ${outcome}.`,
            `This value turns Beam's checkpointing off, so ${outcome}.`,
          ),
          details: `${sentenceOf(effect)} Set a positive interval in milliseconds, e.g. ${millis}.`,
          severity,
          related,
          fixes: [replaceFix(project, v, millis)],
        });
      }
      return;
    }
    for (const java of productionCode(project)) {
      if (java.beamOptions.pipelines.length === 0) continue;
      // Each job file is judged on its own runner and its own reads when it names or has them.
      const own = runnerNamedIn(project, java.file) ?? runner;
      if (own.kind !== "flink" || !fileMayStream(project, java)) continue;
      if (enabling.some((v) => optionAppliesTo(project, v, java))) continue;
      const anchor = anchorOf(java);
      if (!anchor) continue;
      const reads = java.kafkaReads.length > 0 ? java.kafkaReads : jobReads(project);
      const { severity, outcome, effect, related } = consequences(reads, own, cluster);
      const fix = insertFix(anchor.creation, millis);
      ctx.report({
        file: anchor.at.file,
        range: anchor.at.range,
        message: `Beam's ${OPTION} option is never set, so ${outcome}.`,
        details: `Its default -1 means no checkpointing${effect} ${adviceFor(java, millis)}`,
        severity,
        related,
        fixes: fix ? [fix] : [],
      });
    }
  },
};
