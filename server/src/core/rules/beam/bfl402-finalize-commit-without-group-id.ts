import { effectiveSetting } from "../../jobcode/facts";
import { str } from "../../jobcode/render";
import { allReads } from "../../project/jobCode";
import type { Rule } from "../types";
import { flinkJob } from "./exampleFiles";
import { consumerConfigCall, finalizeName, fixOf, GROUP_ID, groupIdPlaceholder } from "./pipelines";

const job = (config: string) => `package com.example;

import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.kafka.common.serialization.StringDeserializer;

class OrdersPipeline {
  static KafkaIO.Read<String, String> orders() {
    Map<String, Object> consumer = new HashMap<>();
    consumer.put("auto.offset.reset", "earliest");${config}
    return KafkaIO.<String, String>read()
        .withBootstrapServers("kafka:9092")
        .withTopic("orders")
        .withKeyDeserializer(StringDeserializer.class)
        .withValueDeserializer(StringDeserializer.class)
        .withConsumerConfigUpdates(consumer)
        .commitOffsetsInFinalize();
  }
}
`;

export const rule: Rule = {
  meta: {
    code: "BFL402",
    name: "finalize-commit-without-group-id",
    family: "beam",
    severity: "error",
    description: "A KafkaIO read that commits offsets in finalize without a consumer group (`group.id`).",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports `commitOffsetsInFinalize()` on a KafkaIO read whose merged consumer config has no `group.id`. Every `withConsumerConfigUpdates` (and the deprecated `updateConsumerProperties`) call of the read counts, as Beam merges them; maps built in variables, constants, helper methods and `Properties` objects of the same file are read.",
      whyItMatters:
        "Offsets are committed for a consumer group, so KafkaIO checks for one when the pipeline is built: without `group.id` it throws `IllegalArgumentException: commitOffsetsInFinalize() is enabled, but group.id in Kafka consumer config is not set. Offset management requires group.id.` and the job never starts. The fix adds a `group.id` entry in the map's own style (a `put` line, a pair in `Map.of`, a builder `.put`) or a new `withConsumerConfigUpdates` call; it is unsafe because the group name is a placeholder named after the topic: choose the name the offsets should be tracked under, and make sure no other application consumes with it.",
      bad: flinkJob(job("")),
      good: flinkJob(job('\n    consumer.put("group.id", "orders-consumer");')),
      whenNotToFire:
        "When `group.id` is set in any `withConsumerConfigUpdates` call of the read (the calls merge), through a map variable, a constant or a properties object; when part of the consumer config cannot be read (a map passed in as a parameter or built in another class, `putAll` of another map): it may hold the group.",
      references: [
        'Beam KafkaIO.Read.expand: checkArgument(group.id != null, "commitOffsetsInFinalize() is enabled, but group.id in Kafka consumer config is not set. Offset management requires group.id.")',
        "https://github.com/apache/beam/issues/30539 (offset commits in finalize on the Flink runner)",
        "https://kafka.apache.org/documentation/#consumerconfigs_group.id",
      ],
    },
  },
  check(ctx) {
    for (const read of allReads(ctx.project)) {
      const commit = read.commitOffsetsInFinalize;
      const config = read.consumerConfig;
      if (!commit || effectiveSetting(config, GROUP_ID) || config.hasUnknownParts) continue;
      const group = groupIdPlaceholder(read);
      const edits = config.insertEntry?.(GROUP_ID, str(group));
      ctx.report({
        file: commit.file,
        range: commit.range,
        message: `The pipeline fails when it is built: ${finalizeName(read)} needs a ${GROUP_ID}, and this read has none.`,
        details: `KafkaIO throws IllegalArgumentException: committing offsets needs a consumer group. Add ${GROUP_ID} to ${consumerConfigCall(read)} with the group the offsets should be committed for.`,
        fixes: edits
          ? [
              fixOf(
                `Add ${GROUP_ID} "${group}" (rename the group as needed)`,
                "unsafe",
                edits.map((edit) => ({ file: read.file, edit })),
              ),
            ]
          : [],
      });
    }
  },
};
