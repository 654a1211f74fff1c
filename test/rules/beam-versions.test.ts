/**
 * BFL301–BFL304 and the Beam hover on a project model whose dependencies are given directly, so these tests
 * pin the rules' grouping, severities, messages and fixes independently of the build-file readers.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzeProject } from "../../server/src/core/engine";
import type { Finding } from "../../server/src/core/findings";
import { buildHover } from "../../server/src/core/hover/buildHover";
import type { ResolvedDependency } from "../../server/src/core/model";
import { applyEdits, pos, range } from "../../server/src/core/text";
import type { ProjectModel } from "../../server/src/core/workspace/project";
import { FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const PROPS = `${FIXTURE_ROOT}/gradle.properties`;
const APP = `${FIXTURE_ROOT}/app/build.gradle`;
const WORKER = `${FIXTURE_ROOT}/worker/build.gradle`;
const JOB = `${FIXTURE_ROOT}/app/src/main/java/com/example/Orders.java`;

// biome-ignore lint/suspicious/noTemplateCurlyInString: Gradle's interpolation as a build script writes it
const REF = "${beamVersion}";
const PROPS_TEXT = "org.gradle.jvmargs=-Xmx1g\nbeamVersion=2.56.0\n";
/** `beamVersion=2.56.0`: the literal on line 1. */
const DEFINITION = { value: "2.56.0", raw: "2.56.0", file: PROPS, range: range(1, 12, 1, 18) };

function runner(
  artifact: string,
  file: string,
  line: number,
  extra: Partial<ResolvedDependency> = {},
): ResolvedDependency {
  return {
    group: "org.apache.beam",
    artifact,
    version: "2.56.0",
    versionDefinition: DEFINITION,
    declaration: { file, range: range(line, 20, line, 68) },
    module: file === APP ? "app" : "worker",
    platform: false,
    via: [REF, "gradle.properties"],
    ...extra,
  };
}

function model(files: Record<string, string>, dependencies: ResolvedDependency[]): ProjectModel {
  const ws = workspaceOf(new Map(Object.entries({ [PROPS]: PROPS_TEXT, ...files })));
  return { ...ws.project(FIXTURE_ROOT), dependencies };
}

function findings(project: ProjectModel, code: string): Finding[] {
  return [...analyzeProject(project).byFile.values()].flat().filter((f) => f.rule === code);
}

test("one definition feeding two modules is one BFL301 finding at the definition, naming both", () => {
  const project = model({}, [
    runner("beam-runners-flink-1.17", APP, 4),
    runner("beam-runners-flink-1.17", WORKER, 7),
    runner("beam-sdks-java-core", APP, 3),
  ]);
  const [finding, ...rest] = findings(project, "BFL301");
  assert.deepEqual(rest, []);
  assert.equal(finding.file, PROPS);
  assert.deepEqual(finding.range, DEFINITION.range);
  assert.equal(finding.severity, "error");
  assert.equal(
    finding.message,
    "Beam 2.56.0 has a known bug in the Flink runner: after a restore, every Kafka message is read and processed twice.",
  );
  const details = finding.related.filter((r) => r.file === PROPS).map((r) => r.message);
  for (const r of finding.related.filter((x) => x.file === PROPS)) assert.deepEqual(r.range, DEFINITION.range);
  assert.deepEqual(details.slice(0, 2), [
    "After a restore from a checkpoint or savepoint, or a JobManager failover, every Kafka partition (every source split) is read twice, so every message is processed twice.",
    "This version is used by beam-runners-flink-1.17 (module app; module worker).",
  ]);
  assert.ok(details.includes("`--experiments=use_deprecated_read` does not avoid the bug."));
  assert.match(
    details.at(-1) ?? "",
    /^Upgrade Beam to 2\.64\.0 where the version is defined\. A Beam upgrade can change the job's savepoint state/,
  );
  assert.deepEqual(
    finding.related.filter((r) => r.file !== PROPS).map((r) => [r.file, r.range.start.line, r.message]),
    [
      [APP, 4, `beam-runners-flink-1.17 (module app) gets Beam 2.56.0 via ${REF} → gradle.properties.`],
      [WORKER, 7, `beam-runners-flink-1.17 (module worker) gets Beam 2.56.0 via ${REF} → gradle.properties.`],
    ],
  );
  const [fix] = finding.fixes;
  assert.equal(fix.title, "Upgrade Beam to 2.64.0");
  assert.equal(fix.safety, "unsafe");
  assert.deepEqual(
    fix.changes.map((c) => c.file),
    [PROPS],
  );
  assert.equal(applyEdits(PROPS_TEXT, fix.changes[0].edits), "org.gradle.jvmargs=-Xmx1g\nbeamVersion=2.64.0\n");
});

