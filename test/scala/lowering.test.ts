/** How Scala constructs are lowered to the shared job-code syntax tree (jobcode/ir.ts). */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Expr, Member, Stmt } from "../../server/src/core/jobcode/ir";
import { allMembers, exprOf, lowered, method, shape, src } from "./helpers";

/** The statements of `def run(): Unit = { … }` in an object. */
function body(...lines: string[]): { text: string; stmts: Stmt[] } {
  const text = ["object Job {", "  def run(): Unit = {", ...lines.map((l) => `    ${l}`), "  }", "}", ""].join("\n");
  return { text, stmts: method(lowered(text), "run").body };
}

function expression(code: string): { text: string; e: Expr } {
  const { text, stmts } = body(code);
  return { text, e: exprOf(stmts[0]) };
}

test("member calls, and selections that Scala makes calls: class-name members, type arguments, postfix", () => {
  assert.equal(shape(expression("env.enableCheckpointing(5000)").e), "env.enableCheckpointing(5000)");
  // A getter written without parentheses stays a field read; the extractor reads it on objects it follows.
  assert.equal(
    shape(expression("env.getCheckpointConfig.setCheckpointInterval(60000L)").e),
    "env.getCheckpointConfig.setCheckpointInterval(60000)",
  );
  assert.equal(
    shape(expression("val env = StreamExecutionEnvironment.getExecutionEnvironment").e),
    "StreamExecutionEnvironment.getExecutionEnvironment()",
  );
  assert.equal(
    shape(
      expression("val e = org.apache.flink.streaming.api.scala.StreamExecutionEnvironment.getExecutionEnvironment").e,
    ),
    "org.apache.flink.streaming.api.scala.StreamExecutionEnvironment.getExecutionEnvironment()",
  );
  assert.equal(shape(expression("val r = KafkaIO.read[String, String]").e), "KafkaIO.read()");
  assert.equal(shape(expression("val r = KafkaIO.read[String, String]()").e), "KafkaIO.read()");
  assert.equal(shape(expression("val b = KafkaSource.builder[String]").e), "KafkaSource.builder()");
  // Upper-case members are constants, not calls.
  assert.equal(shape(expression("val m = CheckpointingMode.EXACTLY_ONCE").e), "CheckpointingMode.EXACTLY_ONCE");
  assert.equal(shape(expression("stream print").e), "stream.print()");
  assert.equal(shape(expression("stream map f").e), "stream.map(f)");
  assert.equal(shape(expression("a foo (b, c)").e), "a.foo(b, c)");
});

test("a call keeps the offsets fixes use: name, dot, and where a new argument goes", () => {
  const { text, e } = expression("env.enableCheckpointing(5000)");
  assert.equal(e.k, "call");
  if (e.k !== "call") return;
  assert.equal(text.slice(e.nameStart, e.nameEnd), "enableCheckpointing");
  assert.equal(text[e.dot ?? -1], ".");
  assert.equal(text.slice(e.argsEnd, e.end), ")");
  const empty = expression("env.execute()").e;
  assert.ok(empty.k === "call" && text.length > 0);
  if (empty.k === "call")
    assert.equal(src(body("env.execute()").text, { start: empty.argsEnd ?? 0, end: empty.end }), ")");
});

test("constructors with and without new, anonymous class bodies", () => {
  assert.equal(shape(expression("val p = new Properties()").e), "new Properties()");
  assert.equal(shape(expression("val p = new Properties").e), "new Properties()");
  assert.equal(shape(expression("val p = Properties()").e), "new Properties()");
  assert.equal(shape(expression("val p = java.util.Properties()").e), "new java.util.Properties()");
  assert.equal(
    shape(expression('val c = new FlinkKafkaConsumer[String]("t", new SimpleStringSchema(), props)').e),
    'new FlinkKafkaConsumer("t", new SimpleStringSchema(), props)',
  );
  const scala3 = expression('val c = FlinkKafkaConsumer[String]("t", SimpleStringSchema(), props)');
  assert.equal(shape(scala3.e), 'new FlinkKafkaConsumer("t", new SimpleStringSchema(), props)');
  if (scala3.e.k === "new")
    assert.equal(src(scala3.text, { start: scala3.e.typeStart, end: scala3.e.typeEnd }), "FlinkKafkaConsumer");
  const anonymous = expression('val p = new Properties { setProperty("group.id", "g") }').e;
  assert.equal(shape(anonymous), "new Properties(){…}");
  assert.ok(anonymous.k === "new");
  if (anonymous.k === "new") {
    const init = anonymous.body?.find((m) => m.k === "init");
    assert.equal(init?.k === "init" && shape(exprOf(init.body[0])), 'setProperty("group.id", "g")');
  }
});

