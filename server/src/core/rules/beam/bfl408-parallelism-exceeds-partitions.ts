import type { Location, RelatedLocation } from "../../findings";
import type { BeamKafkaRead } from "../../jobcode/facts";
import { jobReads, optionValues, runnerOf } from "../../project/beam";
import { clustersOf, intSetting } from "../../project/clusters";
import type { ProjectModel } from "../../workspace/project";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { flinkJob } from "./exampleFiles";
import { describeValue, place } from "./pipelines";

const job = (parallelism: number) => `package com.example;

import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.kafka.common.serialization.StringDeserializer;

public class OrdersPipeline {
  public static void main(String[] args) {
    FlinkPipelineOptions options = PipelineOptionsFactory.fromArgs(args).as(FlinkPipelineOptions.class);
    options.setParallelism(${parallelism});
    options.setCheckpointingInterval(60_000L);
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

const PROJECT_CONFIG = "kafkaTopics:\n  orders: 4\n";

interface Parallelism extends Location {
  value: number;
  /** How the message names where it is set. */
  label: string;
}

/**
 * The job's parallelism where it is certain: Beam's `parallelism` option set in code wins over flags, flags over
 * the cluster's `parallelism.default` / FlinkDeployment `job.parallelism` (Beam uses those only when its option is
 * not set). Several candidates of the deciding kind give the smallest; a value only known at run time or a setter
 * in a branch gives none.
 */
function parallelismOf(project: ProjectModel): Parallelism | undefined {
  const values = optionValues(project, "parallelism");
  for (const kind of ["code", "flag"] as const) {
    const ofKind = values.filter((v) => (kind === "code" ? v.setting : v.arg));
    if (ofKind.length === 0) continue;
    if (ofKind.some((v) => v.unknown || v.conditional || v.number === undefined)) return undefined;
    const set = ofKind.filter((v) => (v.number ?? 0) > 0);
    if (set.length === 0) continue;
    const min = set.reduce((a, b) => ((a.number ?? 0) <= (b.number ?? 0) ? a : b));
    return { file: min.file, range: min.range, value: min.number ?? 0, label: describeValue(min) };
  }
  const cluster: Parallelism[] = [];
  for (const c of clustersOf(project)) {
    const job = c.deployment?.jobParallelism;
    if (job) {
      cluster.push({
        file: job.file,
        range: job.range,
        value: job.value,
        label: `job.parallelism ${job.value} in ${place(job)}`,
      });
      continue;
    }
    const setting = intSetting(c, "parallelism.default");
    if (setting) {
      const at = { file: setting.setting.config.file, range: setting.setting.entry.valueRange };
      cluster.push({ ...at, value: setting.value, label: `parallelism.default ${setting.value} in ${place(at)}` });
    }
  }
  return cluster.length > 0 ? cluster.reduce((a, b) => (a.value <= b.value ? a : b)) : undefined;
}

/** The partitions a read spreads over, when the project configuration gives the count of every topic it reads. */
function partitionsOf(
  read: BeamKafkaRead,
  counts: Record<string, number>,
): { total: number; names: string[] } | undefined {
  if (read.topics.length === 0 || read.withTopicPartitions || read.withTopicPattern) return undefined;
  const names: string[] = [];
  let total = 0;
  for (const topic of read.topics) {
    if (topic.value.kind !== "string" || !Object.hasOwn(counts, topic.value.value)) return undefined;
    names.push(topic.value.value);
    total += counts[topic.value.value];
  }
  return { total, names };
}

export const rule: Rule = {
  meta: {
    code: "BFL408",
    name: "parallelism-exceeds-partitions",
    family: "beam",
    severity: "info",
    description:
      "A Beam pipeline on Flink whose parallelism is larger than the partition count of the Kafka topics it reads.",
    fix: "none",
    docs: {
      whatItDoes:
        "Compares the partition count of the topics a KafkaIO read names (as declared under `kafkaTopics` in `.beam-flink-lint.yaml`) with the pipeline's parallelism: Beam's `parallelism` option in code or as a flag, else the cluster's `parallelism.default` or a FlinkDeployment's `job.parallelism`. Reports the read when the parallelism is larger.",
      whyItMatters:
        "KafkaIO splits a read into at most one split per partition and hands the splits to the source subtasks; with a parallelism above the partition count the remaining source subtasks get nothing to read. They take task slots and sit idle (with Beam checkpointing off they finish at once), so the extra parallelism buys no read throughput. A larger `maxParallelism` does not add splits either.",
      bad: flinkJob(job(8), { ".beam-flink-lint.yaml": PROJECT_CONFIG }),
      good: flinkJob(job(4), { ".beam-flink-lint.yaml": PROJECT_CONFIG }),
      whenNotToFire:
        "When the project configuration does not give the partition count of every topic of the read; reads by topic pattern or explicit partitions; when the parallelism is decided at run time or in a branch; pipelines on other runners.",
      references: [
        "Beam KafkaUnboundedSource.split: min(desiredNumSplits, partitions) splits, partitions assigned round-robin",
        "Beam FlinkExecutionEnvironments.determineParallelism (Beam option, then the environment, then parallelism.default)",
        "https://github.com/apache/beam/issues/25975 (changing FlinkRunner parallelism across restores)",
      ],
    },
  },
  check(ctx) {
    const { project } = ctx;
    const counts = project.config.kafkaTopics;
    if (Object.keys(counts).length === 0 || runnerOf(project).kind === "other") return;
    const parallelism = parallelismOf(project);
    if (!parallelism) return;
    for (const read of jobReads(project)) {
      const partitions = partitionsOf(read, counts);
      if (!partitions || parallelism.value <= partitions.total) continue;
      const topics =
        partitions.names.length === 1
          ? `Topic ${partitions.names[0]} has`
          : `Topics ${partitions.names.slice(0, -1).join(", ")} and ${partitions.names.at(-1)} have`;
      const idle = parallelism.value - partitions.total;
      const related: RelatedLocation[] = [
        { file: parallelism.file, range: parallelism.range, message: `The parallelism is ${parallelism.value} here.` },
      ];
      const at = read.topics.length === 1 ? read.topics[0] : { file: read.file, range: read.readRange };
      ctx.report({
        file: at.file,
        range: at.range,
        message: fitting(
          `${topics} ${partitions.total} partition${partitions.total === 1 ? "" : "s"}${partitions.names.length > 1 ? " in total" : ""}, but the pipeline runs with parallelism ${parallelism.value}: ${idle} source subtasks sit idle.`,
          `The topics have ${partitions.total} partition${partitions.total === 1 ? "" : "s"}, but the parallelism is ${parallelism.value}: ${idle} source subtasks sit idle.`,
        ),
        details: `The partition counts come from kafkaTopics in the project configuration; the parallelism from ${parallelism.label}. ${idle} of the ${parallelism.value} source subtasks get no partition. Lower the parallelism to ${partitions.total}, or add partitions to the ${partitions.names.length > 1 ? "topics" : "topic"}.`,
        related,
      });
    }
  },
};
