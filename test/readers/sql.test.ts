/** Flink SQL: the statement scanner, .sql files, and SQL strings in job code mapped to the host file's characters. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is how the reader writes a value filled in at run time
import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import type { SqlScriptFacts } from "../../server/src/core/documents/sql/facts";
import { scanSql } from "../../server/src/core/documents/sql/scanner";
import { entry, insertAndReread, scalars, textAt } from "./helpers";

function sqlOf(file: string, text: string): SqlScriptFacts {
  const facts = readDocument(file, text);
  assert.ok(facts.sql, `no SQL read from ${file}`);
  return facts.sql;
}

function optionTexts(text: string, script: SqlScriptFacts): [string, string, string][] {
  return script.tables.flatMap((t) =>
    t.options.map((o): [string, string, string] => [o.key, textAt(text, o.keyRange), textAt(text, o.valueRange)]),
  );
}

test(".sql files: SET in both spellings, tables with their options, comments and escaped quotes", () => {
  const text = [
    "-- a comment; with a semicolon and 'a quote",
    "/* SET 'not.a' = 'setting'; */",
    "SET 'execution.checkpointing.interval' = '30 s';",
    "SET pipeline.name = orders-job;",
    "CREATE TEMPORARY TABLE IF NOT EXISTS `cat`.`db`.`orders` (",
    "  id STRING COMMENT 'it''s the id; really',",
    "  ts TIMESTAMP(3)",
    ") WITH (",
    "  'connector' = 'kafka', 'topic' = 'o''clock',",
    "  'format' = 'json'",
    ");",
    "INSERT INTO sink SELECT * FROM `orders` o JOIN db.customers c ON o.id = c.id;",
    "",
  ].join("\n");
  const facts = readDocument("/p/sql/job.flink.sql", text);
  assert.equal(facts.kind, "sql");
  assert.deepEqual(facts.syntaxErrors, []);
  const config = facts.flinkConfigs[0];
  assert.equal(config.host, "sql");
  assert.deepEqual(scalars(config), [
    ["execution.checkpointing.interval", "30 s"],
    ["pipeline.name", "orders-job"],
  ]);
  assert.equal(textAt(text, entry(config, "pipeline.name").keyRange), "pipeline.name");
  const script = facts.sql as SqlScriptFacts;
  assert.equal(script.tables.length, 1);
  assert.equal(script.tables[0].name, "orders");
  assert.equal(script.tables[0].connector, "kafka");
  assert.equal(textAt(text, script.tables[0].nameRange), "orders");
  assert.deepEqual(optionTexts(text, script), [
    ["connector", "connector", "kafka"],
    ["topic", "topic", "o''clock"],
    ["format", "format", "json"],
  ]);
  assert.equal(script.tables[0].options[1].value, "o'clock");
  assert.equal(script.tables[0].options[1].exact, false);
  assert.deepEqual(
    script.writes.map((u) => u.name),
    ["sink"],
  );
  assert.deepEqual(
    script.reads.map((u) => u.name),
    ["orders", "customers"],
  );
});

test("Flink 2.x statements the scanner does not know are passed over in silence", () => {
  const text = [
    "CREATE MATERIALIZED TABLE totals FRESHNESS = INTERVAL '1' MINUTE AS SELECT k, COUNT(*) FROM t GROUP BY k;",
    "SELECT * FROM t QUALIFY ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) = 1;",
    "EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT * FROM t; INSERT INTO b SELECT * FROM t; END;",
    "CREATE CATALOG c WITH ('type' = 'hive');",
    "SET;",
    "RESET 'pipeline.name';",
  ].join("\n");
  const facts = readDocument("/p/q.sql", text);
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(facts.sql?.tables, []);
  assert.deepEqual(
    facts.sql?.writes.map((u) => u.name),
    ["a", "b"],
  );
});

test("a WITH list or SET the scanner cannot finish is information, and what came before it stays", () => {
  const text = [
    "SET 'a.b' 'c';",
    "CREATE TABLE t (id STRING) WITH ('connector' = 'kafka', 'topic' 'x', 'format' = 'json');",
    "CREATE TABLE u (id STRING) WITH ('connector' = 'kafka', 'topic' = 'y",
  ].join("\n");
  const facts = readDocument("/p/broken.sql", text);
  assert.deepEqual(
    facts.syntaxErrors.map((p) => [p.severity, p.range.start.line]),
    [
      ["info", 0],
      ["info", 1],
      ["info", 2],
    ],
  );
  assert.deepEqual(
    facts.sql?.tables.map((t) => t.options.map((o) => o.key)),
    [["connector"], ["connector"]],
  );
});

