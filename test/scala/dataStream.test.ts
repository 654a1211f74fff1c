/** Flink DataStream jobs written in Scala (the Scala API and the Java API called from Scala), read into job-code facts. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { appendCall, insertStatement } from "../../server/src/core/jobcode/facts";
import { at, edited, settings, shown } from "../java/helpers";
import { scala } from "./helpers";

/** The job the product was built for: no checkpointing, a parallel Kafka source, a single downstream flatMap. */
const WORD_COUNT = [
  "package com.example.wordcount",
  "",
  "import java.util.Properties",
  "",
  "import org.apache.flink.api.common.serialization.SimpleStringSchema",
  "import org.apache.flink.streaming.api.scala._",
  "import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer",
  "",
  "object KafkaWordCount {",
  "  def main(args: Array[String]): Unit = {",
  "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
  "    env.setParallelism(4)",
  "",
  "    val props = new Properties()",
  '    props.setProperty("bootstrap.servers", "kafka:9092")',
  '    props.setProperty("group.id", "word-count")',
  "",
  '    val lines = env.addSource(new FlinkKafkaConsumer[String]("lines", new SimpleStringSchema(), props))',
  "",
  "    lines",
  '      .flatMap(_.toLowerCase.split("\\\\W+"))',
  "      .setParallelism(1)",
  "      .map((_, 1))",
  "      .keyBy(_._1)",
  "      .sum(1)",
  "      .print()",
  "",
  '    env.execute("kafka-word-count")',
  "  }",
  "}",
  "",
].join("\n");

test("the word count: environment, no checkpointing, a legacy consumer with its properties, the operator chain", () => {
  const code = scala(WORD_COUNT);
  assert.equal(code.language, "scala");
  assert.equal(code.isTest, false);
  assert.deepEqual(code.parseProblems, []);
  const [env] = code.dataStream.environments;
  assert.equal(at(WORD_COUNT, env.range), "10:41-10:64 getExecutionEnvironment");
  assert.equal(env.variable, "env");
  assert.deepEqual(code.dataStream.checkpointing, []);
  assert.deepEqual(
    code.dataStream.environmentParallelism.map((p) => `${p.environment}.${p.method}(${shown(p.value)})`),
    ["env.setParallelism(4)"],
  );
  const [consumer] = code.dataStream.legacyKafka;
  assert.equal(at(WORD_COUNT, consumer.range), "17:34-17:52 FlinkKafkaConsumer");
  assert.deepEqual(settings(consumer.properties), ['bootstrap.servers="kafka:9092"', 'group.id="word-count"']);
  assert.deepEqual(
    code.dataStream.operators.map(
      (o) => `${o.call.method}<-${o.inputs.join(",")}${o.parallelism ? ` p=${shown(o.parallelism.value)}` : ""}`,
    ),
    ["addSource<-", "flatMap<-0 p=1", "map<-1", "keyBy<-2", "sum<-3", "print<-4"],
  );
  const flatMap = code.dataStream.operators[1];
  assert.equal(at(WORD_COUNT, flatMap.parallelism?.call.range), "21:7-21:21 setParallelism");
  assert.equal(code.dataStream.operators[0].kafkaSource?.kind, "legacyConsumer");
});

test("where a statement goes after the environment, and what removing setParallelism(1) leaves", () => {
  const code = scala(WORD_COUNT);
  const [env] = code.dataStream.environments;
  assert.deepEqual(
    edited(WORD_COUNT, insertStatement(env.insertion ?? assert.fail("no insertion"), "env.enableCheckpointing(60000L)"))
      .split("\n")
      .slice(10, 13),
    [
      "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
      "    env.enableCheckpointing(60000L)",
      "    env.setParallelism(4)",
    ],
  );
  const removal = code.dataStream.operators[1].parallelism?.call.removeRange;
  assert.deepEqual(
    edited(WORD_COUNT, { range: removal ?? assert.fail("no removal"), newText: "" })
      .split("\n")
      .slice(19, 22),
    ["    lines", '      .flatMap(_.toLowerCase.split("\\\\W+"))', "      .map((_, 1))"],
  );
});

const KAFKA_SOURCE = [
  "object OrdersJob {",
  '  val GroupId = "orders"',
  "",
  "  def main(args: Array[String]): Unit = {",
  "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
  "    env.enableCheckpointing(30000, CheckpointingMode.EXACTLY_ONCE)",
  "    val source = KafkaSource.builder[String]()",
  '      .setBootstrapServers("kafka:9092")',
  '      .setTopics("orders", "returns")',
  "      .setGroupId(GroupId)",
  '      .setProperty("enable.auto.commit", "true")',
  "      .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))",
  "      .setValueOnlyDeserializer(new SimpleStringSchema())",
  "      .build()",
  '    val orders = env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").setParallelism(8)',
  "    orders.filter(_.nonEmpty).sinkTo(",
  "      KafkaSink.builder[String]()",
  "        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)",
  '        .setTransactionalIdPrefix("orders")',
  "        .build())",
  "  }",
  "}",
  "",
].join("\n");

