/**
 * A top-level object or class of functions and properties is lowered and kept member by member (kotlin/lower.ts):
 * what that gives must be what lowering the item whole gives, cold, after an edit inside one member, and after an
 * edit above the members (every kept member then moves).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loweringUnits, lowerKotlin } from "../../server/src/core/documents/kotlin/lower";
import { dropTree, parseTree } from "../../server/src/core/jobcode/treeSitter";
import { LineIndex } from "../../server/src/core/text";
import { repoPath } from "../harness/fixtures";

function lowerBoth(text: string): { byMember: unknown; whole: unknown; units: string[] } {
  const file = "/member-cache/Job.kt";
  const tree = parseTree(file, "kotlin", text);
  if (!tree) throw new Error("no Kotlin parser");
  try {
    const index = new LineIndex(text);
    const byMember = lowerKotlin(tree.rootNode, text, index);
    const whole = lowerKotlin(tree.rootNode, text, index, { byMember: false });
    return { byMember, whole, units: loweringUnits(tree.rootNode, text) };
  } finally {
    dropTree(file);
  }
}

function kotlinFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) kotlinFiles(path, out);
    else if (name.endsWith(".kt")) out.push(path);
  }
  return out;
}

const JOB = [
  "package com.example.jobs",
  "",
  "import java.util.Properties",
  "",
  "data class Click(val page: String, val at: Long)",
  "",
  "object ClickJob {",
  '    const val TOPIC = "clicks"',
  "    val interval = 60_000L",
  "",
  "    fun props(): Properties {",
  "        val p = Properties()",
  '        p.setProperty("bootstrap.servers", "kafka:9092")',
  '        p.setProperty("group.id", "clicks")',
  "        return p",
  "    }",
  "",
  "    @JvmStatic",
  "    fun main(args: Array<String>) {",
  "        val env = StreamExecutionEnvironment.getExecutionEnvironment()",
  "        env.enableCheckpointing(interval)",
  "        fun local() = env.setParallelism(2)",
  "        local()",
  "        env.addSource(FlinkKafkaConsumer(TOPIC, SimpleStringSchema(), props())).setParallelism(8)",
  "            .flatMap { it.split(' ') }.setParallelism(1)",
  "        env.execute()",
  "    }",
  "}",
  "",
].join("\n");

test("lowered member by member equals lowered whole: every Kotlin rule fixture and example, and a job object", () => {
  const files = [...kotlinFiles(repoPath("test", "fixtures")), ...kotlinFiles(repoPath("examples"))];
  assert.ok(files.length > 20, `${files.length} Kotlin files`);
  for (const file of files) {
    const { byMember, whole } = lowerBoth(readFileSync(file, "utf8"));
    assert.deepEqual(byMember, whole, file);
  }
  const { byMember, whole, units } = lowerBoth(JOB);
  assert.deepEqual(byMember, whole);
  assert.equal(units.length, 7, `units: ${JSON.stringify(units)}`);
});

test("kept members after an edit inside one member, and after an edit above them, equal a cold lowering", () => {
  lowerBoth(JOB);
  const inside = JOB.replace("env.setParallelism(2)", "env.setParallelism(4)");
  const a = lowerBoth(inside);
  assert.deepEqual(a.byMember, a.whole);
  const above = JOB.replace("package com.example.jobs", "package com.example.jobs.moved\n\n// a comment above");
  const b = lowerBoth(above);
  assert.deepEqual(b.byMember, b.whole);
});

test("an object with an init block or a companion object, and a class with a constructor, are lowered whole", () => {
  const text = [
    "object A {",
    "    init { println(1) }",
    "    fun f() = 1",
    "}",
    "class B(val x: String) {",
    "    fun g() = 2",
    "}",
    "class C {",
    "    companion object { const val K = 1 }",
    "    fun h() = 3",
    "}",
    "",
  ].join("\n");
  const { byMember, whole, units } = lowerBoth(text);
  assert.deepEqual(byMember, whole);
  assert.equal(units.length, 3);
});