test("scanning is linear: a long script of statements", () => {
  const statement = "CREATE TABLE t (id STRING) WITH ('connector' = 'kafka', 'topic' = 'x');\n";
  const one = statement.repeat(2_000);
  const started = performance.now();
  const scan = scanSql(one);
  const elapsed = performance.now() - started;
  assert.equal(scan.tables.length, 2_000);
  assert.ok(elapsed < 1_000, `${elapsed} ms`);
});

test("SET inserted before the first statement, after a leading comment, and read again", () => {
  const text = "-- orders job\n\nCREATE TABLE t (id STRING) WITH ('connector' = 'kafka');\n";
  const { text: after, config } = insertAndReread(
    "/p/job.sql",
    text,
    "/p/job.sql#sql",
    "execution.checkpointing.interval",
    "1 min",
  );
  assert.equal(
    after,
    "-- orders job\n\nSET 'execution.checkpointing.interval' = '1 min';\nCREATE TABLE t (id STRING) WITH ('connector' = 'kafka');\n",
  );
  assert.deepEqual(scalars(config), [["execution.checkpointing.interval", "1 min"]]);
});

test("Java: strings joined by +, escapes, and text blocks map to the exact host characters", () => {
  const text = [
    "class Job {",
    "  void run(TableEnvironment tEnv, String name) {",
    '    tEnv.executeSql("CREATE TABLE t (id STRING) WITH (\\n"',
    "        + \"'connector' = 'kafka', 'topic' = 'a\\tb', \"",
    "        + \"'format' = 'json')\");",
    '    tEnv.executeSql("""',
    "        CREATE TABLE u (id STRING) WITH (",
    "          'connector' = 'upsert-kafka',",
    "          'key.format' = 'json'",
    '        )""");',
    "    tEnv.executeSql(\"CREATE TABLE v (id STRING) WITH ('connector' = '\" + name + \"')\");",
    "    tEnv.executeSql(\"SET 'parallelism.default' = '4'\");",
    "  }",
    "}",
  ].join("\n");
  const script = sqlOf("/p/src/main/java/Job.java", text);
  assert.equal(script.embedded, true);
  assert.deepEqual(
    script.tables.map((t) => t.name),
    ["t", "u", "v"],
  );
  assert.deepEqual(optionTexts(text, script), [
    ["connector", "connector", "kafka"],
    ["topic", "topic", "a\\tb"],
    ["format", "format", "json"],
    ["connector", "connector", "upsert-kafka"],
    ["key.format", "key.format", "json"],
    ["connector", "connector", "name"],
  ]);
  // A value joined in from a variable is known to be set, not what to: `${…}`, and never edited in place.
  assert.equal(script.tables[2].options[0].value, "${name}");
  assert.equal(script.tables[2].options[0].exact, false);
  assert.equal(script.tables[0].options[1].value, "a\tb");
  assert.equal(script.tables[0].options[1].exact, false);
  assert.equal(script.tables[0].options[2].exact, true);
  assert.equal(textAt(text, script.tables[1].nameRange), "u");
  const set = readDocument("/p/src/main/java/Job.java", text).flinkConfigs.find((c) => c.host === "sql");
  assert.ok(set);
  assert.equal(textAt(text, entry(set, "parallelism.default").valueRange), "4");
  assert.equal(set.insertEntry("a", "b"), undefined);
});

