import { effectiveSetting, type KafkaSetting, truthOf } from "../../jobcode/facts";
import { addChainCallEdit } from "../../jobcode/intents";
import { str } from "../../jobcode/render";
import { allCode } from "../../project/jobCode";
import type { Rule } from "../types";
import { jobName } from "./streamJobs";

const JOB = `package com.example.payments;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class PaymentsJob {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(60_000);
    KafkaSource<String> source = KafkaSource.<String>builder()
        .setBootstrapServers("kafka:9092")
        .setTopics("payments")
        .setStartingOffsets(OffsetsInitializer.latest())
        .setValueOnlyDeserializer(new SimpleStringSchema())
        .build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "payments").print();
    env.execute("payments");
  }
}
`;

const PATH = "src/main/java/com/example/payments/PaymentsJob.java";

export const rule: Rule = {
  meta: {
    code: "BFL504",
    name: "kafka-source-commit-without-group-id",
    family: "datastream",
    severity: "warning",
    description: "A KafkaSource without a group id: offset commits are switched off, or build() throws.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        'Reports a `KafkaSource.builder()` that sets no group id (no `setGroupId(…)`, no `group.id` property) while offsets are to be committed: on checkpoints (`commit.offsets.on.checkpoint`, on by default) or by the Kafka client (`enable.auto.commit`). It is an error when one of those is explicitly set to true, because `build()` then throws. The fix adds `.setGroupId("<job name>")` before `.build()`.',
      whyItMatters:
        'Without `group.id` the KafkaSource only logs "Offset commit on checkpoint is disabled because group.id is not specified" and turns committing off: the job runs, but Kafka never learns its progress, consumer-lag monitoring sees nothing, and a job started without checkpoint state (a new deployment, a lost savepoint) cannot resume from committed offsets (`OffsetsInitializer.committedOffsets()` has no group to read). With commit on checkpoint or auto-commit set to true explicitly, `build()` throws IllegalStateException "Property group.id is required when offset commit is enabled" and the job does not start.',
      bad: { [PATH]: JOB },
      good: {
        [PATH]: JOB.replace(
          '        .setTopics("payments")\n',
          '        .setTopics("payments")\n        .setGroupId("payments-job")\n',
        ),
      },
      whenNotToFire:
        "When `commit.offsets.on.checkpoint` is set to false and auto-commit is not turned on (the job deliberately commits nothing), when the group id is set in any form (a variable, a constant, a `Properties` object), and when part of the source's properties cannot be read (`setProperties(props)` with a map filled elsewhere). Test code and bounded sources (`setBounded(…)`: a read that ends on its own, with no position to keep for a next run) are only reported when `build()` would throw.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#consumer-offset-committing",
        'apache/flink-connector-kafka KafkaSourceBuilder.sanityCheck / maybeOverride ("Property group.id is required when offset commit is enabled")',
        "apache/flink-connector-kafka KafkaSourceOptions.COMMIT_OFFSETS_ON_CHECKPOINT (default true)",
      ],
    },
  },
  check(ctx) {
    for (const java of allCode(ctx.project)) {
      for (const source of java.dataStream.kafkaSources) {
        const props = source.properties;
        if (source.setGroupId || effectiveSetting(props, "group.id") || props.hasUnknownParts) continue;
        const onCheckpoint = effectiveSetting(props, "commit.offsets.on.checkpoint");
        const autoCommit = effectiveSetting(props, "enable.auto.commit");
        const explicit = [onCheckpoint, autoCommit].find(
          (s): s is KafkaSetting => s !== undefined && truthOf(s.value.value) === true,
        );
        const checkpointCommitsOff = onCheckpoint !== undefined && truthOf(onCheckpoint.value.value) === false;
        // A bounded read ends on its own: there is no run whose position a commit would keep.
        if (!explicit && (checkpointCommitsOff || java.isTest || source.setBounded)) continue;
        const group = jobName(java.file);
        const add = addChainCallEdit(source, "setGroupId", [str(group)]);
        const call = add.text.slice(1);
        const message = explicit
          ? `build() throws because ${explicit.key} is true and no group id is set: the job fails before it starts.`
          : "This KafkaSource has no group id, so it silently turns off committing offsets on checkpoints.";
        const details = explicit
          ? `KafkaSource says "Property group.id is required when offset commit is enabled" (IllegalStateException). Add .${call} (a group id unique to this job).`
          : `Kafka never sees the job's progress, consumer-lag monitoring shows nothing, and a start without checkpoint state cannot resume from committed offsets. Add .${call} (a group id unique to this job).`;
        ctx.report({
          file: source.file,
          range: source.range,
          message,
          details,
          severity: explicit ? "error" : undefined,
          related: explicit
            ? [
                {
                  file: explicit.location.file,
                  range: explicit.location.range,
                  message: `${explicit.key} is set to true here.`,
                },
              ]
            : [],
          fixes: [
            {
              title: `Add .${call}`,
              safety: "unsafe",
              changes: [{ file: source.file, edits: [add.edit] }],
            },
          ],
        });
      }
    }
  },
};
