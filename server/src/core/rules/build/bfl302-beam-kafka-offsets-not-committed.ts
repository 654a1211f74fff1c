import type { Rule } from "../types";
import { reportAdvisories } from "./advisoryFindings";

const BUILD = `plugins {
    id 'java'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-io-kafka:\${beamVersion}"
    runtimeOnly "org.apache.beam:beam-runners-flink-1.16:\${beamVersion}"
}
`;

const JOB = `package com.example;

import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.kafka.common.serialization.StringDeserializer;

class Orders {
  static KafkaIO.Read<String, String> read() {
    return KafkaIO.<String, String>read()
        .withBootstrapServers("kafka:9092")
        .withTopic("orders")
        .withKeyDeserializer(StringDeserializer.class)
        .withValueDeserializer(StringDeserializer.class)
        .withConsumerConfigUpdates(java.util.Map.of("group.id", "orders"))
        .commitOffsetsInFinalize();
  }
}
`;

export const rule: Rule = {
  meta: {
    code: "BFL302",
    name: "beam-kafka-offsets-not-committed",
    family: "build",
    severity: "warning",
    description:
      "A Beam version whose Flink runner never finalizes source checkpoints: Kafka offsets are never committed and Pub/Sub messages never acknowledged.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a Beam version from 2.52.0 up to 2.55.x that a Java Flink runner (`beam-runners-flink-<minor>`) resolves to, at the place where the version is defined, with each affected runner artifact as related information. It is an error when the project's Java code calls `commitOffsetsInFinalize()` or reads with `PubsubIO.read…` (those places are related information too), else a warning.",
      whyItMatters:
        "In these releases the Flink runner's source reader does not pass Flink's checkpoint-complete notification to the sources, so `finalizeCheckpoint()` never runs. KafkaIO with `commitOffsetsInFinalize()` never commits an offset: the job restores from its own checkpoints, but a start without checkpoint state (a new deployment, a lost savepoint) begins at `auto.offset.reset`, and lag monitoring shows a consumer group that never moves. PubsubIO never acknowledges a message, so Pub/Sub redelivers every message after its ack deadline and it is processed again. The fix upgrades Beam where the version is defined (to 2.64.0 by default, which also clears BFL301); it is unsafe because a Beam upgrade can change the job's savepoint state.",
      bad: {
        "build.gradle": BUILD,
        "gradle.properties": "beamVersion=2.54.0\n",
        "src/main/java/com/example/Orders.java": JOB,
      },
      good: {
        "build.gradle": BUILD.replace("flink-1.16", "flink-1.17"),
        "gradle.properties": "beamVersion=2.64.0\n",
        "src/main/java/com/example/Orders.java": JOB,
      },
      whenNotToFire:
        "Beam before 2.52.0 and from 2.56.0; `-job-server` artifacts and Python pipelines; versions only the build can compute.",
      references: [
        "https://github.com/apache/beam/issues/30539",
        "https://github.com/apache/beam/issues/29902",
        "https://github.com/apache/beam/pull/30987 and https://github.com/apache/beam/pull/30971 (the fix, in 2.56.0)",
      ],
    },
  },
  check(ctx) {
    reportAdvisories(ctx, "BFL302");
  },
};
