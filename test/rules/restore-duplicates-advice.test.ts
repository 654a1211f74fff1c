/**
 * BFL301 at its version boundaries, as a user sees it: the short message, the severity, and the related
 * information that says what helps (`--experiments=beam_fn_api`, except on 2.58.0) and what is uncertain (2.63.x).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Finding } from "../../server/src/core/findings";
import { analyzeAll, FIXTURE_ROOT, workspaceOf } from "../harness/fixtures";

const BUILD = `plugins {
    id 'java'
}

dependencies {
    implementation "org.apache.beam:beam-sdks-java-io-kafka:\${beamVersion}"
    runtimeOnly "org.apache.beam:beam-runners-flink-1.18:\${beamVersion}"
}
`;

function bfl301(version: string): Finding[] {
  const files = new Map([
    [`${FIXTURE_ROOT}/build.gradle`, BUILD],
    [`${FIXTURE_ROOT}/gradle.properties`, `beamVersion=${version}\n`],
  ]);
  return analyzeAll(workspaceOf(files)).filter((f) => f.rule === "BFL301");
}

function details(version: string): string[] {
  const [f] = bfl301(version);
  return f.related.filter((r) => r.file === `${FIXTURE_ROOT}/gradle.properties`).map((r) => r.message);
}

const WORKAROUND = /^`--experiments=beam_fn_api` avoids it \(confirmed in apache\/beam#31313\) at a cost/;
const NO_WAY_OUT = /^On Beam 2\.58\.0 `--experiments=beam_fn_api` is no way out/;

test("2.57.0 and 2.58.1: beam_fn_api is named as the workaround, with its cost; use_deprecated_read is not", () => {
  for (const version of ["2.57.0", "2.58.1"]) {
    const d = details(version);
    assert.ok(d.includes("`--experiments=use_deprecated_read` does not avoid the bug."), version);
    assert.ok(
      d.some((m) => WORKAROUND.test(m)),
      version,
    );
    assert.ok(!d.some((m) => NO_WAY_OUT.test(m)), version);
  }
});

test("2.58.0: beam_fn_api is no way out, because it routes KafkaIO into the read of apache/beam#32196", () => {
  const d = details("2.58.0");
  assert.ok(d.some((m) => NO_WAY_OUT.test(m)));
  assert.ok(!d.some((m) => WORKAROUND.test(m)));
});

test("the boundaries: 2.51.0 silent, 2.52.0 and 2.62.1 errors, 2.63.0 a warning that says why, 2.64.0 silent", () => {
  assert.deepEqual(bfl301("2.51.0"), []);
  for (const version of ["2.52.0", "2.62.1"]) {
    const [f] = bfl301(version);
    assert.equal(f.severity, "error", version);
    assert.equal(
      f.message,
      `Beam ${version} has a known bug in the Flink runner: after a restore, every Kafka message is read and processed twice.`,
    );
  }
  const [uncertain] = bfl301("2.63.0");
  assert.equal(uncertain.severity, "warning");
  assert.match(uncertain.message, /^Beam 2\.63\.0 may still have a known bug: after a restore/);
  const note = details("2.63.0").find((m) => m.startsWith("2.63.x possibly still has it"));
  assert.match(
    note ?? "",
    /neither the 2\.63\.0 nor the 2\.64\.0 release notes mention it; 2\.64\.0 is the release to move to/,
  );
  assert.doesNotMatch(note ?? "", /confirmed/);
  assert.deepEqual(bfl301("2.64.0"), []);
});
