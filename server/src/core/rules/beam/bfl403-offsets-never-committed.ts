import { effectiveSetting } from "../../jobcode/facts";
import { commitInFinalizeEdit } from "../../jobcode/intents";
import { jobReads } from "../../project/beam";
import { beamCommitMode } from "../../project/consumers";
import type { Rule } from "../types";
import { flinkJob } from "./exampleFiles";
import { AUTO_COMMIT, finalizeCall, fixOf, groupIdEdits, groupIdPlaceholder, OFFSET_RESET } from "./pipelines";

const job = (commit: string) => `package com.example;

import com.google.common.collect.ImmutableMap;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.kafka.common.serialization.StringDeserializer;

class OrdersPipeline {
  static KafkaIO.Read<String, String> orders() {
    return KafkaIO.<String, String>read()
        .withBootstrapServers("kafka:9092")
        .withTopic("orders")
        .withKeyDeserializer(StringDeserializer.class)
        .withValueDeserializer(StringDeserializer.class)
        .withConsumerConfigUpdates(ImmutableMap.of("group.id", "orders-consumer"))${commit};
  }
}
`;

const UNKNOWN_START = `it starts wherever ${OFFSET_RESET} leads: at the end of the topic (skipping messages) or at the beginning (re-reading them)`;

/** What a start without checkpoint state does, by `auto.offset.reset`. */
function startWithoutState(reset: string | undefined): string {
  switch (reset?.toLowerCase()) {
    case undefined:
    case "latest":
      return `it starts at the end of the topic (${OFFSET_RESET} ${reset === undefined ? "defaults to latest" : reset}) and skips every message produced while it was down`;
    case "earliest":
      return `it starts at the beginning of the topic (${OFFSET_RESET} earliest) and processes every retained message again`;
    case "none":
      return `it fails (${OFFSET_RESET} none needs a committed offset)`;
    default:
      return UNKNOWN_START;
  }
}

export const rule: Rule = {
  meta: {
    code: "BFL403",
    name: "offsets-never-committed",
    family: "beam",
    severity: "warning",
    description: "A KafkaIO read that never commits its offsets to Kafka.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a KafkaIO read (in job code, not tests) that neither calls `commitOffsetsInFinalize()` nor sets `enable.auto.commit` to true in its merged consumer config.",
      whyItMatters:
        "KafkaIO's defaults commit nothing: the read position lives only in Flink's checkpoints. As long as the job restores from a checkpoint or savepoint that is fine, but any start without that state (a new deployment, a changed job graph, a lost or discarded savepoint) begins at `auto.offset.reset`: with the default `latest` every message produced while the job was down is skipped, with `earliest` the whole retained topic is processed again. Kafka lag monitoring also sees a group that never moves. The fix adds `.commitOffsetsInFinalize()` to the read, and a placeholder `group.id` when the config has none (offsets are committed for a group); it is unsafe because committed offsets decide where later starts begin, and the group name must be chosen.",
      bad: flinkJob(job("")),
      good: flinkJob(job("\n        .commitOffsetsInFinalize()")),
      whenNotToFire:
        "When the commit mode is decided at run time (`commitOffsetsInFinalize()` inside an `if`, `enable.auto.commit` from an option or a map that cannot be read); when the read starts from a timestamp (`withStartReadTime`) or from explicit partitions (`withTopicPartitions`), so committed offsets would not be used anyway; reads in test sources.",
      references: [
        "Beam KafkaIO javadoc: the start offset comes from the checkpoint, else the group's committed offset, else auto.offset.reset; KafkaIOUtils default enable.auto.commit=false",
        "https://github.com/apache/beam/issues/26884 (final offsets not committed on stop on the Flink runner)",
        "https://github.com/apache/beam/issues/30539 (finalize-commits on the Flink runner)",
      ],
    },
  },
  check(ctx) {
    for (const read of jobReads(ctx.project)) {
      if (beamCommitMode(read) !== "none" || read.withStartReadTime || read.withTopicPartitions) continue;
      const config = read.consumerConfig;
      const autoCommits = config.entries.filter((e) => e.key === AUTO_COMMIT);
      const reset = effectiveSetting(config, OFFSET_RESET);
      const known = reset ? reset.value.value.kind === "string" : !config.hasUnknownParts;
      const resetText = reset?.value.value.kind === "string" ? reset.value.value.value : undefined;
      const why = autoCommits.length > 0 ? `${AUTO_COMMIT} is false` : `${AUTO_COMMIT} is off by KafkaIO's default`;
      const groupEdits = groupIdEdits(read);
      const commit = commitInFinalizeEdit(read);
      const fixes =
        groupEdits && commit
          ? [
              fixOf(
                groupEdits.length > 0
                  ? `Commit offsets in finalize, with group.id "${groupIdPlaceholder(read)}"`
                  : "Commit offsets in finalize",
                "unsafe",
                [...groupEdits, commit.edit].map((edit) => ({
                  file: read.file,
                  edit,
                })),
              ),
            ]
          : [];
      ctx.report({
        file: read.file,
        range: read.readRange,
        message:
          "This read never commits an offset to Kafka, so a start without checkpoint state skips or re-reads data.",
        details: `No ${finalizeCall(read)}, and ${why}: whenever the pipeline starts without checkpoint state, ${known ? startWithoutState(resetText) : UNKNOWN_START}. Add ${finalizeCall(read)} (with a group.id) so that the consumer group follows the completed checkpoints.`,
        fixes,
      });
    }
  },
};
