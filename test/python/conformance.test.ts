/**
 * The same job written in Java and in Python gives the same facts, so a rule written once reads both: the
 * DataStream story (8 source subtasks feeding one flatMap) with PyFlink, and a KafkaIO read with Beam Python's
 * ReadFromKafka. Facts are compared without positions and language-specific spellings.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readJava } from "../../server/src/core/documents/java/reader";
import type { JobCode } from "../../server/src/core/jobcode/facts";
import { settings, shown } from "../java/helpers";
import { lines, py } from "./helpers";

/** What the DataStream rules read, language-independent. */
function streamFacts(code: JobCode) {
  const ds = code.dataStream;
  return {
    environments: ds.environments.map((e) => e.variable),
    checkpointing: ds.checkpointing.map((c) => `${c.kind} ${c.interval ? shown(c.interval) : "-"} ${c.environment}`),
    environmentParallelism: ds.environmentParallelism.map((p) => `${p.method} ${shown(p.value)}`),
    sources: ds.kafkaSources.map((s) => ({
      variable: s.variable,
      properties: settings(s.properties),
      topics: s.topics.map(shown),
      groupId: s.setGroupId ? shown(s.setGroupId.args[0]) : undefined,
      startingOffsets: s.startingOffsets?.initializer,
    })),
    operators: ds.operators.map((o) => ({
      role: o.role,
      method: o.call.method,
      inputs: o.inputs,
      parallelism: o.parallelism ? shown(o.parallelism.value) : undefined,
      kafkaSource: o.kafkaSource?.kind,
      environment: o.environment,
    })),
  };
}

const JAVA_STREAM = lines(
  "public class ClickCounts {",
  "  public static void main(String[] args) throws Exception {",
  "    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
  "    env.enableCheckpointing(60_000);",
  "    env.setParallelism(4);",
  "    KafkaSource<String> source = KafkaSource.<String>builder()",
  '        .setBootstrapServers("kafka:9092")',
  '        .setTopics("clicks")',
  '        .setGroupId("click-counts")',
  "        .setStartingOffsets(OffsetsInitializer.committedOffsets())",
  "        .setValueOnlyDeserializer(new SimpleStringSchema())",
  "        .build();",
  '    env.fromSource(source, WatermarkStrategy.noWatermarks(), "clicks")',
  "        .setParallelism(8)",
  "        .flatMap(new SplitWords())",
  "        .setParallelism(1)",
  "        .print();",
  '    env.execute("click-counts");',
  "  }",
  "}",
);

const PYTHON_STREAM = lines(
  "def main():",
  "    env = StreamExecutionEnvironment.get_execution_environment()",
  "    env.enable_checkpointing(60_000)",
  "    env.set_parallelism(4)",
  "    source = KafkaSource.builder() \\",
  '        .set_bootstrap_servers("kafka:9092") \\',
  '        .set_topics("clicks") \\',
  '        .set_group_id("click-counts") \\',
  "        .set_starting_offsets(KafkaOffsetsInitializer.committed_offsets()) \\",
  "        .set_value_only_deserializer(SimpleStringSchema()) \\",
  "        .build()",
  "    (",
  '        env.from_source(source, WatermarkStrategy.no_watermarks(), "clicks")',
  "        .set_parallelism(8)",
  "        .flat_map(split_words)",
  "        .set_parallelism(1)",
  "        .print()",
  "    )",
  '    env.execute("click-counts")',
  "",
  "",
  'if __name__ == "__main__":',
  "    main()",
);

test("a DataStream job in Java and in PyFlink: the same environment, checkpointing, source and operator graph", () => {
  const java = streamFacts(readJava("/p/src/main/java/ClickCounts.java", JAVA_STREAM));
  const python = streamFacts(py(PYTHON_STREAM, "/p/click_counts.py"));
  assert.equal(java.operators.length, 3);
  assert.deepEqual(python, java);
});

/** What the Beam rules read of a Kafka read, language-independent. */
function readFacts(code: JobCode) {
  return code.kafkaReads.map((r) => ({
    consumerConfig: settings(r.consumerConfig),
    hasUnknownParts: r.consumerConfig.hasUnknownParts,
    topics: r.topics.map(shown),
    commitOffsetsInFinalize: r.commitOffsetsInFinalize !== undefined,
    bounded: r.calls.some((c) => c.method === "withMaxNumRecords"),
  }));
}

const JAVA_READ = lines(
  "class Orders {",
  "  static KafkaIO.Read<String, String> read() {",
  "    return KafkaIO.<String, String>read()",
  '        .withBootstrapServers("kafka:9092")',
  '        .withTopics(List.of("orders", "refunds"))',
  '        .withConsumerConfigUpdates(Map.of("group.id", "orders", "enable.auto.commit", "false"))',
  "        .commitOffsetsInFinalize();",
  "  }",
  "}",
);

const PYTHON_READ = lines(
  "def read():",
  "    return ReadFromKafka(",
  '        consumer_config={"bootstrap.servers": "kafka:9092", "group.id": "orders", "enable.auto.commit": "false"},',
  '        topics=["orders", "refunds"],',
  "        commit_offset_in_finalize=True,",
  "    )",
);

test("a Kafka read with KafkaIO and with ReadFromKafka: the same consumer config, topics and commit mode", {}, () => {
  const java = readFacts(readJava("/p/src/main/java/Orders.java", JAVA_READ));
  const python = readFacts(py(PYTHON_READ, "/p/orders.py"));
  assert.deepEqual(python, java);
});
