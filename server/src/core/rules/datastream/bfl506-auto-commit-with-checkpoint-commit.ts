import type { Fix } from "../../findings";
import { booleanEdit, effectiveSetting, truthOf } from "../../jobcode/facts";
import { productionCode } from "../../project/jobCode";
import { checkpointingOf, environmentOfBuilder, operatorReading } from "../../project/streams";
import type { Rule } from "../types";
import { relatedAll } from "./streamJobs";

const JOB = `package com.example.orders;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class OrdersJob {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(60_000);
    KafkaSource<String> source = KafkaSource.<String>builder()
        .setBootstrapServers("kafka:9092")
        .setTopics("orders")
        .setGroupId("orders-job")
        .setProperty("enable.auto.commit", "true")
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
    code: "BFL506",
    name: "auto-commit-with-checkpoint-commit",
    family: "datastream",
    severity: "info",
    description:
      "A KafkaSource with enable.auto.commit=true in a job that checkpoints: offsets are committed by two mechanisms.",
    fix: "safe",
    docs: {
      whatItDoes:
        'Reports `enable.auto.commit` set to true (`true`, `"true"`, `Boolean.TRUE`) on a `KafkaSource` that also commits offsets on checkpoints (the default) in a job that checkpoints. The fix sets the value to false where it is written; it is offered as unsafe when the value comes from a constant or variable that other code may use too.',
      whyItMatters:
        "The KafkaSource builder turns auto-commit off unless you set it, because it commits offsets itself when a checkpoint completes. With auto-commit on as well, the Kafka client commits whatever it has fetched every `auto.commit.interval.ms`, ahead of what Flink has processed and checkpointed: the consumer group's offsets and lag no longer say what the job has done, and a job started without checkpoint state (a new deployment, a lost savepoint) with `committedOffsets()` resumes after records it never processed.",
      bad: { [PATH]: JOB },
      good: { [PATH]: JOB.replace('"enable.auto.commit", "true"', '"enable.auto.commit", "false"') },
      whenNotToFire:
        "When the job does not checkpoint or checkpoints only on some paths (auto-commit is then the only commit), when `commit.offsets.on.checkpoint` is false, when the source has no group id (BFL504 reports that), when the value is only known at run time or set on an `if` branch, on `FlinkKafkaConsumer` (it switches auto-commit off itself when it commits on checkpoints), and in test code.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#consumer-offset-committing",
        "apache/flink-connector-kafka KafkaSourceBuilder.parseAndSetRequiredProperties (enable.auto.commit defaults to false, a user value is kept)",
        "apache/flink-connector-kafka OffsetCommitModes (the legacy consumer disables auto-commit when committing on checkpoints)",
      ],
    },
  },
  check(ctx) {
    const project = ctx.project;
    for (const java of productionCode(project)) {
      for (const source of java.dataStream.kafkaSources) {
        const auto = effectiveSetting(source.properties, "enable.auto.commit");
        if (!auto || auto.conditional || truthOf(auto.value.value) !== true) continue;
        const onCheckpoint = effectiveSetting(source.properties, "commit.offsets.on.checkpoint");
        if (onCheckpoint && truthOf(onCheckpoint.value.value) !== true) continue;
        if (!source.setGroupId && !effectiveSetting(source.properties, "group.id")) continue;
        const checkpointing = checkpointingOf(project, environmentOfBuilder(java, operatorReading(java, source)));
        if (checkpointing.evidence !== "on") continue;
        const edit = booleanEdit(auto.value, false);
        let literal = auto.value;
        while (literal.origin) literal = literal.origin;
        const fixes: Fix[] = edit
          ? [
              {
                title: "Set enable.auto.commit to false",
                safety: literal === auto.value ? "safe" : "unsafe",
                changes: [{ file: literal.file, edits: [edit] }],
              },
            ]
          : [];
        ctx.report({
          file: auto.value.file,
          range: auto.value.range,
          message:
            "Offsets are committed twice, by two mechanisms: the group's committed offsets and lag do not say what the job has done.",
          details:
            "The KafkaSource commits offsets when a checkpoint completes, and the Kafka client also auto-commits whatever it has fetched, ahead of what the job has processed. Set enable.auto.commit to false.",
          related: relatedAll(checkpointing.where.slice(0, 1), "Checkpointing is enabled here."),
          fixes,
        });
      }
    }
  },
};
