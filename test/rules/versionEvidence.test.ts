/**
 * How sure the Flink version of a configuration is (configVersion), and what it does to the fixes that
 * depend on the version: BFL103's renames are safe only when the configuration's version is pinned.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { EngineOptions } from "../../server/src/core/config";
import { configVersion } from "../../server/src/core/project/clusters";
import { minorsOf } from "../../server/src/core/project/versions";
import { Workspace } from "../../server/src/core/workspace/workspace";

const ROOT = "/p";

function project(files: Record<string, string>, options: EngineOptions = {}) {
  const ws = new Workspace({ ...options, roots: [ROOT] });
  for (const [name, text] of Object.entries(files)) ws.setFile(`${ROOT}/${name}`, text);
  return { ws, model: ws.project(ROOT, options) };
}

const CONF = "state.checkpoints.dir: s3://bucket/checkpoints\n";

function deployment(version: string, image?: string, extra = ""): string {
  return [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: orders",
    "spec:",
    `  flinkVersion: ${version}`,
    ...(image ? [`  image: ${image}`] : []),
    "  flinkConfiguration:",
    "    state.checkpoints.dir: s3://bucket/checkpoints",
    extra,
  ].join("\n");
}

function evidenceOf(files: Record<string, string>, options: EngineOptions = {}, file = "flink-conf.yaml") {
  const { model } = project(files, options);
  const config = model.flinkConfigs.find((c) => c.file === `${ROOT}/${file}`);
  assert.ok(config, file);
  const e = configVersion(model, config);
  return { strength: e.strength, minor: e.minor, minors: minorsOf(e), sources: e.evidence.map((x) => x.source) };
}

test("pinned: the project configuration's flinkVersion, or the configuration's own FlinkDeployment", () => {
  assert.deepEqual(
    evidenceOf({
      "flink-conf.yaml": CONF,
      ".beam-flink-lint.yaml": 'flinkVersion: "1.20"\n',
      Dockerfile: "FROM flink:1.18\n",
    }),
    { strength: "pinned", minor: "1.20", minors: ["1.20"], sources: ["projectConfig"] },
  );
  assert.deepEqual(evidenceOf({ "k8s/fd.yaml": deployment("v1_20", "flink:1.20.1") }, {}, "k8s/fd.yaml"), {
    strength: "pinned",
    minor: "1.20",
    minors: ["1.20"],
    sources: ["flinkDeployment", "image"],
  });
});

test("conflicting: a FlinkDeployment whose flinkVersion and image disagree, or files that name different minors", () => {
  assert.deepEqual(evidenceOf({ "k8s/fd.yaml": deployment("v1_20", "flink:1.18.1") }, {}, "k8s/fd.yaml"), {
    strength: "conflicting",
    minor: "1.20",
    minors: ["1.18", "1.20"],
    sources: ["flinkDeployment", "image"],
  });
  const e = evidenceOf({
    "flink-conf.yaml": CONF,
    Dockerfile: "FROM flink:1.20\n",
    "docker/Dockerfile": "FROM flink:1.18\n",
  });
  assert.equal(e.strength, "conflicting");
  assert.deepEqual(e.minors, ["1.18", "1.20"]);
});

test("weak: a version inferred from another file, or only the editor setting / --flink-version; unknown: nothing", () => {
  assert.deepEqual(evidenceOf({ "flink-conf.yaml": CONF, Dockerfile: "FROM flink:1.20.0\n" }), {
    strength: "weak",
    minor: "1.20",
    minors: ["1.20"],
    sources: ["image"],
  });
  assert.deepEqual(evidenceOf({ "flink-conf.yaml": CONF }, { assumedFlinkVersion: "1.20" }), {
    strength: "weak",
    minor: "1.20",
    minors: ["1.20"],
    sources: ["setting"],
  });
  // The setting is the default for when the files say nothing: it does not conflict with them.
  assert.equal(
    evidenceOf({ "flink-conf.yaml": CONF, Dockerfile: "FROM flink:1.20\n" }, { assumedFlinkVersion: "1.18" }).strength,
    "weak",
  );
  assert.deepEqual(evidenceOf({ "flink-conf.yaml": CONF }), {
    strength: "unknown",
    minor: undefined,
    minors: [],
    sources: [],
  });
});

function renameFix(files: Record<string, string>, options: EngineOptions = {}, file = "flink-conf.yaml") {
  const { ws } = project(files, options);
  const finding = (ws.analyze(ROOT, options).byFile.get(`${ROOT}/${file}`) ?? []).find((f) => f.rule === "BFL103");
  const fix = finding?.fixes[0];
  return fix && [fix.safety, fix.title];
}

test("BFL103: a rename Flink reads from 1.20 on is safe only where the configuration's version is pinned", () => {
  assert.deepEqual(renameFix({ "flink-conf.yaml": CONF, ".beam-flink-lint.yaml": 'flinkVersion: "1.20"\n' }), [
    "safe",
    "Rename to `execution.checkpointing.dir`",
  ]);
  assert.deepEqual(renameFix({ "k8s/fd.yaml": deployment("v1_20") }, {}, "k8s/fd.yaml"), [
    "safe",
    "Rename to `execution.checkpointing.dir`",
  ]);
  assert.deepEqual(renameFix({ "flink-conf.yaml": CONF, Dockerfile: "FROM flink:1.20.0\n" }), [
    "unsafe",
    "Rename to `execution.checkpointing.dir` (Flink reads it from 1.20; Flink 1.20 is not pinned: 1.20 from an image tag in Dockerfile)",
  ]);
  assert.deepEqual(renameFix({ "flink-conf.yaml": CONF }, { assumedFlinkVersion: "1.20" }), [
    "unsafe",
    "Rename to `execution.checkpointing.dir` (Flink reads it from 1.20; Flink 1.20 is not pinned: 1.20 from the assumed version (editor setting or --flink-version))",
  ]);
  assert.deepEqual(
    renameFix({ "flink-conf.yaml": CONF, Dockerfile: "FROM flink:1.20\n", "docker/Dockerfile": "FROM flink:1.21\n" }),
    [
      "unsafe",
      "Rename to `execution.checkpointing.dir` (Flink reads it from 1.20; the project names Flink 1.20 and 1.21: 1.20 from an image tag in Dockerfile, 1.21 from an image tag in docker/Dockerfile)",
    ],
  );
});

test("BFL103: on a release older than the catalogue (Flink 1.9), a rename or deletion is never safe and the finding is information", () => {
  const conf = "taskmanager.network.memory.fraction: 0.2\n";
  const files = { "flink-conf.yaml": conf, ".beam-flink-lint.yaml": 'flinkVersion: "1.9"\n' };
  assert.deepEqual(renameFix(files), [
    "unsafe",
    "Rename to `taskmanager.memory.network.fraction` (Flink 1.9 is older than the releases whose keys are known)",
  ]);
  const { ws } = project(files);
  const finding = (ws.analyze(ROOT, {}).byFile.get(`${ROOT}/flink-conf.yaml`) ?? []).find((f) => f.rule === "BFL103");
  assert.equal(finding?.severity, "info");
  assert.match(finding?.message ?? "", /deprecated by Flink 1\.15 at the latest \(maybe not yet in 1\.9\)/);
  // Both keys set: deleting the old one is no safer.
  const both = { ...files, "flink-conf.yaml": `${conf}taskmanager.memory.network.fraction: 0.2\n` };
  assert.deepEqual(renameFix(both), [
    "unsafe",
    "Delete the deprecated `taskmanager.network.memory.fraction` (Flink 1.9 is older than the releases whose keys are known)",
  ]);
  // Flink 1.15 itself: the catalogue knows, and the pinned rename is safe.
  assert.deepEqual(renameFix({ ...files, ".beam-flink-lint.yaml": 'flinkVersion: "1.15"\n' }), [
    "safe",
    "Rename to `taskmanager.memory.network.fraction`",
  ]);
});
