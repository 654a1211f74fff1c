/** Beam Python SDK requirements in Python dependency files, and ReadFromKafka in Python code. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { kindFromName, readDocument } from "../../server/src/core/documents/index";
import { pinnedVersion } from "../../server/src/core/documents/python/requirements";
import { textAt } from "./helpers";

function requirements(file: string, text: string): [string, string | undefined, string | undefined, string][] {
  return (readDocument(file, text).pythonRequirements ?? []).map((r) => [
    r.specifier,
    r.version,
    r.versionDefinition ? textAt(text, r.versionDefinition.range) : undefined,
    textAt(text, r.declaration.range),
  ]);
}

test("file kinds: dependency files and Python code", () => {
  assert.equal(kindFromName("/p/requirements.txt"), "pythonDeps");
  assert.equal(kindFromName("/p/requirements-dev.txt"), "pythonDeps");
  assert.equal(kindFromName("/p/requirements/prod.txt"), "pythonDeps");
  assert.equal(kindFromName("/p/pyproject.toml"), "pythonDeps");
  assert.equal(kindFromName("/p/setup.py"), "pythonDeps");
  assert.equal(kindFromName("/p/setup.cfg"), "pythonDeps");
  assert.equal(kindFromName("/p/pipeline/orders.py"), "python");
  assert.equal(kindFromName("/p/notes.txt"), "other");
});

test("a specifier counts as one version only when it allows exactly one", () => {
  assert.deepEqual(pinnedVersion("==2.58.0"), { version: "2.58.0", literal: [2, 8] });
  assert.deepEqual(pinnedVersion("===2.58"), { version: "2.58.0", literal: [3, 7] });
  assert.deepEqual(pinnedVersion(">=2.58.0,<2.58.1"), { version: "2.58.0" });
  assert.deepEqual(pinnedVersion("<=2.58.0, >=2.58.0"), { version: "2.58.0" });
  assert.deepEqual(pinnedVersion(">=2.58,<2.59"), {});
  assert.deepEqual(pinnedVersion("~=2.58.0"), {});
  assert.deepEqual(pinnedVersion("==2.58.*"), {});
  assert.deepEqual(pinnedVersion("2.58.0"), {});
  assert.deepEqual(pinnedVersion("2.58.0", true), { version: "2.58.0", literal: [0, 6] });
  assert.deepEqual(pinnedVersion("^2.58.0", true), {});
});

test("requirements.txt: extras, comments, markers, options, URLs and other packages", () => {
  const text = [
    "-r base.txt",
    "--index-url https://pypi.example.com/simple",
    "apache-beam[gcp]==2.58.0  # the job server follows",
    "Apache_Beam === 2.57.0 ; python_version >= '3.9'",
    "apache-beam>=2.58,<2.59",
    "apache-beam @ https://example.com/apache_beam-2.58.0.tar.gz",
    "# apache-beam==2.56.0",
    "requests==2.32.3",
    "",
  ].join("\n");
  assert.deepEqual(requirements("/p/requirements.txt", text), [
    ["==2.58.0", "2.58.0", "2.58.0", "apache-beam[gcp]==2.58.0"],
    ["=== 2.57.0", "2.57.0", "2.57.0", "Apache_Beam === 2.57.0"],
    [">=2.58,<2.59", undefined, undefined, "apache-beam>=2.58,<2.59"],
    ["", undefined, undefined, "apache-beam @ https://example.com/apache_beam-2.58.0.tar.gz"],
  ]);
});

test("pyproject.toml: PEP 621 dependencies and extras, Poetry versions and groups", () => {
  const text = [
    "[project]",
    'dependencies = ["apache-beam[gcp]==2.58.0", "protobuf"]',
    "[project.optional-dependencies]",
    'flink = ["apache-beam>=2.58.0,<2.58.1"]',
    "[tool.poetry.dependencies]",
    'apache-beam = "2.58.0"',
    "[tool.poetry.group.dev.dependencies]",
    'apache-beam = { version = "^2.60.0", extras = ["test"] }',
    "",
  ].join("\n");
  assert.deepEqual(requirements("/p/pyproject.toml", text), [
    ["==2.58.0", "2.58.0", "2.58.0", "apache-beam[gcp]==2.58.0"],
    [">=2.58.0,<2.58.1", "2.58.0", undefined, "apache-beam>=2.58.0,<2.58.1"],
    ["2.58.0", "2.58.0", "2.58.0", "2.58.0"],
    ["^2.60.0", undefined, undefined, "^2.60.0"],
  ]);
});

test("setup.py is read as text, never run; setup.cfg install_requires", () => {
  const setup = [
    "from setuptools import setup",
    "BEAM = 'apache-beam[gcp]==2.58.0'",
    "setup(",
    "    install_requires=[BEAM, 'requests'],",
    "    # 'apache-beam==2.50.0' was the old pin",
    '    extras_require={"test": ["apache_beam[test]==2.58.0"]},',
    ")",
    "",
  ].join("\n");
  assert.deepEqual(
    requirements("/p/setup.py", setup).map((r) => r.slice(0, 3)),
    [
      ["==2.58.0", "2.58.0", "2.58.0"],
      ["==2.58.0", "2.58.0", "2.58.0"],
    ],
  );
  const cfg =
    "[options]\ninstall_requires =\n    apache-beam==2.58.0\n    requests\n[options.extras_require]\ngcp = apache-beam[gcp]==2.58.0\n";
  assert.deepEqual(
    requirements("/p/setup.cfg", cfg).map((r) => r.slice(0, 3)),
    [
      ["==2.58.0", "2.58.0", "2.58.0"],
      ["==2.58.0", "2.58.0", "2.58.0"],
    ],
  );
});

test("ReadFromKafka calls in Python code, not in comments, strings or other names", () => {
  const text = [
    "from apache_beam.io.kafka import ReadFromKafka",
    "# ReadFromKafka(consumer_config=...) is used below",
    'DOC = "call ReadFromKafka(...) to read"',
    'TRIPLE = """',
    "ReadFromKafka(",
    '"""',
    "records = p | ReadFromKafka(consumer_config=config, topics=['orders'])",
    "other = p | kafka.ReadFromKafka (consumer_config=config, topics=['x'])",
    "mine = MyReadFromKafka(config)",
    "",
  ].join("\n");
  const reads = readDocument("/p/orders.py", text).pythonKafkaReads ?? [];
  assert.deepEqual(
    reads.map((r) => [r.range.start.line, r.range.start.character, textAt(text, r.range)]),
    [
      [6, 14, "ReadFromKafka"],
      [7, 18, "ReadFromKafka"],
    ],
  );
  assert.equal(readDocument("/p/other.py", "import os\n").pythonKafkaReads, undefined);
});
