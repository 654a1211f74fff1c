import { booleanEdit, effectiveSetting, truthOf } from "../../jobcode/facts";
import { commitInFinalizeEdit, literalOf } from "../../jobcode/intents";
import { optionValues } from "../../project/beam";
import { allReads } from "../../project/jobCode";
import type { Rule } from "../types";
import { flinkJob } from "./exampleFiles";
import {
  AUTO_COMMIT,
  describeSetting,
  describeValue,
  finalizeCall,
  fixOf,
  groupIdEdits,
  OFFSET_RESET,
  relatedAt,
} from "./pipelines";

const job = (config: string, commit: string) => `package com.example;

import java.util.Map;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.kafka.common.serialization.StringDeserializer;

public class OrdersPipeline {
  public static void main(String[] args) {
    FlinkPipelineOptions options = PipelineOptionsFactory.fromArgs(args).as(FlinkPipelineOptions.class);
    options.setCheckpointingInterval(60_000L);
    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply(
        KafkaIO.<String, String>read()
            .withBootstrapServers("kafka:9092")
            .withTopic("orders")
            .withKeyDeserializer(StringDeserializer.class)
            .withValueDeserializer(StringDeserializer.class)
            .withConsumerConfigUpdates(Map.of("group.id", "orders-consumer", "enable.auto.commit", ${config}))${commit});
    pipeline.run();
  }
}
`;

export const rule: Rule = {
  meta: {
    code: "BFL405",
    name: "auto-commit-data-loss-risk",
    family: "beam",
    severity: "warning",
    description:
      "A KafkaIO read that relies on Kafka auto-commit while Beam checkpointing is on and `auto.offset.reset` is latest or unset.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports `enable.auto.commit` true on a KafkaIO read without `commitOffsetsInFinalize()`, when the project sets Beam's `checkpointingInterval` to a positive value (in code or as a flag) and the read's `auto.offset.reset` is `latest` or not set. This is the combination KafkaIO itself logs a warning about at run time.",
      whyItMatters:
        "The Kafka consumer auto-commits the offsets of records as soon as it has fetched them, independently of Flink's checkpoints. If checkpoints keep timing out and the job then fails, it has no checkpoint to restore from and starts from the auto-committed offsets: the records fetched after the last completed checkpoint were committed but never processed, and they are lost. Committing in finalize ties the committed offset to completed checkpoints instead. The fix sets `enable.auto.commit` to false and adds `.commitOffsetsInFinalize()` (with a placeholder `group.id` when the config has none); it is unsafe because it changes when offsets are committed.",
      bad: flinkJob(job('"true"', "")),
      good: flinkJob(job('"false"', "\n            .commitOffsetsInFinalize()")),
      whenNotToFire:
        "When Beam checkpointing is not known to be on (not set, -1, or a value only known at run time); when the read also commits in finalize (that pair is BFL401); when `auto.offset.reset` is `earliest` or `none`, or decided at run time; when auto-commit is false, absent or decided at run time.",
      references: [
        "https://github.com/apache/beam/issues/21742",
        'Beam KafkaIO.Read.warnAboutUnsafeConfigurations: "When using the Flink runner with checkpointingInterval enabled, Kafka enable.auto.commit enabled, and Kafka auto.offset.reset set to latest or unset, there is a chance for every checkpoint to time out, which will cause data loss."',
      ],
    },
  },
  check(ctx) {
    const checkpointing = optionValues(ctx.project, "checkpointingInterval").find(
      (v) => !v.conditional && v.number !== undefined && v.number > 0,
    );
    if (!checkpointing) return;
    for (const read of allReads(ctx.project)) {
      if (read.commitOffsetsInFinalize) continue;
      const config = read.consumerConfig;
      const autoCommit = effectiveSetting(config, AUTO_COMMIT);
      if (!autoCommit || autoCommit.conditional || truthOf(autoCommit.value.value) !== true) continue;
      const reset = effectiveSetting(config, OFFSET_RESET);
      if (
        reset
          ? !(reset.value.value.kind === "string" && reset.value.value.value.toLowerCase() === "latest")
          : config.hasUnknownParts
      ) {
        continue;
      }
      const { value } = autoCommit;
      const disable = booleanEdit(value, false);
      const groupEdits = groupIdEdits(read);
      const commit = commitInFinalizeEdit(read);
      const fixes =
        disable && groupEdits && commit
          ? [
              fixOf("Commit offsets in finalize instead of auto-commit", "unsafe", [
                { file: literalOf(value).file, edit: disable },
                ...[...groupEdits, commit.edit].map((edit) => ({
                  file: read.file,
                  edit,
                })),
              ]),
            ]
          : [];
      ctx.report({
        file: value.file,
        range: value.range,
        message: `With ${AUTO_COMMIT} on, offsets are committed before a checkpoint covers them: a failed job can lose records.`,
        details: `With Beam checkpointing on (${describeValue(checkpointing)}), ${AUTO_COMMIT} ${describeSetting(autoCommit)} and ${OFFSET_RESET} ${reset ? reset.value.raw : "unset (latest)"}, the Kafka consumer commits offsets of records before any checkpoint covers them: if checkpoints keep timing out and the job fails, it starts again from those offsets and the records in between are lost. Commit offsets in finalize instead: set ${AUTO_COMMIT} to false and add ${finalizeCall(read)}.`,
        related: [relatedAt(checkpointing, "Beam checkpointing is enabled here.")],
        fixes,
      });
    }
  },
};