test("map literals: Map(k -> v), mutable maps, tuples, type arguments; where a new entry goes", () => {
  const { text, e } = expression('val m = Map[String, AnyRef]("group.id" -> "g", ("a", 1))');
  assert.equal(shape(e), '{"group.id" -> "g", "a" -> 1}');
  assert.ok(e.k === "mapLit");
  if (e.k === "mapLit") {
    assert.equal(e.form, "arrow");
    assert.equal(text[e.openEnd - 1], "(");
    assert.equal(text[e.closeStart], ")");
    assert.equal(src(text, e.entries[0]), '"group.id" -> "g"');
  }
  assert.equal(shape(expression('val m = mutable.Map("a" -> "b")').e), '{"a" -> "b"}');
  assert.equal(shape(expression('val m = scala.collection.mutable.HashMap("a" -> "b")').e), '{"a" -> "b"}');
  assert.equal(shape(expression("val m = mutable.Map[String, String]()").e), "{}");
  // `.asJava` and the JavaConverters functions keep the map.
  assert.equal(shape(expression('val m = Map("a" -> "b").asJava').e), '({"a" -> "b"}: conv)');
  assert.equal(shape(expression('val m = mapAsJavaMap(Map("a" -> "b"))').e), '({"a" -> "b"}: conv)');
  assert.equal(shape(expression('val m = JavaConverters.mapAsJavaMap(Map("a" -> "b"))').e), '({"a" -> "b"}: conv)');
  // Not pairs: the entries cannot be read, so it is not a literal.
  assert.equal(shape(expression("val m = Map(entries: _*)").e), "new Map((entries: _))");
  // Precedence holds inside entries.
  assert.equal(shape(expression('val m = Map("interval" -> 60 * 1000)').e), '{"interval" -> (60 * 1000)}');
  // java.util's HashMap takes no pairs.
  const javaMap = lowered(
    [
      "import java.util.HashMap",
      "object Job {",
      "  def run(): Unit = {",
      "    val m = HashMap[String, String]()",
      "  }",
      "}",
    ].join("\n"),
  );
  assert.equal(shape(exprOf(method(javaMap, "run").body[0])), "new HashMap()");
  assert.equal(shape(expression("val m = new java.util.HashMap[String, Object]()").e), "new java.util.HashMap()");
});

test("list literals", () => {
  assert.equal(shape(expression('val t = List("a", "b")').e), '["a", "b"]');
  assert.equal(shape(expression('val t = Seq("a")').e), '["a"]');
  assert.equal(shape(expression('val t = Array("--runner=FlinkRunner")').e), '["--runner=FlinkRunner"]');
  assert.equal(shape(expression('val t = List("a").asJava').e), '(["a"]: conv)');
});

test("named arguments are kwargs; positional ones stay args", () => {
  const { text, e } = expression('foo("x", group = "g", parallelism = 4)');
  assert.equal(shape(e), 'foo("x", group="g", parallelism=4)');
  assert.ok(e.k === "call");
  if (e.k === "call") {
    const [kw] = e.kwargs ?? [];
    assert.equal(text.slice(kw.nameStart, kw.nameStart + kw.name.length), "group");
    assert.equal(src(text, kw), 'group = "g"');
  }
});

test("literals carry their decoded values", () => {
  const values = (code: string) => {
    const e = expression(`val v = ${code}`).e;
    assert.equal(e.k, "literal", code);
    return e.k === "literal" ? [e.type, e.image, e.value] : [];
  };
  assert.deepEqual(values('"a\\tb\\u0041\\""'), ["string", '"a\\tb\\u0041\\""', { kind: "string", value: 'a\tbA"' }]);
  assert.deepEqual(values('"""no \\t escapes"""'), [
    "text",
    '"""no \\t escapes"""',
    { kind: "string", value: "no \\t escapes" },
  ]);
  assert.deepEqual(values('s"plain $$5"'), ["string", 's"plain $$5"', { kind: "string", value: "plain $5" }]);
  assert.deepEqual(values('s"$host:9092"'), ["string", 's"$host:9092"', { kind: "unknown" }]);
  const braced = `s"$\{cfg.host}:9092"`;
  assert.deepEqual(values(braced), ["string", braced, { kind: "unknown" }]);
  assert.deepEqual(values('raw"a\\nb"'), ["string", 'raw"a\\nb"', { kind: "string", value: "a\\nb" }]);
  assert.deepEqual(values('f"$n%d"'), ["string", 'f"$n%d"', { kind: "unknown" }]);
  assert.deepEqual(values("60000L"), ["number", "60000L", { kind: "number", value: 60000 }]);
  assert.deepEqual(values("5_000"), ["number", "5_000", { kind: "number", value: 5000 }]);
  assert.deepEqual(values("0xFFL"), ["number", "0xFFL", { kind: "number", value: 255 }]);
  assert.deepEqual(values("-1"), ["number", "-1", { kind: "number", value: -1 }]);
  assert.deepEqual(values("1.5e3f"), ["number", "1.5e3f", { kind: "number", value: 1500 }]);
  assert.deepEqual(values("true"), ["bool", "true", { kind: "bool", value: true }]);
  assert.deepEqual(values("'\\n'"), ["char", "'\\n'", { kind: "string", value: "\n" }]);
});

