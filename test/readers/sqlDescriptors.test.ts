/** Table API `TableDescriptor`s in job code, read as the tables of the file's SQL script. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is how the reader writes a value filled in at run time
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import type { SqlScriptFacts, SqlTableFacts } from "../../server/src/core/documents/sql/facts";
import { textAt } from "./helpers";

function sqlOf(file: string, text: string): SqlScriptFacts {
  const facts = readDocument(file, text);
  assert.ok(facts.sql, `no SQL read from ${file}`);
  return facts.sql;
}

/** Each option as [key, value, key text, value text, exact]. */
function options(text: string, table: SqlTableFacts): [string, string, string, string, boolean][] {
  return table.options
    .filter((o) => o.key !== "connector")
    .map((o) => [o.key, o.value, textAt(text, o.keyRange), textAt(text, o.valueRange), o.exact]);
}

test("Java: options at the string literals, typed options and enum values, the name in its path", () => {
  const text = [
    "class Job {",
    "  void run(TableEnvironment tEnv) {",
    '    tEnv.createTemporaryTable("cat.db.orders", TableDescriptor.forConnector("Kafka")',
    '        .option("topic", "orders")',
    "        .option(KafkaConnectorOptions.SCAN_STARTUP_MODE, KafkaConnectorOptions.ScanStartupMode.LATEST_OFFSET)",
    "        .option(KafkaConnectorOptions.DELIVERY_GUARANTEE, DeliveryGuarantee.EXACTLY_ONCE)",
    '        .option("properties.group.id", "a\\"b")',
    '        .format("json")',
    "        .build());",
    "  }",
    "}",
    "",
  ].join("\n");
  const script = sqlOf("/p/src/main/java/Job.java", text);
  assert.equal(script.descriptorsOnly, true);
  assert.equal(script.embedded, true);
  const [table] = script.tables;
  assert.equal(table.connector, "kafka");
  assert.equal(table.name, "orders");
  assert.equal(textAt(text, table.nameRange), "orders");
  assert.equal(table.like, false);
  assert.deepEqual(table.descriptor?.names, ["orders"]);
  assert.deepEqual(options(text, table), [
    ["topic", "orders", "topic", "orders", true],
    [
      "scan.startup.mode",
      "latest-offset",
      "KafkaConnectorOptions.SCAN_STARTUP_MODE",
      "KafkaConnectorOptions.ScanStartupMode.LATEST_OFFSET",
      false,
    ],
    [
      "sink.delivery-guarantee",
      "exactly-once",
      "KafkaConnectorOptions.DELIVERY_GUARANTEE",
      "DeliveryGuarantee.EXACTLY_ONCE",
      false,
    ],
    ["properties.group.id", 'a"b', "properties.group.id", 'a\\"b', false],
    ["format", "json", "format", "json", false],
  ]);
  // Removing an option removes its call from the chain.
  assert.equal(textAt(text, table.options[1].deleteRange), '\n        .option("topic", "orders")');
  const insertion = table.descriptor?.insertion;
  assert.ok(insertion);
  assert.deepEqual(insertion.at, { line: 7, character: 23 });
  assert.equal(insertion.prefix, "\n        .");
});

test("options whose key or value is not known, or set on some paths only, leave the options open", () => {
  const java = (option: string) =>
    [
      "class Job {",
      "  void run(TableEnvironment tEnv, String key, String value, boolean extra) {",
      '    TableDescriptor.Builder b = TableDescriptor.forConnector("kafka").option("topic", "t");',
      `    ${option}`,
      '    tEnv.createTemporaryTable("t", b.build());',
      "  }",
      "}",
      "",
    ].join("\n");
  const read = (option: string) => sqlOf("/p/Job.java", java(option)).tables[0];
  const unknownKey = read('b.option(key, "x");');
  assert.equal(unknownKey.like, true);
  assert.deepEqual(
    unknownKey.options.map((o) => o.key),
    ["connector", "topic"],
  );
  assert.equal(unknownKey.descriptor?.insertion, undefined);
  const unknownValue = read('b.option("properties.group.id", value);');
  assert.equal(unknownValue.like, true);
  assert.equal(unknownValue.options[2].value, "${value}");
  const conditional = read('if (extra) b.option("scan.startup.mode", "latest-offset");');
  assert.equal(conditional.like, true);
  assert.equal(conditional.options[2].value, '${"latest-offset"}');
  // Passed to code the reader does not follow, it may get any option there.
  assert.equal(read("Options.addDefaults(b);").like, true);
  assert.equal(read('b.option("properties.group.id", "g");').like, false);
});

