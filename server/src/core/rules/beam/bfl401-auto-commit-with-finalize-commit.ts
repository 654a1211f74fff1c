import { booleanEdit, effectiveSetting, truthOf } from "../../jobcode/facts";
import { literalOf } from "../../jobcode/intents";
import { allReads } from "../../project/jobCode";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { flinkJob } from "./exampleFiles";
import { AUTO_COMMIT, describeSetting, finalizeName, fixOf, relatedAt } from "./pipelines";

const job = (autoCommit: string) => `package com.example;

import java.util.Map;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.kafka.common.serialization.StringDeserializer;

class OrdersPipeline {
  static KafkaIO.Read<String, String> orders() {
    return KafkaIO.<String, String>read()
        .withBootstrapServers("kafka:9092")
        .withTopic("orders")
        .withKeyDeserializer(StringDeserializer.class)
        .withValueDeserializer(StringDeserializer.class)
        .withConsumerConfigUpdates(Map.of("group.id", "orders", "enable.auto.commit", "${autoCommit}"))
        .commitOffsetsInFinalize();
  }
}
`;

export const rule: Rule = {
  meta: {
    code: "BFL401",
    name: "auto-commit-with-finalize-commit",
    family: "beam",
    severity: "warning",
    description: "A KafkaIO read that commits offsets in finalize while its Kafka consumer also auto-commits them.",
    fix: "safe",
    docs: {
      whatItDoes:
        'Reports `enable.auto.commit` set to true in the consumer config of a KafkaIO read that also calls `commitOffsetsInFinalize()`: the boolean `true`, `Boolean.TRUE`, and the String `"true"` in any case, also through a constant, a variable or a map built in a helper method. The consumer config is merged across every `withConsumerConfigUpdates` call, as Beam does, and the value that wins is checked.',
      whyItMatters:
        'With auto-commit on, the Kafka consumer commits the position of every record it has fetched, every `auto.commit.interval.ms`, whether or not the pipeline has processed and checkpointed it; `commitOffsetsInFinalize()` commits only what a completed checkpoint covers. With both, the group\'s committed offset runs ahead of the pipeline, and a start without checkpoint state (a new deployment, a discarded savepoint) resumes after records that were never processed: they are lost. Beam\'s javadoc asks for one or the other, and KafkaIO warns about the pair only when the value is `Boolean.TRUE`: a String `"true"` from a `Map<String, String>` or a properties file passes silently, although the Kafka client reads it as true. The fix writes false in the same style (`"true"` → `"false"`); it is safe when the literal is written in the map, and unsafe when it edits a constant that other code may use.',
      bad: flinkJob(job("true")),
      good: flinkJob(job("false")),
      whenNotToFire:
        "When `enable.auto.commit` is false or absent; when its value is decided at run time (a pipeline option, an environment variable, a map from another class); when the setting or `commitOffsetsInFinalize()` only runs on some paths (inside an `if`).",
      references: [
        "https://github.com/apache/beam/issues/21742 (KafkaIO's warnings about auto-commit check Boolean.TRUE only)",
        'Beam KafkaIO.Read.commitOffsetsInFinalize javadoc: "Usually either this or AUTO_COMMIT in Kafka consumer is enabled, but not both."',
        "https://kafka.apache.org/documentation/#consumerconfigs_enable.auto.commit",
      ],
    },
  },
  check(ctx) {
    // One consumer map shared by several reads (a module constant, `dict(BASE, …)`): one finding at its value, with
    // every read that commits in finalize as related information.
    const byValue = new Map<string, Parameters<typeof ctx.report>[0]>();
    for (const read of allReads(ctx.project)) {
      const commit = read.commitOffsetsInFinalize;
      if (!commit || commit.conditional) continue;
      const setting = effectiveSetting(read.consumerConfig, AUTO_COMMIT);
      if (!setting || setting.conditional || truthOf(setting.value.value) !== true) continue;
      const { value } = setting;
      const key = `${value.file}:${value.range.start.line}:${value.range.start.character}`;
      const seen = byValue.get(key);
      if (seen) {
        seen.related = [...(seen.related ?? []), relatedAt(commit, "Offsets are also committed in finalize here.")];
        continue;
      }
      const stringValue = value.value.kind === "string";
      const literal = literalOf(value);
      const edit = booleanEdit(value, false);
      byValue.set(key, {
        file: value.file,
        range: value.range,
        message: fitting(
          `${AUTO_COMMIT} is ${describeSetting(setting)} while this read also commits in finalize: offsets run ahead of processing.`,
          `${AUTO_COMMIT} is on while this read also commits offsets in finalize: offsets run ahead of processing.`,
        ),
        details:
          `${AUTO_COMMIT} is ${describeSetting(setting)}: the Kafka consumer commits the offsets of records it has only fetched, ahead of what the pipeline has processed and checkpointed, so a start without checkpoint state skips those records. ` +
          (stringValue
            ? `Beam's own check for this pair only recognises Boolean.TRUE and stays quiet about a String, but the Kafka client reads ${literal.raw} as true. `
            : "") +
          `Set ${AUTO_COMMIT} to false and let ${finalizeName(read)} commit.`,
        related: [relatedAt(commit, "Offsets are also committed in finalize here.")],
        fixes: edit
          ? [
              fixOf(`Set ${AUTO_COMMIT} to false`, literal === value ? "safe" : "unsafe", [
                { file: literal.file, edit },
              ]),
            ]
          : [],
      });
    }
    for (const finding of byValue.values()) ctx.report(finding);
  },
};