test("operators: arithmetic, comparison, unary; pairs outside a map; updates and += on maps", () => {
  assert.equal(shape(expression("val v = 60 * 1000").e), "(60 * 1000)");
  assert.equal(shape(expression("val v = 1 + 2 * 3").e), "(1 + (2 * 3))");
  assert.equal(shape(expression("val v = 1 * 2 + 3 - 4").e), "(((1 * 2) + 3) - 4)");
  assert.equal(shape(expression("val v = a == b && c < d + 1").e), "((a == b) && (c < (d + 1)))");
  assert.equal(shape(expression("val v = a max b + c").e), "a.max((b + c))");
  assert.equal(shape(expression("val v = a :: b :: c").e), "other[a, other[b, c]]");
  assert.equal(shape(expression("val v = !flag").e), "!flag");
  assert.equal(shape(expression('m("group.id") = "g"').e), 'm.put("group.id", "g")');
  assert.equal(shape(expression('m += ("group.id" -> "g")').e), 'm.put("group.id", "g")');
  assert.equal(shape(expression('m += "group.id" -> "g"').e), 'm.put("group.id", "g")');
  assert.equal(shape(expression('m ++= Map("a" -> "b")').e), 'm.putAll({"a" -> "b"})');
  assert.equal(shape(expression("n += 1").e), "n += 1");
  assert.equal(shape(expression("x = 2").e), "x = 2");
  assert.equal(shape(expression("val v = x.asInstanceOf[String]").e), "(x: String)");
  assert.equal(shape(expression("val v = classOf[FlinkPipelineOptions]").e), "classOf[FlinkPipelineOptions]");
  assert.equal(
    shape(expression("val v = PipelineOptionsFactory.fromArgs(args: _*)").e),
    "PipelineOptionsFactory.fromArgs((args: _))",
  );
});

test("function literals: parameters, placeholder functions, block arguments and partial functions", () => {
  assert.equal(shape(expression("s.map(x => x + 1)").e), "s.map((x) => (x + 1))");
  assert.equal(shape(expression("s.map((a: String, b: Int) => a)").e), "s.map((a, b) => a)");
  assert.equal(shape(expression('s.flatMap(_.split(" "))').e), 's.flatMap((_) => _.split(" "))');
  assert.equal(shape(expression("s.keyBy(_._1)").e), "s.keyBy((_) => _._1)");
  assert.equal(shape(expression("s.map((_, 1))").e), "s.map((_) => other[_, 1])");
  assert.equal(shape(expression("s.map { line =>\n      line.length\n    }").e), "s.map((line) => {1 stmts})");
  assert.equal(shape(expression("s.foreach { case (k, v) => props.put(k, v) }").e), "s.foreach(() => {1 stmts})");
  const { e } = expression("s.map { x =>\n      log(x)\n      env.enableCheckpointing(1)\n    }");
  assert.ok(e.k === "call" && e.args[0].k === "lambda" && Array.isArray(e.args[0].body));
  if (e.k === "call" && e.args[0].k === "lambda" && Array.isArray(e.args[0].body)) {
    assert.deepEqual(
      e.args[0].body.map((s) => `${shape(exprOf(s))}${s.conditional ? " ?" : ""}`),
      ["log(x) ?", "env.enableCheckpointing(1) ?"],
    );
  }
});

