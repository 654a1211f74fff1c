/** config.yaml (standard YAML, Flink 1.19+) and flink-conf.yaml read from files on disk. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { kindFromName, looksLikeFlinkConfig, readDocument } from "../../server/src/core/documents/index";
import { entry, insertAndReread, scalars, span, textAt } from "./helpers";

const FILE = "/p/conf/config.yaml";

function read(text: string) {
  const facts = readDocument(FILE, text);
  assert.equal(facts.kind, "flinkConfig");
  assert.equal(facts.flinkConfigs.length, 1);
  return { facts, config: facts.flinkConfigs[0] };
}

test("flat keys: values are the source text, comments and quotes are not part of them", () => {
  const text = [
    "taskmanager.numberOfTaskSlots: 2",
    "state.checkpoints.dir: hdfs://h:9000/x # where checkpoints go",
    "s3.secret-key: abc#def",
    "env.java.opts.all: '-Dfoo=bar: baz'",
    "web.tmpdir: 0755",
    'pipeline.name: "job \\"one\\""',
    "",
  ].join("\n");
  const { facts, config } = read(text);
  assert.deepEqual(facts.syntaxErrors, []);
  assert.equal(config.dialect, "yaml");
  assert.equal(config.logicalName, "config.yaml");
  assert.deepEqual(scalars(config), [
    ["taskmanager.numberOfTaskSlots", "2"],
    ["state.checkpoints.dir", "hdfs://h:9000/x"],
    ["s3.secret-key", "abc#def"],
    ["env.java.opts.all", "-Dfoo=bar: baz"],
    ["web.tmpdir", "0755"],
    ["pipeline.name", 'job "one"'],
  ]);
  const dir = entry(config, "state.checkpoints.dir");
  assert.equal(span(dir.keyRange), "1:0-1:21");
  assert.equal(span(dir.valueRange), "1:23-1:38");
  assert.equal(span(dir.deleteRange), "1:0-2:0");
  const pw = entry(config, "s3.secret-key");
  assert.equal(textAt(text, pw.valueRange), "abc#def");
  const opts = entry(config, "env.java.opts.all");
  assert.equal(textAt(text, opts.valueRange), "'-Dfoo=bar: baz'");
  assert.equal(
    config.entries.every((e) => !e.nested && !e.templated),
    true,
  );
});

test("`key: a: b` is a YAML error at the value that YAML takes for a nested key; the rest is still read", () => {
  const text = "taskmanager.numberOfTaskSlots: 2\nenv.java.opts.all: -Dfoo=bar: baz\nparallelism.default: 4\n";
  const { facts, config } = read(text);
  assert.equal(facts.syntaxErrors.length, 1);
  const [error] = facts.syntaxErrors;
  assert.equal(span(error.range), "1:19-1:20");
  assert.equal(error.severity, undefined);
  assert.equal(error.message, "Flink cannot load this config.yaml and the cluster does not start.");
  assert.match(error.details ?? "", /^The YAML parser says: Nested mappings/);
  assert.equal(entry(config, "taskmanager.numberOfTaskSlots").value, "2");
});

test("tab indentation is an error; keys after it are still read", () => {
  const text = "execution:\n\tcheckpointing.interval: 10 s\nparallelism.default: 2\n";
  const { facts, config } = read(text);
  assert.equal(facts.syntaxErrors.length, 1);
  assert.equal(span(facts.syntaxErrors[0].range), "1:0-1:1");
  assert.match(facts.syntaxErrors[0].details ?? "", /Tabs are not allowed as indentation/);
  assert.equal(entry(config, "parallelism.default").value, "2");
});

test("nested and flat keys are flattened with `.`; parents are entries of kind mapping", () => {
  const text = [
    "jobmanager:",
    "  rpc:",
    "    address: localhost",
    "    port: 6123",
    "execution.checkpointing:",
    "  interval: 30 s",
    "state.backend.type: rocksdb",
    "high-availability: {type: kubernetes, storageDir: 's3://b/ha'}",
    "pipeline.classpaths: [a.jar, b.jar]",
    "restart-strategy.type:",
    "",
  ].join("\n");
  const { facts, config } = read(text);
  assert.deepEqual(facts.syntaxErrors, []);
  assert.deepEqual(
    config.entries.map((e) => [e.key, e.valueKind, e.nested]),
    [
      ["jobmanager", "mapping", false],
      ["jobmanager.rpc", "mapping", true],
      ["jobmanager.rpc.address", "scalar", true],
      ["jobmanager.rpc.port", "scalar", true],
      ["execution.checkpointing", "mapping", false],
      ["execution.checkpointing.interval", "scalar", true],
      ["state.backend.type", "scalar", false],
      ["high-availability", "mapping", false],
      ["high-availability.type", "scalar", true],
      ["high-availability.storageDir", "scalar", true],
      ["pipeline.classpaths", "sequence", false],
      ["restart-strategy.type", "null", false],
    ],
  );
  const port = entry(config, "jobmanager.rpc.port");
  assert.equal(span(port.keyRange), "3:4-3:8");
  assert.equal(span(port.valueRange), "3:10-3:14");
  assert.equal(span(port.deleteRange), "3:0-4:0");
  // The only child goes with its parent: `execution.checkpointing:` alone would be a key set to null.
  assert.equal(span(entry(config, "execution.checkpointing.interval").deleteRange), "4:0-6:0");
  const ha = entry(config, "high-availability.storageDir");
  assert.equal(ha.value, "s3://b/ha");
  assert.equal(span(ha.keyRange), "7:38-7:48");
  assert.equal(textAt(text, ha.deleteRange), ", storageDir: 's3://b/ha'");
  assert.equal(textAt(text, entry(config, "high-availability.type").deleteRange), "type: kubernetes, ");
  assert.equal(entry(config, "pipeline.classpaths").value, "[a.jar, b.jar]");
  const nullValue = entry(config, "restart-strategy.type");
  assert.equal(nullValue.value, "");
  assert.equal(span(nullValue.valueRange), "9:22-9:22");
});

test("duplicate keys are kept, also the same key written flat and nested", () => {
  const text = "parallelism.default: 1\nparallelism:\n  default: 2\nparallelism.default: 3\n";
  const { facts, config } = read(text);
  assert.deepEqual(facts.syntaxErrors, []);
  const all = config.entries.filter((e) => e.key === "parallelism.default");
  assert.deepEqual(
    all.map((e) => [e.value, e.nested, span(e.keyRange)]),
    [
      ["1", false, "0:0-0:19"],
      ["2", true, "2:2-2:9"],
      ["3", false, "3:0-3:19"],
    ],
  );
});

test("CRLF line breaks: ranges stay on their lines, inserted lines use CRLF", () => {
  const text = "execution:\r\n  checkpointing:\r\n    mode: EXACTLY_ONCE\r\nparallelism.default: 2\r\n";
  const { config } = read(text);
  const mode = entry(config, "execution.checkpointing.mode");
  assert.equal(span(mode.valueRange), "2:10-2:22");
  assert.equal(span(mode.deleteRange), "0:0-3:0");
  const after = insertAndReread(FILE, text, FILE, "execution.checkpointing.interval", "1 min");
  assert.equal(
    after.text,
    "execution:\r\n  checkpointing:\r\n    mode: EXACTLY_ONCE\r\n    interval: 1 min\r\nparallelism.default: 2\r\n",
  );
  assert.equal(entry(after.config, "execution.checkpointing.interval").value, "1 min");
});

test("insertEntry: into the deepest existing parent, in its indentation", () => {
  const text = "taskmanager.numberOfTaskSlots: 2\nexecution:\n    checkpointing:\n        mode: EXACTLY_ONCE\n# end\n";
  const after = insertAndReread(FILE, text, FILE, "execution.checkpointing.interval", "1 min");
  assert.equal(
    after.text,
    "taskmanager.numberOfTaskSlots: 2\nexecution:\n    checkpointing:\n        mode: EXACTLY_ONCE\n        interval: 1 min\n# end\n",
  );
  const added = entry(after.config, "execution.checkpointing.interval");
  assert.equal(added.value, "1 min");
  assert.equal(added.nested, true);
});

test("insertEntry: a mostly flat file gets a flat line at its end", () => {
  const text = "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 2";
  const after = insertAndReread(FILE, text, FILE, "execution.checkpointing.interval", "1 min");
  assert.equal(
    after.text,
    "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 2\nexecution.checkpointing.interval: 1 min",
  );
  assert.equal(entry(after.config, "execution.checkpointing.interval").nested, false);
});

test("insertEntry: a mostly nested file gets a nested block in its indentation step", () => {
  const text = "jobmanager:\n    rpc:\n        address: jm\ntaskmanager:\n    numberOfTaskSlots: 2\n";
  const after = insertAndReread(FILE, text, FILE, "execution.checkpointing.interval", "1 min");
  assert.equal(after.text, `${text}execution:\n    checkpointing:\n        interval: 1 min\n`);
  assert.equal(entry(after.config, "execution.checkpointing.interval").value, "1 min");
});

test("insertEntry: a nested key next to a scalar of the same name is written flat", () => {
  const text = "state:\n  backend: rocksdb\n  checkpoints:\n    dir: s3://b/c\n  savepoints:\n    dir: s3://b/s\n";
  const after = insertAndReread(FILE, text, FILE, "state.backend.incremental", "true");
  assert.equal(after.text, `${text}  backend.incremental: true\n`);
  assert.equal(entry(after.config, "state.backend.incremental").value, "true");
});

test("insertEntry: values YAML would not keep as written are quoted", () => {
  const text = "taskmanager.numberOfTaskSlots: 2\n";
  const after = insertAndReread(FILE, text, FILE, "env.java.opts.all", "-Da=b: c #x");
  assert.equal(after.text, 'taskmanager.numberOfTaskSlots: 2\nenv.java.opts.all: "-Da=b: c #x"\n');
  assert.equal(entry(after.config, "env.java.opts.all").value, "-Da=b: c #x");
});

test("an empty config.yaml takes its first line", () => {
  const text = "# Flink configuration\n";
  const { config } = read("jobmanager.rpc.address: jm\n");
  assert.equal(config.entries.length, 1);
  const facts = readDocument("/p/conf/config.yaml", text);
  // Not recognisable as Flink's from its content alone; a project config can still name it (forced).
  assert.equal(facts.kind, "other");
  const forced = readDocument("/p/conf/config.yaml", text, { forcedFlinkConfig: true });
  const edit = forced.flinkConfigs[0].insertEntry("parallelism.default", "2");
  assert.ok(edit);
  assert.equal(span(edit.range), "1:0-1:0");
  assert.equal(edit.newText, "parallelism.default: 2\n");
});

test("more than one YAML document is an error; a scalar document is not a configuration", () => {
  const two = read("parallelism.default: 2\n---\njobmanager.rpc.address: jm\n");
  assert.equal(two.facts.syntaxErrors.length, 1);
  assert.equal(span(two.facts.syntaxErrors[0].range), "1:0-1:3");
  const scalar = readDocument(FILE, "just some text\n", { forcedFlinkConfig: true });
  assert.equal(scalar.syntaxErrors.length, 1);
  assert.equal(span(scalar.syntaxErrors[0].range), "0:0-0:14");
});

test("looksLikeFlinkConfig tells Flink's config.yaml from other tools'", () => {
  assert.equal(looksLikeFlinkConfig("jobmanager:\n  rpc:\n    address: jm\n"), true);
  assert.equal(looksLikeFlinkConfig("parallelism.default: 2\nmy.custom: x\n"), true);
  assert.equal(looksLikeFlinkConfig("state:\n  backend: rocksdb\nexecution:\n  mode: x\n"), true);
  assert.equal(looksLikeFlinkConfig("state:\n  enabled: true\nexecution:\n  mode: x\n"), false);
  assert.equal(looksLikeFlinkConfig("parallelism: 4\nmodel: resnet\nepochs: 3\n"), false);
  assert.equal(looksLikeFlinkConfig("metrics:\n  enabled: true\nserver:\n  port: 80\n"), false);
  assert.equal(looksLikeFlinkConfig("apiVersion: v1\nkind: ConfigMap\ntaskmanager.numberOfTaskSlots: 2\n"), false);
  assert.equal(looksLikeFlinkConfig("taskmanager.numberOfTaskSlots: 2\nfoo: 1\nbar: 2\nbaz: 3\n"), false);
  const other = readDocument("/repo/.github/config.yaml", "name: ci\non: push\njobs:\n  b: [\n");
  assert.equal(other.kind, "other");
  assert.deepEqual([other.syntaxErrors, other.flinkConfigs], [[], []]);
});

test("legacy flink-conf.yaml: nested YAML is a warning on the first line Flink reads as a short key", () => {
  const text = "execution:\n  checkpointing:\n    interval: 10 s\n    mode: EXACTLY_ONCE\nparallelism.default: 2\n";
  const facts = readDocument("/p/conf/flink-conf.yaml", text);
  assert.equal(facts.flinkConfigs[0].dialect, "legacy");
  assert.deepEqual(
    facts.syntaxErrors.map((e) => [span(e.range), e.severity]),
    [["2:4-2:12", "warning"]],
  );
  assert.match(facts.syntaxErrors[0].message, /as the key `interval`, not `execution\.checkpointing\.interval`/);
  const flat = readDocument("/p/conf/flink-conf.yaml", "env.java.opts.all: -Da=b: c\n  # indented comment\n");
  assert.deepEqual(flat.syntaxErrors, []);
});

test("flink-conf.yaml kept for one environment is read as one, marked as a variant", () => {
  for (const name of [
    "flink-conf-prod.yaml",
    "flink-conf.local.yml",
    "flink-conf_staging.yaml",
    "prod-flink-conf.yaml",
  ]) {
    assert.equal(kindFromName(`/p/conf/${name}`), "flinkConfig", name);
    const [config] = readDocument(`/p/conf/${name}`, "parallelism.default: 2\n").flinkConfigs;
    assert.equal(config.variant, true, name);
    assert.equal(config.logicalName, "flink-conf.yaml", name);
  }
  assert.equal(readDocument("/p/conf/flink-conf.yaml", "parallelism.default: 2\n").flinkConfigs[0].variant, undefined);
  // Backups, templates of other tools and look-alike names are not Flink's configuration.
  for (const name of [
    "flink-conf.yaml.bak",
    "flink-conf.yaml.j2",
    "flink-config.yaml",
    "myflink-conf.yaml",
    "flink-conf-.yaml",
  ])
    assert.notEqual(kindFromName(`/p/conf/${name}`), "flinkConfig", name);
});
