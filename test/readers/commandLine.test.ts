/**
 * `-Dkey=value` dynamic properties of Flink start commands: how command lines are split, which arguments Flink's
 * entry points read as configuration, where each key and value stands, and which fixes may edit them.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  argvWord,
  clientCommands,
  clientProperties,
  clientTarget,
  dynamicProperties,
  type OffsetText,
  shellSplit,
  startCommands,
  type Word,
} from "../../server/src/core/documents/commandLine";
import { readDocument } from "../../server/src/core/documents/index";
import type { Fix } from "../../server/src/core/findings";
import { clustersOf, configVersion } from "../../server/src/core/project/clusters";
import { commandLineSafeFixes } from "../../server/src/core/rules/configEdits";
import { workspaceOf } from "../harness/fixtures";
import { entry, scalars, span, textAt } from "./helpers";

function offsets(value: string, base = 0): OffsetText {
  return { value, at: [...value].map((_, i) => base + i) };
}

function words(line: string): Word[] {
  return shellSplit(offsets(line))[0] ?? [];
}

/** Key → value of the properties a command line sets, as Flink reads them. */
function props(argv: Word[], viaEntrypoint = true): [string, string][] {
  return startCommands(argv, viaEntrypoint).flatMap((c) =>
    dynamicProperties(c).map((p) => [p.key.text, p.value.text] as [string, string]),
  );
}

test("shell words: quotes, escapes, comments and operators, with the offset of every character", () => {
  const split = shellSplit(offsets(`a "b c" 'd$e' f\\ g # h\nx; y && z`));
  assert.deepEqual(
    split.map((c) => c.map((w) => w.text)),
    [["a", "b c", "d$e", "f g"], ["x"], ["y"], ["z"]],
  );
  const [a, bc] = split[0];
  assert.deepEqual([a.start, a.end, bc.start, bc.end], [0, 1, 2, 7]);
  assert.deepEqual(bc.at, [3, 4, 5]);
  // An escaped character is not written as itself.
  assert.deepEqual(split[0][3].at, [14, undefined, 17]);
  // Split for compose (no shell): a line break is a blank.
  assert.deepEqual(
    shellSplit(offsets("a\nb"), "blank").map((c) => c.map((w) => w.text)),
    [["a", "b"]],
  );
});

test("start commands: the image's commands, the scripts, and scripts inside `bash -c`", () => {
  const argv = (...items: string[]) => items.map((s) => argvWord(offsets(s)));
  assert.deepEqual(
    startCommands(argv("standalone-job", "-Dk=v"), true).map((c) => c.launcher),
    ["application"],
  );
  // Without the image's entry point, `standalone-job` is no program.
  assert.deepEqual(startCommands(argv("standalone-job", "-Dk=v"), false), []);
  assert.deepEqual(
    startCommands(argv("/docker-entrypoint.sh", "taskmanager"), false).map((c) => c.launcher),
    ["taskmanager"],
  );
  assert.deepEqual(
    startCommands(argv("bash", "-c", "echo hi; exec $FLINK_HOME/bin/jobmanager.sh start-foreground -D a=1"), false).map(
      (c) => [c.launcher, c.args.map((a) => a.text)],
    ),
    [["session", ["-D", "a=1"]]],
  );
  // `jobmanager.sh stop` and other programs start nothing.
  assert.deepEqual(startCommands(argv("/opt/flink/bin/jobmanager.sh", "stop"), false), []);
  assert.deepEqual(startCommands(words("java -Dk=v -jar app.jar"), true), []);
  assert.deepEqual(startCommands(words("flink run -Dk=v job.jar"), true), []);
});

