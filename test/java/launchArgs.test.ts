/** Beam flags passed from launch files, and the project-level list that merges them with code and manifests. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { readDocument } from "../../server/src/core/documents/index";
import { beamArgCheckpointing, jobCheckpointing } from "../../server/src/core/project/checkpointing";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { at } from "./helpers";

function flags(file: string, text: string): string[] {
  return (readDocument(file, text).beamArgs ?? []).map(
    (a) => `${a.name}=${a.value ?? ""} ${at(text, a.range)} | ${a.valueRange ? at(text, a.valueRange) : "-"}`,
  );
}

test(".vscode/launch.json: args arrays (with comments and --name, value pairs) and args strings", () => {
  const text = [
    "{",
    "  // Beam on a local Flink",
    '  "configurations": [{',
    '    "type": "java",',
    '    "args": ["--runner=FlinkRunner", "--checkpointingInterval", "60000"],',
    '    "vmArgs": "--add-opens=java.base/java.lang=ALL-UNNAMED"',
    "  }, {",
    '    "args": "--parallelism=4 --streaming"',
    "  }]",
    "}",
  ].join("\n");
  const file = "/p/.vscode/launch.json";
  assert.equal(readDocument(file, text).kind, "launch");
  assert.deepEqual(flags(file, text), [
    "runner=FlinkRunner 4:14-4:34 --runner=FlinkRunner | 4:23-4:34 FlinkRunner",
    "checkpointingInterval=60000 4:38-4:61 --checkpointingInterval | 4:65-4:70 60000",
    "parallelism=4 7:13-7:28 --parallelism=4 | 7:27-7:28 4",
    "streaming= 7:29-7:40 --streaming | -",
  ]);
});

test("shell scripts: flags outside comments, --name value pairs", () => {
  const text = [
    "#!/bin/sh",
    "# --checkpointingInterval=0 is off",
    "flink run -d target/job.jar \\",
    "  --runner=FlinkRunner --checkpointingInterval 30000 --experiments=use_deprecated_read",
  ].join("\n");
  assert.deepEqual(flags("/p/bin/submit.sh", text), [
    "runner=FlinkRunner 3:2-3:22 --runner=FlinkRunner | 3:11-3:22 FlinkRunner",
    "checkpointingInterval=30000 3:23-3:46 --checkpointingInterval | 3:47-3:52 30000",
    "experiments=use_deprecated_read 3:53-3:86 --experiments=use_deprecated_read | 3:67-3:86 use_deprecated_read",
  ]);
  assert.deepEqual(
    beamArgCheckpointing(readDocument("/p/bin/submit.sh", text).beamArgs ?? []).map((l) => at(text, l.range)),
    ["3:23-3:46 --checkpointingInterval"],
  );
});

test("Gradle run args and Dockerfile CMD/ENTRYPOINT flags; other strings and instructions are not read", () => {
  const gradle = [
    "plugins { id 'application' }",
    "def flags = '--runner=DirectRunner'",
    "run {",
    "  args = ['--runner=FlinkRunner',",
    '         "--checkpointingInterval=10000"]',
    "}",
  ].join("\n");
  assert.deepEqual(flags("/p/build.gradle", gradle), [
    "runner=FlinkRunner 3:11-3:31 --runner=FlinkRunner | 3:20-3:31 FlinkRunner",
    "checkpointingInterval=10000 4:10-4:39 --checkpointingInterval=10000 | 4:34-4:39 10000",
  ]);
  const kts = 'tasks.named<JavaExec>("run") {\n  args("--parallelism=2")\n}\n';
  assert.deepEqual(flags("/p/build.gradle.kts", kts), ["parallelism=2 1:8-1:23 --parallelism=2 | 1:22-1:23 2"]);
  const docker = [
    "FROM flink:1.18",
    "RUN apt-get install --no-install-recommends -y curl",
    'ENTRYPOINT ["java", "-jar", "/job.jar", \\',
    '  "--runner=FlinkRunner"]',
  ].join("\n");
  assert.deepEqual(flags("/p/Dockerfile", docker), [
    "runner=FlinkRunner 3:3-3:23 --runner=FlinkRunner | 3:12-3:23 FlinkRunner",
  ]);
});

test("the project merges Java facts and flags from code, launch files and FlinkDeployment job args", () => {
  const ws = new Workspace();
  ws.setFile("/p/pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>\n");
  ws.setFile(
    "/p/src/main/java/Job.java",
    'class Job { void run() { KafkaIO.<String, String>read().withTopic("t"); String[] a = {"--runner=FlinkRunner"}; } }\n',
  );
  ws.setFile("/p/run.sh", "java -jar job.jar --checkpointingInterval=60000\n");
  const manifest = [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: job",
    "spec:",
    "  job:",
    "    jarURI: local:///opt/job.jar",
    "    args:",
    '      - "--parallelism"',
    '      - "4"',
    "      - --streaming=true",
  ].join("\n");
  ws.setFile("/p/k8s/job.yaml", manifest);
  const project = ws.project("/p");
  assert.equal(project.code.kafkaReads.length, 1);
  assert.deepEqual(
    project.code.beamArgs.map((a) => `${a.source} ${a.name}=${a.value}`),
    [
      "javaString runner=FlinkRunner",
      "shell checkpointingInterval=60000",
      "flinkDeployment parallelism=4",
      "flinkDeployment streaming=true",
    ],
  );
  assert.deepEqual(
    jobCheckpointing(project).map((l) => l.file),
    ["/p/run.sh"],
  );
});

test("Makefile recipes and Kubernetes Job containers pass Beam flags, Python's snake_case names read as Beam's", () => {
  const make = [
    "run:",
    "\tpython -m orders.pipeline --runner FlinkRunner --checkpointing_interval=60000 # --streaming is off here",
  ].join("\n");
  assert.deepEqual(flags("/p/Makefile", make), [
    "runner=FlinkRunner 1:27-1:35 --runner | 1:36-1:47 FlinkRunner",
    "checkpointingInterval=60000 1:48-1:78 --checkpointing_interval=60000 | 1:73-1:78 60000",
  ]);
  assert.deepEqual(
    readDocument("/p/Makefile", make).beamArgs?.map((a) => a.source),
    ["makefile", "makefile"],
  );
  const job = [
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata:",
    "  name: submit-orders",
    "spec:",
    "  template:",
    "    spec:",
    "      containers:",
    "        - name: submit",
    "          image: orders:1.0",
    '          command: ["python", "-m", "orders.pipeline"]',
    "          args:",
    '            - "--runner=FlinkRunner"',
    "            - --streaming",
    "            - --checkpointing_interval=0",
  ].join("\n");
  assert.deepEqual(flags("/p/k8s/submit.yaml", job), [
    "runner=FlinkRunner 12:15-12:35 --runner=FlinkRunner | 12:24-12:35 FlinkRunner",
    "streaming= 13:14-13:25 --streaming | -",
    "checkpointingInterval=0 14:14-14:40 --checkpointing_interval=0 | 14:39-14:40 0",
  ]);
});