test("Scala stripMargin, Kotlin trimIndent and templates, Python strings", () => {
  const scala = [
    "object Job {",
    '  tableEnv.executeSql("""CREATE TABLE t (id STRING) WITH (',
    "    |  'connector' = 'kafka',",
    "    |  'topic' = 'x'",
    '    |)""".stripMargin)',
    "  tableEnv.executeSql(s\"CREATE TABLE $name (id STRING) WITH ('connector' = 'kafka')\")",
    "}",
  ].join("\n");
  const s = sqlOf("/p/Job.scala", scala);
  assert.deepEqual(optionTexts(scala, s), [
    ["connector", "connector", "kafka"],
    ["topic", "topic", "x"],
  ]);
  const kotlin = [
    "fun main() {",
    '  tableEnv.executeSql("""',
    "      CREATE TABLE t (id STRING) WITH (",
    "        'connector' = 'kafka'",
    "      )",
    '  """.trimIndent())',
    "  tableEnv.executeSql(\"CREATE TABLE \\$x (id STRING) WITH ('connector' = '$kind')\")",
    "}",
  ].join("\n");
  const k = sqlOf("/p/Job.kt", kotlin);
  assert.deepEqual(optionTexts(kotlin, k), [
    ["connector", "connector", "kafka"],
    ["connector", "connector", "$kind"],
  ]);
  assert.deepEqual(
    k.tables.map((t) => [t.name, t.options[0].value]),
    [
      ["t", "kafka"],
      ["$x", "${kind}"],
    ],
  );
  const python = [
    "t_env.execute_sql(",
    "    \"CREATE TABLE t (id STRING) WITH ('connector' = 'kafka', \"",
    "    '\\'topic\\' = \\'x\\')'",
    ")",
    "t_env.execute_sql(f\"CREATE TABLE {name} (id STRING) WITH ('connector' = 'kafka')\")",
    "t_env.execute_sql(r'''CREATE TABLE u (id STRING) WITH ('connector' = 'kafka')''')",
  ].join("\n");
  const p = sqlOf("/p/job.py", python);
  assert.deepEqual(
    p.tables.map((t) => t.name),
    ["t", "u"],
  );
  assert.deepEqual(optionTexts(python, p).slice(0, 2), [
    ["connector", "connector", "kafka"],
    ["topic", "topic", "x"],
  ]);
});

test("Python: a SQL call written in a comment, a docstring or a help string is not read", () => {
  const python = [
    '"""Run it as: t_env.execute_sql("CREATE TABLE d (id STRING) WITH (\'connector\' = \'kafka\')")."""',
    "# t_env.execute_sql(\"CREATE TABLE c (id STRING) WITH ('connector' = 'kafka')\")",
    "HELP = 'call t_env.execute_sql(\"SET \\'pipeline.nme\\' = \\'x\\'\") to name the job'",
    "t_env.execute_sql(\"CREATE TABLE t (id STRING) WITH ('connector' = 'kafka')\")  # execute_sql('SET a = b')",
    "",
  ].join("\n");
  const p = sqlOf("/p/job.py", python);
  assert.deepEqual(
    p.tables.map((t) => t.name),
    ["t"],
  );
  assert.deepEqual(p.config.entries, [], "no SET from the help string or the comment");
});

/** Table name → [option key, value] pairs, in order. */
function tableOptions(script: SqlScriptFacts): [string, [string, string][]][] {
  return script.tables.map((t) => [t.name, t.options.map((o): [string, string] => [o.key, o.value])]);
}

test("SQL held in variables and constants of the file, and String.format, in Java", () => {
  const text = [
    "class Job {",
    "  private static final String SINK = \"CREATE TABLE sink (id STRING) WITH ('connector' = 'print')\";",
    "  void run(TableEnvironment tEnv, String topic, String fromCaller) {",
    '    String ddl = "CREATE TABLE src (id STRING) WITH ("',
    "        + \"'connector' = 'kafka', 'topic' = '\" + topic + \"', \"",
    "        + \"'scan.startup.mode' = 'latest-offset')\";",
    "    tEnv.executeSql(ddl);",
    "    tEnv.executeSql(String.format(\"CREATE TABLE f (id STRING) WITH ('topic' = '%s', 'x' = '100%%')\", topic));",
    "    tEnv.executeSql(\"CREATE TABLE g (id STRING) WITH ('topic' = '%1$s')\".formatted(topic));",
    "    tEnv.executeSql(SINK);",
    "    tEnv.executeSql(SINK);",
    "    tEnv.executeSql(fromCaller);",
    "    tEnv.executeSql(LATER);",
    "  }",
    "  void other() { String hidden = \"CREATE TABLE hidden (x INT) WITH ('connector' = 'kafka')\"; }",
    "  void third(TableEnvironment tEnv, String hidden) { tEnv.executeSql(hidden); }",
    "  void fourth(TableEnvironment tEnv) {",
    '    String grown = "CREATE TABLE grown (x INT) WITH (";',
    "    grown += \"'connector' = 'kafka')\";",
    "    tEnv.executeSql(grown);",
    "  }",
    "  static final String LATER = \"CREATE TABLE later (x INT) WITH ('connector' = 'kafka')\";",
    "}",
  ].join("\n");
  const script = sqlOf("/p/src/main/java/Job.java", text);
  assert.deepEqual(tableOptions(script), [
    [
      "src",
      [
        ["connector", "kafka"],
        ["topic", "${topic}"],
        ["scan.startup.mode", "latest-offset"],
      ],
    ],
    [
      "f",
      [
        ["topic", "${%s}"],
        ["x", "100%"],
      ],
    ],
    ["g", [["topic", "${%1$s}"]]],
    ["sink", [["connector", "print"]]],
    ["later", [["connector", "kafka"]]],
  ]);
  // Ranges stay on the characters of the definition, not of the call.
  const src = script.tables[0];
  assert.equal(textAt(text, src.nameRange), "src");
  assert.equal(src.nameRange.start.line, 3);
  assert.equal(textAt(text, src.options[2].valueRange), "latest-offset");
  assert.equal(src.options[2].exact, true);
  assert.equal(textAt(text, script.tables[3].nameRange), "sink");
  assert.equal(script.tables[3].nameRange.start.line, 1);
});