test("dynamic properties as Commons CLI reads them, stopping where Flink's parser stops", () => {
  assert.deepEqual(
    props(words("standalone-job -c /opt/flink/conf --job-classname=a.B -j a.B -n -Da=1 -D b=2 -D c 3 -Dd=x=y")),
    [
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
      ["d", "x=y"],
    ],
  );
  // The first argument the entry point does not know ends its options: the rest is the job's.
  assert.deepEqual(props(words("standalone-job --job-classname a.B --topic t -Da=1")), []);
  assert.deepEqual(props(words("standalone-job --job-classname a.B input.txt -Da=1")), []);
  // A unique prefix of a long option is that option.
  assert.deepEqual(props(words("standalone-job --job-class a.B -Da=1")), [["a", "1"]]);
  // `-Dk` alone sets k to true (no value written); parsing goes on.
  assert.deepEqual(props(words("taskmanager -Dflag -Da=1")), [["a", "1"]]);
  // A TaskManager knows -c and -D only.
  assert.deepEqual(props(words("taskmanager -r 8081 -Da=1")), []);
});

test("jobmanager.sh takes its first one or two arguments for the host and port unless the first is `-D`", () => {
  assert.deepEqual(props(words("jobmanager -Da=1")), []);
  assert.deepEqual(props(words("jobmanager -Da=1 -Db=2")), []);
  assert.deepEqual(props(words("jobmanager -Da=1 -Db=2 -Dc=3")), [["c", "3"]]);
  assert.deepEqual(props(words("jobmanager -D a=1 -Db=2")), [
    ["a", "1"],
    ["b", "2"],
  ]);
  assert.deepEqual(props(words("jobmanager flink-jobmanager -D a=1")), [["a", "1"]]);
  // standalone-job.sh and taskmanager.sh pass every argument on.
  assert.deepEqual(props(words("standalone-job -Da=1")), [["a", "1"]]);
});

test("compose: a command's -D properties are a configuration with exact ranges; deletable in a string only", () => {
  const file = "/p/docker-compose.yml";
  const text = [
    "services:",
    "  jobmanager:",
    "    image: flink:1.19.1",
    "    command: standalone-job --job-classname a.B -Dparallelism.default=4 -D 'state.backend.type=rocksdb'",
    "  taskmanager:",
    "    image: flink:1.19.1",
    '    command: ["taskmanager", "-Dtaskmanager.numberOfTaskSlots=2"]',
    "",
  ].join("\n");
  const facts = readDocument(file, text);
  const [jm, tm] = facts.flinkConfigs.filter((c) => c.host === "commandLine");
  assert.equal(jm.id, `${file}#services.jobmanager.command`);
  assert.equal(textAt(text, jm.anchor), "standalone-job");
  assert.deepEqual(scalars(jm), [
    ["parallelism.default", "4"],
    ["state.backend.type", "rocksdb"],
  ]);
  const p = entry(jm, "parallelism.default");
  assert.equal(textAt(text, p.keyRange), "parallelism.default");
  assert.equal(textAt(text, p.valueRange), "4");
  assert.equal(textAt(text, p.deleteRange), " -Dparallelism.default=4");
  const s = entry(jm, "state.backend.type");
  assert.equal(textAt(text, s.valueRange), "rocksdb");
  assert.equal(textAt(text, s.deleteRange), " -D 'state.backend.type=rocksdb'");
  // A list item cannot be deleted without leaving an empty argument: no delete range.
  const slots = entry(tm, "taskmanager.numberOfTaskSlots");
  assert.equal(textAt(text, slots.keyRange), "taskmanager.numberOfTaskSlots");
  assert.equal(span(slots.deleteRange), span({ start: slots.keyRange.start, end: slots.keyRange.start }));
  assert.equal(tm.insertEntry("a", "b"), undefined);
});