test("a KafkaSource builder: its settings with an object constant, topics, starting offsets, and where calls go", () => {
  const code = scala(KAFKA_SOURCE);
  const [cp] = code.dataStream.checkpointing;
  assert.equal(cp.kind, "enableCheckpointing");
  assert.equal(cp.interval && shown(cp.interval), "30000");
  assert.equal(cp.mode && shown(cp.mode), '"EXACTLY_ONCE"');
  const [source] = code.dataStream.kafkaSources;
  assert.equal(at(KAFKA_SOURCE, source.range), "6:17-6:46 KafkaSource.builder[String]()");
  assert.equal(source.variable, "source");
  assert.deepEqual(settings(source.properties), [
    'bootstrap.servers="kafka:9092"',
    'group.id="orders"',
    'enable.auto.commit="true"',
  ]);
  assert.deepEqual(source.topics.map(shown), ['"orders"', '"returns"']);
  assert.equal(source.startingOffsets?.initializer, "committedOffsets");
  assert.deepEqual(
    edited(KAFKA_SOURCE, appendCall(source.chainInsertion, 'setClientIdPrefix("o")')).split("\n").slice(12, 15),
    ["      .setValueOnlyDeserializer(new SimpleStringSchema())", '      .setClientIdPrefix("o")', "      .build()"],
  );
  const source0 = code.dataStream.operators[0];
  assert.equal(source0.kafkaSource?.variable, "source");
  assert.equal(source0.parallelism && shown(source0.parallelism.value), "8");
  const [sink] = code.dataStream.kafkaSinks;
  assert.equal(sink.deliveryGuarantee && shown(sink.deliveryGuarantee), '"EXACTLY_ONCE"');
  assert.ok(sink.setTransactionalIdPrefix);
  assert.equal(code.dataStream.operators.find((o) => o.call.method === "sinkTo")?.kafkaSink?.kind, "kafkaSink");
});

test("Scala 3: creator applications, indentation, an App-style object whose body is the job", () => {
  const text = [
    "import org.apache.flink.streaming.api.scala.*",
    "",
    "object Orders extends App:",
    "  val env = StreamExecutionEnvironment.getExecutionEnvironment",
    "  val props = Properties()",
    '  props.put("group.id", "orders")',
    '  val consumer = FlinkKafkaConsumer[String]("orders", SimpleStringSchema(), props)',
    "  env.addSource(consumer).setParallelism(2).map(_.trim).setParallelism(1).print()",
    '  env.execute("orders")',
    "",
  ].join("\n");
  const code = scala(text);
  assert.deepEqual(code.parseProblems, []);
  const [env] = code.dataStream.environments;
  assert.equal(env.variable, "env");
  assert.deepEqual(
    edited(text, insertStatement(env.insertion ?? assert.fail("no insertion"), "env.enableCheckpointing(60000L)"))
      .split("\n")
      .slice(3, 5),
    ["  val env = StreamExecutionEnvironment.getExecutionEnvironment", "  env.enableCheckpointing(60000L)"],
  );
  const [consumer] = code.dataStream.legacyKafka;
  assert.deepEqual(settings(consumer.properties), ['group.id="orders"']);
  assert.deepEqual(
    code.dataStream.operators.map((o) => `${o.call.method}${o.parallelism ? `=${shown(o.parallelism.value)}` : ""}`),
    ["addSource=2", "map=1", "print"],
  );
  assert.equal(code.dataStream.operators[0].kafkaSource?.variable, "consumer");
});

test("checkpointing only on some paths, or inside a function literal, is conditional", () => {
  const text = [
    "object Job {",
    "  def main(args: Array[String]): Unit = {",
    "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
    '    if (args.contains("--checkpoint")) env.enableCheckpointing(60000)',
    "    Option(args.headOption).foreach { _ => env.enableCheckpointing(1000) }",
    "    env.getCheckpointConfig().setCheckpointTimeout(600000)",
    "  }",
    "}",
  ].join("\n");
  const code = scala(text);
  assert.deepEqual(
    code.dataStream.checkpointing.map((c) => `${c.kind} ${c.call.method} ${c.call.conditional ? "maybe" : "always"}`),
    [
      "enableCheckpointing enableCheckpointing maybe",
      "enableCheckpointing enableCheckpointing maybe",
      "checkpointConfig setCheckpointTimeout always",
    ],
  );
});

