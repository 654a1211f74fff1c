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