test("compose: folded commands map exactly; a value written as a YAML escape makes the ranges inexact", () => {
  const file = "/p/docker-compose.yml";
  const folded = [
    "services:",
    "  jobmanager:",
    "    image: flink:1.19.1",
    "    command: >",
    "      standalone-job --job-classname a.B",
    "      -Dexecution.checkpointing.interval=30s",
    "",
  ].join("\n");
  const [config] = readDocument(file, folded).flinkConfigs;
  assert.equal(textAt(folded, entry(config, "execution.checkpointing.interval").valueRange), "30s");
  assert.equal(config.inexactRanges, undefined);
  const escaped = [
    "services:",
    "  jobmanager:",
    "    image: flink:1.19.1",
    '    command: "standalone-job -Da=\\u0031 -Db=\\"2\\""',
    "",
  ].join("\n");
  const [inexact] = readDocument(file, escaped).flinkConfigs;
  assert.deepEqual(scalars(inexact), [
    ["a", "1"],
    ["b", "2"],
  ]);
  assert.equal(inexact.inexactRanges, true);
});

test("Kubernetes: a Job's args and a Deployment's bash script; a Job with no Flink command is no workload", () => {
  const file = "/p/k8s/flink.yaml";
  const text = [
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata:",
    "  name: orders",
    "spec:",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: jobmanager",
    "          image: flink:1.19.1",
    '          args: ["standalone-job", "--job-classname", "a.B", "-Da=1"]',
    "---",
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: tm",
    "spec:",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: taskmanager",
    "          image: flink:1.19.1",
    "          command:",
    "            - /bin/bash",
    "            - -c",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell substitution in the manifest
    "            - $FLINK_HOME/bin/taskmanager.sh start-foreground -Db=${SLOTS} -Dc=3",
    "---",
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata:",
    "  name: submit",
    "spec:",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: submit",
    "          image: flink:1.19.1",
    '          command: ["flink", "run", "-Dd=4", "/opt/job.jar"]',
    "",
  ].join("\n");
  const facts = readDocument(file, text);
  assert.deepEqual(
    facts.workloads.map((w) => [w.name, w.source, w.role, w.mode]),
    [
      ["orders", "job", "jobmanager", "application"],
      ["tm", "deployment", "taskmanager", undefined],
    ],
  );
  const [job, tm] = facts.flinkConfigs;
  assert.equal(job.id, `${file}#0/containers/jobmanager/command`);
  assert.equal(textAt(text, entry(job, "a").valueRange), "1");
  assert.deepEqual(
    tm.entries.map((e) => [e.key, e.value, e.templated, textAt(text, e.valueRange)]),
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell substitution in the manifest
      ["b", "${SLOTS}", true, "${SLOTS}"],
      ["c", "3", false, "3"],
    ],
  );
});

test("Dockerfile: the last stage's CMD under the image's entry point, exec and shell form", () => {
  const file = "/p/Dockerfile";
  const exec = [
    "FROM flink:1.18 AS build",
    'CMD ["jobmanager"]',
    "FROM flink:1.19.1",
    'CMD ["standalone-job", "--job-classname", "a.B", \\',
    '     "-Da=1"]',
    "",
  ].join("\n");
  const [config] = readDocument(file, exec).flinkConfigs;
  assert.equal(config.id, `${file}#command`);
  assert.equal(textAt(exec, config.anchor), "standalone-job");
  assert.equal(textAt(exec, entry(config, "a").keyRange), "a");
  const shell = ["FROM flink:1.19.1", "CMD /opt/flink/bin/standalone-job.sh start-foreground -Da=1 -Db=2", ""].join(
    "\n",
  );
  const [fromShell] = readDocument(file, shell).flinkConfigs;
  assert.equal(textAt(shell, entry(fromShell, "b").deleteRange), " -Db=2");
  // A shell-form CMD runs under `sh -c`, where `standalone-job` is no program.
  const keyword = ["FROM flink:1.19.1", "CMD standalone-job -Da=1", ""].join("\n");
  assert.deepEqual(readDocument(file, keyword).flinkConfigs, []);
  // ENTRYPOINT and CMD together; a shell-form ENTRYPOINT ignores CMD.
  const both = ["FROM flink:1.19.1", 'ENTRYPOINT ["/docker-entrypoint.sh"]', 'CMD ["taskmanager", "-Dc=3"]', ""].join(
    "\n",
  );
  assert.deepEqual(scalars(readDocument(file, both).flinkConfigs[0]), [["c", "3"]]);
  const ignored = ["FROM flink:1.19.1", "ENTRYPOINT /opt/run.sh", 'CMD ["taskmanager", "-Dc=3"]', ""].join("\n");
  assert.deepEqual(readDocument(file, ignored).flinkConfigs, []);
});

