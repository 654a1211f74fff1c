/**
 * Test code is told by the path inside the project: a checkout that lives under a folder named `tests/` or `test/`
 * (`~/tests/clicks`, `/srv/test/jobs`) is production code, and its test folders are still tests.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Workspace } from "../../server/src/core/workspace/workspace";

const JOB = `from pyflink.common import WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaSource


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    source = (
        KafkaSource.builder()
        .set_bootstrap_servers("kafka:9092")
        .set_topics("clicks")
        .set_group_id("clicks")
        .set_value_only_deserializer(SimpleStringSchema())
        .build()
    )
    env.from_source(source, WatermarkStrategy.no_watermarks(), "clicks").print()
    env.execute("clicks")
`;

const SCALA_JOB = `package clicks

import org.apache.flink.streaming.api.scala._
import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer

object ClickJob {
  def main(args: Array[String]): Unit = {
    val env = StreamExecutionEnvironment.getExecutionEnvironment
    env.addSource(new FlinkKafkaConsumer[String]("clicks", new SimpleStringSchema(), props)).print()
    env.execute("clicks")
  }
}
`;

function bfl501(ws: Workspace, root: string): string[] {
  return [...ws.analyze(root).byFile.values()]
    .flat()
    .filter((f) => f.rule === "BFL501")
    .map((f) => `${f.file}:${f.range.start.line + 1}`);
}

test("a PyFlink job in a workspace under a tests/ folder is production code", () => {
  const ws = new Workspace({ roots: ["/home/dev/tests/clicks"] });
  ws.setFile("/home/dev/tests/clicks/requirements.txt", "apache-flink==1.19.1\n");
  ws.setFile("/home/dev/tests/clicks/jobs/click_counts.py", JOB);
  assert.deepEqual(bfl501(ws, ws.projectRootOf("/home/dev/tests/clicks/jobs/click_counts.py")), [
    "/home/dev/tests/clicks/jobs/click_counts.py:8",
  ]);
});

test("a Scala job of an sbt build checked out under /srv/test/ is production code; its src/test is not", () => {
  const ws = new Workspace();
  ws.setFile("/srv/test/clicks/pom.xml", "<project><artifactId>clicks</artifactId></project>\n");
  ws.setFile("/srv/test/clicks/src/main/scala/clicks/ClickJob.scala", SCALA_JOB);
  ws.setFile(
    "/srv/test/clicks/src/test/scala/clicks/ClickJobSpec.scala",
    SCALA_JOB.replace("ClickJob", "ClickJobSpec"),
  );
  assert.deepEqual(bfl501(ws, ws.projectRootOf("/srv/test/clicks/pom.xml")), [
    "/srv/test/clicks/src/main/scala/clicks/ClickJob.scala:8",
  ]);
});

test("a tests/ folder inside the project is still test code", () => {
  const ws = new Workspace({ roots: ["/home/dev/clicks"] });
  ws.setFile("/home/dev/clicks/requirements.txt", "apache-flink==1.19.1\n");
  ws.setFile("/home/dev/clicks/tests/click_counts.py", JOB);
  assert.deepEqual(bfl501(ws, ws.projectRootOf("/home/dev/clicks/tests/click_counts.py")), []);
});
