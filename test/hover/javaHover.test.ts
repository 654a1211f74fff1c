/**
 * Hovers on job code: a KafkaIO read's merged consumer configuration and commit mode; what depends on a Beam or
 * DataStream checkpoint interval, across the project's files.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { commitModeOf, javaHover, millisText } from "../../server/src/core/hover/javaHover";
import { pos } from "../../server/src/core/text";
import type { ProjectModel } from "../../server/src/core/workspace/project";
import { FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const JOB = `${FIXTURE_ROOT}/src/main/java/com/example/Orders.java`;
const CONF = `${FIXTURE_ROOT}/flink-conf.yaml`;
const SUBMIT = `${FIXTURE_ROOT}/submit.sh`;

function project(files: Record<string, string>): ProjectModel {
  return workspaceOf(new Map(Object.entries(files))).project(FIXTURE_ROOT);
}

function hoverText(p: ProjectModel, file: string, line: number, character: number): string {
  return javaHover(p, file, pos(line, character))?.markdown ?? "";
}

const ORDERS = `package com.example;

class Orders {
  static final String GROUP = "orders";

  static Map<String, Object> props() {
    Map<String, Object> m = new HashMap<>();
    m.put("group.id", GROUP);
    m.put("enable.auto.commit", "true");
    return m;
  }

  void run(FlinkPipelineOptions options, Pipeline p) {
    options.setCheckpointingInterval(60_000L);
    p.apply(KafkaIO.<String, String>read()
        .withBootstrapServers("kafka:9092")
        .withTopic("orders")
        .withConsumerConfigUpdates(props())
        .withConsumerConfigUpdates(Map.of("enable.auto.commit", false, "max.poll.records", "a|b"))
        .commitOffsetsInFinalize());
  }
}
`;

test("hover on a KafkaIO read: the merged consumer configuration as a table, and the commit mode", () => {
  const p = project({ [JOB]: ORDERS });
  const h = javaHover(p, JOB, pos(14, 20));
  assert.deepEqual(h?.range, { start: { line: 14, character: 12 }, end: { line: 14, character: 42 } });
  assert.equal(
    h?.markdown,
    [
      "**KafkaIO read** of `orders`",
      "Commit mode: **finalize**: offsets are committed to Kafka when a checkpoint completes. Checkpointing: `setCheckpointingInterval(60_000L)` in `src/main/java/com/example/Orders.java` line 14.",
      [
        "Consumer configuration, merged in call order (a later call overrides an earlier one):",
        "",
        "| Key | Value | Set by |",
        "|---|---|---|",
        '| `bootstrap.servers` | `"kafka:9092"` | `withBootstrapServers`, `src/main/java/com/example/Orders.java` line 16 |',
        '| `group.id` | `GROUP` = `"orders"` | `withConsumerConfigUpdates`, `src/main/java/com/example/Orders.java` line 8 via method props() |',
        "| `enable.auto.commit` | `false` | `withConsumerConfigUpdates`, `src/main/java/com/example/Orders.java` line 19; overrides line 9 |",
        '| `max.poll.records` | `"a\\|b"` | `withConsumerConfigUpdates`, `src/main/java/com/example/Orders.java` line 19 |',
      ].join("\n"),
    ].join("\n\n"),
  );
  const onCall = javaHover(p, JOB, pos(19, 12));
  assert.deepEqual(onCall?.range, { start: { line: 19, character: 9 }, end: { line: 19, character: 32 } });
  assert.equal(onCall?.markdown, h?.markdown, "a call of the chain shows the same read");
  const between = javaHover(p, JOB, pos(16, 8));
  assert.deepEqual(between?.range, { start: { line: 14, character: 12 }, end: { line: 19, character: 34 } });
  assert.equal(between?.markdown, h?.markdown, "between two calls of the chain");
  assert.equal(javaHover(p, JOB, pos(12, 4)), undefined);
});

function readText(config: string, finalize = ".commitOffsetsInFinalize()"): string {
  return `class J {\n  void run(Map<String, Object> extra, boolean b) {\n    KafkaIO.<K, V>read()${config}${finalize};\n  }\n}\n`;
}

function read(config: string, finalize = ".commitOffsetsInFinalize()") {
  return project({ [JOB]: readText(config, finalize) }).code.kafkaReads[0];
}

test("the commit mode: finalize, auto-commit, both, none, or decided at run time", () => {
  const group = '.withConsumerConfigUpdates(Map.of("group.id", "g"))';
  assert.equal(commitModeOf(read(group)), "finalize");
  assert.equal(
    commitModeOf(read(`${group}.withConsumerConfigUpdates(Map.of("enable.auto.commit", "TRUE"))`)),
    "finalize and auto-commit",
  );
  assert.equal(commitModeOf(read('.withConsumerConfigUpdates(Map.of("enable.auto.commit", true))', "")), "auto-commit");
  assert.equal(commitModeOf(read(group, "")), "none");
  const opaque = read(".withConsumerConfigUpdates(extra)", "");
  assert.equal(commitModeOf(opaque), "decided at run time");
  const opaqueText = hoverText(project({ [JOB]: readText(".withConsumerConfigUpdates(extra)", "") }), JOB, 2, 6);
  assert.match(
    opaqueText,
    /\*\*decided at run time\*\*: `enable\.auto\.commit` may be set by the parts read at run time\./,
  );
  assert.match(
    opaqueText,
    /Parts of the configuration are only known at run time \(line 3\): keys not listed may still be set\.$/,
  );
  const computed = '.withConsumerConfigUpdates(Map.of("enable.auto.commit", extra.get("x")))';
  assert.equal(commitModeOf(read(computed, "")), "decided at run time");
  assert.match(
    hoverText(project({ [JOB]: readText(computed, "") }), JOB, 2, 6),
    /`enable\.auto\.commit` is `extra\.get\("x"\)`\.[\s\S]*\| `enable\.auto\.commit` \| `extra\.get\("x"\)` \(known at run time\) \|/,
  );
  const conditional = `class J {\n  void run(boolean b) {\n    KafkaIO.Read<K, V> r = KafkaIO.<K, V>read();\n    if (b) r = r.commitOffsetsInFinalize();\n  }\n}\n`;
  const p = project({ [JOB]: conditional });
  assert.equal(commitModeOf(p.code.kafkaReads[0]), "decided at run time");
  assert.match(
    hoverText(p, JOB, 2, 30),
    /\*\*decided at run time\*\*: `commitOffsetsInFinalize\(\)` runs on some paths only\./,
  );
});

test("a finalize read without checkpointing or group.id says what goes wrong", () => {
  const text =
    'class J {\n  void run() {\n    KafkaIO.<K, V>read().withTopic("t").commitOffsetsInFinalize();\n  }\n}\n';
  const h = hoverText(project({ [JOB]: text }), JOB, 2, 6);
  assert.match(h, /The read has no `group\.id`, so Beam rejects the pipeline when it is built \(BFL402\)\./);
  assert.match(
    h,
    /Nothing in the project sets `checkpointingInterval`, so the Flink runner takes no checkpoints and finalize never commits \(BFL404\)\./,
  );
  assert.match(h, /No consumer configuration is set in code: KafkaIO's defaults apply\./);
});

test("hover on setCheckpointingInterval: the reads that commit on checkpoints, other settings, the cluster's interval", () => {
  const p = project({
    [JOB]: ORDERS,
    [CONF]: "execution.checkpointing.interval: 30 s\n",
    [SUBMIT]: "flink run job.jar --checkpointingInterval=30000\n",
  });
  const h = javaHover(p, JOB, pos(13, 15));
  assert.deepEqual(h?.range, { start: { line: 13, character: 12 }, end: { line: 13, character: 36 } });
  assert.equal(
    h?.markdown,
    [
      "**Beam `checkpointingInterval`**: the Flink runner checkpoints every 60000 ms (1 min).",
      "Depends on it:\n- KafkaIO read in `src/main/java/com/example/Orders.java` line 15 commits its offsets in finalize, when a checkpoint completes.",
      "Also set:\n- `--checkpointingInterval=30000` in `submit.sh` line 1",
      "Cluster configuration:\n- `execution.checkpointing.interval: 30 s` in `flink-conf.yaml` line 1",
      "When `checkpointingInterval` is positive the Flink runner sets its own interval, which takes the place of the cluster's for this pipeline; the cluster's alone does not turn on Beam's checkpointing logic.",
    ].join("\n\n"),
  );
  const onFlag = javaHover(p, SUBMIT, pos(0, 20));
  assert.deepEqual(onFlag?.range, { start: { line: 0, character: 18 }, end: { line: 0, character: 47 } });
  assert.match(
    onFlag?.markdown ?? "",
    /^\*\*Beam `checkpointingInterval`\*\*: the Flink runner checkpoints every 30000 ms \(30 s\)\./,
  );
  assert.match(
    onFlag?.markdown ?? "",
    /Also set:\n- `setCheckpointingInterval\(60_000L\)` in `src\/main\/java\/com\/example\/Orders\.java` line 14/,
  );
});

const STREAM = `class StreamJob {
  void run() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(30_000);
    KafkaSource<String> source = KafkaSource.<String>builder().setGroupId("clicks").build();
    KafkaSource<String> quiet = KafkaSource.<String>builder()
        .setGroupId("quiet").setProperty("commit.offsets.on.checkpoint", "false").build();
    KafkaSink<String> sink = KafkaSink.<String>builder()
        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "in").sinkTo(sink);
    env.fromSource(quiet, WatermarkStrategy.noWatermarks(), "q").print();
  }
}
`;

test("hover on enableCheckpointing: the job's Kafka sinks and sources that commit on checkpoints", () => {
  const file = `${FIXTURE_ROOT}/src/main/java/com/example/StreamJob.java`;
  const p = project({ [file]: STREAM, [CONF]: "execution.checkpointing.interval: 1 min\n" });
  const h = javaHover(p, file, pos(3, 10));
  assert.deepEqual(h?.range, { start: { line: 3, character: 8 }, end: { line: 3, character: 27 } });
  assert.equal(
    h?.markdown,
    [
      "**Flink checkpointing**: every 30000 ms (30 s).",
      [
        "Depends on it:",
        "- KafkaSink (EXACTLY_ONCE) in `src/main/java/com/example/StreamJob.java` line 8 commits its Kafka transactions when a checkpoint completes: without checkpoints, read_committed consumers never see what it writes.",
        '- KafkaSource in `src/main/java/com/example/StreamJob.java` line 5 commits its offsets for group `"clicks"` when a checkpoint completes.',
      ].join("\n"),
      "Cluster configuration:\n- `execution.checkpointing.interval: 1 min` in `flink-conf.yaml` line 1",
      "An interval set in the job's code takes the place of the cluster's for this job.",
    ].join("\n\n"),
  );
});

test("durations read in the largest whole unit", () => {
  assert.deepEqual([500, 30_000, 60_000, 90_000, 7_200_000].map(millisText), [
    "500 ms",
    "30000 ms (30 s)",
    "60000 ms (1 min)",
    "90000 ms (90 s)",
    "7200000 ms (2 h)",
  ]);
});

const BEAM_GRADLE = `dependencies {
    implementation "org.apache.beam:beam-runners-flink-1.17:2.56.0"
    implementation "org.apache.beam:beam-sdks-java-io-kafka:2.56.0"
}
`;

const CONNECTOR_GRADLE = `dependencies {
    compileOnly "org.apache.flink:flink-streaming-java:1.19.1"
    implementation "org.apache.flink:flink-connector-kafka:3.2.0-1.19"
}
`;

/** The lines of the known-bugs section of a hover, without the wording of each finding. */
function bugLines(markdown: string): string[] {
  const section = markdown.split("\n\n").find((part) => part.startsWith("Known bugs of "));
  return (section ?? "")
    .split("\n")
    .slice(1)
    .map((line) => /^- \*\*(BFL\d+)\*\* \((\w+)\) .*Version defined in (`[^`]+` line \d+)\.$/.exec(line))
    .map((m) => (m ? `${m[1]} ${m[2]} ${m[3]}` : "unreadable line"));
}

test("the KafkaIO hover lists the known bugs of the Beam version the build uses, in every language", () => {
  const reads: Record<string, [string, string, number, number]> = {
    java: [JOB, ORDERS, 14, 20],
    scala: [
      `${FIXTURE_ROOT}/src/main/scala/Orders.scala`,
      'object Orders {\n  def run(p: Pipeline): Unit = {\n    p.apply(KafkaIO.read[String, String]().withBootstrapServers("kafka:9092").withTopic("orders").commitOffsetsInFinalize())\n  }\n}\n',
      2,
      20,
    ],
    kotlin: [
      `${FIXTURE_ROOT}/src/main/kotlin/Orders.kt`,
      'fun run(p: Pipeline) {\n    p.apply(KafkaIO.read<String, String>().withBootstrapServers("kafka:9092").withTopic("orders").commitOffsetsInFinalize())\n}\n',
      1,
      20,
    ],
  };
  for (const [language, [file, text, line, character]] of Object.entries(reads)) {
    const markdown = hoverText(
      project({ [file]: text, [`${FIXTURE_ROOT}/build.gradle`]: BEAM_GRADLE }),
      file,
      line,
      character,
    );
    assert.match(markdown, /^\*\*KafkaIO read\*\* of `orders`/, language);
    assert.deepEqual(bugLines(markdown), ["BFL301 error `build.gradle` line 2"], language);
    assert.match(markdown, /\*\*BFL301\*\* \(error\) Beam 2\.56\.0 has a known bug in the Flink runner/, language);
    const clean = hoverText(project({ [file]: text }), file, line, character);
    assert.doesNotMatch(clean, /Known bugs/, `${language}: no build, no bugs`);
  }
});

test("the ReadFromKafka hover of a Beam Python pipeline lists the SDK pin's known bugs", () => {
  const file = `${FIXTURE_ROOT}/pipeline.py`;
  const text = [
    "import apache_beam as beam",
    "from apache_beam.io.kafka import ReadFromKafka",
    "",
    "def run(p):",
    '    p | ReadFromKafka(consumer_config={"bootstrap.servers": "k:9092", "group.id": "g"}, topics=["orders"])',
    "",
  ].join("\n");
  const p = project({ [file]: text, [`${FIXTURE_ROOT}/requirements.txt`]: "apache-beam[gcp]==2.58.0\n" });
  const markdown = hoverText(p, file, 4, 12);
  assert.match(markdown, /^\*\*KafkaIO read\*\* of `orders`/);
  assert.deepEqual(
    bugLines(markdown).map((l) => l.split(" ")[0]),
    ["BFL308"],
    markdown,
  );
});

const SOURCE_JOB = `package com.example;

class Clicks {
  void run() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    KafkaSource<String> source = KafkaSource.<String>builder()
        .setBootstrapServers("kafka:9092")
        .setTopics("clicks")
        .setGroupId("clicks")
        .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
        .build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "clicks").print();
    env.execute();
  }
}
`;

test("the KafkaSource hover: commit on checkpoints, the job's checkpointing, and the connector's known bugs", () => {
  const file = `${FIXTURE_ROOT}/src/main/java/com/example/Clicks.java`;
  const p = project({ [file]: SOURCE_JOB, [`${FIXTURE_ROOT}/build.gradle`]: CONNECTOR_GRADLE });
  const h = javaHover(p, file, pos(5, 40));
  assert.deepEqual(h?.range, { start: { line: 5, character: 33 }, end: { line: 5, character: 62 } });
  const parts = (h?.markdown ?? "").split("\n\n");
  assert.deepEqual(parts.slice(0, 3), [
    "**KafkaSource** of `clicks`",
    "Commit: offsets are committed to Kafka when a checkpoint completes; nothing in the project turns checkpointing on for this job, so that never happens (BFL501).",
    [
      '- `group.id`: `"clicks"` (`setGroupId`, `src/main/java/com/example/Clicks.java` line 9)',
      "- Starting offsets: `OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST)`",
    ].join("\n"),
  ]);
  assert.deepEqual(bugLines(h?.markdown ?? ""), ["BFL306 info `build.gradle` line 3"]);
  const onCall = javaHover(p, file, pos(8, 12));
  assert.equal(onCall?.markdown, h?.markdown, "a call of the builder shows the same source");

  const checkpointed = SOURCE_JOB.replace("env.execute();", "env.enableCheckpointing(60000);\n    env.execute();");
  const on = hoverText(project({ [file]: checkpointed }), file, 5, 40);
  assert.match(on, /; the job checkpoints \(`src\/main\/java\/com\/example\/Clicks\.java` line 13\)\./);
  assert.doesNotMatch(on, /Known bugs/, "no connector version in the project: no bugs listed");
});

test("the KafkaSink hover: the delivery guarantee and the connector bug it has, as an error", () => {
  const file = `${FIXTURE_ROOT}/src/main/scala/Sink.scala`;
  const text = [
    "object Sink {",
    "  def main(args: Array[String]): Unit = {",
    "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
    "    env.enableCheckpointing(30000)",
    "    val sink = KafkaSink.builder[String]()",
    '      .setBootstrapServers("kafka:9092")',
    "      .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)",
    "      .build()",
    '    env.fromElements("a").sinkTo(sink)',
    "  }",
    "}",
    "",
  ].join("\n");
  const p = project({ [file]: text, [`${FIXTURE_ROOT}/build.gradle`]: CONNECTOR_GRADLE });
  const markdown = hoverText(p, file, 4, 20);
  const parts = markdown.split("\n\n");
  assert.equal(parts[0], "**KafkaSink** (EXACTLY_ONCE)");
  assert.equal(
    parts[1],
    "Delivery: writes in Kafka transactions committed when a checkpoint completes; the job checkpoints (`src/main/scala/Sink.scala` line 4).",
  );
  assert.equal(parts[2], "- Transactional id prefix: not set");
  assert.deepEqual(bugLines(markdown), ["BFL306 error `build.gradle` line 3"]);
});

test("the legacy FlinkKafkaConsumer hover, in Kotlin", () => {
  const file = `${FIXTURE_ROOT}/src/main/kotlin/Legacy.kt`;
  const text = [
    "fun main() {",
    "    val env = StreamExecutionEnvironment.getExecutionEnvironment()",
    "    val props = Properties()",
    '    props.setProperty("group.id", "legacy")',
    '    val consumer = FlinkKafkaConsumer("topic", SimpleStringSchema(), props)',
    "    env.addSource(consumer).print()",
    "}",
    "",
  ].join("\n");
  const markdown = hoverText(project({ [file]: text }), file, 4, 25);
  const parts = markdown.split("\n\n");
  assert.equal(
    parts[0],
    "**FlinkKafkaConsumer**: the legacy Kafka consumer, deprecated since Flink 1.14 and removed in flink-connector-kafka 4.0 (BFL503).",
  );
  assert.match(parts[1], /^Commit: offsets are committed to Kafka when a checkpoint completes; nothing in the project/);
  assert.match(
    parts[2],
    /^- `group.id`: `"legacy"` \(the constructor's Properties, `src\/main\/kotlin\/Legacy\.kt` line 4\)$/,
  );
});

test("a Kafka 0.11 consumer's hover says which Flink release dropped its connector", () => {
  const file = `${FIXTURE_ROOT}/src/main/java/Legacy.java`;
  const text = [
    "class Legacy {",
    "  void run(StreamExecutionEnvironment env, Properties props) {",
    '    env.addSource(new FlinkKafkaConsumer011<>("topic", new SimpleStringSchema(), props)).print();',
    "  }",
    "}",
    "",
  ].join("\n");
  const markdown = hoverText(project({ [file]: text }), file, 2, 25);
  assert.equal(
    markdown.split("\n\n")[0],
    "**FlinkKafkaConsumer011**: the Kafka 0.11 consumer (flink-connector-kafka-0.11), gone from Flink since 1.12 (FLINK-19152, BFL503).",
  );
});
