/** Flink DataStream jobs: environments, checkpointing, Kafka sources and sinks, and the operator graph. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { appendCall, effectiveSetting, insertStatement } from "../../server/src/core/jobcode/facts";
import { at, edited, inMain, java, settings, shown } from "./helpers";

const JOB = inMain(
  "final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
  "KafkaSource<String> source = KafkaSource.<String>builder()",
  '    .setBootstrapServers("kafka:9092")',
  '    .setTopics("orders")',
  '    .setProperty("enable.auto.commit", "true")',
  "    .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))",
  "    .build();",
  'DataStream<String> lines = env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").setParallelism(8);',
  "lines.flatMap(new Tokenizer())",
  "    .setParallelism(1)",
  "    .keyBy(w -> w)",
  "    .sum(1)",
  "    .sinkTo(KafkaSink.<String>builder()",
  "        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)",
  '        .setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "900000")',
  "        .build());",
  'env.execute("orders");',
);

test("the environment, with the statement after which checkpointing can be enabled", () => {
  const { dataStream } = java(JOB);
  const [env] = dataStream.environments;
  assert.equal(at(JOB, env.range), "2:70-2:93 getExecutionEnvironment");
  assert.equal(env.variable, "env");
  assert.deepEqual(dataStream.checkpointing, []);
  assert.deepEqual(
    edited(JOB, insertStatement(env.insertion ?? assert.fail(), "env.enableCheckpointing(60_000);"))
      .split("\n")
      .slice(2, 4),
    [
      "    final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
      "    env.enableCheckpointing(60_000);",
    ],
  );
});

test("a KafkaSource builder: properties, starting offsets, topics, and .setGroupId goes before .build()", () => {
  const [source] = java(JOB).dataStream.kafkaSources;
  assert.equal(at(JOB, source.range), "3:33-3:62 KafkaSource.<String>builder()");
  assert.equal(source.variable, "source");
  assert.deepEqual(settings(source.properties), ['bootstrap.servers="kafka:9092"', 'enable.auto.commit="true"']);
  assert.equal(source.setGroupId, undefined);
  assert.equal(source.startingOffsets?.initializer, "committedOffsets");
  assert.deepEqual(source.topics.map(shown), ['"orders"']);
  assert.deepEqual(edited(JOB, appendCall(source.chainInsertion, 'setGroupId("orders")')).split("\n").slice(7, 10), [
    "        .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))",
    '        .setGroupId("orders")',
    "        .build();",
  ]);
});

test("a KafkaSink builder: delivery guarantee, producer properties, and where setTransactionalIdPrefix goes", () => {
  const [sink] = java(JOB).dataStream.kafkaSinks;
  assert.equal(at(JOB, sink.range), "14:16-14:43 KafkaSink.<String>builder()");
  assert.equal(shown(sink.deliveryGuarantee ?? assert.fail()), '"EXACTLY_ONCE"');
  assert.equal(sink.setTransactionalIdPrefix, undefined);
  assert.equal(shown(effectiveSetting(sink.properties, "transaction.timeout.ms")?.value ?? assert.fail()), '"900000"');
  assert.deepEqual(
    edited(JOB, appendCall(sink.chainInsertion, 'setTransactionalIdPrefix("orders")')).split("\n").slice(16, 19),
    [
      '            .setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "900000")',
      '            .setTransactionalIdPrefix("orders")',
      "            .build());",
    ],
  );
});

test("the operator graph follows the stream through variables; setParallelism can be removed exactly", () => {
  const { operators } = java(JOB).dataStream;
  assert.deepEqual(
    operators.map(
      (o) =>
        `${o.id} ${o.call.method} ${o.role} <- [${o.inputs}] p=${o.parallelism ? shown(o.parallelism.value) : "-"}`,
    ),
    [
      "0 fromSource source <- [] p=8",
      "1 flatMap transformation <- [0] p=1",
      "2 keyBy transformation <- [1] p=-",
      "3 sum transformation <- [2] p=-",
      "4 sinkTo sink <- [3] p=-",
    ],
  );
  assert.equal(operators[0].environment, "env");
  assert.equal(operators[0].kafkaSource?.kind, "kafkaSource");
  assert.equal(operators[0].kafkaSource?.variable, "source");
  assert.equal(operators[4].kafkaSink?.kind, "kafkaSink");
  const parallelism = operators[1].parallelism ?? assert.fail();
  assert.equal(at(JOB, parallelism.call.range), "11:9-11:23 setParallelism");
  assert.deepEqual(
    edited(JOB, { range: parallelism.call.removeRange ?? assert.fail(), newText: "" })
      .split("\n")
      .slice(10, 12),
    ["    lines.flatMap(new Tokenizer())", "        .keyBy(w -> w)"],
  );
});

test("setParallelism as a statement of its own is removed with its line", () => {
  const text = inMain(
    "StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
    'SingleOutputStreamOperator<String> op = env.fromElements("a").map(x -> x);',
    "op.setParallelism(1);",
    "op.print();",
  );
  const [, map] = java(text).dataStream.operators;
  const removal = map.parallelism?.call.removeRange ?? assert.fail();
  assert.equal(edited(text, { range: removal, newText: "" }).includes("setParallelism"), false);
  assert.equal(edited(text, { range: removal, newText: "" }).split("\n")[4], "    op.print();");
});

test("checkpointing in code: enableCheckpointing, the checkpoint config, and a Configuration given to the environment", () => {
  const text = inMain(
    "Configuration conf = new Configuration();",
    'conf.setString("execution.checkpointing.interval", "1 min");',
    "conf.set(CoreOptions.DEFAULT_PARALLELISM, 4);",
    "StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);",
    "env.enableCheckpointing(Time.seconds(30).toMilliseconds(), CheckpointingMode.AT_LEAST_ONCE);",
    "env.getCheckpointConfig().setCheckpointInterval(10_000L);",
    "env.setParallelism(6);",
  );
  const { dataStream } = java(text);
  assert.equal(dataStream.environments[0].configurationVariable, "conf");
  assert.deepEqual(
    dataStream.checkpointing.map(
      (c) =>
        `${c.kind} ${at(text, c.call.range)} interval=${c.interval ? shown(c.interval) : "-"} mode=${c.mode ? shown(c.mode) : "-"}`,
    ),
    [
      'enableCheckpointing 6:8-6:27 enableCheckpointing interval=? mode="AT_LEAST_ONCE"',
      "checkpointConfig 7:30-7:51 setCheckpointInterval interval=10000 mode=-",
      'configuration 3:9-3:18 setString interval="1 min" mode=-',
    ],
  );
  assert.deepEqual(
    dataStream.configuration.map((c) => `${c.key}=${shown(c.value)} ${c.variable} ${c.passedToEnvironment}`),
    ['execution.checkpointing.interval="1 min" conf true', "parallelism.default=4 conf true"],
  );
  assert.deepEqual(
    dataStream.environmentParallelism.map((p) => `${p.environment} ${p.method}=${shown(p.value)}`),
    ["env setParallelism=6"],
  );
});

test("legacy FlinkKafkaConsumer/Producer: imports, constructions with their Properties, commit on checkpoints", () => {
  const text = [
    "import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer011;",
    "class Job {",
    "  void run(StreamExecutionEnvironment env) {",
    "    Properties props = new Properties();",
    '    props.setProperty("group.id", "legacy");',
    '    FlinkKafkaConsumer011<String> consumer = new FlinkKafkaConsumer011<>("t", new SimpleStringSchema(), props);',
    "    consumer.setCommitOffsetsOnCheckpoints(false);",
    '    env.addSource(consumer).addSink(new FlinkKafkaProducer<>("out", schema, props, Semantic.EXACTLY_ONCE));',
    "  }",
    "}",
  ].join("\n");
  const { dataStream } = java(text);
  assert.deepEqual(
    dataStream.legacyKafka.map(
      (l) => `${l.className} ${l.role} ${l.constructed} ${at(text, l.range)} ${settings(l.properties)}`,
    ),
    [
      "FlinkKafkaConsumer011 consumer false 0:51-0:72 FlinkKafkaConsumer011 ",
      'FlinkKafkaConsumer011 consumer true 5:49-5:70 FlinkKafkaConsumer011 group.id="legacy"',
      'FlinkKafkaProducer producer true 7:40-7:58 FlinkKafkaProducer group.id="legacy"',
    ],
  );
  assert.equal(
    at(text, dataStream.legacyKafka[1].commitOffsetsOnCheckpoints?.range),
    "6:13-6:42 setCommitOffsetsOnCheckpoints",
  );
  const [source, sink] = dataStream.operators;
  assert.equal(source.kafkaSource?.kind, "legacyConsumer");
  assert.equal(source.kafkaSource?.variable, "consumer");
  assert.equal(sink.kafkaSink?.kind, "legacyProducer");
  assert.equal(source.environment, "env");
});

test("an environment created in one method and configured in a helper it is passed to", () => {
  const text = [
    "class Job {",
    "  public static void main(String[] args) throws Exception {",
    "    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();",
    "    configure(env);",
    "    env.execute();",
    "  }",
    "  private static void configure(StreamExecutionEnvironment e) {",
    "    e.enableCheckpointing(60_000);",
    "  }",
    "}",
  ].join("\n");
  const { dataStream } = java(text);
  assert.deepEqual(
    dataStream.checkpointing.map((c) => `${c.environment} ${shown(c.interval ?? assert.fail())}`),
    ["env 60000"],
  );
});