test("statements that may not run are conditional: branches, cases, loops, catch; conditions run", () => {
  const { stmts } = body(
    "if (prod) env.enableCheckpointing(60000) else env.setParallelism(1)",
    "mode match {",
    '  case "a" => a()',
    "  case _ =>",
    "    b()",
    "    c()",
    "}",
    "try { t() } catch { case e: Exception => h() } finally { f() }",
    "for (i <- 1 to 3) loop(i)",
    "while (more()) step()",
    "after()",
  );
  assert.deepEqual(
    stmts.map((s) => `${shape(exprOf(s))}${s.conditional ? " ?" : ""}`),
    [
      "prod",
      "env.enableCheckpointing(60000) ?",
      "env.setParallelism(1) ?",
      "mode",
      "a() ?",
      "b() ?",
      "c() ?",
      "t()",
      "h() ?",
      "f()",
      "1.to(3) ?",
      "loop(i) ?",
      "more()",
      "step() ?",
      "after()",
    ],
  );
});

test("Scala 3 syntax: indentation, if-then-else, top-level definitions, @main", () => {
  const text = [
    "import org.apache.flink.streaming.api.scala.*",
    "",
    'val Topic = "orders"',
    "",
    "@main def ordersJob(args: String*): Unit =",
    "  val env = StreamExecutionEnvironment.getExecutionEnvironment",
    "  if args.nonEmpty then",
    "    env.enableCheckpointing(60000)",
    "  else",
    "    env.setParallelism(2)",
    '  env.execute("orders")',
    "",
  ].join("\n");
  const l = lowered(text);
  assert.deepEqual(l.stmts, []);
  assert.deepEqual(
    l.members.map((m) => m.k),
    ["field", "method"],
  );
  const run = method(l, "ordersJob");
  assert.deepEqual(run.params, [{ name: "args", type: "String" }]);
  assert.deepEqual(
    run.body.map((s) => `${s.k} ${shape(exprOf(s))}${s.conditional ? " ?" : ""}`),
    [
      "local StreamExecutionEnvironment.getExecutionEnvironment()",
      "expr args.nonEmpty",
      "expr env.enableCheckpointing(60000) ?",
      "expr env.setParallelism(2) ?",
      'expr env.execute("orders")',
    ],
  );
});

test("declarations: objects and classes with their members; val is final, var is not; class parameters", () => {
  const text = [
    "object Config {",
    '  val GroupId = "orders"',
    '  lazy val Servers: String = sys.env.getOrElse("KAFKA", "kafka:9092")',
    "  var retries = 3",
    "  private final val Timeout = 10",
    "}",
    "class OrdersJob(env: StreamExecutionEnvironment, var topic: String) {",
    "  def props(group: String)(implicit ec: ExecutionContext): Properties = new Properties()",
    "}",
    "trait Source { def create(): Unit }",
    "case class Event(id: String)",
  ].join("\n");
  const l = lowered(text);
  assert.deepEqual(l.classNames.sort(), ["Config", "Event", "OrdersJob", "Source"]);
  const config = l.members[0] as Member & { k: "class" };
  assert.equal(config.name, "Config");
  assert.deepEqual(
    config.members.map((m) =>
      m.k === "field" ? `${m.declarators[0].name} [${m.modifiers.join(" ")}] ${m.type}` : m.k,
    ),
    ["GroupId [final] ", "Servers [lazy final] String", "retries [] ", "Timeout [private final final] "],
  );
  const job = l.members[1] as Member & { k: "class" };
  assert.deepEqual(
    job.members.map((m) => (m.k === "field" ? `${m.declarators[0].name}: ${m.type} [${m.modifiers}]` : m.k)),
    ["env: StreamExecutionEnvironment [final]", "topic: String []", "method"],
  );
  const props = method(l, "props");
  assert.deepEqual(props.params, [{ name: "group", type: "String" }]);
  assert.equal(props.returnType, "Properties");
  assert.deepEqual(
    props.body.map((s) => `${s.k} ${shape(exprOf(s))}`),
    ["return new Properties()"],
  );
});

test("the last expression of a method that returns a value is returned; Unit methods return nothing", () => {
  const text = [
    "object Kafka {",
    "  def consumerProps(group: String): Properties = {",
    "    val p = new Properties()",
    '    p.setProperty("group.id", group)',
    "    p",
    "  }",
    "  def source = KafkaSource.builder[String]().build()",
    "  def main(args: Array[String]): Unit = {",
    "    run()",
    "  }",
    "  def old(args: Array[String]) {",
    "    run()",
    "  }",
    "}",
  ].join("\n");
  const l = lowered(text);
  assert.deepEqual(
    method(l, "consumerProps").body.map((s) => s.k),
    ["local", "expr", "return"],
  );
  assert.deepEqual(
    method(l, "source").body.map((s) => `${s.k} ${shape(exprOf(s))}`),
    ["return KafkaSource.builder().build()"],
  );
  assert.deepEqual(
    method(l, "main").body.map((s) => s.k),
    ["expr"],
  );
  assert.deepEqual(
    method(l, "old").body.map((s) => s.k),
    ["expr"],
  );
});