test("SQL in Scala vals with s-interpolation, Kotlin const vals with templates, and .format", () => {
  const scala = [
    "object Job {",
    "  val topic = args(0)",
    "  val ddl =",
    '    s"""CREATE TABLE src (id STRING) WITH (',
    "       |  'connector' = 'kafka', 'topic' = '$topic', 'group' = '${cfg.group}', 'cost' = '$$5'",
    '       |)""".stripMargin',
    "  tableEnv.executeSql(ddl)",
    "  tableEnv.executeSql(\"CREATE TABLE t (id STRING) WITH ('topic' = '%s')\".format(topic))",
    "  tableEnv.executeSql(f\"CREATE TABLE n (id STRING) WITH ('topic' = '$topic%s')\")",
    "}",
  ].join("\n");
  assert.deepEqual(tableOptions(sqlOf("/p/Job.scala", scala)), [
    [
      "src",
      [
        ["connector", "kafka"],
        ["topic", "${topic}"],
        ["group", "${cfg.group}"],
        ["cost", "$5"],
      ],
    ],
    ["t", [["topic", "${%s}"]]],
  ]);
  const kotlin = [
    'const val DDL: String = """',
    "    CREATE TABLE src (id STRING) WITH (",
    "      'connector' = 'kafka', 'topic' = '$topic', 'dollar' = '${'$'}'",
    "    )",
    '""".trimIndent()',
    "fun main() {",
    "  tableEnv.executeSql(DDL)",
    "  val sink = \"CREATE TABLE sink (id STRING) WITH ('connector' = '\" + kind + \"')\"",
    "  tableEnv.executeSql(sink)",
    "}",
  ].join("\n");
  assert.deepEqual(tableOptions(sqlOf("/p/Job.kt", kotlin)), [
    [
      "src",
      [
        ["connector", "kafka"],
        ["topic", "${topic}"],
        ["dollar", "$"],
      ],
    ],
    ["sink", [["connector", "${kind}"]]],
  ]);
});