test("fixes may replace a -D key or value with one word, or delete a property of a split string, nothing else", () => {
  const file = "/project/docker-compose.yml";
  const text = [
    "services:",
    "  jobmanager:",
    "    image: flink:1.19.1",
    "    command: standalone-job -Dexecution.checkpointing.interval=0 -Dstate.backend=rocksdb",
    "    environment:",
    "      FLINK_PROPERTIES: |",
    "        jobmanager.rpc.address: jobmanager",
    "",
  ].join("\n");
  const project = workspaceOf(new Map([[file, text]])).project("/project");
  const config = project.flinkConfigs.find((c) => c.host === "commandLine");
  assert.ok(config);
  const interval = entry(config, "execution.checkpointing.interval");
  const backend = entry(config, "state.backend");
  const fix = (title: string, range: typeof interval.keyRange, newText: string): Fix => ({
    title,
    safety: "safe",
    changes: [{ file, edits: [{ range, newText }] }],
  });
  const properties = project.flinkConfigs.find((c) => c.host === "envProperties");
  assert.ok(properties);
  const kept = commandLineSafeFixes(project, [
    fix("rename", backend.keyRange, "state.backend.type"),
    fix("one word", interval.valueRange, "1min"),
    fix("with a blank", interval.valueRange, "1 min"),
    fix("with a quote", interval.valueRange, "'1min'"),
    fix("delete", backend.deleteRange, ""),
    fix("insert inside", { start: backend.keyRange.end, end: backend.keyRange.end }, "x"),
    fix("elsewhere", entry(properties, "jobmanager.rpc.address").valueRange, "jm"),
  ]);
  assert.deepEqual(
    kept.map((f) => f.title),
    ["rename", "one word", "delete", "elsewhere"],
  );
});

/** Key → value of the properties the Flink client commands of a script line read. */
function clientProps(line: string): [string, string][] {
  return shellSplit(offsets(line)).flatMap((argv) =>
    clientCommands(argv).flatMap((c) => clientProperties(c).map((p) => [p.key.text, p.value.text] as [string, string])),
  );
}

test("flink run: -D and -yD before the jar are read, options skipped with their values; after the jar all is the job's", () => {
  assert.deepEqual(
    clientProps("flink run -d -t yarn-per-job -p 4 -Dk1=v1 -D k2=v2 -yD k3=v3 -c com.x.Job job.jar -Dk4=v4 --input t"),
    [
      ["k1", "v1"],
      ["k2", "v2"],
      ["k3", "v3"],
    ],
  );
  // Anywhere in a command: after `docker compose exec`, a Makefile's `@$(FLINK_HOME)/bin/flink`, inside `bash -c`.
  assert.deepEqual(clientProps("docker compose exec jobmanager ./bin/flink run -Dk=v /jobs/a.jar"), [["k", "v"]]);
  assert.deepEqual(clientProps("@$(FLINK_HOME)/bin/flink run-application -t kubernetes-application -Dk=v"), [
    ["k", "v"],
  ]);
  assert.deepEqual(clientProps(`bash -c "flink run --class com.x.Job -Dk=v a.jar"`), [["k", "v"]]);
  // Long options with their values, written both ways; an option the parser does not know stops it.
  assert.deepEqual(clientProps("flink run --parallelism 2 --class=com.x.Job -Dk=v a.jar"), [["k", "v"]]);
  assert.deepEqual(clientProps("flink run --no-such-option x -Dk=v a.jar"), []);
  // Other commands of the client, and other programs named flink-something, set nothing here.
  assert.deepEqual(clientProps("flink list -Dk=v"), []);
  assert.deepEqual(clientProps("flink-sql-client -Dk=v"), []);
});

