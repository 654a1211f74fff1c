import { addTo } from "../../arrays";
import type { Location } from "../../findings";
import type { JobCode, KafkaSourceBuilder, StreamEnvironment, StreamOperator } from "../../jobcode/facts";
import { productionCode } from "../../project/jobCode";
import { checkpointingOf, environmentNamed, sourceBuilderOf } from "../../project/streams";
import type { Rule } from "../types";
import { enableCheckpointingFix, enableCheckpointingText, relatedAll } from "./streamJobs";

const JOB = `package com.example.orders;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class OrdersJob {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
/*CHECKPOINTING*/
    KafkaSource<String> source = KafkaSource.<String>builder()
        .setBootstrapServers("kafka:9092")
        .setTopics("orders")
        .setGroupId("orders-job")
        .setValueOnlyDeserializer(new SimpleStringSchema())
        .build();

    env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").print();
    env.execute("orders");
  }
}
`;

const PATH = "src/main/java/com/example/orders/OrdersJob.java";

export const rule: Rule = {
  meta: {
    code: "BFL501",
    name: "datastream-checkpointing-disabled",
    family: "datastream",
    severity: "warning",
    description: "A Flink DataStream job that reads Kafka and never checkpoints.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports the `StreamExecutionEnvironment` of a DataStream job that reads Kafka (`KafkaSource` through `fromSource`, or `FlinkKafkaConsumer` through `addSource`, also when a method or object of another file builds the source: `env.fromSource(KafkaSources.orders(topic), …)`) when nothing turns periodic checkpointing on: no `enableCheckpointing(…)`, no `getCheckpointConfig().setCheckpointInterval(…)`, no `execution.checkpointing.interval` in a `Configuration` given to the environment, and no interval in the project's Flink configuration (flink-conf.yaml, config.yaml, ConfigMap, FlinkDeployment). The fix inserts `env.enableCheckpointing(60_000);` after the statement that creates the environment.",
      whyItMatters:
        "Flink has no default checkpoint interval. Without checkpoints, a failed task or a restarted job starts from nothing: the Kafka source goes back to its starting offsets (`earliest()` by default for `KafkaSource`, so the whole topic is read again) or to whatever the consumer group committed, operator state such as windows and aggregates is lost, and `KafkaSource` never commits offsets, so lag monitoring shows a group that does not move. Exactly-once and at-least-once Kafka sinks depend on checkpoints too.",
      bad: { [PATH]: JOB.replace("/*CHECKPOINTING*/\n", "") },
      good: { [PATH]: JOB.replace("/*CHECKPOINTING*/", "    env.enableCheckpointing(60_000);") },
      whenNotToFire:
        "When the interval is set in code (on this environment, or on a parameter or field that may hold it, also in another file; a helper that takes the environment as a parameter counts when some production code of the project names it, so a helper nothing calls does not hide the finding), in a `Configuration` passed to the environment (or to the MiniCluster the code starts and runs it on: `MiniClusterConfiguration.Builder().setConfiguration(conf)`, `new RemoteStreamEnvironment(host, port, conf)`), anywhere in the workspace's Flink configuration, including a FlinkDeployment with `upgradeMode: last-state` (the operator sets 5 min), or in a `-D` property of a `flink run` / `flink run-application` command of a script or Makefile (before the job's jar: what follows it is the job's own arguments). A checkpointing call on an `if` branch, an interval only known at run time and a configuration partly filled in at deploy time count as maybe set. Kafka sources built with `setBounded(…)` (bounded reads need no checkpoints to finish), jobs that read no Kafka, and test code under `src/test/` are not checked. Jobs for Amazon Managed Service for Apache Flink (code that reads `KinesisAnalyticsRuntime.getApplicationProperties()` or `/etc/flink/application_properties.json`, or a build that depends on `aws-kinesisanalytics-runtime`) are not reported: the service checkpoints every 60 s with its default checkpoint configuration, whatever the code sets (only a `CUSTOM` configuration of the application, outside the code, can turn it off).",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#consumer-offset-committing (offsets are committed only when checkpoints complete)",
        "apache/flink-connector-kafka OffsetCommitModes.fromConfiguration (FlinkKafkaConsumer without checkpointing falls back to Kafka's periodic auto-commit)",
        "https://docs.aws.amazon.com/managed-flink/latest/apiv2/API_CheckpointConfiguration.html (ConfigurationType DEFAULT: checkpointing enabled, every 60000 ms, even if application code sets other values)",
      ],
    },
  },
  check(ctx) {
    const project = ctx.project;
    for (const java of productionCode(project)) {
      for (const [env, sources] of kafkaReadersByEnvironment(java)) {
        if (checkpointingOf(project, env, java.file).evidence !== "off") continue;
        const fix = enableCheckpointingFix(project, env);
        const at: Location = env ?? { file: java.file, range: sources[0].call.range };
        const restart = restartBehaviour(java, sources);
        ctx.report({
          file: at.file,
          range: at.range,
          message:
            "This job reads Kafka but never takes a checkpoint: a failure or restart loses its state and position.",
          details: `After a failure or restart ${restart}; all operator state is lost as well. Enable checkpointing, e.g. ${enableCheckpointingText(project, java, env)}, or set execution.checkpointing.interval in the Flink configuration.`,
          related: relatedAll(
            sources.map((s) => ({ file: s.call.file, range: s.call.range })),
            "Kafka is read here.",
          ),
          fixes: fix ? [fix] : [],
        });
      }
    }
  },
};

/**
 * The unbounded Kafka sources of a file, grouped by the environment they are created on. Sources on an
 * environment this file does not create (a parameter) are grouped under `undefined`.
 */
function kafkaReadersByEnvironment(java: JobCode): Map<StreamEnvironment | undefined, StreamOperator[]> {
  const groups = new Map<StreamEnvironment | undefined, StreamOperator[]>();
  for (const op of java.dataStream.operators) {
    if (op.role !== "source" || !op.kafkaSource || sourceBuilderOf(java, op)?.setBounded) continue;
    const env = environmentNamed(java, op.environment);
    addTo(groups, env, op);
  }
  return groups;
}

/** What the sources of the job do after a restart without a checkpoint, in the words of the message. */
function restartBehaviour(java: JobCode, sources: StreamOperator[]): string {
  if (sources.every((s) => s.kafkaSource?.kind === "legacyConsumer")) {
    return "the FlinkKafkaConsumer resumes from the offsets Kafka's periodic auto-commit last wrote, which say nothing about what the job processed, so records are lost or read twice";
  }
  const initializers = new Set(sources.map((s) => startOf(sourceBuilderOf(java, s))));
  const only = initializers.size === 1 ? [...initializers][0] : undefined;
  if (only === "earliest")
    return "the KafkaSource starts over from the earliest offsets (its default) and reads the topic again";
  if (only === "latest")
    return "the KafkaSource starts over from the latest offsets and skips every record that arrived in between";
  if (only === "committedOffsets") {
    return "the KafkaSource starts over from the group's committed offsets, which it never moves forward without checkpoints, and reads everything since then again";
  }
  return "the KafkaSource starts over from its starting offsets, reading records again or skipping them";
}

/** The OffsetsInitializer a source starts from; `earliest()` when the builder sets none. */
function startOf(builder: KafkaSourceBuilder | undefined): string {
  if (!builder) return "unknown";
  return builder.startingOffsets ? (builder.startingOffsets.initializer ?? "unknown") : "earliest";
}
