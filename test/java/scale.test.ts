/** A 10,000-line job class is read member by member: every read and operator is found, a broken member costs one. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readJava } from "../../server/src/core/documents/java/reader";
import { effectiveSetting } from "../../server/src/core/jobcode/facts";
import { generateJob } from "./gen";

test("a generated 10,000-line class: all reads with their helper-built config, all operators", () => {
  const job = generateJob(10_000);
  const facts = readJava("/gen/GeneratedJob.java", job.text);
  assert.deepEqual(facts.parseProblems, []);
  assert.equal(facts.kafkaReads.length, job.reads);
  assert.equal(facts.dataStream.operators.length, job.operators);
  const last = facts.kafkaReads[job.reads - 1];
  const group = effectiveSetting(last.consumerConfig, "group.id");
  assert.equal(group?.value.value.kind === "string" && group.value.value.value, `group-${job.reads - 1}`);
  assert.deepEqual(group?.via, [`method consumerProps${job.reads - 1}()`]);
});

test("one broken method in the middle of a long class loses only that method's read", () => {
  const job = generateJob(4_000);
  const broken = job.text.replace('withTopic("topic-60")', 'withTopic("topic-60"');
  const facts = readJava("/gen/GeneratedJob.java", broken);
  assert.equal(facts.parseProblems.length, 1);
  assert.equal(facts.kafkaReads.length, job.reads - 1);
});