test("SQL in Python names: module constants, locals of the same function, str.format and % formatting", () => {
  const python = [
    'SINK_DDL = """',
    "CREATE TABLE sink (id STRING) WITH ('connector' = 'print')",
    '"""',
    "",
    "def build(t_env, topic):",
    "    src = (",
    '        "CREATE TABLE src (id STRING) WITH ("',
    "        \"'connector' = 'kafka', 'topic' = '\" + topic + \"', \"",
    "        \"'properties.group.id' = 'g')\"",
    "    )",
    "    t_env.execute_sql(src)",
    "    t_env.execute_sql(\"CREATE TABLE f (id STRING) WITH ('topic' = '{}', 'x' = '{{y}}')\".format(topic))",
    "    t_env.execute_sql(\"CREATE TABLE p (id STRING) WITH ('topic' = '%s', 'z' = '100%%')\" % (topic,))",
    "    t_env.execute_sql(SINK_DDL)",
    "    t_env.execute_sql(LATE)",
    "    t_env.execute_sql(hidden)",
    "",
    "def other(t_env):",
    "    hidden = \"CREATE TABLE hidden (x INT) WITH ('connector' = 'kafka')\"",
    "",
    "def third(t_env, src):",
    "    t_env.execute_sql(src)",
    "",
    "LATE = \"CREATE TABLE late (x INT) WITH ('connector' = 'kafka')\"",
  ].join("\n");
  const p = sqlOf("/p/job.py", python);
  assert.deepEqual(tableOptions(p), [
    [
      "src",
      [
        ["connector", "kafka"],
        ["topic", "${topic}"],
        ["properties.group.id", "g"],
      ],
    ],
    [
      "f",
      [
        ["topic", "${}"],
        ["x", "{y}"],
      ],
    ],
    [
      "p",
      [
        ["topic", "${%s}"],
        ["z", "100%"],
      ],
    ],
    ["sink", [["connector", "print"]]],
    ["late", [["connector", "kafka"]]],
  ]);
  assert.equal(textAt(python, p.tables[0].options[2].valueRange), "g");
});

test("keys filled in at run time: no SET entry, and the table's option list is open", () => {
  const text = [
    "class Job {",
    "  void run(TableEnvironment tEnv, String key, String table) {",
    "    tEnv.executeSql(\"CREATE TABLE orders (id STRING) WITH ('connector' = 'kafka', '\" + key + \"' = 'x')\");",
    "    tEnv.executeSql(\"CREATE TABLE \" + table + \" (id STRING) WITH ('connector' = 'kafka')\");",
    "    tEnv.executeSql(\"SET '\" + key + \"' = '1'\");",
    "    tEnv.executeSql(\"SET 'pipeline.name' = '\" + table + \"'\");",
    "  }",
    "}",
  ].join("\n");
  const facts = readDocument("/p/src/main/java/Job.java", text);
  const script = facts.sql;
  assert.ok(script);
  assert.deepEqual(tableOptions(script), [["orders", [["connector", "kafka"]]]]);
  assert.equal(script.tables[0].like, true);
  assert.deepEqual(
    script.config.entries.map((e) => [e.key, e.value, e.templated]),
    [["pipeline.name", "${table}", true]],
  );
});

test("statements a file defines for others to run: constants, returned values, expression bodies; each once", () => {
  const java = [
    "public final class OrdersSql {",
    "  static final String BASE = \"CREATE TABLE orders (id STRING) WITH ('connector' = 'kafka', \";",
    "  static final String FULL = BASE + \"'topic' = 'orders')\";",
    '  static final String ARCHIVE = "INSERT INTO archive SELECT * FROM orders";',
    '  static final String GREETING = "hello";',
    "  static String sink(String topic) {",
    "    return \"CREATE TABLE sink (id STRING) WITH ('connector' = 'kafka', 'topic' = '\" + topic + \"')\";",
    "  }",
    "  void local() { String mine = \"CREATE TABLE mine (id STRING) WITH ('connector' = 'kafka')\"; }",
    "}",
  ].join("\n");
  const j = sqlOf("/p/src/main/java/OrdersSql.java", java);
  assert.equal(j.shared, true);
  // FULL holds BASE: the table is read once, from the longer definition; the method's local is its own.
  assert.deepEqual(tableOptions(j), [
    [
      "orders",
      [
        ["connector", "kafka"],
        ["topic", "orders"],
      ],
    ],
    [
      "sink",
      [
        ["connector", "kafka"],
        ["topic", "${topic}"],
      ],
    ],
  ]);
  assert.deepEqual(
    j.reads.map((r) => r.name),
    ["orders"],
  );
  // A definition passed to executeSql in the same file is one piece, not two.
  const job = [
    "class Job {",
    "  static final String DDL = \"CREATE TABLE t (id STRING) WITH ('connector' = 'kafka')\";",
    "  void run(TableEnvironment tEnv) { tEnv.executeSql(DDL); }",
    "}",
  ].join("\n");
  const once = sqlOf("/p/src/main/java/Job.java", job);
  assert.deepEqual(
    once.tables.map((t) => t.name),
    ["t"],
  );
  assert.equal(once.shared, undefined);
  const scala = [
    "object KafkaTables {",
    "  def orders(topic: String): String =",
    "    s\"CREATE TABLE orders (id STRING) WITH ('connector' = 'kafka', 'topic' = '$topic')\"",
    '  def name = "orders"',
    "}",
  ].join("\n");
  assert.deepEqual(
    sqlOf("/p/KafkaTables.scala", scala).tables.map((t) => [t.name, t.options[1].value]),
    [["orders", "${topic}"]],
  );
  const kotlin = [
    "object OrdersSql {",
    "    const val ORDERS = \"CREATE TABLE orders (id STRING) WITH ('connector' = 'kafka')\"",
    "    fun sink(topic: String) = \"CREATE TABLE sink (id STRING) WITH ('connector' = 'kafka', 'topic' = '$topic')\"",
    "}",
  ].join("\n");
  assert.deepEqual(
    sqlOf("/p/OrdersSql.kt", kotlin).tables.map((t) => t.name),
    ["sink", "orders"],
  );
  const python = [
    'ORDERS = """CREATE TABLE orders (id STRING) WITH (\'connector\' = \'kafka\')"""',
    "",
    "class Tables:",
    "    SINK = \"CREATE TABLE sink (id STRING) WITH ('connector' = 'kafka')\"",
    "",
    "    def source(self, topic):",
    "        mine = \"CREATE TABLE mine (id STRING) WITH ('connector' = 'kafka')\"",
    "        return f\"CREATE TABLE src (id STRING) WITH ('connector' = 'kafka', 'topic' = '{topic}')\"",
  ].join("\n");
  assert.deepEqual(
    sqlOf("/p/sql_queries.py", python)
      .tables.map((t) => t.name)
      .sort(),
    ["orders", "sink", "src"],
  );
  // No table with a connector: database statements, not Flink SQL.
  const jdbc =
    'class Schema { static final String USERS = "CREATE TABLE users (id BIGINT)"; String c = "\'connector\'"; }';
  assert.equal(readDocument("/p/src/main/java/Schema.java", jdbc).sql, undefined);
});

