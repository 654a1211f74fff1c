/** KafkaIO reads: merged consumer config in every map style, constants, variables, helpers, and the fix edits. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { appendCall, booleanEdit, effectiveSetting, truthOf } from "../../server/src/core/jobcode/facts";
import { at, edited, inMain, java, settings, shown } from "./helpers";

test("an inline read: exact ranges of the read, its calls, settings and where a call can be added", () => {
  const text = inMain(
    'p.apply("ReadFromKafka", KafkaIO.<String, String>read()',
    '    .withBootstrapServers("kafka:9092")',
    '    .withTopic("orders")',
    '    .withConsumerConfigUpdates(ImmutableMap.of("group.id", "orders", "enable.auto.commit", "true"))',
    "    .commitOffsetsInFinalize()",
    "    .withoutMetadata());",
  );
  const { kafkaReads, shape } = java(text);
  assert.equal(shape, "compilationUnit");
  const [read] = kafkaReads;
  assert.equal(kafkaReads.length, 1);
  assert.equal(at(text, read.readRange), "2:29-2:59 KafkaIO.<String, String>read()");
  assert.equal(read.member, "run");
  assert.deepEqual(
    read.calls.map((c) => c.method),
    ["withBootstrapServers", "withTopic", "withConsumerConfigUpdates", "commitOffsetsInFinalize", "withoutMetadata"],
  );
  assert.equal(at(text, read.commitOffsetsInFinalize?.range), "6:9-6:32 commitOffsetsInFinalize");
  assert.deepEqual(settings(read.consumerConfig), [
    'bootstrap.servers="kafka:9092"',
    'group.id="orders"',
    'enable.auto.commit="true"',
  ]);
  const autoCommit = effectiveSetting(read.consumerConfig, "enable.auto.commit");
  assert.equal(at(text, autoCommit?.value.range), '5:95-5:101 "true"');
  assert.equal(at(text, autoCommit?.keyExpr?.range), '5:73-5:93 "enable.auto.commit"');
  assert.equal(autoCommit && truthOf(autoCommit.value.value), true);
  assert.deepEqual(read.topics.map(shown), ['"orders"']);
  assert.equal(read.consumerConfig.hasUnknownParts, false);
  // The new call goes before .withoutMetadata(), which no longer returns a KafkaIO.Read.
  assert.equal(
    edited(text, appendCall(read.chainInsertion, "withReadCommitted()")).split("\n").slice(6, 9).join("\n"),
    ["        .commitOffsetsInFinalize()", "        .withReadCommitted()", "        .withoutMetadata());"].join("\n"),
  );
});

test("the true → false fix keeps the style of the value: literal, string in any case, Boolean.TRUE, valueOf", () => {
  const text = inMain(
    "KafkaIO.<String, String>read()",
    '    .withConsumerConfigUpdates(ImmutableMap.of("a", true, "b", "TRUE", "c", Boolean.TRUE, "d", Boolean.valueOf("true")));',
  );
  const config = java(text).kafkaReads[0].consumerConfig;
  assert.deepEqual(settings(config), ["a=true", 'b="TRUE"', "c=true", "d=true"]);
  assert.deepEqual(
    config.entries.map((e) => booleanEdit(e.value, false)?.newText),
    ["false", '"FALSE"', "Boolean.FALSE", 'Boolean.valueOf("false")'],
  );
});

test("ConsumerConfig constants are read as the keys they stand for; static final constants as their values", () => {
  const text = [
    "import static org.apache.kafka.clients.consumer.ConsumerConfig.AUTO_OFFSET_RESET_CONFIG;",
    "class Job {",
    '  private static final String GROUP = "orders-" + 2;',
    "  static final boolean AUTO = true;",
    "  void run() {",
    "    KafkaIO.<String, String>read().withConsumerConfigUpdates(Map.of(",
    "        ConsumerConfig.GROUP_ID_CONFIG, GROUP,",
    "        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, Job.AUTO,",
    '        AUTO_OFFSET_RESET_CONFIG, "latest",',
    '        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));',
    "  }",
    "}",
  ].join("\n");
  const config = java(text).kafkaReads[0].consumerConfig;
  assert.deepEqual(settings(config), [
    'group.id="orders-2"',
    "enable.auto.commit=true",
    'auto.offset.reset="latest"',
    'isolation.level="read_committed"',
  ]);
  const group = config.entries[0];
  assert.equal(at(text, group.keyExpr?.range), "6:8-6:38 ConsumerConfig.GROUP_ID_CONFIG");
  assert.equal(at(text, group.value.range), "6:40-6:45 GROUP");
  assert.equal(at(text, group.value.origin?.range), '2:38-2:51 "orders-" + 2');
  // A constant's value is changed where it is defined.
  const auto = config.entries[1];
  assert.equal(at(text, auto.value.origin?.range), "3:30-3:34 true");
  assert.deepEqual(booleanEdit(auto.value, false)?.range, auto.value.origin?.range);
});

test("HashMap + put, Properties + setProperty, double-brace maps, builders and singletonMap", () => {
  const text = inMain(
    "Map<String, Object> props = new HashMap<>();",
    'props.put("group.id", "g1");',
    "Properties p = new Properties();",
    'p.setProperty("enable.auto.commit", "false");',
    'Map<String, Object> brace = new HashMap<String, Object>() {{ put("client.id", "c"); }};',
    "KafkaIO.<String, String>read()",
    "    .withConsumerConfigUpdates(props)",
    "    .updateConsumerProperties(p)",
    "    .withConsumerConfigUpdates(brace)",
    '    .withConsumerConfigUpdates(ImmutableMap.<String, Object>builder().put("max.poll.records", 10).build())',
    '    .withConsumerConfigUpdates(Collections.singletonMap("auto.offset.reset", "earliest"));',
  );
  const config = java(text).kafkaReads[0].consumerConfig;
  assert.deepEqual(settings(config), [
    'group.id="g1"',
    'enable.auto.commit="false"',
    'client.id="c"',
    "max.poll.records=10",
    'auto.offset.reset="earliest"',
  ]);
  assert.deepEqual(
    config.entries.map((e) => [e.source, e.sourceIndex, e.via.join(" ")]),
    [
      ["withConsumerConfigUpdates", 0, "variable props"],
      ["updateConsumerProperties", 1, "variable p"],
      ["withConsumerConfigUpdates", 2, "variable brace"],
      ["withConsumerConfigUpdates", 3, ""],
      ["withConsumerConfigUpdates", 4, ""],
    ],
  );
  assert.equal(at(text, config.entries[0].location.range), '3:10-3:31 put("group.id", "g1")');
});

test("withConsumerConfigUpdates twice: updates merge, a later key wins, and group.id of the first call is kept", () => {
  const text = inMain(
    "KafkaIO.<String, String>read()",
    '    .withConsumerConfigUpdates(ImmutableMap.of("group.id", "g", "enable.auto.commit", true))',
    '    .withConsumerConfigUpdates(ImmutableMap.of("enable.auto.commit", false))',
    "    .commitOffsetsInFinalize();",
  );
  const config = java(text).kafkaReads[0].consumerConfig;
  assert.equal(shown(effectiveSetting(config, "group.id")?.value ?? assert.fail()), '"g"');
  assert.equal(effectiveSetting(config, "enable.auto.commit")?.sourceIndex, 1);
  assert.equal(shown(effectiveSetting(config, "enable.auto.commit")?.value ?? assert.fail()), "false");
});

test("maps from helper methods, fields with static initializers, and copies are followed", () => {
  const text = [
    "class Job {",
    "  private static final Map<String, Object> BASE = new HashMap<>();",
    "  static {",
    '    BASE.put("group.id", "from-static-block");',
    "  }",
    "  void run(Pipeline p) {",
    "    p.apply(KafkaIO.<String, String>read()",
    "        .withConsumerConfigUpdates(BASE)",
    '        .withConsumerConfigUpdates(consumerProps("latest"))',
    "        .withConsumerConfigUpdates(new HashMap<>(extra())));",
    "  }",
    "  private static Map<String, Object> consumerProps(String reset) {",
    "    Map<String, Object> m = new HashMap<>();",
    "    m.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, reset);",
    "    return m;",
    "  }",
    "  private Map<String, Object> extra() {",
    '    return ImmutableMap.of("enable.auto.commit", Boolean.TRUE);',
    "  }",
    "}",
  ].join("\n");
  const config = java(text).kafkaReads[0].consumerConfig;
  assert.deepEqual(settings(config), [
    'group.id="from-static-block"',
    'auto.offset.reset="latest"',
    "enable.auto.commit=true",
  ]);
  assert.deepEqual(config.entries[1].via, ["method consumerProps()"]);
  assert.equal(at(text, config.entries[1].value.range), "13:51-13:56 reset");
  assert.equal(config.hasUnknownParts, false);
});

test("maps the reader cannot see make the config partly unknown, with the place that hides it", () => {
  const text = [
    "class Job {",
    "  void build(Pipeline p, Map<String, Object> fromCaller, JobOptions options) {",
    "    Map<String, Object> m = new HashMap<>();",
    "    m.putAll(fromCaller);",
    "    p.apply(KafkaIO.<String, String>read()",
    "        .withConsumerConfigUpdates(m)",
    "        .withConsumerConfigUpdates(options.getKafkaConfig())",
    '        .withConsumerConfigUpdates(ImmutableMap.of("enable.auto.commit", options.getAutoCommit())));',
    "  }",
    "}",
  ].join("\n");
  const config = java(text).kafkaReads[0].consumerConfig;
  assert.equal(config.hasUnknownParts, true);
  assert.deepEqual(
    config.unknownParts.map((l) => at(text, l.range)),
    ["3:13-3:23 fromCaller", "6:35-6:59 options.getKafkaConfig()"],
  );
  assert.deepEqual(settings(config), ["enable.auto.commit=?"]);
});

test("a read held in a variable collects calls made later, conditional ones marked", () => {
  const text = inMain(
    'KafkaIO.Read<String, String> read = KafkaIO.<String, String>read().withTopics(List.of("a", "b"));',
    "if (args.length > 0) {",
    "  read = read.commitOffsetsInFinalize();",
    "}",
    "p.apply(read.withoutMetadata());",
  );
  const [read] = java(text).kafkaReads;
  assert.equal(read.variable, "read");
  assert.deepEqual(read.topics.map(shown), ['"a"', '"b"']);
  assert.equal(at(text, read.commitOffsetsInFinalize?.range), "4:18-4:41 commitOffsetsInFinalize");
  assert.equal(read.commitOffsetsInFinalize?.conditional, true);
  assert.equal(read.calls[read.calls.length - 1].method, "withoutMetadata");
  assert.equal(at(text, read.chainRange), '2:40-2:100 KafkaIO.<String, String>read().withTopics(List.of("a", "b"))');
});

test("withStartReadTime, withTopicPartitions, withReadCommitted and withRedistribute are recorded", () => {
  const text = inMain(
    "KafkaIO.<String, String>read().withTopicPartitions(parts).withStartReadTime(Instant.EPOCH)",
    "    .withReadCommitted().withRedistribute();",
  );
  const [read] = java(text).kafkaReads;
  assert.equal(at(text, read.withTopicPartitions?.range), "2:35-2:54 withTopicPartitions");
  assert.equal(at(text, read.withStartReadTime?.range), "2:62-2:79 withStartReadTime");
  assert.equal(at(text, read.withRedistribute?.range), "3:29-3:45 withRedistribute");
  assert.deepEqual(settings(read.consumerConfig), ['isolation.level="read_committed"']);
  assert.equal(read.chainInsertion.prefix, ".");
  assert.deepEqual(read.chainInsertion.at, { line: 3, character: 47 });
});

test("a group.id entry is added in the style of the map: put statement, pair, builder, constants", () => {
  const putStyle = inMain(
    "Map<String, Object> props = new HashMap<>();",
    "props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);",
    "",
    "KafkaIO.<String, String>read().withConsumerConfigUpdates(props).commitOffsetsInFinalize();",
  );
  const insert = (t: string) =>
    java(t).kafkaReads[0].consumerConfig.insertEntry?.("group.id", { kind: "string", value: "my-group" });
  assert.equal(
    edited(putStyle, insert(putStyle)).split("\n").slice(2, 5).join("\n"),
    [
      "    Map<String, Object> props = new HashMap<>();",
      "    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);",
      '    props.put(ConsumerConfig.GROUP_ID_CONFIG, "my-group");',
    ].join("\n"),
  );

  const pairStyle = inMain(
    'KafkaIO.<String, String>read().withConsumerConfigUpdates(Map.of("auto.offset.reset", "earliest"));',
  );
  assert.match(
    edited(pairStyle, insert(pairStyle)),
    /Map\.of\("auto\.offset\.reset", "earliest", "group\.id", "my-group"\)\);/,
  );

  const multiline = inMain(
    "KafkaIO.<String, String>read().withConsumerConfigUpdates(ImmutableMap.of(",
    '    "auto.offset.reset", "earliest",',
    '    "enable.auto.commit", false));',
  );
  assert.deepEqual(edited(multiline, insert(multiline)).split("\n").slice(4, 6), [
    '        "enable.auto.commit", false,',
    '        "group.id", "my-group"));',
  ]);

  const builder = inMain(
    "KafkaIO.<String, String>read().withConsumerConfigUpdates(ImmutableMap.<String, Object>builder()",
    '    .put("auto.offset.reset", "earliest")',
    "    .build());",
  );
  assert.deepEqual(edited(builder, insert(builder)).split("\n").slice(3, 6), [
    '        .put("auto.offset.reset", "earliest")',
    '        .put("group.id", "my-group")',
    "        .build());",
  ]);
});

test("with no map to extend, a new withConsumerConfigUpdates call is added (and java.util.Map imported)", () => {
  const text = [
    "import org.apache.beam.sdk.io.kafka.KafkaIO;",
    "class Job {",
    "  void run() {",
    "    KafkaIO.<String, String>read()",
    '        .withTopic("t")',
    "        .commitOffsetsInFinalize()",
    "        .withoutMetadata();",
    "  }",
    "}",
  ].join("\n");
  const edits = java(text).kafkaReads[0].consumerConfig.insertEntry?.("group.id", { kind: "string", value: "g" });
  assert.equal(
    edited(text, edits),
    [
      "import org.apache.beam.sdk.io.kafka.KafkaIO;",
      "import java.util.Map;",
      "class Job {",
      "  void run() {",
      "    KafkaIO.<String, String>read()",
      '        .withTopic("t")',
      "        .commitOffsetsInFinalize()",
      '        .withConsumerConfigUpdates(Map.of("group.id", "g"))',
      "        .withoutMetadata();",
      "  }",
      "}",
    ].join("\n"),
  );
  const full = inMain(
    'KafkaIO.<String, String>read().withConsumerConfigUpdates(Map.of("a", 1, "b", 2, "c", 3, "d", 4, "e", 5, "f", 6, "g", 7, "h", 8, "i", 9, "j", 10));',
  );
  assert.match(
    edited(full, java(full).kafkaReads[0].consumerConfig.insertEntry?.("group.id", { kind: "string", value: "g" })),
    /\.withConsumerConfigUpdates\(Map\.of\("group\.id", "g"\)\);/,
  );
});

test("a pasted expression is analysed with exact ranges", () => {
  const text = [
    'pipeline.apply("ReadFromKafka", KafkaIO.<String, String>read()',
    '    .withBootstrapServers("broker:9092")',
    '    .withTopic("events")',
    '    .withConsumerConfigUpdates(ImmutableMap.of("enable.auto.commit", true))',
    "    .commitOffsetsInFinalize()",
    "    .withoutMetadata())",
  ].join("\n");
  const facts = java(text);
  assert.equal(facts.shape, "expression");
  const [read] = facts.kafkaReads;
  assert.equal(at(text, read.readRange), "0:32-0:62 KafkaIO.<String, String>read()");
  assert.equal(at(text, read.consumerConfig.entries[1].value.range), "3:69-3:73 true");
  assert.equal(read.member, undefined);
  assert.deepEqual(facts.parseProblems, []);
});

test("a pasted list of statements keeps its variables from one statement to the next", () => {
  const text = [
    "Map<String, Object> cfg = new HashMap<>();",
    'cfg.put("group.id", "g");',
    "p.apply(KafkaIO.<String, String>read().withConsumerConfigUpdates(cfg).commitOffsetsInFinalize());",
  ].join("\n");
  const facts = java(text);
  assert.equal(facts.shape, "statements");
  assert.deepEqual(settings(facts.kafkaReads[0].consumerConfig), ['group.id="g"']);
});
