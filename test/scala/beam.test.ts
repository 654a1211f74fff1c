/** Beam pipelines written in Scala against the Java SDK: KafkaIO reads, pipeline options and flags. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { appendCall, effectiveSetting, insertStatement } from "../../server/src/core/jobcode/facts";
import { str } from "../../server/src/core/jobcode/render";
import { at, edited, settings, shown } from "../java/helpers";
import { scala } from "./helpers";

const PIPELINE = [
  "package com.example",
  "",
  "import scala.jdk.CollectionConverters._",
  "",
  "object OrdersPipeline {",
  '  val GroupId = "orders-consumer"',
  "",
  "  def main(args: Array[String]): Unit = {",
  "    val options = PipelineOptionsFactory.fromArgs(args: _*).withValidation().as(classOf[FlinkPipelineOptions])",
  "    options.setRunner(classOf[FlinkRunner])",
  "    options.setStreaming(true)",
  "    val pipeline = Pipeline.create(options)",
  "    val config = new java.util.HashMap[String, Object]()",
  "    config.put(ConsumerConfig.GROUP_ID_CONFIG, GroupId)",
  '    config.put("enable.auto.commit", "true")',
  "    pipeline",
  "      .apply(",
  "        KafkaIO.read[String, String]()",
  '          .withBootstrapServers("kafka:9092")',
  '          .withTopics(List("orders", "returns").asJava)',
  "          .withKeyDeserializer(classOf[StringDeserializer])",
  "          .withValueDeserializer(classOf[StringDeserializer])",
  "          .withConsumerConfigUpdates(config)",
  "          .commitOffsetsInFinalize()",
  "          .withoutMetadata())",
  "    pipeline.run().waitUntilFinish()",
  "  }",
  "}",
  "",
].join("\n");

test("a KafkaIO read: its chain, consumer config from a java.util.HashMap with constants, topics from a List", () => {
  const code = scala(PIPELINE);
  const [read] = code.kafkaReads;
  assert.equal(at(PIPELINE, read.readRange), "17:8-17:38 KafkaIO.read[String, String]()");
  assert.equal(read.member, "main");
  assert.deepEqual(settings(read.consumerConfig), [
    'bootstrap.servers="kafka:9092"',
    'group.id="orders-consumer"',
    'enable.auto.commit="true"',
  ]);
  assert.equal(read.consumerConfig.hasUnknownParts, false);
  assert.deepEqual(effectiveSetting(read.consumerConfig, "group.id")?.via, ["variable config"]);
  assert.deepEqual(read.topics.map(shown), ['"orders"', '"returns"']);
  assert.equal(at(PIPELINE, read.commitOffsetsInFinalize?.range), "23:11-23:34 commitOffsetsInFinalize");
  // A new call goes before .withoutMetadata(), in the chain's layout.
  assert.deepEqual(edited(PIPELINE, appendCall(read.chainInsertion, "withReadCommitted()")).split("\n").slice(22, 25), [
    "          .withConsumerConfigUpdates(config)",
    "          .commitOffsetsInFinalize()",
    "          .withReadCommitted()",
  ]);
});

test("pipeline options: fromArgs(args: _*), classOf[…] in as(…), setters, and where a new setter goes", () => {
  const code = scala(PIPELINE);
  const [creation] = code.beamOptions.creations;
  assert.equal(creation.fromArgs, true);
  assert.equal(creation.asClass, "FlinkPipelineOptions");
  assert.equal(creation.variable, "options");
  assert.deepEqual(
    code.beamOptions.settings.map((s) => `${s.target}.${s.option}=${shown(s.value)}`),
    ["options.runner=FlinkRunner.class", "options.streaming=true"],
  );
  assert.equal(code.beamOptions.pipelines.length, 1);
  assert.deepEqual(
    edited(
      PIPELINE,
      insertStatement(creation.insertion ?? assert.fail("no insertion"), "options.setCheckpointingInterval(60000L)"),
    )
      .split("\n")
      .slice(8, 10)
      .map((l) => l.trim()),
    [
      "val options = PipelineOptionsFactory.fromArgs(args: _*).withValidation().as(classOf[FlinkPipelineOptions])",
      "options.setCheckpointingInterval(60000L)",
    ],
  );
});

test("Beam flags written in Scala strings and arrays", () => {
  const text = [
    "object Launch {",
    "  def main(args: Array[String]): Unit = {",
    '    val flags = Array("--runner=FlinkRunner", "--checkpointingInterval", "30000", "--streaming=true")',
    "    val options = PipelineOptionsFactory.fromArgs(flags: _*).create()",
    "  }",
    "}",
  ].join("\n");
  const code = scala(text);
  assert.deepEqual(
    code.beamOptions.args.map((a) => `${a.name}=${a.value}`),
    ["runner=FlinkRunner", "checkpointingInterval=30000", "streaming=true"],
  );
  assert.equal(at(text, code.beamOptions.args[1].valueRange), "2:74-2:79 30000");
});

test("ExperimentalOptions.addExperiment and options from a helper def", () => {
  const text = [
    "object Options {",
    "  def flinkOptions(args: Array[String]): FlinkPipelineOptions = {",
    "    val o = PipelineOptionsFactory.fromArgs(args: _*).as(classOf[FlinkPipelineOptions])",
    '    ExperimentalOptions.addExperiment(o, "use_deprecated_read")',
    "    o.setParallelism(8)",
    "    o",
    "  }",
    "}",
  ].join("\n");
  const code = scala(text);
  assert.deepEqual(
    code.beamOptions.settings.map((s) => `${s.option}=${shown(s.value)}`),
    ['experiments=["use_deprecated_read"]', "parallelism=8"],
  );
});

test("a consumer config written as a Scala Map converted with .asJava", () => {
  const text = [
    "object OrdersPipeline {",
    "  def read() = KafkaIO.read[String, String]()",
    '    .withBootstrapServers("kafka:9092")',
    '    .withTopic("orders")',
    '    .withConsumerConfigUpdates(Map[String, AnyRef]("group.id" -> "orders", "enable.auto.commit" -> "false").asJava)',
    "    .commitOffsetsInFinalize()",
    "}",
  ].join("\n");
  const [read] = scala(text).kafkaReads;
  assert.deepEqual(settings(read.consumerConfig), [
    'bootstrap.servers="kafka:9092"',
    'group.id="orders"',
    'enable.auto.commit="false"',
  ]);
  assert.equal(read.consumerConfig.hasUnknownParts, false);
  // A missing key goes into the literal, in Scala's form.
  assert.deepEqual(
    edited(text, read.consumerConfig.insertEntry?.("auto.offset.reset", str("earliest")))
      .split("\n")[4]
      .trim(),
    '.withConsumerConfigUpdates(Map[String, AnyRef]("group.id" -> "orders", "enable.auto.commit" -> "false", "auto.offset.reset" -> "earliest").asJava)',
  );
});