test("a WITH that opens no option list (a CTE of CREATE TABLE … AS, a bucket clause) is not the table's options", () => {
  const scan = scanSql(
    [
      "CREATE TABLE volumes AS WITH recent AS (SELECT * FROM orders) SELECT id FROM recent;",
      "CREATE TABLE users_rec (id STRING, PRIMARY KEY (id) NOT ENFORCED) DISTRIBUTED BY HASH (id) WITH 1 BUCKETS",
      "WITH ('connector' = 'kafka', 'topic' = 'users');",
      "CREATE TABLE totals WITH ('connector' = 'kafka', 'topic' = 'totals') AS WITH t AS (SELECT 1 AS n) SELECT n FROM t;",
    ].join("\n"),
  );
  assert.deepEqual(scan.problems, []);
  assert.deepEqual(
    scan.tables.map((t) => [t.name, t.options.map((o) => [o.key, o.value])]),
    [
      ["volumes", []],
      [
        "users_rec",
        [
          ["connector", "kafka"],
          ["topic", "users"],
        ],
      ],
      [
        "totals",
        [
          ["connector", "kafka"],
          ["topic", "totals"],
        ],
      ],
    ],
  );
  // A list that lost its parenthesis is still a problem.
  assert.equal(scanSql("CREATE TABLE t (id INT) WITH 'connector' = 'kafka';").problems.length, 1);
});

test("options filled in at run time: the whole WITH list, an entry of it, or a value, without a syntax problem", () => {
  const scan = scanSql(
    [
      "CREATE TABLE a (id STRING) WITH ${kafka_options(topic)};",
      "CREATE TABLE b (id STRING) WITH ('connector' = 'kafka', ${more()}, 'format' = 'json');",
      "CREATE TABLE c (id STRING) WITH ('connector' = 'kafka', 'topic' = ${topic}, 'format' = 'json');",
    ].join("\n"),
  );
  assert.deepEqual(scan.problems, []);
  assert.deepEqual(
    scan.tables.map((t) => [t.name, t.like, t.options.map((o) => [o.key, o.value])]),
    [
      ["a", true, []],
      [
        "b",
        true,
        [
          ["connector", "kafka"],
          ["format", "json"],
        ],
      ],
      [
        "c",
        false,
        [
          ["connector", "kafka"],
          ["topic", "${…}"],
          ["format", "json"],
        ],
      ],
    ],
  );
  // `c` keeps its closing parenthesis: a new option goes before it.
  assert.ok(scan.tables[2].closeParen !== undefined);
});

