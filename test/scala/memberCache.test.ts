/**
 * A top-level object or class whose body holds definitions only is lowered and kept member by member (scala/lower.ts):
 * what that gives must be what lowering the item whole gives, cold, after an edit inside one member, and after an
 * edit above the members (every kept member then moves).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { clearScalaCache } from "../../server/src/core/documents/code/itemCache";
import { loweringUnits, lowerScala } from "../../server/src/core/documents/scala/lower";
import { dropTree, parseTree } from "../../server/src/core/jobcode/treeSitter";
import { LineIndex } from "../../server/src/core/text";
import { repoPath } from "../harness/fixtures";

function lowerBoth(text: string): { byMember: unknown; whole: unknown } {
  const file = "/member-cache/Job.scala";
  const tree = parseTree(file, "scala", text);
  if (!tree) throw new Error("no Scala parser");
  try {
    const index = new LineIndex(text);
    const byMember = lowerScala(tree.rootNode, text, index);
    const whole = lowerScala(tree.rootNode, text, index, { byMember: false });
    return { byMember, whole };
  } finally {
    dropTree(file);
  }
}

function scalaFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) scalaFiles(path, out);
    else if (name.endsWith(".scala")) out.push(path);
  }
  return out;
}

const JOB = [
  "package com.example.jobs",
  "",
  "import java.util.Properties",
  "import org.apache.flink.streaming.api.scala._",
  "",
  "final case class Click(page: String, at: Long)",
  "",
  "class Settings(val topic: String, var group: String) {",
  '  val servers = "kafka:9092"',
  "  def props(): Properties = {",
  "    val p = new Properties()",
  '    p.setProperty("bootstrap.servers", servers)',
  '    p.setProperty("group.id", group)',
  "    p",
  "  }",
  "}",
  "",
  "object ClickJob {",
  '  val Topic = "clicks"',
  "  lazy val Interval = 60000L",
  "  def checkpoints(env: StreamExecutionEnvironment): Unit = env.enableCheckpointing(Interval)",
  "  def main(args: Array[String]): Unit = {",
  "    val env = StreamExecutionEnvironment.getExecutionEnvironment",
  "    def local(n: Int): Int = n * 2",
  "    checkpoints(env)",
  '    env.addSource(new FlinkKafkaConsumer[String](Topic, new SimpleStringSchema(), new Settings(Topic, "g").props()))',
  "      .setParallelism(local(4))",
  "      .print()",
  '    env.execute("clicks")',
  "  }",
  "  object Nested {",
  '    val GroupId = "nested"',
  "  }",
  "}",
  "",
].join("\n");

test("an object or class of definitions is kept member by member; a case class without a body is one unit", () => {
  const file = "/member-cache/Units.scala";
  const tree = parseTree(file, "scala", JOB);
  if (!tree) throw new Error("no Scala parser");
  try {
    const units = loweringUnits(tree.rootNode, JOB).map((u) => u.split("\n")[0]);
    assert.deepEqual(units, [
      "import java.util.Properties",
      "import org.apache.flink.streaming.api.scala._",
      "final case class Click(page: String, at: Long)",
      '  val servers = "kafka:9092"'.trim(),
      "def props(): Properties = {",
      'val Topic = "clicks"',
      "lazy val Interval = 60000L",
      "def checkpoints(env: StreamExecutionEnvironment): Unit = env.enableCheckpointing(Interval)",
      "def main(args: Array[String]): Unit = {",
      "object Nested {",
    ]);
  } finally {
    dropTree(file);
  }
});

test("lowered member by member equals lowered whole: every Scala rule fixture and example, and a job with classes", () => {
  const files = [...scalaFiles(repoPath("test", "fixtures")), ...scalaFiles(repoPath("examples"))];
  assert.ok(files.length >= 30, `only ${files.length} Scala files found`);
  const texts = [JOB, ...files.map((f) => readFileSync(f, "utf8"))];
  for (const [i, text] of texts.entries()) {
    clearScalaCache();
    const { byMember, whole } = lowerBoth(text);
    assert.deepEqual(byMember, whole, i === 0 ? "the job" : files[i - 1]);
  }
});

test("kept members after an edit inside one member, and after an edit above them, equal a cold lowering", () => {
  const edits = [
    JOB.replace("env.enableCheckpointing(Interval)", "env.enableCheckpointing(Interval * 2)"),
    JOB.replace(
      "final case class Click(page: String, at: Long)",
      "final case class Click(page: String, user: String, at: Long)",
    ),
    JOB.replace('  val Topic = "clicks"', '  val Topic = "clicks"\n  def extra(): Int = 1'),
    JOB.replace('    val GroupId = "nested"', '    val GroupId = "nested-2"'),
  ];
  for (const text of edits) {
    clearScalaCache();
    lowerBoth(JOB);
    const warm = lowerBoth(text).byMember;
    clearScalaCache();
    const cold = lowerBoth(text).whole;
    assert.deepEqual(warm, cold, text);
  }
});

test("an object that runs statements, or holds a syntax error, is lowered whole (same result either way)", () => {
  const runs =
    "object Job extends App {\n  val env = StreamExecutionEnvironment.getExecutionEnvironment\n  env.enableCheckpointing(1000)\n}\n";
  const broken = "object Job {\n  def main(args: Array[String]): Unit = {\n    env.enableCheckpointing(\n  }\n}\n";
  for (const text of [runs, broken]) {
    clearScalaCache();
    const { byMember, whole } = lowerBoth(text);
    assert.deepEqual(byMember, whole);
  }
});
