import { effectiveSetting, type KafkaSinkBuilder } from "../../jobcode/facts";
import { addChainCallEdit } from "../../jobcode/intents";
import { str } from "../../jobcode/render";
import { allCode, codeOf } from "../../project/jobCode";
import { kafkaConnectorLine } from "../../project/kafkaConnector";
import { checkpointingOf, environmentOfBuilder, operatorWriting } from "../../project/streams";
import type { Rule, RuleContext } from "../types";
import { enableCheckpointingFix, enableCheckpointingText, jobName } from "./streamJobs";

const JOB = `package com.example.orders;

import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class EnrichedOrdersJob {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(60_000);

    KafkaSink<String> sink = KafkaSink.<String>builder()
        .setBootstrapServers("kafka:9092")
        .setRecordSerializer(KafkaRecordSerializationSchema.builder()
            .setTopic("orders-enriched")
            .setValueSerializationSchema(new SimpleStringSchema())
            .build())
        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
/*PREFIX*/        .build();

    env.fromElements("a", "b").sinkTo(sink);
    env.execute("enriched-orders");
  }
}
`;

const PATH = "src/main/java/com/example/orders/EnrichedOrdersJob.java";

const TIMEOUT_KEY = "transaction.timeout.ms";
/** Kafka brokers' default transaction.max.timeout.ms. */
const BROKER_MAX_TIMEOUT_MS = 900_000;

export const rule: Rule = {
  meta: {
    code: "BFL505",
    name: "exactly-once-sink-misconfigured",
    family: "datastream",
    severity: "error",
    description: "A KafkaSink with DeliveryGuarantee.EXACTLY_ONCE that cannot deliver it.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        'Checks every `KafkaSink.builder()` set to `DeliveryGuarantee.EXACTLY_ONCE`: an error when it has no `setTransactionalIdPrefix(…)` and builds against flink-connector-kafka 4.0 or later (Flink 2.x: `build()` throws), a warning when the connector is older (the connector bundled with Flink 1.x, the external 3.x releases: the prefix defaults to `kafka-sink`, shared by every job that sets none) or not known and when its job never checkpoints (in code or in the workspace\'s Flink configuration); a warning when `transaction.timeout.ms` is left at the sink\'s 1 hour default, above the 15 minutes Kafka brokers accept by default. The fixes add `.setTransactionalIdPrefix("<job name>")`, insert `env.enableCheckpointing(60_000);`, and add `.setProperty("transaction.timeout.ms", "900000")`.',
      whyItMatters:
        "EXACTLY_ONCE writes each checkpoint's records in a Kafka transaction. Without a transactional id prefix, flink-connector-kafka 4.0 and later throw IllegalStateException in `build()` and the job never starts, and older connectors name every such sink's transactions `kafka-sink-…`; the prefix must be unique per job and stable across restarts, or jobs fence each other's producers. Transactions are committed only when a checkpoint completes, so without checkpointing nothing is ever committed: `read_committed` consumers see no output, and the broker aborts the open transactions when they time out. The sink asks brokers for a 1 hour transaction timeout, while brokers allow 15 minutes unless `transaction.max.timeout.ms` was raised: the producers then fail with \"The transaction timeout is larger than the maximum value allowed by the broker\" and the job restarts in a loop.",
      bad: { [PATH]: JOB.replace("/*PREFIX*/", "") },
      good: {
        [PATH]: JOB.replace(
          "/*PREFIX*/",
          '        .setTransactionalIdPrefix("enriched-orders-job")\n        .setProperty("transaction.timeout.ms", "900000")\n',
        ),
      },
      whenNotToFire:
        "Sinks with `AT_LEAST_ONCE` or `NONE` (the default), or a guarantee only known at run time. The checkpointing check stays silent when checkpointing is set anywhere for the job (in code, also on an `if` branch, in a `Configuration` given to the environment, or in the workspace's Flink configuration), when the project creates no StreamExecutionEnvironment, and in test code. The timeout check stays silent when `transaction.timeout.ms` is set to any value (a larger one is taken to go with a broker configured for it) or the producer properties cannot be read.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#fault-tolerance",
        'apache/flink-connector-kafka KafkaSinkBuilder ("EXACTLY_ONCE delivery guarantee requires a transactionalIdPrefix to be set"; DEFAULT_KAFKA_TRANSACTION_TIMEOUT = 1 hour)',
        'apache/flink-connector-kafka KafkaSinkBuilder at tags v3.0.0 … v3.4.0 (and the connector bundled with Flink 1.14–1.17): `transactionalIdPrefix = "kafka-sink"` by default, so build() passes; from v4.0.0 the field has no default and build() throws',
        "https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms (default 900000)",
        'https://github.com/j3-signalroom/apache_flink-kickstarter/issues/787 (ExactlyOnceKafkaWriter failing with "The transaction timeout is larger than the maximum value allowed by the broker")',
      ],
    },
  },
  check(ctx) {
    for (const java of allCode(ctx.project)) {
      for (const sink of java.dataStream.kafkaSinks) {
        const guarantee = sink.deliveryGuarantee;
        if (guarantee?.value.kind !== "string" || guarantee.value.value !== "EXACTLY_ONCE") continue;
        checkPrefix(ctx, sink);
        if (!java.isTest) checkCheckpointing(ctx, sink);
        checkTimeout(ctx, sink);
      }
    }
  },
};