test("a ksqlDB script is not Flink SQL: no SET configuration, no tables, no problems", () => {
  const scripts = [
    "CREATE STREAM bids (price INT) WITH (KAFKA_TOPIC='bids', VALUE_FORMAT='JSON');\nSET 'auto.offset.reset' = 'earliest';",
    "SET 'auto.offset.reset' = 'earliest';\nCREATE OR REPLACE STREAM big AS SELECT * FROM bids WHERE price > 10;",
    "CREATE SOURCE TABLE users (id INT PRIMARY KEY) WITH (kafka_topic = 'users', format = 'json');",
    "SET 'auto.offset.reset' = 'earliest';\nCREATE TABLE t WITH (FORMAT='JSON') AS SELECT k, COUNT(*) FROM s GROUP BY k EMIT CHANGES;",
    "SET 'auto.offset.reset' = 'earliest';\nCREATE TABLE t WITH (key_format = 'json', value_format = 'json') AS SELECT k FROM s;",
    "SELECT * FROM s WINDOW TUMBLING (SIZE 1 MINUTE) GROUP BY k EMIT FINAL;\nSET 'a.b' 'c';",
    "DROP STREAM IF EXISTS bids;\nSET 'auto.offset.reset' = 'earliest';",
  ];
  for (const text of scripts) {
    const facts = readDocument("/p/ksql/q.sql", text);
    assert.equal(facts.kind, "sql", text);
    assert.equal(facts.sql, undefined, text);
    assert.deepEqual(facts.flinkConfigs, [], text);
    assert.deepEqual(facts.syntaxErrors, [], text);
    assert.equal(scanSql(text).otherEngine?.engine, "ksqlDB", text);
  }
});

test("a script of Confluent Flink statements (statement properties in SET) is not Apache Flink SQL", () => {
  const scripts = [
    "SET 'client.statement-name' = 'dedup-orders';\nSET 'sql.state-ttl' = '1 h';\nINSERT INTO unique_orders SELECT * FROM orders;",
    "SET 'sql.current-catalog' = 'prod';\nSET 'sql.current-database' = 'cluster_0';\nSELECT * FROM clicks;",
    "CREATE TABLE t (id INT);\nSET 'sql.local-time-zone' = 'UTC';",
  ];
  for (const text of scripts) {
    const facts = readDocument("/p/cc/q.sql", text);
    assert.equal(facts.sql, undefined, text);
    assert.deepEqual(facts.flinkConfigs, [], text);
    assert.equal(scanSql(text).otherEngine?.engine, "Confluent", text);
  }
  for (const text of [
    "SET search_path TO inventory;\nCREATE TABLE customer (id INT PRIMARY KEY);",
    "SET NAMES utf8mb4;\nCREATE TABLE t (id INT);",
  ]) {
    assert.equal(scanSql(text).otherEngine?.engine, "database", text);
    assert.deepEqual(readDocument("/p/db/init.sql", text).syntaxErrors, [], text);
  }
  for (const text of [
    "CREATE TABLE lake.demo.orders\nWITH (\n  format = 'PARQUET',\n  location = 's3://w/orders'\n)\nAS SELECT * FROM landing.orders;",
    "CREATE TABLE hive.web.clicks (id BIGINT, ds DATE) WITH (partitioned_by = ARRAY['ds']);",
  ]) {
    assert.equal(scanSql(text).otherEngine?.engine, "Trino", text);
    assert.deepEqual(readDocument("/p/trino/lake.sql", text).syntaxErrors, [], text);
  }
  // Flink options that lost their quotes are still Flink's, and a problem.
  for (const text of [
    "CREATE TABLE t (id INT) WITH (connector = 'kafka', topic = 't');",
    "CREATE TABLE t (id INT) WITH (properties.bootstrap.servers = 'k:9092');",
    "CREATE TABLE t (id INT) WITH ('connector' = 'kafka', format = 'json');",
  ])
    assert.equal(scanSql(text).otherEngine, undefined, text);
  // A Flink SET that lost its `=` is still Flink's, and a problem.
  assert.equal(scanSql("SET 'parallelism.default' '4';").otherEngine, undefined);
  assert.equal(scanSql("SET 'parallelism.default' '4';").problems.length, 1);
  // Apache Flink's own client options and SQL client options keep a script Flink SQL.
  for (const text of [
    "SET 'client.timeout' = '2 min';\nINSERT INTO b SELECT * FROM a;",
    "SET 'sql-client.execution.result-mode' = 'tableau';\nSELECT 1;",
    "SET 'table.exec.state.ttl' = '1 h';\nSELECT 'sql.state-ttl';",
  ])
    assert.equal(scanSql(text).otherEngine, undefined, text);
});

