import type { RelatedLocation } from "../../findings";
import type { LegacyKafkaClient } from "../../jobcode/facts";
import { type KafkaVersionConnector, kafkaVersionConnector } from "../../knowledge/kafkaConnector";
import { allCode } from "../../project/jobCode";
import { kafkaConnectorLine } from "../../project/kafkaConnector";
import { flinkAtLeast, type ProjectModel } from "../../workspace/project";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>orders-job</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency>
      <groupId>org.apache.flink</groupId>
      <artifactId>flink-streaming-java</artifactId>
      <version>1.18.1</version>
      <scope>provided</scope>
    </dependency>
    <dependency>
      <groupId>org.apache.flink</groupId>
      <artifactId>flink-connector-kafka</artifactId>
      <version>3.2.0-1.18</version>
    </dependency>
  </dependencies>
</project>
`;

const LEGACY = `package com.example.orders;

import java.util.Properties;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer;

public class OrdersJob {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(60_000);
    Properties props = new Properties();
    props.setProperty("bootstrap.servers", "kafka:9092");
    props.setProperty("group.id", "orders-job");
    env.addSource(new FlinkKafkaConsumer<>("orders", new SimpleStringSchema(), props)).print();
    env.execute("orders");
  }
}
`;

const MODERN = `package com.example.orders;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class OrdersJob {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(60_000);
    KafkaSource<String> source = KafkaSource.<String>builder()
        .setBootstrapServers("kafka:9092")
        .setTopics("orders")
        .setGroupId("orders-job")
        .setStartingOffsets(OffsetsInitializer.committedOffsets())
        .setValueOnlyDeserializer(new SimpleStringSchema())
        .build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").print();
    env.execute("orders");
  }
}
`;

const PATH = "src/main/java/com/example/orders/OrdersJob.java";

const REPLACEMENT: Record<LegacyKafkaClient["role"], string> = {
  consumer: "KafkaSource (KafkaSource.builder() … build(), read with env.fromSource)",
  producer: "KafkaSink (KafkaSink.builder() … build(), written with stream.sinkTo)",
};

const TARGET: Record<LegacyKafkaClient["role"], string> = { consumer: "KafkaSource", producer: "KafkaSink" };

export const rule: Rule = {
  meta: {
    code: "BFL503",
    name: "legacy-kafka-connector",
    family: "datastream",
    severity: "warning",
    description:
      "FlinkKafkaConsumer / FlinkKafkaProducer: deprecated since Flink 1.14 and removed in flink-connector-kafka 4.0; the Kafka 0.8–0.11 clients are gone since Flink 1.11 and 1.12.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports each use of `FlinkKafkaConsumer` and `FlinkKafkaProducer`, and of the clients of the connectors for one Kafka version (`FlinkKafkaConsumer08`, `09`, `010`, `011` and `FlinkKafkaProducer08`, `09`, `010`, `011`): every `new …` of them, and in a file that never constructs one, its first mention (an import or a type). `FlinkKafkaConsumer` and `FlinkKafkaProducer` are an error when the project runs on Flink 2.0 or later, or depends on flink-connector-kafka 4.0 or later (`4.0.0-2.0`), where these classes no longer exist. A Kafka-version client is told which Flink release dropped its connector (0.8 and 0.9: Flink 1.11; 0.10 and 0.11: Flink 1.12) and what replaces it (`KafkaSource`, `KafkaSink`); it is an error when the project runs on that release or later (or depends on flink-connector-kafka 4.0), a warning when the project's Flink is older or not known. On a Flink older than 1.14, where `FlinkKafkaConsumer` and `FlinkKafkaProducer` are not deprecated yet, the finding is information about the upgrade ahead, saying whether the replacement exists there already (`KafkaSource` from Flink 1.12, `KafkaSink` only from 1.14).",
      whyItMatters:
        "These SourceFunction/SinkFunction based clients were deprecated in Flink 1.14 (FLINK-24055, FLINK-23710) in favour of `KafkaSource` and `KafkaSink`, and removed from flink-connector-kafka 4.0.0, the connector for Flink 2.x (FLINK-36848). A job that still uses them stops compiling on that upgrade and, until then, does not get the fixes made to the new connector. The clients with a Kafka version in their name are gone much longer: Flink 1.11 dropped the Kafka 0.8 and 0.9 connectors (FLINK-15115) and Flink 1.12 the 0.10 and 0.11 connectors (FLINK-19152), and no Flink release from then on publishes them, so a job that uses one cannot be built against a current Flink at all. Plan the move before upgrading: the new source does not restore the old consumer's offsets from a savepoint, so start it from the consumer group's committed offsets (`OffsetsInitializer.committedOffsets()` with the same group id) and give it a new operator uid.",
      bad: { "pom.xml": POM, [PATH]: LEGACY },
      good: { "pom.xml": POM, [PATH]: MODERN },
      whenNotToFire:
        "Uses of `KafkaSource` and `KafkaSink`; Beam's KafkaIO. Mentions in comments and strings. In a file that constructs a legacy client, the import and type mentions are not reported again.",
      references: [
        "FLINK-15115 (Kafka 0.8 and 0.9 connectors dropped, Flink 1.11 release notes; https://github.com/apache/flink/pull/10762)",
        "FLINK-19152 (Kafka 0.10.x and 0.11.x connectors removed, Flink 1.12 release notes)",
        "FLINK-24055 (FlinkKafkaConsumer deprecated, Flink 1.14; https://github.com/apache/flink/pull/17054)",
        "FLINK-23710 (FlinkKafkaProducer deprecated in favour of KafkaSink, Flink 1.14; https://github.com/apache/flink/pull/16837)",
        "FLINK-36848 (FlinkKafkaConsumer and FlinkKafkaProducer removed, flink-connector-kafka 4.0.0)",
        'https://nightlies.apache.org/flink/flink-docs-release-1.17/docs/connectors/datastream/kafka/ ("FlinkKafkaConsumer is deprecated and will be removed with Flink 1.17")',
        "FLINK-36245 (SourceFunction and SinkFunction removed from the Flink 2.0 API; https://github.com/apache/flink/pull/25331)",
      ],
    },
  },
  check(ctx) {
    const removal = removalEvidence(ctx.project);
    for (const client of reported(allCode(ctx.project).flatMap((j) => j.dataStream.legacyKafka))) {
      const versioned = kafkaVersionConnector(client.className);
      if (versioned) {
        reportVersioned(ctx, client, versioned, removal);
        continue;
      }
      const replacement = REPLACEMENT[client.role];
      if (!removal && flinkAtLeast(ctx.project, "1.14") === false) {
        reportBeforeDeprecation(ctx, client);
        continue;
      }
      const message = !removal
        ? `${client.className} is removed in flink-connector-kafka 4.0 (Flink 2.x): the job stops compiling on that upgrade.`
        : removal.kind === "connector"
          ? fitting(
              `${client.className} no longer exists in ${removal.what}: this code does not compile and the job cannot be built.`,
              `${client.className} no longer exists in the connector in use: the job cannot be built.`,
            )
          : fitting(
              `${client.className} cannot run on ${removal.what}: Flink 2.0 removed the API it is built on.`,
              `${client.className} cannot run on Flink 2.x: Flink 2.0 removed the API it is built on.`,
            );
      const details = !removal
        ? `${client.className} is deprecated since Flink 1.14. Move to ${replacement}.`
        : removal.kind === "connector"
          ? `Rewrite it with ${replacement}.`
          : `Flink 2.0 removed the SourceFunction/SinkFunction API, and the Kafka connector for Flink 2.x no longer has it. Rewrite it with ${replacement}.`;
      ctx.report({
        file: client.file,
        range: client.range,
        message,
        details,
        severity: removal ? "error" : undefined,
        related: removal?.where ? [removal.where] : [],
        tags: ["deprecated"],
      });
    }
  },
};

/** The Flink release that brought each replacement: KafkaSource (FLIP-27) with 1.12, KafkaSink (FLIP-143) with 1.14. */
const REPLACEMENT_SINCE: Record<LegacyKafkaClient["role"], string> = { consumer: "1.12", producer: "1.14" };

/**
 * FlinkKafkaConsumer / FlinkKafkaProducer on a Flink before 1.14: not deprecated there yet, and KafkaSink does not
 * exist before 1.14 (KafkaSource from 1.12). Information about the upgrade ahead, not a warning about this code.
 */
function reportBeforeDeprecation(ctx: RuleContext, client: LegacyKafkaClient): void {
  const version = ctx.project.flinkVersion;
  const minor = version?.minor ?? "";
  const target = TARGET[client.role];
  const since = REPLACEMENT_SINCE[client.role];
  const available = flinkAtLeast(ctx.project, since) === true;
  const location = version?.evidence.location;
  ctx.report({
    file: client.file,
    range: client.range,
    message: fitting(
      `${client.className} is deprecated from Flink 1.14 on (the project runs ${minor}) and removed in flink-connector-kafka 4.0.`,
      `${client.className} is deprecated from Flink 1.14 on and removed in flink-connector-kafka 4.0.`,
    ),
    details: available
      ? `${target} exists from Flink ${since} on: moving to ${REPLACEMENT[client.role]} now saves the rewrite on the upgrade to 1.14 and later.`
      : `${target} comes with Flink ${since}: move to ${REPLACEMENT[client.role]} as part of that upgrade.`,
    severity: "info",
    related: location
      ? [{ file: location.file, range: location.range, message: `The project runs Flink ${minor}.` }]
      : [],
    tags: ["deprecated"],
  });
}

/**
 * A client of a Kafka-version connector (0.8, 0.9, 0.10, 0.11): gone from Flink since 1.11 or 1.12, so it is an error
 * where the project runs a Flink from that release on, or a Flink 2.x connector; a warning where the version is older
 * or unknown.
 */
function reportVersioned(
  ctx: RuleContext,
  client: LegacyKafkaClient,
  connector: KafkaVersionConnector,
  removal: ReturnType<typeof removalEvidence>,
): void {
  const { className } = client;
  const target = TARGET[client.role];
  const version = ctx.project.flinkVersion;
  const newer = flinkAtLeast(ctx.project, connector.removedIn);
  const gone = `${className} is gone from Flink since ${connector.removedIn}`;
  const built = newer === true ? `for Flink ${version?.minor}` : removal && `with ${removal.what}`;
  const message =
    built !== undefined
      ? fitting(
          `${gone}: the job cannot be built ${built}; use ${target}.`,
          `${gone}: the job cannot be built; use ${target}.`,
        )
      : newer === false
        ? fitting(`${gone}: the job stops building on that upgrade; use ${target}.`, `${gone}; use ${target}.`)
        : fitting(`${gone}: on a current Flink the job cannot be built; use ${target}.`, `${gone}; use ${target}.`);
  const location = version?.evidence.location;
  const where =
    newer === true && location
      ? { file: location.file, range: location.range, message: `The project runs Flink ${version?.minor}.` }
      : newer === true
        ? undefined
        : removal?.where;
  ctx.report({
    file: client.file,
    range: client.range,
    message,
    details: `Flink ${connector.removedIn} removed the Kafka ${connector.kafka} connector (${connector.artifact}, ${connector.issue}): no Flink release from ${connector.removedIn} on publishes ${className}. Rewrite it with ${REPLACEMENT[client.role]} from flink-connector-kafka.`,
    severity: built !== undefined ? "error" : undefined,
    related: where ? [where] : [],
    tags: ["deprecated"],
  });
}

/** Every constructed client, and per file and class the first mention when that file constructs none. */
function reported(clients: LegacyKafkaClient[]): LegacyKafkaClient[] {
  const constructed = new Set(clients.filter((c) => c.constructed).map((c) => `${c.file}\u0000${c.className}`));
  const mentioned = new Set<string>();
  return clients.filter((c) => {
    if (c.constructed) return true;
    const key = `${c.file}\u0000${c.className}`;
    if (constructed.has(key) || mentioned.has(key)) return false;
    mentioned.add(key);
    return true;
  });
}

/** Why the legacy clients are gone from this project's build, if they are: connector 4.0 or Flink 2.x. */
function removalEvidence(
  project: ProjectModel,
): { kind: "connector" | "flink"; what: string; where?: RelatedLocation } | undefined {
  const line = kafkaConnectorLine(project);
  return line?.line === "four" ? line : undefined;
}