test("an environment passed to a helper in another object, and a source built by a parameterless def", () => {
  const text = [
    "object Sources {",
    "  def orders: KafkaSource[String] = KafkaSource.builder[String]()",
    '    .setBootstrapServers("kafka:9092")',
    '    .setTopics("orders")',
    "    .build()",
    "}",
    "object Job {",
    "  def build(env: StreamExecutionEnvironment): Unit = {",
    '    env.fromSource(Sources.orders, WatermarkStrategy.noWatermarks(), "orders").print()',
    "  }",
    "  def main(args: Array[String]): Unit = {",
    "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
    "    build(env)",
    '    env.execute("orders")',
    "  }",
    "}",
  ].join("\n");
  const code = scala(text);
  assert.equal(code.dataStream.kafkaSources.length, 1);
  const [source] = code.dataStream.operators;
  assert.equal(source.call.method, "fromSource");
  assert.equal(source.environment, "env");
  assert.equal(source.kafkaSource?.kind, "kafkaSource");
});

test("test code: src/test/scala and *Test.scala files", () => {
  assert.equal(scala(KAFKA_SOURCE, "/p/src/test/scala/com/example/OrdersJobTest.scala").isTest, true);
  assert.equal(scala(KAFKA_SOURCE, "/p/jobs/OrdersIT.scala").isTest, true);
  assert.equal(scala(KAFKA_SOURCE, "/p/src/main/scala/com/example/OrdersJob.scala").isTest, false);
});

test("a getter written without parentheses on a followed object: env.getCheckpointConfig.setCheckpointInterval(…)", () => {
  const code = scala(
    [
      "object Job {",
      "  def main(args: Array[String]): Unit = {",
      "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
      "    env.getCheckpointConfig.setCheckpointInterval(60000L)",
      "  }",
      "}",
    ].join("\n"),
  );
  assert.deepEqual(
    code.dataStream.checkpointing.map((c) => `${c.kind} ${c.call.method} ${c.interval && shown(c.interval)}`),
    ["checkpointConfig setCheckpointInterval 60000"],
  );
});

test("a builder finished with .build (no parentheses) is still the built source", () => {
  const text = [
    "object Job {",
    "  def main(args: Array[String]): Unit = {",
    "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
    "    val source = KafkaSource.builder[String]",
    '      .setBootstrapServers("kafka:9092")',
    '      .setTopics("orders")',
    "      .build",
    '    env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").print()',
    "  }",
    "}",
  ].join("\n");
  const code = scala(text);
  const [source] = code.dataStream.kafkaSources;
  assert.equal(source.variable, "source");
  assert.equal(code.dataStream.operators[0].kafkaSource?.variable, "source");
  assert.deepEqual(edited(text, appendCall(source.chainInsertion, 'setGroupId("orders")')).split("\n").slice(5, 8), [
    '      .setTopics("orders")',
    '      .setGroupId("orders")',
    "      .build",
  ]);
});

test("an interpolated string is unknown, not its text", {}, () => {
  const code = scala(
    [
      "object Job {",
      "  def main(args: Array[String]): Unit = {",
      '    val host = sys.env("KAFKA_HOST")',
      "    val props = new Properties()",
      '    props.setProperty("bootstrap.servers", s"$host:9092")',
      '    props.setProperty("group.id", """orders""")',
      '    env.addSource(new FlinkKafkaConsumer[String]("t", new SimpleStringSchema(), props))',
      "  }",
      "}",
    ].join("\n"),
  );
  assert.deepEqual(settings(code.dataStream.legacyKafka[0].properties), ["bootstrap.servers=?", 'group.id="orders"']);
});

test("an infix call whose arguments stand on the next line is one call (Scala's `id [nl] InfixExpr`)", () => {
  const text = [
    "object Job {",
    "  def main(args: Array[String]): Unit = {",
    "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
    "    env enableCheckpointing",
    "      (60000)",
    "    val lines = env fromSource",
    '      (source, WatermarkStrategy.noWatermarks(), "src")',
    "    lines print",
    "",
    "    (1, 2)",
    "  }",
    "}",
  ].join("\n");
  const code = scala(text);
  assert.deepEqual(
    code.dataStream.checkpointing.map((c) => [c.kind, c.interval && shown(c.interval)]),
    [["enableCheckpointing", "60000"]],
  );
  // The source is read with its three arguments; a tuple after a blank line would be a statement of its own.
  assert.deepEqual(
    code.dataStream.operators.map((o) => `${o.call.method}/${o.call.args.length}<-${o.inputs.join(",")}`),
    ["fromSource/3<-", "print/0<-0"],
  );
});
