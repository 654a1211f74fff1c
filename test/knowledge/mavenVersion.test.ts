/** Version order as Maven's ComparableVersion has it (the cases were checked against Maven 3.8's own class). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { compareMavenVersions, inVersionRange, isConcreteVersion } from "../../server/src/core/knowledge/mavenVersion";

/** Asserts that the versions are in strictly ascending order, each pair compared both ways. */
function ascending(...versions: string[]): void {
  for (let i = 0; i + 1 < versions.length; i++) {
    const [a, b] = [versions[i], versions[i + 1]];
    assert.ok(compareMavenVersions(a, b) < 0, `${a} < ${b}`);
    assert.ok(compareMavenVersions(b, a) > 0, `${b} > ${a}`);
  }
}

function same(...versions: string[]): void {
  for (const v of versions.slice(1)) assert.equal(compareMavenVersions(versions[0], v), 0, `${versions[0]} = ${v}`);
}

test("numeric segments compare as numbers, not text", () => {
  ascending("2.9.0", "2.10.0", "2.52.0", "2.62.9", "2.63.0", "2.63.1", "2.64.0", "2.100.0", "10.0");
  ascending("1", "1.1", "1.1.1");
  ascending("2.63.0.1", "2.63.1");
  same("2.064.0", "2.64.0");
  ascending("1.99999999999999999999", "1.100000000000000000000");
});

test("trailing zeros and release qualifiers are dropped", () => {
  same("2.64.0", "2.64", "2.64.0.0", "2.64.0-ga", "2.64.0.final", "2.64.0-RELEASE", "2.64.0-0");
  same("1", "1.ga", "1-ga", "1-0", "1.0");
});

test("pre-releases come before the release, service packs after", () => {
  ascending(
    "2.63.0-alpha",
    "2.63.0-beta",
    "2.63.0-milestone-1",
    "2.63.0-RC1",
    "2.63.0-RC2",
    "2.63.0-SNAPSHOT",
    "2.63.0",
    "2.63.0-sp",
    "2.63.0-foo",
    "2.63.0-1",
    "2.63.0.1",
  );
  ascending("2.62.9", "2.63.0-RC1");
  same("2.63.0-RC1", "2.63.0-cr1", "2.63.0-rc-1", "2.63.0rc1", "2.63.0.rc1");
  same("1-a1", "1-alpha-1", "1.0alpha1");
  same("1-b2", "1-beta-2");
  same("1-m3", "1-milestone-3");
});

test("qualifiers are case-insensitive; unknown ones sort alphabetically after the known", () => {
  same("2.63.0-SNAPSHOT", "2.63.0-snapshot");
  ascending("1-bar", "1-foo", "1-foo2", "1-foo10");
  ascending("1.foo", "1-1", "1.1");
  same("1.foo", "1-foo");
});

test("Maven's own edge cases: a qualifier between numbers, nulls at each hyphen", () => {
  ascending("1-sp-1", "1-ga-1", "1-1");
  ascending("1-ga.1", "1-sp.1");
  ascending("1.foo.2", "1-foo-2");
});

test("ranges are half-open, as OSV writes them", () => {
  const range = { introduced: "2.52.0", fixed: "2.63.0" };
  assert.equal(inVersionRange("2.51.0", range), false);
  assert.equal(inVersionRange("2.52.0-RC1", range), false);
  assert.equal(inVersionRange("2.52.0", range), true);
  assert.equal(inVersionRange("2.62.5", range), true);
  assert.equal(inVersionRange("2.63.0-SNAPSHOT", range), true, "a snapshot of 2.63.0 precedes 2.63.0");
  assert.equal(inVersionRange("2.63.0", range), false);
  assert.equal(inVersionRange("2.99.0", { introduced: "2.52.0" }), true, "an open end");
});

test("only single versions are concrete: ranges, dynamic versions and placeholders are not", () => {
  for (const v of ["2.56.0", "2.63.0-RC1", "2.64.0-SNAPSHOT", "2.64", "1.0alpha1"]) assert.ok(isConcreteVersion(v), v);
  for (const v of [
    "[2.52,2.60)",
    "2.+",
    "latest.release",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference as a pom writes it
    "${beam.version}",
    "$beamVersion",
    "",
    "beam",
    "2..1",
    "2.56.",
  ]) {
    assert.ok(!isConcreteVersion(v), v);
  }
});
