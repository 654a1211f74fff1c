/**
 * The same jobs written in Java and in Kotlin give the same job-code facts: rules written once read both the same way.
 * Kotlin's own forms (property writes, scope functions, `mapOf(… to …)`, companion constants, trailing lambdas)
 * read as the Java calls they stand for. Ranges differ with the syntax; what the job does (calls, values, the operator graph, settings) must not.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import type { JobCode } from "../../server/src/core/jobcode/facts";
import { settings, shown } from "../java/helpers";

function read(file: string, text: string): JobCode {
  const code = readDocument(file, text).code;
  if (!code) throw new Error(`${file} was not read`);
  assert.deepEqual(code.parseProblems, [], file);
  return code;
}

/** What a job does, without where it is written. */
function summary(code: JobCode): unknown {
  const ds = code.dataStream;
  return {
    environments: ds.environments.map((e) => e.variable),
    checkpointing: ds.checkpointing.map((c) => `${c.kind} ${c.call.method} ${c.interval ? shown(c.interval) : ""}`),
    environmentParallelism: ds.environmentParallelism.map((p) => `${p.method}(${shown(p.value)})`),
    legacy: ds.legacyKafka.filter((l) => l.constructed).map((l) => [l.className, settings(l.properties)]),
    sources: ds.kafkaSources.map((s) => ({
      variable: s.variable,
      calls: s.calls.map((c) => c.method),
      settings: settings(s.properties),
      topics: s.topics.map(shown),
    })),
    sinks: ds.kafkaSinks.map((s) => [s.deliveryGuarantee && shown(s.deliveryGuarantee), !!s.setTransactionalIdPrefix]),
    operators: ds.operators.map(
      (o) =>
        `${o.call.method}<-${o.inputs.join(",")}${o.parallelism ? ` p=${shown(o.parallelism.value)}` : ""}${o.kafkaSource ? ` ${o.kafkaSource.kind}` : ""}`,
    ),
    reads: code.kafkaReads.map((r) => ({
      calls: r.calls.map((c) => c.method),
      config: settings(r.consumerConfig),
      unknown: r.consumerConfig.hasUnknownParts,
      topics: r.topics.map(shown),
    })),
    options: code.beamOptions.creations.map((c) => [c.variable, c.fromArgs, c.asClass]),
    optionSettings: code.beamOptions.settings.map((s) => `${s.option}=${shown(s.value)}`),
  };
}

test("a DataStream job with a KafkaSource, a legacy consumer and a KafkaSink: Java and Kotlin agree", () => {
  const java = read(
    "/p/src/main/java/com/example/Orders.java",
    [
      "public class Orders {",
      '  static final String GROUP = "orders";',
      "  public static void main(String[] args) throws Exception {",
      "    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
      "    env.setParallelism(4);",
      "    env.getCheckpointConfig().setCheckpointInterval(60_000L);",
      "    KafkaSource<String> source = KafkaSource.<String>builder()",
      '        .setBootstrapServers("kafka:9092")',
      '        .setTopics("orders", "returns")',
      "        .setGroupId(GROUP)",
      '        .setProperty("enable.auto.commit", "false")',
      "        .setValueOnlyDeserializer(new SimpleStringSchema())",
      "        .build();",
      "    Properties props = new Properties();",
      '    props.setProperty("group.id", GROUP);',
      '    DataStream<String> legacy = env.addSource(new FlinkKafkaConsumer<>("legacy", new SimpleStringSchema(), props));',
      '    env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders")',
      "        .union(legacy)",
      "        .map(s -> s.trim())",
      "        .setParallelism(1)",
      "        .sinkTo(KafkaSink.<String>builder()",
      "            .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)",
      '            .setTransactionalIdPrefix("orders")',
      "            .build());",
      '    env.execute("orders");',
      "  }",
      "}",
    ].join("\n"),
  );
  const kotlin = read(
    "/p/src/main/kotlin/com/example/Orders.kt",
    [
      "class Orders {",
      "  companion object {",
      '    const val GROUP = "orders"',
      "",
      "    @JvmStatic",
      "    fun main(args: Array<String>) {",
      "      val env = StreamExecutionEnvironment.getExecutionEnvironment()",
      "      env.setParallelism(4)",
      "      env.checkpointConfig.checkpointInterval = 60_000L",
      "      val source = KafkaSource.builder<String>()",
      '          .setBootstrapServers("kafka:9092")',
      '          .setTopics("orders", "returns")',
      "          .setGroupId(GROUP)",
      '          .setProperty("enable.auto.commit", "false")',
      "          .setValueOnlyDeserializer(SimpleStringSchema())",
      "          .build()",
      '      val props = Properties().apply { setProperty("group.id", GROUP) }',
      '      val legacy = env.addSource(FlinkKafkaConsumer("legacy", SimpleStringSchema(), props))',
      '      env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders")',
      "          .union(legacy)",
      "          .map { it.trim() }",
      "          .setParallelism(1)",
      "          .sinkTo(KafkaSink.builder<String>()",
      "              .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)",
      '              .setTransactionalIdPrefix("orders")',
      "              .build())",
      '      env.execute("orders")',
      "    }",
      "  }",
      "}",
    ].join("\n"),
  );
  assert.deepEqual(summary(kotlin), summary(java));
});

test("a Beam KafkaIO pipeline on the Flink runner: Java and Kotlin agree", () => {
  const java = read(
    "/p/src/main/java/com/example/Pipeline.java",
    [
      "public class OrdersPipeline {",
      "  public static void main(String[] args) {",
      "    FlinkPipelineOptions options = PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class);",
      "    options.setRunner(FlinkRunner.class);",
      "    options.setCheckpointingInterval(60_000L);",
      "    Pipeline pipeline = Pipeline.create(options);",
      "    pipeline.apply(KafkaIO.<String, String>read()",
      '        .withBootstrapServers("kafka:9092")',
      '        .withTopics(List.of("orders", "returns"))',
      "        .withKeyDeserializer(StringDeserializer.class)",
      "        .withValueDeserializer(StringDeserializer.class)",
      '        .withConsumerConfigUpdates(Map.of("group.id", "orders-consumer", "auto.offset.reset", "earliest"))',
      "        .commitOffsetsInFinalize());",
      "    pipeline.run();",
      "  }",
      "}",
    ].join("\n"),
  );
  const kotlin = read(
    "/p/src/main/kotlin/com/example/Pipeline.kt",
    [
      "fun main(args: Array<String>) {",
      "    val options = PipelineOptionsFactory.fromArgs(*args).withValidation().`as`(FlinkPipelineOptions::class.java)",
      "    options.runner = FlinkRunner::class.java",
      "    options.checkpointingInterval = 60_000L",
      "    val pipeline = Pipeline.create(options)",
      "    pipeline.apply(KafkaIO.read<String, String>()",
      '        .withBootstrapServers("kafka:9092")',
      '        .withTopics(listOf("orders", "returns"))',
      "        .withKeyDeserializer(StringDeserializer::class.java)",
      "        .withValueDeserializer(StringDeserializer::class.java)",
      '        .withConsumerConfigUpdates(mapOf<String, Any>("group.id" to "orders-consumer", "auto.offset.reset" to "earliest"))',
      "        .commitOffsetsInFinalize())",
      "    pipeline.run()",
      "}",
    ].join("\n"),
  );
  assert.deepEqual(summary(kotlin), summary(java));
});
