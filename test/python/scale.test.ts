/** A generated 5,000-line module is read whole: every read, source and operator is found; a broken function costs one. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { effectiveSetting } from "../../server/src/core/jobcode/facts";
import { generateModule } from "./gen";
import { py } from "./helpers";

test("a generated 5,000-line module: all reads with their helper-built config, all sources and operators", () => {
  const job = generateModule(5_000);
  const facts = py(job.text, "/gen/module.py");
  assert.deepEqual(facts.parseProblems, []);
  assert.equal(facts.kafkaReads.length, job.reads);
  assert.equal(facts.dataStream.kafkaSources.length, job.sources);
  assert.equal(facts.dataStream.operators.length, job.operators);
  const last = facts.kafkaReads[job.reads - 1];
  const group = effectiveSetting(last.consumerConfig, "group.id");
  assert.equal(group?.value.value.kind === "string" && group.value.value.value, `group-${job.reads - 1}`);
  assert.equal(effectiveSetting(last.consumerConfig, "max.poll.records")?.value.raw, `${(job.reads - 1) % 500}`);
});

test("one broken function in the middle of a long module loses only that function's read", () => {
  const job = generateModule(2_000);
  const broken = job.text.replace('topics=["topic-20"],', 'topics=["topic-20",');
  const facts = py(broken, "/gen/broken.py");
  assert.equal(facts.parseProblems.length, 1);
  assert.equal(facts.kafkaReads.length, job.reads - 1);
  assert.equal(facts.dataStream.kafkaSources.length, job.sources);
});