test("a profile that overrides the version is a finding of its own", () => {
  const profileDefinition = { ...DEFINITION, value: "2.63.0", raw: "2.63.0", range: range(20, 20, 20, 26) };
  const project = model({}, [
    runner("beam-runners-flink-1.17", APP, 4),
    runner("beam-runners-flink-1.17", APP, 30, {
      version: "2.63.0",
      versionDefinition: profileDefinition,
      profile: "flink",
    }),
  ]);
  const found = findings(project, "BFL301").map((f) => [
    f.range.start.line,
    f.severity,
    f.message.split(" a known")[0],
  ]);
  assert.deepEqual(found, [
    [1, "error", "Beam 2.56.0 has"],
    [20, "warning", "Beam 2.63.0 may still have"],
  ]);
  const uncertain = findings(project, "BFL301")[1].related.map((r) => r.message);
  assert.ok(uncertain.some((m) => /^2\.63\.x possibly still has it: the fix \(apache\/beam PR #33606\)/.test(m)));
  assert.ok(uncertain.includes("This version is used by beam-runners-flink-1.17 (module app, profile flink)."));
});

test("a quoted definition token is edited inside its quotes", () => {
  const text = "ext {\n    beamVersion = '2.56.0'\n}\n";
  const file = `${FIXTURE_ROOT}/build.gradle`;
  const definition = { value: "2.56.0", raw: "'2.56.0'", file, range: range(1, 18, 1, 26) };
  const project = model({ [file]: text }, [
    runner("beam-runners-flink-1.17", file, 5, { versionDefinition: definition }),
  ]);
  const [finding] = findings(project, "BFL301");
  assert.deepEqual(finding.range, range(1, 19, 1, 25));
  assert.equal(applyEdits(text, finding.fixes[0].changes[0].edits), "ext {\n    beamVersion = '2.64.0'\n}\n");
});

test("no fix when the definition also sets a library that is not Beam, or when the build does not say where", () => {
  const shared = model({}, [
    runner("beam-runners-flink-1.17", APP, 4),
    { ...runner("jackson-databind", APP, 5), group: "com.fasterxml.jackson.core" },
  ]);
  assert.deepEqual(findings(shared, "BFL301")[0].fixes, []);
  assert.ok(
    findings(shared, "BFL301")[0].related.some((r) => r.message.startsWith("Upgrade Beam to 2.64.0 or newer.")),
  );
  const inline = model({}, [runner("beam-runners-flink-1.17", APP, 4, { versionDefinition: undefined })]);
  const [finding] = findings(inline, "BFL301");
  assert.equal(finding.file, APP);
  assert.deepEqual(finding.range, range(4, 20, 4, 68));
  assert.deepEqual(finding.fixes, []);
});

test("versions the build computes, job servers and other artifacts are not reported", () => {
  const project = model({}, [
    runner("beam-runners-flink-1.17", APP, 4, { version: "[2.52,2.60)" }),
    runner("beam-runners-flink-1.17", APP, 5, { version: undefined }),
    runner("beam-runners-flink-1.17-job-server", APP, 6),
    runner("beam-sdks-java-io-kafka", APP, 7),
  ]);
  assert.deepEqual(findings(project, "BFL301"), []);
  assert.deepEqual(findings(project, "BFL302"), []);
});

test("the upgrade target comes from the project configuration, raised past the bug", () => {
  const config = (target: string) => ({ [`${FIXTURE_ROOT}/.beam-flink-lint.yaml`]: `beamUpgradeTarget: ${target}\n` });
  const title = (target: string) =>
    findings(model(config(target), [runner("beam-runners-flink-1.17", APP, 4)]), "BFL301")[0].fixes[0].title;
  assert.equal(title("2.70.0"), "Upgrade Beam to 2.70.0");
  assert.equal(title("2.60.0"), "Upgrade Beam to 2.64.0");
});

test("the message says when the target has no runner for the artifact's Flink minor", () => {
  const project = model({}, [runner("beam-runners-flink-1.16", APP, 4)]);
  assert.ok(
    findings(project, "BFL301")[0].related.some((r) =>
      r.message.startsWith(
        "Upgrade Beam to 2.64.0 where the version is defined; Beam 2.64.0 has no runner for Flink 1.16 (it has 1.17, 1.18, 1.19), so move the runner artifact and the cluster to one of those with it.",
      ),
    ),
  );
});

test("BFL302 is a warning, and an error pointing at the code when the job commits offsets in finalize", () => {
  const deps = [
    runner("beam-runners-flink-1.16", APP, 4, {
      version: "2.54.0",
      versionDefinition: { ...DEFINITION, value: "2.54.0", raw: "2.54.0" },
    }),
  ];
  const plain = findings(model({}, deps), "BFL302");
  assert.deepEqual(
    plain.map((f) => f.severity),
    ["warning"],
  );
  const job = "class Orders {\n  Object r = KafkaIO.read().commitOffsetsInFinalize();\n}\n";
  const [finding] = findings(model({ [JOB]: job }, deps), "BFL302");
  assert.equal(finding.severity, "error");
  assert.ok(
    finding.related.some(
      (r) => r.message === "It matters here because the job commits Kafka offsets with commitOffsetsInFinalize().",
    ),
  );
  assert.deepEqual(finding.related.at(-1), {
    file: JOB,
    range: range(1, 28, 1, 51),
    message: "commitOffsetsInFinalize() never commits an offset on this Beam version.",
  });
  assert.equal(finding.fixes[0].title, "Upgrade Beam to 2.64.0");
});

const DEPLOYMENT = `${FIXTURE_ROOT}/k8s/deployment.yaml`;
const FLINK_DEPLOYMENT = `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_18
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
`;

test("BFL303 points at the runner and at the cluster version", () => {
  const project = model({ [DEPLOYMENT]: FLINK_DEPLOYMENT }, [runner("beam-runners-flink-1.17", APP, 4)]);
  const [finding, ...rest] = findings(project, "BFL303");
  assert.deepEqual(rest, []);
  assert.equal(finding.file, APP);
  assert.deepEqual(finding.range, range(4, 20, 4, 68));
  assert.match(
    finding.message,
    /^beam-runners-flink-1\.17 is built for Flink 1\.17, but the cluster runs Flink 1\.18: the job fails there\./,
  );
  assert.match(finding.details ?? "", /Beam 2\.56\.0 has no runner for Flink 1\.18 yet \(it arrives in 2\.57\.0\)/);
  assert.deepEqual(
    finding.related.map((r) => [r.file, r.range.start.line, r.message]),
    [[DEPLOYMENT, 5, "The cluster runs Flink 1.18 (FlinkDeployment flinkVersion)."]],
  );
});

test("BFL303 stays silent without a cluster version, and on a matching one", () => {
  const deps = [runner("beam-runners-flink-1.18", APP, 4, { version: "2.60.0" })];
  assert.deepEqual(findings(model({}, deps), "BFL303"), []);
  assert.deepEqual(findings(model({ [DEPLOYMENT]: FLINK_DEPLOYMENT }, deps), "BFL303"), []);
  const assumed = workspaceOf(new Map([[PROPS, PROPS_TEXT]]), { assumedFlinkVersion: "1.19" });
  const project = { ...assumed.project(FIXTURE_ROOT, { assumedFlinkVersion: "1.19" }), dependencies: deps };
  assert.deepEqual(findings(project, "BFL303"), [], "an editor setting is not the cluster");
});

test("BFL304 reports the version where it is defined, with the runner that does not exist", () => {
  const definition = { ...DEFINITION, value: "2.60.0", raw: "2.60.0" };
  const project = model({}, [
    runner("beam-runners-flink-1.19", APP, 4, { version: "2.60.0", versionDefinition: definition }),
    runner("beam-runners-flink-1.18", WORKER, 4, { version: "2.60.0", versionDefinition: definition }),
  ]);
  const [finding, ...rest] = findings(project, "BFL304");
  assert.deepEqual(rest, []);
  assert.deepEqual([finding.file, finding.range], [PROPS, DEFINITION.range]);
  assert.equal(finding.message, "Beam 2.60.0 does not publish beam-runners-flink-1.19: the build cannot resolve it.");
  assert.deepEqual(
    finding.related.map((r) => r.file),
    [APP],
  );
});

test("hover on the version definition: where it comes from, who uses it, runners and known bugs", () => {
  const project = model({ [DEPLOYMENT]: FLINK_DEPLOYMENT }, [
    runner("beam-runners-flink-1.17", APP, 4),
    runner("beam-sdks-java-core", APP, 3),
  ]);
  const text = buildHover(project, PROPS, pos(1, 14));
  assert.equal(
    text,
    [
      "**Apache Beam 2.56.0**, defined here.",
      "Used by `beam-runners-flink-1.17` (module app), `beam-sdks-java-core` (module app).",
      "Flink runners in Beam 2.56.0: 1.14, 1.15, 1.16, 1.17.",
      "Pipelines on Flink 1.16 or older move to Beam 2.56.0 on their current Flink version first, then switch to the 1.17 runner.",
      "Known bugs:\n- **BFL301** (error) The Flink runner reads every source split twice after a restore (apache/beam#31313, apache/beam#34890); fixed in 2.64.0.",
    ].join("\n\n"),
  );
  const onRunner = buildHover(project, APP, pos(4, 30)) ?? "";
  assert.ok(
    onRunner.startsWith(
      `**Apache Beam 2.56.0**, defined in \`gradle.properties\` line 2 via \`${REF}\` → \`gradle.properties\`.\n\nUsed by \`beam-runners-flink-1.17\` (module app).`,
    ),
    onRunner,
  );
  assert.match(
    onRunner,
    /`beam-runners-flink-1\.17` runs on a Flink 1\.17\.x cluster only\. The project's cluster runs Flink 1\.18 \(`k8s\/deployment\.yaml`\)\./,
  );
  assert.equal(buildHover(project, PROPS, pos(0, 3)), undefined);
  assert.equal(buildHover(project, APP, pos(9, 0)), undefined);
});
