/**
 * Python job code read through the workspace's reader: the facts the rules see, for PyFlink DataStream jobs and
 * Beam Python pipelines. Cases that need extractor work not done yet are marked `todo` with what they wait for.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { appendCall, insertStatement } from "../../server/src/core/jobcode/facts";
import { at, edited, settings, shown } from "../java/helpers";
import { lines, py } from "./helpers";

const PYFLINK = lines(
  "from pyflink.common import WatermarkStrategy",
  "from pyflink.common.serialization import SimpleStringSchema",
  "from pyflink.datastream import StreamExecutionEnvironment",
  "from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource",
  "",
  "",
  "def main():",
  "    env = StreamExecutionEnvironment.get_execution_environment()",
  "    env.set_parallelism(4)",
  "    source = (",
  "        KafkaSource.builder()",
  '        .set_bootstrap_servers("kafka:9092")',
  '        .set_topics("clicks")',
  "        .set_starting_offsets(KafkaOffsetsInitializer.committed_offsets())",
  '        .set_property("enable.auto.commit", "true")',
  "        .set_value_only_deserializer(SimpleStringSchema())",
  "        .build()",
  "    )",
  '    words = env.from_source(source, WatermarkStrategy.no_watermarks(), "clicks").set_parallelism(8)',
  "    words.flat_map(lambda line: line.split()) \\",
  "        .set_parallelism(1) \\",
  "        .print()",
  '    env.execute("click-counts")',
  "",
  "",
  'if __name__ == "__main__":',
  "    main()",
);

test("PyFlink: the environment and where env.enable_checkpointing(…) goes", () => {
  const { dataStream, language, isTest } = py(PYFLINK);
  assert.equal(language, "python");
  assert.equal(isTest, false);
  const [env] = dataStream.environments;
  assert.equal(at(PYFLINK, env.range), "7:37-7:62 get_execution_environment");
  assert.equal(env.variable, "env");
  assert.deepEqual(dataStream.checkpointing, []);
  const fixed = edited(PYFLINK, insertStatement(env.insertion ?? assert.fail(), "env.enable_checkpointing(60000)"));
  assert.deepEqual(fixed.split("\n").slice(7, 9), [
    "    env = StreamExecutionEnvironment.get_execution_environment()",
    "    env.enable_checkpointing(60000)",
  ]);
  assert.deepEqual(
    dataStream.environmentParallelism.map((p) => `${p.environment} ${p.method} ${shown(p.value)}`),
    ["env setParallelism 4"],
  );
});

test("PyFlink: a KafkaSource builder in parentheses: its settings, and .set_group_id(…) joins it before .build()", () => {
  const [source] = py(PYFLINK).dataStream.kafkaSources;
  assert.equal(at(PYFLINK, source.range), "10:8-10:29 KafkaSource.builder()");
  assert.equal(source.variable, "source");
  assert.deepEqual(settings(source.properties), ['bootstrap.servers="kafka:9092"', 'enable.auto.commit="true"']);
  assert.equal(source.setGroupId, undefined);
  assert.equal(source.startingOffsets?.initializer, "committedOffsets");
  assert.deepEqual(source.topics.map(shown), ['"clicks"']);
  const fixed = edited(PYFLINK, appendCall(source.chainInsertion, 'set_group_id("clicks-consumer")'));
  assert.deepEqual(fixed.split("\n").slice(15, 18), [
    "        .set_value_only_deserializer(SimpleStringSchema())",
    '        .set_group_id("clicks-consumer")',
    "        .build()",
  ]);
});

test("PyFlink: operators across variables and backslash continuations, with their parallelism", () => {
  const { operators } = py(PYFLINK).dataStream;
  assert.deepEqual(
    operators.map(
      (o) =>
        `${o.id} ${o.role} ${o.call.method} <- [${o.inputs}] p=${o.parallelism ? shown(o.parallelism.value) : "-"}`,
    ),
    ["0 source fromSource <- [] p=8", "1 transformation flatMap <- [0] p=1", "2 sink print <- [1] p=-"],
  );
  const flatMap = operators[1];
  assert.equal(at(PYFLINK, flatMap.call.range), "19:10-19:18 flat_map");
  assert.equal(at(PYFLINK, flatMap.parallelism?.call.range), "20:9-20:24 set_parallelism");
  assert.equal(operators[0].kafkaSource?.variable, "source");
});

test("PyFlink: checkpointing through enable_checkpointing, the checkpoint config and a Configuration", () => {
  const text = lines(
    "from pyflink.common import Configuration",
    "from pyflink.datastream import CheckpointingMode, StreamExecutionEnvironment",
    "",
    "config = Configuration()",
    'config.set_string("execution.checkpointing.interval", "1min")',
    "env = StreamExecutionEnvironment.get_execution_environment(config)",
    "env.enable_checkpointing(60000, CheckpointingMode.EXACTLY_ONCE)",
    "env.get_checkpoint_config().set_checkpoint_interval(30_000)",
    "if debug:",
    "    env.enable_checkpointing(1000)",
  );
  const { dataStream } = py(text);
  assert.deepEqual(
    dataStream.checkpointing.map(
      (c) =>
        `${c.kind} ${c.call.method} ${c.interval ? shown(c.interval) : "-"} ${c.mode ? shown(c.mode) : "-"}${c.call.conditional ? " maybe" : ""}`,
    ),
    [
      'enableCheckpointing enableCheckpointing 60000 "EXACTLY_ONCE"',
      "checkpointConfig setCheckpointInterval 30000 -",
      "enableCheckpointing enableCheckpointing 1000 - maybe",
      'configuration setString "1min" -',
    ],
  );
  assert.equal(dataStream.environments[0].configurationVariable, "config");
  assert.equal(at(text, dataStream.checkpointing[0].call.range), "6:4-6:24 enable_checkpointing");
});

test("PyFlink: a KafkaSink with an exactly-once guarantee, and sink_to/add_source link it to the operators", () => {
  const text = lines(
    "env = StreamExecutionEnvironment.get_execution_environment()",
    "sink = KafkaSink.builder() \\",
    '    .set_bootstrap_servers("kafka:9092") \\',
    "    .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE) \\",
    '    .set_property("transaction.timeout.ms", "900000") \\',
    "    .build()",
    "env.add_source(consumer).sink_to(sink)",
  );
  const { kafkaSinks, operators } = py(text).dataStream;
  assert.equal(kafkaSinks.length, 1);
  assert.deepEqual(kafkaSinks[0].deliveryGuarantee?.value, { kind: "string", value: "EXACTLY_ONCE" });
  assert.equal(kafkaSinks[0].setTransactionalIdPrefix, undefined);
  assert.deepEqual(settings(kafkaSinks[0].properties), [
    'bootstrap.servers="kafka:9092"',
    'transaction.timeout.ms="900000"',
  ]);
  assert.equal(at(text, kafkaSinks[0].deliveryGuaranteeCall?.range), "3:5-3:27 set_delivery_guarantee");
  assert.deepEqual(
    operators.map((o) => `${o.role} ${o.call.method} ${o.kafkaSink?.variable ?? ""}`),
    ["source addSource ", "sink sinkTo sink"],
  );
});

test("PyFlink: a source built in a helper function with the caller's arguments", () => {
  const text = lines(
    "def kafka_source(servers, group):",
    "    return KafkaSource.builder().set_bootstrap_servers(servers).set_group_id(group).build()",
    "",
    "def main():",
    "    env = StreamExecutionEnvironment.get_execution_environment()",
    '    source = kafka_source("kafka:9092", "clicks")',
    '    env.from_source(source, WatermarkStrategy.no_watermarks(), "clicks").print()',
    "",
    "main()",
  );
  const { kafkaSources, operators } = py(text).dataStream;
  assert.deepEqual(settings(kafkaSources[0].properties), ['bootstrap.servers="kafka:9092"', 'group.id="clicks"']);
  assert.equal(operators[0].kafkaSource?.variable, "source");
});

test("PyFlink: a job class keeps its environment on self", () => {
  const text = lines(
    "class ClickJob:",
    "    def __init__(self):",
    "        self.env = StreamExecutionEnvironment.get_execution_environment()",
    "",
    "    def run(self):",
    "        self.env.enable_checkpointing(30000)",
    '        self.env.from_source(self.source(), WatermarkStrategy.no_watermarks(), "k").map(parse).set_parallelism(1)',
    "",
    "    def source(self):",
    '        return KafkaSource.builder().set_topics("clicks").build()',
  );
  const { dataStream } = py(text);
  assert.equal(dataStream.checkpointing[0]?.environment, "env");
  assert.deepEqual(
    dataStream.operators.map((o) => `${o.call.method}:${o.kafkaSource?.kind ?? ""}`),
    ["fromSource:kafkaSource", "map:"],
  );
});

test("PyFlink: FlinkKafkaConsumer is a legacy client wherever it is constructed", () => {
  const text = lines(
    "from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer as Consumer",
    'legacy = Consumer("orders", SimpleStringSchema(), props)',
  );
  const [client] = py(text).dataStream.legacyKafka;
  assert.equal(client.className, "FlinkKafkaConsumer");
  assert.equal(client.role, "consumer");
  assert.equal(at(text, client.range), "1:9-1:17 Consumer");
});

test("PyFlink: FlinkKafkaConsumer's properties dict, positional or as properties=", () => {
  const text = lines(
    'a = FlinkKafkaConsumer("orders", SimpleStringSchema(), {"group.id": "g", "enable.auto.commit": "true"})',
    'b = FlinkKafkaConsumer(topics="orders", deserialization_schema=schema, properties={"group.id": "g"})',
  );
  const [a, b] = py(text).dataStream.legacyKafka;
  assert.deepEqual(settings(a.properties), ['group.id="g"', 'enable.auto.commit="true"']);
  assert.deepEqual(settings(b.properties), ['group.id="g"']);
});

const BEAM = lines(
  "import apache_beam as beam",
  "from apache_beam.io.kafka import ReadFromKafka",
  "from apache_beam.options.pipeline_options import PipelineOptions",
  "",
  'BOOTSTRAP = "kafka:9092"',
  "",
  "",
  "def run(argv=None):",
  "    options = PipelineOptions(",
  '        ["--runner=FlinkRunner", "--streaming", "--checkpointing_interval=60000"],',
  "    )",
  "    with beam.Pipeline(options=options) as p:",
  "        (",
  "            p",
  '            | "Read" >> ReadFromKafka(',
  '                consumer_config={"bootstrap.servers": BOOTSTRAP, "group.id": "orders"},',
  '                topics=["orders"],',
  "                commit_offset_in_finalize=True,",
  "            )",
  "            | beam.Map(print)",
  "        )",
  "",
  "",
  'if __name__ == "__main__":',
  "    run()",
);

test("Beam Python: flags in the list given to PipelineOptions are read where they are written", () => {
  const { args } = py(BEAM).beamOptions;
  assert.deepEqual(
    args.map((a) => `${at(BEAM, a.range)} = ${a.value ?? "(bare)"}`),
    [
      "9:10-9:30 --runner=FlinkRunner = FlinkRunner",
      "9:34-9:45 --streaming = (bare)",
      "9:49-9:79 --checkpointing_interval=60000 = 60000",
    ],
  );
});

test("Beam Python: snake_case flags name the Beam options the rules read", () => {
  assert.deepEqual(
    py(BEAM).beamOptions.args.map((a) => a.name),
    ["runner", "streaming", "checkpointingInterval"],
  );
});

test("Beam Python: ReadFromKafka is a Kafka read with its consumer config, topics and commit mode", {}, () => {
  const [read] = py(BEAM).kafkaReads;
  assert.ok(read, "a Kafka read");
  assert.equal(at(BEAM, read.readRange), "14:24-14:37 ReadFromKafka");
  assert.deepEqual(settings(read.consumerConfig), ['bootstrap.servers="kafka:9092"', 'group.id="orders"']);
  assert.deepEqual(read.topics.map(shown), ['"orders"']);
  assert.ok(read.commitOffsetsInFinalize, "commit_offset_in_finalize=True");
});

test("Beam Python: options built from keyword arguments and set through view_as(…)", {}, () => {
  const text = lines(
    "options = PipelineOptions(flags=argv, runner='FlinkRunner', checkpointing_interval=30000)",
    "options.view_as(StandardOptions).streaming = True",
  );
  const { beamOptions } = py(text);
  assert.equal(beamOptions.creations.length, 1);
  assert.deepEqual(
    beamOptions.settings.map((s) => `${s.option}=${shown(s.value)}`),
    ['runner="FlinkRunner"', "checkpointingInterval=30000", "streaming=true"],
  );
});

test("Beam Python: options parsed from the command line (argparse) come from the launch", () => {
  const text = lines(
    "def run(argv=None):",
    "    parser = argparse.ArgumentParser()",
    "    parser.add_argument('--topic', default='orders')",
    "    known_args, pipeline_args = parser.parse_known_args(argv)",
    "    options = PipelineOptions(pipeline_args)",
    "    with beam.Pipeline(options=options) as p:",
    "        p | ReadFromKafka(consumer_config={'bootstrap.servers': 'k:9092'}, topics=[known_args.topic])",
  );
  const { beamOptions, kafkaReads } = py(text);
  assert.equal(beamOptions.creations[0]?.fromArgs, true);
  assert.equal(beamOptions.pipelines.length, 1);
  assert.deepEqual(kafkaReads[0]?.topics.map(shown), ["?"]);
});

test("Beam Python: a consumer config from a helper function, a module constant, and an item assignment", () => {
  const text = lines(
    'BASE = {"bootstrap.servers": "kafka:9092"}',
    "",
    "def consumer_config(group):",
    '    conf = {"group.id": group}',
    '    conf["auto.offset.reset"] = "earliest"',
    "    return conf",
    "",
    "def run(p):",
    '    p | ReadFromKafka(consumer_config=consumer_config("orders"), topics=["orders"])',
    '    p | ReadFromKafka(consumer_config=BASE, topics=["audit"])',
  );
  const [first, second] = py(text).kafkaReads;
  assert.deepEqual(settings(first.consumerConfig), ['group.id="orders"', 'auto.offset.reset="earliest"']);
  assert.deepEqual(settings(second.consumerConfig), ['bootstrap.servers="kafka:9092"']);
});

test("test files are test code", () => {
  assert.equal(
    py("env = StreamExecutionEnvironment.get_execution_environment()\n", "/p/tests/test_job.py").isTest,
    true,
  );
  assert.equal(py("env = StreamExecutionEnvironment.get_execution_environment()\n", "/p/jobs/job.py").isTest, false);
});

test("files without job code are not parsed", () => {
  assert.equal(readDocument("/p/util.py", "def add(a, b):\n    return a + b\n").code, undefined);
});

test("PyFlink: checkpoint storage chosen in code, and a legacy backend with its checkpoint directory", () => {
  const text = lines(
    "env = StreamExecutionEnvironment.get_execution_environment()",
    "env.enable_checkpointing(60000)",
    'env.get_checkpoint_config().set_checkpoint_storage_dir("s3://flink-state/clicks/checkpoints")',
    'env.set_state_backend(RocksDBStateBackend("s3://flink-state/legacy"))',
    "env.get_checkpoint_config().set_checkpoint_storage(JobManagerCheckpointStorage())",
  );
  assert.deepEqual(
    py(text).dataStream.checkpointStorage.map((s) => `${s.call.method} ${s.location ? shown(s.location) : "?"}`),
    ['setCheckpointStorageDir "s3://flink-state/clicks/checkpoints"', 'setStateBackend "s3://flink-state/legacy"'],
  );
});

test("a launcher that passes Beam flags to a pipeline module is read for those flags", () => {
  const text = lines(
    "import subprocess",
    "",
    "subprocess.run(",
    '    ["python", "-m", "orders_pipeline", "--runner=FlinkRunner", "--flink_master=jobmanager:8081", "--streaming"],',
    "    check=True,",
    ")",
  );
  assert.deepEqual(
    py(text, "/p/launch.py").beamOptions.args.map((a) => `${a.name}=${a.value ?? ""}`),
    ["runner=FlinkRunner", "flinkMaster=jobmanager:8081", "streaming="],
  );
});

test("a helper that configures checkpointing on an environment typed as one is read", () => {
  const typed = lines(
    "def configure(env: StreamExecutionEnvironment):",
    "    env.get_checkpoint_config().set_checkpoint_interval(30000)",
  );
  assert.deepEqual(
    py(typed, "/p/flink_setup.py").dataStream.checkpointing.map(
      (c) => `${c.kind} ${c.interval ? shown(c.interval) : "-"}`,
    ),
    ["checkpointConfig 30000"],
  );
});
