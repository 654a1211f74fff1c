/** Which files form one project (multi-module builds), and the Flink versions a build names. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { span } from "./helpers";

function workspace(files: Record<string, string>): Workspace {
  const ws = new Workspace({ roots: ["/w"] });
  for (const [file, text] of Object.entries(files)) ws.setFile(file, text);
  return ws;
}

const modules = (...names: string[]) =>
  `<project><artifactId>top</artifactId><modules>${names.map((n) => `<module>${n}</module>`).join("")}</modules></project>`;
const leafPom = "<project><artifactId>leaf</artifactId></project>";

test("Gradle subprojects belong to the build with the settings file; a nested settings file starts another build", () => {
  const ws = workspace({
    "/w/settings.gradle": "include ':jobs:a'\n",
    "/w/build.gradle": "",
    "/w/jobs/a/build.gradle": "",
    "/w/jobs/a/k8s/flink.yaml": "",
    "/w/tools/included/settings.gradle.kts": "",
    "/w/tools/included/build.gradle.kts": "",
  });
  assert.equal(ws.projectRootOf("/w/jobs/a/build.gradle"), "/w");
  assert.equal(ws.projectRootOf("/w/jobs/a/k8s/flink.yaml"), "/w");
  assert.equal(ws.projectRootOf("/w/tools/included/build.gradle.kts"), "/w/tools/included");
  assert.deepEqual(ws.projectRoots(), ["/w", "/w/tools/included"]);
});

test("Maven modules belong to the aggregator listing them, across levels; other poms stay projects of their own", () => {
  const ws = workspace({
    "/w/pom.xml": modules("services", "libs/common/pom.xml"),
    "/w/services/pom.xml": modules("job"),
    "/w/services/job/pom.xml": leafPom,
    "/w/libs/common/pom.xml": leafPom,
    "/w/examples/demo/pom.xml": leafPom,
    "/w/services/job/.beam-flink-lint.yaml": "",
  });
  assert.equal(ws.projectRootOf("/w/services/pom.xml"), "/w");
  assert.equal(ws.projectRootOf("/w/libs/common/pom.xml"), "/w");
  // Not listed in any <modules>: an unrelated nested build.
  assert.equal(ws.projectRootOf("/w/examples/demo/pom.xml"), "/w/examples/demo");
  // A folder with its own project configuration stays a project of its own.
  assert.equal(ws.projectRootOf("/w/services/job/pom.xml"), "/w/services/job");
});

test("adding or removing a module moves its files between projects, and both projects are reported as changed", () => {
  const ws = workspace({ "/w/pom.xml": modules(), "/w/job/pom.xml": leafPom, "/w/job/deploy.yaml": "" });
  assert.equal(ws.projectRootOf("/w/job/deploy.yaml"), "/w/job");
  assert.deepEqual(ws.setFile("/w/pom.xml", modules("job")).sort(), ["/w", "/w/job"]);
  assert.equal(ws.projectRootOf("/w/job/deploy.yaml"), "/w");
  // An edit that keeps the modules changes nothing else.
  assert.deepEqual(ws.setFile("/w/pom.xml", `${modules("job")}\n`), ["/w"]);
  assert.deepEqual(ws.removeFile("/w/pom.xml").sort(), ["/w", "/w/job"]);
  assert.equal(ws.projectRootOf("/w/job/deploy.yaml"), "/w/job");
});

test("a new settings file gathers the subprojects", () => {
  const ws = workspace({ "/w/app/build.gradle": "", "/w/lib/build.gradle": "" });
  assert.deepEqual(ws.projectRoots(), ["/w/app", "/w/lib"]);
  assert.deepEqual(ws.setFile("/w/settings.gradle", "include 'app', 'lib'\n").sort(), ["/w", "/w/app", "/w/lib"]);
  assert.deepEqual(ws.projectRoots(), ["/w"]);
});

test("Flink version evidence: flink-* dependency versions, connector suffixes, and the runner artifact", () => {
  const ws = workspace({
    "/w/gradle.properties": "flinkVersion=1.18.1\n",
    "/w/build.gradle": [
      "dependencies {",
      '  implementation "org.apache.beam:beam-runners-flink-1.17:2.56.0"',
      '  implementation "org.apache.flink:flink-streaming-java:$flinkVersion"',
      '  implementation "org.apache.flink:flink-clients:$flinkVersion"',
      "  implementation 'org.apache.flink:flink-connector-kafka:3.2.0-1.19'",
      "  implementation 'org.apache.flink:flink-connector-jdbc:3.1.2'",
      "  implementation 'org.apache.flink:flink-shaded-guava:31.1-jre-17.0'",
      "  implementation 'org.apache.flink:flink-kubernetes-operator:1.8.0'",
      "}",
    ].join("\n"),
  });
  const evidence = ws.project("/w").flinkVersion;
  assert.equal(evidence?.minor, "1.18");
  assert.equal(evidence?.evidence.source, "dependency");
  assert.deepEqual(
    [evidence?.evidence.full, evidence?.evidence.location?.file, span(evidence?.evidence.location?.range)],
    ["1.18.1", "/w/gradle.properties", "0:13-0:19"],
  );
  // Both flink-* artifacts share one definition: one piece of evidence. The others disagree.
  assert.deepEqual(
    evidence?.others.map((e) => [e.source, e.minor, span(e.location?.range)]),
    [
      ["dependency", "1.19", "4:57-4:67"],
      ["runner", "1.17", "1:18-1:64"],
    ],
  );
});

test("the cluster's image beats the build's versions, which beat the assumed version", () => {
  const ws = new Workspace({ roots: ["/w"], assumedFlinkVersion: "1.16" });
  ws.setFile(
    "/w/pom.xml",
    [
      "<project><artifactId>job</artifactId><dependencies>",
      "<dependency><groupId>org.apache.beam</groupId><artifactId>beam-runners-flink-1.18</artifactId><version>2.57.0</version></dependency>",
      "</dependencies></project>",
    ].join("\n"),
  );
  assert.deepEqual(
    [ws.project("/w").flinkVersion?.minor, ws.project("/w").flinkVersion?.evidence.source],
    ["1.18", "runner"],
  );
  ws.setFile("/w/Dockerfile", "FROM flink:1.19.1-java11\n");
  assert.deepEqual(
    [ws.project("/w").flinkVersion?.minor, ws.project("/w").flinkVersion?.evidence.source],
    ["1.19", "image"],
  );
});

test("in a repository of examples without builds, a folder with Python dependencies and a Compose file is a project", () => {
  const ws = workspace({
    "/w/README.md": "",
    "/w/apps/requirements.txt": "apache-flink==1.17.1\n",
    "/w/apps/docker-compose.yml": "services: {}\n",
    "/w/apps/src/job.py": "",
    "/w/cookbook/docker-compose.yml": "services: {}\n",
    "/w/cookbook/queries.sql": "",
    "/w/jobs/requirements.txt": "",
    "/w/jobs/job.py": "",
  });
  assert.equal(ws.projectRootOf("/w/apps/src/job.py"), "/w/apps");
  assert.equal(ws.projectRootOf("/w/apps/docker-compose.yml"), "/w/apps");
  // A Compose file alone, or Python dependencies alone (jobs run by a cluster configured elsewhere), is not.
  assert.equal(ws.projectRootOf("/w/cookbook/queries.sql"), "/w");
  assert.equal(ws.projectRootOf("/w/jobs/job.py"), "/w");
  // Removing the Compose file joins the example to the repository again; both projects change.
  assert.deepEqual(ws.removeFile("/w/apps/docker-compose.yml").sort(), ["/w", "/w/apps"]);
  assert.equal(ws.projectRootOf("/w/apps/src/job.py"), "/w");
});

test("a build above a folder of Python dependencies and a Compose file keeps it in the build's project", () => {
  const ws = workspace({
    "/w/pom.xml": leafPom,
    "/w/python/requirements.txt": "",
    "/w/python/docker-compose.yml": "services: {}\n",
    "/w/python/job.py": "",
  });
  assert.equal(ws.projectRootOf("/w/python/job.py"), "/w");
});

test("a folder with a settings file of its own that the enclosing settings file includes belongs to that build", () => {
  const ws = workspace({
    "/w/settings.gradle": "rootProject.name = 'top'\ninclude(':apps')\ninclude(':apps:job')\n",
    "/w/build.gradle.kts": "",
    "/w/docker-compose.yml": "services: {}\n",
    "/w/apps/settings.gradle.kts": 'rootProject.name = "apps"\ninclude(":job")\n',
    "/w/apps/build.gradle.kts": "",
    "/w/apps/job/build.gradle.kts": "",
    "/w/apps/job/src/main/java/Job.java": "",
    "/w/tools/settings.gradle": "",
    "/w/tools/build.gradle": "",
  });
  assert.equal(ws.projectRootOf("/w/apps/job/src/main/java/Job.java"), "/w");
  assert.equal(ws.projectRootOf("/w/apps/build.gradle.kts"), "/w");
  // Not included: a build of its own.
  assert.equal(ws.projectRootOf("/w/tools/build.gradle"), "/w/tools");
  // Dropping the include from the enclosing settings file makes `apps` a build of its own again.
  const changed = ws.setFile("/w/settings.gradle", "rootProject.name = 'top'\n");
  assert.ok(changed.includes("/w") && changed.includes("/w/apps"), `${changed}`);
  assert.equal(ws.projectRootOf("/w/apps/job/src/main/java/Job.java"), "/w/apps");
});
