/**
 * Kotlin's own forms read as the Java calls they stand for: property writes and boolean `isX` properties, scope
 * functions with `this[…] = …`, string templates, scripts, and the generic calls tree-sitter-kotlin cuts into
 * comparisons.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { kindFromName, readDocument } from "../../server/src/core/documents/index";
import type { JobCode } from "../../server/src/core/jobcode/facts";
import { settings, shown } from "../java/helpers";

function read(file: string, text: string): JobCode {
  const code = readDocument(file, text).code;
  if (!code) throw new Error(`${file} was not read`);
  return code;
}

const lines = (...l: string[]) => l.join("\n");

test("Kotlin sources and scripts are job code; Gradle's Kotlin scripts are not", () => {
  assert.equal(kindFromName("/p/src/main/kotlin/Job.kt"), "kotlin");
  assert.equal(kindFromName("/p/scripts/submit.main.kts"), "kotlin");
  assert.equal(kindFromName("/p/build.gradle.kts"), "gradle");
  assert.notEqual(kindFromName("/p/buildSrc/src/main/kotlin/conventions.gradle.kts"), "kotlin");
});

test("a script's top-level statements run in order: checkpointing and the environment's insertion point", () => {
  const code = read(
    "/p/jobs/orders.main.kts",
    lines(
      "val env = StreamExecutionEnvironment.getExecutionEnvironment()",
      "env.enableCheckpointing(30_000)",
      'val source = KafkaSource.builder<String>().setTopics("orders").setGroupId("g").build()',
      'env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").print()',
    ),
  );
  assert.equal(code.shape, "script");
  assert.deepEqual(
    code.dataStream.checkpointing.map((c) => `${c.kind} ${c.interval && shown(c.interval)} ${c.call.conditional}`),
    ["enableCheckpointing 30000 false"],
  );
  assert.deepEqual(
    code.dataStream.environments.map((e) => [e.variable, e.insertion?.at.line]),
    [["env", 0]],
  );
  assert.deepEqual(
    code.dataStream.kafkaSources.map((s) => settings(s.properties)),
    [['group.id="g"']],
  );
});

test("property writes are setter calls: isStreaming is setStreaming, checkpointConfig.checkpointInterval too", () => {
  const code = read(
    "/p/src/main/kotlin/Job.kt",
    lines(
      "fun main(args: Array<String>) {",
      "    val options = PipelineOptionsFactory.fromArgs(*args).`as`(FlinkPipelineOptions::class.java)",
      "    options.isStreaming = true",
      "    options.checkpointingInterval = 60_000L",
      "    val env = StreamExecutionEnvironment.getExecutionEnvironment()",
      "    env.checkpointConfig.checkpointInterval = 1000L",
      "}",
    ),
  );
  assert.deepEqual(
    code.beamOptions.settings.map((s) => `${s.option}=${shown(s.value)} ${s.call.property === true}`),
    ["streaming=true true", "checkpointingInterval=60000 true"],
  );
  assert.deepEqual(
    code.beamOptions.creations.map((c) => c.asClass),
    ["FlinkPipelineOptions"],
  );
  assert.deepEqual(
    code.dataStream.checkpointing.map((c) => `${c.call.method}(${c.interval && shown(c.interval)})`),
    ["setCheckpointInterval(1000)"],
  );
});

test("scope functions: apply with this[…] = …, also with it, and a consumer map from a function's expression body", () => {
  const code = read(
    "/p/src/main/kotlin/Pipeline.kt",
    lines(
      "object Kafka {",
      '    const val GROUP = "orders-consumer"',
      "}",
      "fun consumer(): Map<String, Any> = hashMapOf<String, Any>().apply {",
      "    this[ConsumerConfig.GROUP_ID_CONFIG] = Kafka.GROUP",
      '    put("auto.offset.reset", "earliest")',
      "}",
      "fun main() {",
      "    val pipeline = Pipeline.create(PipelineOptionsFactory.create())",
      "    pipeline.apply(",
      "        KafkaIO.read<String, String>()",
      '            .withTopic("orders")',
      "            .withConsumerConfigUpdates(consumer())",
      "            .also { it.commitOffsetsInFinalize() }",
      "    )",
      "}",
    ),
  );
  assert.deepEqual(
    code.kafkaReads.map((r) => settings(r.consumerConfig)),
    [['group.id="orders-consumer"', 'auto.offset.reset="earliest"']],
  );
  assert.deepEqual(
    code.exports.map((e) => `${e.owner}.${e.member}`),
    // The constant, and the map the top-level function returns (other files may use both).
    ["Kafka.GROUP", ".consumer"],
  );
});

test("string templates are known only when nothing is interpolated; escapes are decoded", () => {
  const code = read(
    "/p/src/main/kotlin/Job.kt",
    lines(
      "fun main() {",
      '    val prefix = "orders"',
      "    val source = KafkaSource.builder<String>()",
      '        .setGroupId("$prefix-job")',
      '        .setTopics("price\\$usd", "a\\tb", """raw\\t""")',
      "        .build()",
      "}",
    ),
  );
  const source = code.dataStream.kafkaSources[0];
  assert.deepEqual(settings(source.properties), ["group.id=?"]);
  assert.deepEqual(source.topics.map(shown), ['"price$usd"', '"a\\tb"', '"raw\\\\t"']);
});

test("a generic call the grammar reads as two comparisons is still the call", () => {
  // tree-sitter-kotlin reads `mapOf<String, Any>(…)` as an argument here as `mapOf < String, Any > (…)`.
  const code = read(
    "/p/src/main/kotlin/Pipeline.kt",
    lines(
      "fun main() {",
      "    KafkaIO.read<String, String>()",
      '        .withTopic("orders")',
      '        .withConsumerConfigUpdates(mapOf<String, Any>("group.id" to "orders-consumer"))',
      "}",
    ),
  );
  assert.deepEqual(
    code.kafkaReads.map((r) => [settings(r.consumerConfig), r.consumerConfig.hasUnknownParts]),
    [[['group.id="orders-consumer"'], false]],
  );
});