test("a parameterless def named without arguments is called, unless a local shadows it", () => {
  const text = [
    "object Job {",
    "  def source: KafkaSource[String] = KafkaSource.builder[String]().build()",
    "  def main(args: Array[String]): Unit = {",
    '    env.fromSource(source, WatermarkStrategy.noWatermarks(), "k")',
    "    val source = 1",
    "    use(source)",
    "    Job.source",
    "  }",
    "}",
  ].join("\n");
  const l = lowered(text);
  assert.deepEqual(
    method(l, "main").body.map((s) => shape(exprOf(s))),
    ['env.fromSource(source(), WatermarkStrategy.noWatermarks(), "k")', "1", "use(source)", "Job.source()"],
  );
  assert.ok(l.called.has("source"));
});

test("a body with statements runs in order: its vals are fields assigned where they stand", () => {
  const text = [
    "object OrdersJob extends App {",
    "  val env = StreamExecutionEnvironment.getExecutionEnvironment",
    "  env.setParallelism(4)",
    '  val GroupId = "orders"',
    "  def helper(): Unit = env.enableCheckpointing(1000)",
    "}",
  ].join("\n");
  const l = lowered(text);
  const job = l.members[0] as Member & { k: "class" };
  assert.deepEqual(
    job.members.map((m) =>
      m.k === "field" ? `field ${m.declarators[0].name} ${m.declarators[0].init ? "=" : "-"}` : m.k,
    ),
    ["field env -", "field GroupId -", "method", "init"],
  );
  const init = job.members.find((m) => m.k === "init");
  assert.deepEqual(init?.k === "init" && init.body.map((s) => shape(exprOf(s))), [
    "env = StreamExecutionEnvironment.getExecutionEnvironment()",
    "env.setParallelism(4)",
    'GroupId = "orders"',
  ]);
  // The assignment statement spans the whole val, so a fix can add a statement after it.
  assert.ok(init?.k === "init");
  if (init?.k === "init")
    assert.equal(src(text, init.body[0]), "val env = StreamExecutionEnvironment.getExecutionEnvironment");
});

test("a script's top-level statements go to stmts", () => {
  const l = lowered(
    [
      "val env = StreamExecutionEnvironment.getExecutionEnvironment",
      "env.enableCheckpointing(10000)",
      "def f() = 1",
    ].join("\n"),
  );
  assert.deepEqual(
    l.stmts.map((s) => shape(exprOf(s))),
    ["env = StreamExecutionEnvironment.getExecutionEnvironment()", "env.enableCheckpointing(10000)"],
  );
  assert.deepEqual(
    l.members.map((m) => m.k),
    ["field", "method"],
  );
});

test("local defs become methods of their class; a block given to a val runs before it", () => {
  const text = [
    "object Job {",
    "  def main(args: Array[String]): Unit = {",
    "    def props(): Properties = {",
    "      val p = new Properties()",
    '      p.put("group.id", "g")',
    "      p",
    "    }",
    "    val config = {",
    "      val m = new java.util.HashMap[String, Object]()",
    '      m.put("enable.auto.commit", "false")',
    "      m",
    "    }",
    "  }",
    "}",
  ].join("\n");
  const l = lowered(text);
  assert.deepEqual(
    allMembers(l.members)
      .filter((m) => m.k === "method")
      .map((m) => (m.k === "method" ? m.name : "")),
    ["props", "main"],
  );
  assert.deepEqual(
    method(l, "main").body.map((s) => `${s.k} ${s.k === "local" ? `${s.name} = ` : ""}${shape(exprOf(s))}`),
    ["local m = new java.util.HashMap()", 'expr m.put("enable.auto.commit", "false")', "local config = m"],
  );
});

test("package bodies, Scala 2 braces and Scala 3 colons, are read like the file", () => {
  const l = lowered(
    [
      "package a {",
      "  object A { def f(): Unit = g() }",
      "}",
      "package b:",
      "  object B:",
      "    def h(): Unit = g()",
    ].join("\n"),
  );
  assert.deepEqual(l.classNames.sort(), ["A", "B"]);
  assert.deepEqual(
    allMembers(l.members)
      .filter((m) => m.k === "method")
      .map((m) => (m.k === "method" ? m.name : "")),
    ["f", "h"],
  );
});