function checkPrefix(ctx: RuleContext, sink: KafkaSinkBuilder): void {
  if (sink.setTransactionalIdPrefix || !sink.deliveryGuarantee) return;
  const add = addChainCallEdit(sink, "setTransactionalIdPrefix", [str(jobName(sink.file))]);
  const call = add.text.slice(1);
  // flink-connector-kafka 4.0 (Flink 2.x) requires the prefix; older connectors fall back to `kafka-sink`.
  const line = kafkaConnectorLine(ctx.project);
  const advice = `Add .${call}, a prefix unique to this job and kept across restarts.`;
  const [message, details, severity] =
    line?.line === "four"
      ? [
          "build() throws IllegalStateException: EXACTLY_ONCE needs a transactional id prefix, so the job fails to start.",
          `With ${line.what} the prefix is required: it names this sink's Kafka transactions. ${advice}`,
          undefined,
        ]
      : line?.line === "older"
        ? [
            "No transactional id prefix: the sink uses the default `kafka-sink`, and jobs sharing it fence each other.",
            `With ${line.what} an EXACTLY_ONCE sink without a prefix names its Kafka transactions kafka-sink-…: another job that does the same on this Kafka cluster fences this one's producers and aborts its transactions on start, and flink-connector-kafka 4.0 (Flink 2.x) rejects the sink at build(). ${advice}`,
            "warning" as const,
          ]
        : [
            "No transactional id prefix: build() throws from flink-connector-kafka 4.0 on; before, the default is shared.",
            `flink-connector-kafka 4.0 and later (Flink 2.x) throw IllegalStateException at build(); older connectors name the transactions kafka-sink-…, which another job without a prefix on this Kafka cluster shares, fencing each other's producers. ${advice}`,
            "warning" as const,
          ];
  ctx.report({
    file: sink.deliveryGuarantee.file,
    range: sink.deliveryGuarantee.range,
    message,
    details,
    severity,
    related: line?.where ? [line.where] : [],
    fixes: [
      {
        title: `Add .${call}`,
        safety: "unsafe",
        changes: [{ file: sink.file, edits: [add.edit] }],
      },
    ],
  });
}

function checkCheckpointing(ctx: RuleContext, sink: KafkaSinkBuilder): void {
  const project = ctx.project;
  const java = codeOf(project, sink.file);
  if (!java || !sink.deliveryGuarantee) return;
  const env = environmentOfBuilder(java, operatorWriting(java, sink));
  if (!env && !allCode(project).some((j) => j.dataStream.environments.length > 0)) return;
  if (checkpointingOf(project, env).evidence !== "off") return;
  const fix = enableCheckpointingFix(project, env);
  ctx.report({
    file: sink.deliveryGuarantee.file,
    range: sink.deliveryGuarantee.range,
    message:
      "EXACTLY_ONCE commits only on checkpoints, and this job never checkpoints: nothing it writes is ever committed.",
    details: `EXACTLY_ONCE commits the sink's Kafka transactions only when a checkpoint completes: read_committed consumers see no output, and the broker aborts the transactions when they time out. Enable checkpointing, e.g. ${enableCheckpointingText(project, java, env)}, or set execution.checkpointing.interval in the Flink configuration.`,
    related: env ? [{ file: env.file, range: env.range, message: "The job's environment is created here." }] : [],
    fixes: fix ? [fix] : [],
  });
}

function checkTimeout(ctx: RuleContext, sink: KafkaSinkBuilder): void {
  if (effectiveSetting(sink.properties, TIMEOUT_KEY) || sink.properties.hasUnknownParts) return;
  const add = addChainCallEdit(sink, "setProperty", [str(TIMEOUT_KEY), str(String(BROKER_MAX_TIMEOUT_MS))]);
  const call = add.text.slice(1);
  ctx.report({
    file: sink.file,
    range: sink.range,
    severity: "warning",
    message:
      "The sink asks for a 1 hour transaction timeout, above the brokers' 15 minute limit: the job restarts in a loop.",
    details: `1 hour is the KafkaSink default; Kafka brokers accept at most 15 minutes unless transaction.max.timeout.ms was raised, and the producers fail with "The transaction timeout is larger than the maximum value allowed by the broker". Set ${TIMEOUT_KEY} to at most ${BROKER_MAX_TIMEOUT_MS} (and well above the checkpoint interval plus restart time), or raise the brokers' limit.`,
    fixes: [
      {
        title: `Add .${call}`,
        safety: "unsafe",
        changes: [{ file: sink.file, edits: [add.edit] }],
      },
    ],
  });
}