test("ksqlDB's words in comments, strings, column names and a WHERE clause leave a Flink script Flink SQL", () => {
  const text = [
    "-- ported from ksqlDB: CREATE STREAM s WITH (KAFKA_TOPIC='s') … EMIT CHANGES;",
    "/* CREATE STREAM s; DROP STREAM s; */",
    "SET 'pipeline.name' = 'EMIT CHANGES';",
    "CREATE TABLE stream (kafka_topic STRING METADATA FROM 'topic', emit STRING) WITH ('connector' = 'kafka', 'topic' = 'KAFKA_TOPIC=x');",
    "CREATE VIEW v AS SELECT * FROM stream WHERE kafka_topic = 'a' AND emit = 'changes';",
    "INSERT INTO out WITH recent AS (SELECT * FROM stream) SELECT * FROM recent;",
  ].join("\n");
  assert.equal(scanSql(text).otherEngine, undefined);
  const script = sqlOf("/p/job.sql", text);
  assert.deepEqual(
    script.tables.map((t) => t.name),
    ["stream"],
  );
  assert.deepEqual(scalars(script.config), [["pipeline.name", "EMIT CHANGES"]]);
});

test("job code: a ksqlDB statement passed to executeSql is passed over, Flink SQL of the same file is read", () => {
  const text = [
    "class Orders {",
    "  void run(KsqlClient ksql, TableEnvironment tEnv) {",
    "    ksql.executeSql(\"CREATE TABLE totals (id STRING) WITH (kafka_topic='totals', value_format='JSON');\");",
    '    ksql.executeSql("SELECT * FROM totals EMIT CHANGES;");',
    "    tEnv.executeSql(\"CREATE TABLE t (id STRING) WITH ('connector' = 'kafka', 'topic' = 'x')\");",
    "  }",
    "}",
  ].join("\n");
  const facts = readDocument("/p/src/main/java/Orders.java", text);
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    facts.sql?.tables.map((t) => [t.name, textAt(text, t.nameRange)]),
    [["t", "t"]],
  );
  const only = readDocument("/p/src/main/java/Totals.java", text.replace(/ {4}tEnv\.executeSql.*\n/, ""));
  assert.equal(only.sql, undefined);
  assert.deepEqual(only.syntaxErrors, []);
});

test("a FlinkDeployment's job arguments that are SQL statements are its script, with exact ranges in quoted strings", () => {
  const text = [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: etl",
    "spec:",
    "  job:",
    "    jarURI: local:///opt/streamshub/flink-sql-runner.jar",
    '    args: ["',
    "        CREATE TABLE sales (id STRING) WITH (",
    "          'connector' = 'kafka', 'topic' = 'sales',",
    "          'scan.startup.mode' = 'latest-offset'",
    "        );",
    '        INSERT INTO cleaned SELECT * FROM sales;"]',
    "",
  ].join("\n");
  const facts = readDocument("/p/k8s/etl.yaml", text);
  const script = facts.sql;
  assert.ok(script);
  assert.equal(script.runBy, "deploymentArgs");
  assert.deepEqual(
    script.tables.map((t) => t.name),
    ["sales"],
  );
  const mode = script.tables[0].options.find((o) => o.key === "scan.startup.mode");
  assert.ok(mode);
  const line = text.split("\n")[mode.valueRange.start.line];
  assert.equal(line.slice(mode.valueRange.start.character, mode.valueRange.end.character), "latest-offset");
  assert.deepEqual(
    script.writes.map((w) => w.name),
    ["cleaned"],
  );
  // A path to a script, or flags, are no statements.
  const paths = text.replace(/args: \["[\s\S]*"\]/, 'args: ["--sql-file=/opt/sql/job.sql", "-Dk=v"]');
  assert.equal(readDocument("/p/k8s/etl.yaml", paths).sql, undefined);
});