test("flink run: the deployment target, in each form the client takes, before the jar only", () => {
  const target = (line: string) => clientCommands(words(line)).map(clientTarget)[0];
  assert.equal(
    target("flink run-application -t kubernetes-application -Dk=v local:///opt/a.jar"),
    "kubernetes-application",
  );
  assert.equal(target("flink run -p 2 --target yarn-application -Dk=v a.jar"), "yarn-application");
  assert.equal(target("flink run --target=yarn-per-job a.jar"), "yarn-per-job");
  assert.equal(target("flink run -D k=v -e kubernetes-session a.jar"), "kubernetes-session");
  assert.equal(target("flink run -m yarn-cluster -yjm 1024 a.jar"), "yarn-per-job");
  assert.equal(target("flink run -m jobmanager:8081 a.jar"), undefined);
  assert.equal(target("flink run -Dk=v a.jar -t yarn-application"), undefined);
  assert.equal(target("yarn-session.sh -t ship/ -Dk=v"), undefined);
});

test("a submit command that starts a cluster in application mode is a cluster of its own, at the image's version", () => {
  const ws = workspaceOf(
    new Map([
      [
        "/project/deploy.sh",
        "flink run-application -t kubernetes-application -Dkubernetes.container.image=flink:1.17.2 -Dparallelism.default=2 local:///opt/a.jar\n" +
          "flink run -t remote -Dparallelism.default=2 a.jar\n",
      ],
    ]),
  );
  const project = ws.project("/project");
  const clusters = clustersOf(project);
  assert.equal(clusters.length, 1);
  const [cluster] = clusters;
  assert.equal(cluster.config.target, "kubernetes-application");
  assert.equal(cluster.platform, "kubernetes");
  assert.equal(cluster.minor, "1.17");
  assert.equal(cluster.incomplete, false, "the client's configuration folder is the distribution's");
  assert.equal(configVersion(project, cluster.config).minor, "1.17");
  // A client pointed at a configuration folder of its own: what the command leaves out may be set there.
  const own = workspaceOf(
    new Map([
      [
        "/project/deploy.sh",
        "export FLINK_CONF_DIR=/etc/flink\nflink run -t yarn-application -Dparallelism.default=2 a.jar\n",
      ],
    ]),
  );
  assert.deepEqual(
    clustersOf(own.project("/project")).map((c) => [c.platform, c.incomplete]),
    [["unknown", true]],
  );
});

test("YARN sessions: yarn-session.sh and EMR's flink-yarn-session read every -D among their options", () => {
  assert.deepEqual(clientProps("yarn-session.sh -d -jm 1024 -tm 4096 -s 2 -D k1=v1 -Dk2=v2"), [
    ["k1", "v1"],
    ["k2", "v2"],
  ]);
  assert.deepEqual(clientProps("flink-yarn-session -D state.backend.type=rocksdb -d"), [
    ["state.backend.type", "rocksdb"],
  ]);
});

test("a script's submit commands are configurations of the submission host, with exact ranges", () => {
  const text = "#!/bin/sh\nflink run -d \\\n  -Dexecution.checkpointing.interval=30s \\\n  job.jar\n";
  const facts = readDocument("/p/scripts/submit.sh", text);
  assert.equal(facts.kind, "launch");
  const [config] = facts.flinkConfigs;
  assert.equal(config.host, "submission");
  const e = entry(config, "execution.checkpointing.interval");
  assert.equal(textAt(text, e.keyRange), "execution.checkpointing.interval");
  assert.equal(textAt(text, e.valueRange), "30s");
});
