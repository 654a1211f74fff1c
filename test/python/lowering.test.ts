/** The Python lowering: each construct as the shared job-code syntax tree shows it. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { body, expression, lines, lowered, script, show, showMember, slice } from "./helpers";

test("calls: snake_case names are camelCase, ranges point at the name as written, arguments split into args and kwargs", () => {
  const text = 'env.get_checkpoint_config().set_checkpoint_interval(30_000, mode="x")\n';
  const e = expression(text);
  assert.equal(show(e), 'env.getCheckpointConfig().setCheckpointInterval(30_000; mode="x")');
  assert.equal(e.k, "call");
  if (e.k !== "call") return;
  assert.equal(slice(text, { start: e.nameStart, end: e.nameEnd }), "set_checkpoint_interval");
  assert.equal(slice(text, e), text.trimEnd());
  assert.equal(text[e.dot ?? -1], ".");
  assert.equal(text.slice(0, e.argsEnd), 'env.get_checkpoint_config().set_checkpoint_interval(30_000, mode="x"');
  const kw = e.kwargs?.[0];
  assert.equal(kw && slice(text, kw), 'mode="x"');
  assert.equal(kw && text.slice(kw.nameStart, kw.nameStart + 4), "mode");
});

test("argsEnd: after the last argument (a trailing comma left out), or just after ( when there is none", () => {
  const text = lines("f(", "    a,", "    b=1,", ")", "g()", "h(*xs, **kw)");
  const [f, g, h] = lowered(text).stmts.map((s) => (s.k === "expr" ? s.expr : undefined));
  assert.equal(f?.k === "call" && text.slice(0, f.argsEnd).endsWith("b=1"), true);
  assert.equal(g?.k === "call" && text.slice(0, g.argsEnd).endsWith("g("), true);
  assert.equal(h && show(h), "h(other(xs); **=kw)");
});

test("capitalised names called without a receiver, or on a module path, are constructors", () => {
  assert.equal(
    show(expression('FlinkKafkaConsumer(topics="t", deserialization_schema=schema, properties=props)')),
    'new FlinkKafkaConsumer(; topics="t", deserialization_schema=schema, properties=props)',
  );
  assert.equal(
    show(expression("beam.io.kafka.ReadFromKafka(consumer_config=c, topics=[t])")),
    "new beam.io.kafka.ReadFromKafka(; consumer_config=c, topics=[t])",
  );
  assert.equal(show(expression("kafka.ReadFromKafka(c, [t])")), "new kafka.ReadFromKafka(c, [t])");
  assert.equal(show(expression("Configuration()")), "new Configuration()");
  // Static methods of a class, upper-case constants and lower-case functions are calls.
  assert.equal(show(expression("KafkaSource.builder()")), "KafkaSource.builder()");
  assert.equal(show(expression("Types.STRING()")), "Types.STRING()");
  assert.equal(show(expression("Duration.of_seconds(30)")), "Duration.ofSeconds(30)");
  assert.equal(show(expression("make_source(env)")), "makeSource(env)");
  const text = "beam.io.kafka.ReadFromKafka(consumer_config=c)\n";
  const e = expression(text);
  assert.equal(e.k === "new" && slice(text, { start: e.typeStart, end: e.typeEnd }), "ReadFromKafka");
});

test("a class imported under another name is read under its own name; the range is the alias as written", () => {
  const text = lines(
    "from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer as Consumer, KafkaSource as Src",
    "from pyflink.datastream import StreamExecutionEnvironment as SEE",
    'c = Consumer("t", schema, props)',
    "env = SEE.get_execution_environment()",
    "b = Src.builder()",
  );
  assert.deepEqual(script(text), [
    'local c = new FlinkKafkaConsumer("t", schema, props)',
    "local env = StreamExecutionEnvironment.getExecutionEnvironment()",
    "local b = KafkaSource.builder()",
  ]);
});

test("attributes are fields, camelCase when lower snake_case; UPPER_CASE constants and variables stay as written", () => {
  assert.equal(show(expression("known_args.input_topic")), "known_args.inputTopic");
  assert.equal(show(expression("DeliveryGuarantee.EXACTLY_ONCE")), "DeliveryGuarantee.EXACTLY_ONCE");
  assert.equal(show(expression("my_env")), "my_env");
});

test("Beam's | and >> are binary expressions whose operands are still lowered", () => {
  const e = expression('p | "Read" >> ReadFromKafka(consumer_config=conf, topics=["t"]) | beam.Map(print)');
  assert.equal(
    show(e),
    '((p | ("Read" >> new ReadFromKafka(; consumer_config=conf, topics=["t"]))) | new beam.Map(print))',
  );
});

test("operators: and/or/not as &&/||/!, chained comparisons, conditional expressions, unary minus", () => {
  assert.equal(show(expression("a and not b or c")), "((a && !b) || c)");
  assert.equal(show(expression("0 < x <= 10")), "((0 < x) <= 10)");
  assert.equal(show(expression("x not in y")), "(x not in y)");
  assert.equal(show(expression("60000 if prod else -1")), "(prod ? 60000 : -1)");
  assert.equal(show(expression("60 * 1000 // 2")), "((60 * 1000) // 2)");
});

test("literals carry their decoded value: escapes, raw and byte strings, adjacent strings, f-strings, numbers", () => {
  const value = (source: string) => {
    const e = expression(source);
    return e.k === "literal" ? e.value : e;
  };
  assert.deepEqual(value(String.raw`"a\tb\x41\u00e9\101\\"`), { kind: "string", value: "a\tbAéA\\" });
  assert.deepEqual(value(String.raw`'it\'s'`), { kind: "string", value: "it's" });
  assert.deepEqual(value(String.raw`r"\d+\n"`), { kind: "string", value: String.raw`\d+\n` });
  assert.deepEqual(value(String.raw`"\d"`), { kind: "string", value: String.raw`\d` });
  assert.deepEqual(value('"""line one\nline two"""'), { kind: "string", value: "line one\nline two" });
  assert.deepEqual(value("\"first\" 'second'"), { kind: "string", value: "firstsecond" });
  assert.deepEqual(value('f"{{literal}} braces"'), { kind: "string", value: "{literal} braces" });
  assert.deepEqual(value('f"group-{env_name}"'), { kind: "unknown" });
  assert.deepEqual(value('"a" f"{b}"'), { kind: "unknown" });
  assert.deepEqual(value('b"bytes"'), { kind: "unknown" });
  assert.deepEqual(value(String.raw`"\N{BULLET}"`), { kind: "unknown" });
  assert.deepEqual(value("60_000"), { kind: "number", value: 60000 });
  assert.deepEqual(value("0x1F"), { kind: "number", value: 31 });
  assert.deepEqual(value("0o17"), { kind: "number", value: 15 });
  assert.deepEqual(value("0b101"), { kind: "number", value: 5 });
  assert.deepEqual(value("1.5e3"), { kind: "number", value: 1500 });
  assert.deepEqual(value("2j"), { kind: "unknown" });
  assert.deepEqual(value("True"), { kind: "bool", value: true });
  assert.deepEqual(value("False"), { kind: "bool", value: false });
  const none = expression("None");
  assert.equal(none.k === "literal" && none.type, "null");
  const t = expression("True");
  assert.equal(t.k === "literal" && `${t.type} ${t.image}`, "bool True");
});

test("a backslash at the end of a line continues the string; line continuations between tokens are whitespace", () => {
  const text = 'def f():\n    x = "kafka:\\\n9092"\n    y = env \\\n        .enable_checkpointing(5)\n';
  const m = lowered(text).members[0];
  const [x, y] = m.k === "method" ? m.body : [];
  assert.deepEqual(x.k === "local" && x.init?.k === "literal" && x.init.value, { kind: "string", value: "kafka:9092" });
  assert.equal(y.k === "local" && y.init && show(y.init), "env.enableCheckpointing(5)");
});

test("dict literals are mapLit with colon form, where new entries go, and ** entries", () => {
  const text = '{"bootstrap.servers": servers, \'group.id\': "g", **extra}\n';
  const e = expression(text);
  assert.equal(show(e), '{"bootstrap.servers": servers, \'group.id\': "g", **extra: extra}');
  assert.equal(e.k, "mapLit");
  if (e.k !== "mapLit") return;
  assert.equal(e.form, "colon");
  assert.equal(text.slice(0, e.openEnd), "{");
  assert.equal(text.slice(e.closeStart, e.closeStart + 1), "}");
  assert.equal(slice(text, e.entries[1]), "'group.id': \"g\"");
  assert.equal(slice(text, e.entries[2]), "**extra");
});

test("lists, tuples and sets are arrays", () => {
  assert.equal(show(expression('["a", "b"]')), '["a", "b"]');
  assert.equal(show(expression('("a",)')), '["a"]');
  assert.equal(show(expression('{"a", "b"}')), '["a", "b"]');
});

test("lambdas and comprehensions: the element runs per item, inside a lambda; the first iterable always runs", () => {
  assert.equal(show(expression("lambda line, sep=' ': line.split(sep)")), "(line, sep) => line.split(sep)");
  assert.equal(
    show(expression("[ReadFromKafka(consumer_config=c, topics=[t]) for t in topics if t]")),
    "other(topics, (t) => other(t, new ReadFromKafka(; consumer_config=c, topics=[t])))",
  );
  assert.equal(show(expression("{k: v for k, v in items()}")), "other(items(), (k, v) => other(k, v))");
});

test("subscripts, await and starred expressions keep the expressions inside them", () => {
  assert.equal(show(expression('conf["group.id"]')), 'other(conf, "group.id")');
  assert.equal(show(expression("await env.execute_async()")), "other(env.executeAsync())");
});

test("assignments: the first binding of a name is a local, later ones assign; x += v is x = x + v", () => {
  assert.deepEqual(
    body(lines("interval = 60", "interval *= 1000", "interval = interval", "a = b = 3", "n: int = 4", "m: int")),
    [
      "local interval = 60",
      "interval = (interval * 1000)",
      "interval = interval",
      "local a = 3",
      "local b = a",
      "local n: int = 4",
    ],
  );
});

test("unpacking: pairwise when the values are written out, unknown when they come from a call", () => {
  assert.deepEqual(
    script(
      lines(
        "servers, topic = 'kafka:9092', 'orders'",
        "known_args, pipeline_args = parser.parse_known_args(argv)",
        "a, b = b, a",
      ),
    ),
    [
      "local servers = 'kafka:9092'",
      "local topic = 'orders'",
      "parser.parseKnownArgs(argv)",
      "local known_args",
      "local pipeline_args",
      "[b, a]",
      "local a",
      "local b",
    ],
  );
});

test("attribute and item assignments stay assignments: options.view_as(X).streaming = True, conf[k] = v", () => {
  assert.deepEqual(
    script(
      lines(
        "options.view_as(StandardOptions).streaming = True",
        'conf["group.id"] = "g"',
        "self_made.max_parallelism = 8",
      ),
    ),
    [
      "options.viewAs(StandardOptions).streaming = True",
      'other(conf, "group.id") = "g"',
      "self_made.maxParallelism = 8",
    ],
  );
});

test("with X as y is a local followed by the body; several items in order", () => {
  assert.deepEqual(
    script(
      lines(
        "with beam.Pipeline(options=options) as p, open(path) as f:",
        '    p | "Read" >> ReadFromKafka(c, t)',
        "with lock:",
        "    pass",
      ),
    ),
    [
      "local p = new beam.Pipeline(; options=options)",
      "local f = open(path)",
      '(p | ("Read" >> new ReadFromKafka(c, t)))',
      "lock",
    ],
  );
});

test("if __name__ == '__main__' runs on the main path; other branches, loops and handlers are conditional", () => {
  assert.deepEqual(
    script(
      lines(
        "if __name__ == '__main__':",
        "    run()",
        "else:",
        "    other()",
        "if prod:",
        "    env.enable_checkpointing(60000)",
        "elif stage:",
        "    env.enable_checkpointing(1000)",
        "else:",
        "    pass",
        "for t in topics:",
        "    env.add_source(t)",
        "else:",
        "    done()",
        "while poll():",
        "    step()",
        "try:",
        "    env.execute()",
        "except Exception as e:",
        "    log(e)",
        "else:",
        "    ok()",
        "finally:",
        "    close()",
        "match mode:",
        "    case 'a' if ready:",
        "        a()",
      ),
    ),
    [
      "run()",
      "? other()",
      "prod",
      "? env.enableCheckpointing(60000)",
      "? stage",
      "? env.enableCheckpointing(1000)",
      "topics",
      "? local t",
      "? env.addSource(t)",
      "? done()",
      "poll()",
      "? step()",
      "env.execute()",
      "? local e",
      "? log(e)",
      "? ok()",
      "close()",
      "mode",
      "? ready",
      "? a()",
    ],
  );
});

test("the main guard is conditional when it is not at module level", () => {
  const m = lowered(lines("def f():", "    if __name__ == '__main__':", "        run()")).members[0];
  assert.equal(
    showMember(m),
    "def f() { __name__ == '__main__'; ? run() }".replace("__name__ == '__main__'", "(__name__ == '__main__')"),
  );
});

test("functions are methods with their parameters; *args and **kwargs left out; decorators do not matter", () => {
  const { members, called } = lowered(
    lines(
      "@click.command()",
      "def run_pipeline(argv: list[str] = None, *args, streaming=True, **kwargs) -> None:",
      "    options = PipelineOptions(argv)",
      "async def consume(topic): pass",
      "if __name__ == '__main__':",
      "    run_pipeline()",
    ),
  );
  assert.deepEqual(members.map(showMember), [
    "def runPipeline(argv: list[str], streaming) -> None { local options = new PipelineOptions(argv) }",
    "def consume(topic) {  }",
  ]);
  assert.ok(called.has("runPipeline"));
});

test("module constants are final fields; names bound again, or declared global, are not final; calls are statements", () => {
  const { members, stmts } = lowered(
    lines(
      'BOOTSTRAP = "kafka:9092"',
      'CONSUMER_CONFIG = {"bootstrap.servers": BOOTSTRAP, "group.id": "orders"}',
      'topics = ["orders"]',
      "interval = 60 * 1000",
      "interval = 30 * 1000",
      "mode = None",
      "env = StreamExecutionEnvironment.get_execution_environment()",
      "def f():",
      "    global mode",
      "    mode = 'x'",
    ),
  );
  assert.deepEqual(members.map(showMember), [
    'final field BOOTSTRAP = "kafka:9092"',
    'final field CONSUMER_CONFIG = {"bootstrap.servers": BOOTSTRAP, "group.id": "orders"}',
    'final field topics = ["orders"]',
    "field interval = (60 * 1000)",
    "field interval = (30 * 1000)",
    "field mode = None",
    "def f() { mode = 'x' }",
  ]);
  assert.deepEqual(script(lines("env = StreamExecutionEnvironment.get_execution_environment()")), [
    "local env = StreamExecutionEnvironment.getExecutionEnvironment()",
  ]);
  assert.equal(stmts.length, 1);
});

test("a script assigning a module constant again assigns the field", () => {
  assert.deepEqual(script(lines("TOPIC = 'a'", "if override:", "    TOPIC = args.topic")), [
    "override",
    "? TOPIC = args.topic",
  ]);
});

test("classes: self is this, __init__ is <init>, attributes are fields, other statements an init member", () => {
  const { members, classNames, called } = lowered(
    lines(
      "class ClickJob(Base):",
      '    """Counts clicks."""',
      '    GROUP = "clicks"',
      "    retries = 3",
      "    retries = 4",
      "    register(GROUP)",
      "    def __init__(self, parallelism):",
      "        self.env = StreamExecutionEnvironment.get_execution_environment()",
      "        self.env.set_parallelism(parallelism)",
      "    def build_source(self):",
      "        return KafkaSource.builder().set_group_id(self.GROUP).build()",
      "    def run(self):",
      "        self.env.from_source(self.build_source(), WatermarkStrategy.no_watermarks(), 'k')",
      "    @staticmethod",
      "    def helper(x):",
      "        return x",
      "    @classmethod",
      "    def create(cls):",
      "        return cls(ClickJob.helper(1))",
      "    class Inner:",
      "        pass",
    ),
  );
  assert.deepEqual(classNames, ["ClickJob", "Inner"]);
  assert.deepEqual(members.map(showMember), [
    [
      "class ClickJob {",
      'final field GROUP = "clicks";',
      "field retries = 3;",
      "field retries = 4;",
      "def <init>(parallelism) { this.env = StreamExecutionEnvironment.getExecutionEnvironment(); this.env.setParallelism(parallelism) };",
      "def buildSource() { return KafkaSource.builder().setGroupId(this.GROUP).build() };",
      "def run() { this.env.fromSource(this.buildSource(), WatermarkStrategy.noWatermarks(), 'k') };",
      "def helper(x) { return x };",
      "def create() { return other(this, ClickJob.helper(1)) };",
      "class Inner {  };",
      "init { register(GROUP) } }",
    ].join(" "),
  ]);
  assert.ok(called.has("buildSource"));
  assert.ok(called.has("helper"));
});

test("functions and classes defined inside a function are conditional class statements", () => {
  const m = lowered(lines("def main():", "    def key_of(x):", "        return x.key", "    stream.key_by(key_of)"))
    .members[0];
  assert.equal(showMember(m), "def main() { ? class { def keyOf(x) { return x.key } }; stream.keyBy(key_of) }");
});

test("a docstring or a string standing alone is no statement (it is not a flag either)", () => {
  assert.deepEqual(script(lines('"""Usage: python job.py --runner=FlinkRunner"""', "'--streaming'", "run()")), [
    "run()",
  ]);
});

test("raise, assert and return keep their expressions; imports, pass, del and global add nothing", () => {
  const m = lowered(
    lines(
      "def f(x):",
      "    import os",
      "    assert x, 'm'",
      "    del x",
      "    if x:",
      "        raise ValueError(x)",
      "    return x, 1",
    ),
  ).members[0];
  assert.equal(showMember(m), "def f(x) { x; 'm'; x; ? new ValueError(x); return [x, 1] }");
});