test("only descriptors the code registers or uses are tables; reads and writes without a name", () => {
  const text = [
    "class Job {",
    "  static TableDescriptor unused() {",
    '    return TableDescriptor.forConnector("kafka").option("topic", "unused").build();',
    "  }",
    "  void run(TableEnvironment tEnv, Table t) {",
    '    Table in = tEnv.from(TableDescriptor.forConnector("kafka").option("topic", "in").build());',
    '    in.executeInsert(TableDescriptor.forConnector("kafka").option("topic", "out").build());',
    "    tEnv.executeSql(\"CREATE TABLE s (id INT) WITH ('connector' = 'print')\");",
    "  }",
    "}",
    "",
  ].join("\n");
  const script = sqlOf("/p/Job.java", text);
  assert.equal(script.descriptorsOnly, undefined);
  assert.deepEqual(
    script.tables.map((t) => [t.name, t.connector, t.descriptor?.read, t.descriptor?.written]),
    [
      ["s", "print", undefined, undefined],
      ["in", "kafka", true, false],
      ["out", "kafka", false, true],
    ],
  );
  assert.equal(textAt(text, script.tables[1].nameRange), 'TableDescriptor.forConnector("kafka")');
});

test("Scala, Kotlin and Python descriptors", () => {
  const scala = [
    "object Job {",
    "  def main(args: Array[String]): Unit = {",
    "    val tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode())",
    '    val d = TableDescriptor.forConnector("kafka").option("topic", "orders").format("json").build',
    '    tEnv.createTable("orders", d)',
    "  }",
    "}",
    "",
  ].join("\n");
  const s = sqlOf("/p/Job.scala", scala).tables[0];
  assert.deepEqual(options(scala, s), [
    ["topic", "orders", "topic", "orders", true],
    ["format", "json", "format", "json", false],
  ]);
  const kotlin = [
    "fun main(args: Array<String>) {",
    "    val tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode())",
    '    val d = TableDescriptor.forConnector("kafka")',
    '        .option(KafkaConnectorOptions.TOPIC, listOf("a", "b"))',
    '        .option("properties.group.id", "g-${args[0]}")',
    "        .build()",
    '    tEnv.createTemporaryTable("orders", d)',
    "}",
    "",
  ].join("\n");
  const k = sqlOf("/p/Job.kt", kotlin).tables[0];
  assert.equal(k.options[1].value, "a;b");
  assert.equal(k.like, true);
  const python = [
    "from pyflink.table import TableDescriptor",
    "",
    "t_env.create_temporary_table(",
    "    path='orders',",
    "    descriptor=TableDescriptor.for_connector('kafka')",
    "    .option(key='topic', value=r'orders')",
    "    .format(FormatDescriptor.for_format('avro').option('k', 'v').build())",
    "    .build(),",
    ")",
    "",
  ].join("\n");
  const p = sqlOf("/p/job.py", python).tables[0];
  assert.equal(p.name, "orders");
  assert.equal(p.descriptor?.language, "python");
  assert.deepEqual(options(python, p), [
    ["topic", "orders", "topic", "orders", true],
    ["format", "avro", "format", "avro", false],
  ]);
  assert.equal(p.like, false);
});
