/** Flink's value syntaxes: what TimeUtils, MemorySize and Java's number parsing accept and reject. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { lookupOption } from "../../server/src/core/knowledge/options";
import {
  checkType,
  matchEnum,
  parseBoolean,
  parseDouble,
  parseDuration,
  parseFloat32,
  parseInteger,
  parseLong,
  parseMemorySize,
  validateValue,
} from "../../server/src/core/knowledge/values";

test("durations: number, optional whitespace, unit label in any case; a bare number is milliseconds", () => {
  const millis = (t: string) => parseDuration(t)?.millis;
  assert.equal(millis("10 s"), 10_000);
  assert.equal(millis("10s"), 10_000);
  assert.equal(millis("  1 min "), 60_000);
  assert.equal(millis("1m"), 60_000);
  assert.equal(millis("2 Minutes"), 120_000);
  assert.equal(millis("500 ms"), 500);
  assert.equal(millis("3 millis"), 3);
  assert.equal(millis("1h"), 3_600_000);
  assert.equal(millis("2 hours"), 7_200_000);
  assert.equal(millis("1 d"), 86_400_000);
  assert.equal(millis("7 days"), 604_800_000);
  assert.equal(millis("5 secs"), 5_000);
  assert.equal(millis("1 SECOND"), 1_000);
  assert.equal(millis("1000 µs"), 1);
  assert.equal(millis("1000000 ns"), 1);
  assert.equal(millis("180"), 180);
  assert.deepEqual(parseDuration("180"), { millis: 180, hasUnit: false, number: "180", unit: "" });
  assert.equal(parseDuration("30 s")?.hasUnit, true);
});

test("durations Flink rejects", () => {
  for (const bad of [
    "",
    " ",
    "s",
    "1.5 s",
    "-1 s",
    "10 mins",
    "10 minuts",
    "1 week",
    "ten seconds",
    "10 s 5 ms",
    "PT10S",
  ]) {
    assert.equal(parseDuration(bad), undefined, bad);
  }
  assert.equal(parseDuration("99999999999999999999"), undefined, "beyond a 64-bit count");
});

test("memory sizes: b/k/m/g/t with their long forms, any case; a bare number is bytes", () => {
  const bytes = (t: string) => parseMemorySize(t)?.bytes;
  assert.equal(bytes("1600m"), 1600n * 1024n * 1024n);
  assert.equal(bytes("2 gb"), 2n * 1024n ** 3n);
  assert.equal(bytes("2 GB"), 2n * 1024n ** 3n);
  assert.equal(bytes("1024 kb"), 1024n * 1024n);
  assert.equal(bytes("64 mebibytes"), 64n * 1024n ** 2n);
  assert.equal(bytes("1 t"), 1024n ** 4n);
  assert.equal(bytes("100 bytes"), 100n);
  assert.equal(bytes("4096"), 4096n);
  assert.equal(parseMemorySize("4096")?.hasUnit, false);
  for (const bad of ["1.5g", "2 gib", "64 mib", "1 pb", "m", "-1 m", "9999999999 t"]) {
    assert.equal(parseMemorySize(bad), undefined, bad);
  }
});

test("booleans: true or false in any case, nothing else", () => {
  assert.equal(parseBoolean("true"), true);
  assert.equal(parseBoolean("FALSE"), false);
  assert.equal(parseBoolean("True"), true);
  for (const bad of ["yes", "no", "1", "on", ""]) assert.equal(parseBoolean(bad), undefined, bad);
});

test("whole numbers as Integer.parseInt / Long.parseLong read them", () => {
  assert.equal(parseInteger("4"), 4);
  assert.equal(parseInteger("+4"), 4);
  assert.equal(parseInteger("-1"), -1);
  assert.equal(parseInteger("2147483647"), 2147483647);
  for (const bad of ["2147483648", "4.0", "1_000", " 4", "four", "", "0x10"]) {
    assert.equal(parseInteger(bad), undefined, bad);
  }
  assert.equal(parseLong("9223372036854775807"), 9223372036854775807n);
  assert.equal(parseLong("9223372036854775808"), undefined);
  assert.equal(parseLong("3000000000"), 3000000000n);
});

test("floating point numbers as Double.parseDouble reads them", () => {
  assert.equal(parseDouble("0.4"), 0.4);
  assert.equal(parseDouble(".5"), 0.5);
  assert.equal(parseDouble("1."), 1);
  assert.equal(parseDouble("1e3"), 1000);
  assert.equal(parseDouble("2.5d"), 2.5);
  assert.equal(parseDouble(" 1.5 "), 1.5);
  assert.equal(parseDouble("0x1p3"), 8);
  assert.ok(Number.isNaN(parseDouble("NaN")));
  assert.equal(parseDouble("-Infinity"), -Infinity);
  for (const bad of ["0,4", "", "1e", "abc", "1.2.3", "nan", "inf"]) assert.equal(parseDouble(bad), undefined, bad);
  assert.equal(parseFloat32("0.75"), 0.75);
  assert.equal(parseFloat32("1e39"), undefined, "beyond the float range");
});

test("enum values match case-insensitively and come back as Flink spells them", () => {
  assert.equal(matchEnum("exactly_once", ["EXACTLY_ONCE", "AT_LEAST_ONCE"]), "EXACTLY_ONCE");
  assert.equal(matchEnum("exactly-once", ["EXACTLY_ONCE", "AT_LEAST_ONCE"]), undefined);
  assert.equal(checkType({ type: "Enum", enumValues: ["A", "B"] }, "c"), "Flink accepts one of `A`, `B`");
  assert.equal(checkType({ type: "Enum" }, "anything"), undefined, "an Enum without listed values takes anything");
});

test("validateValue uses the option's type in the given minor", () => {
  const heartbeat = lookupOption("heartbeat.interval");
  assert.ok(heartbeat);
  assert.match(validateValue(heartbeat, "10 s", "1.19") ?? "", /64-bit/);
  assert.equal(validateValue(heartbeat, "10 s", "1.20"), undefined);
  assert.equal(validateValue(heartbeat, "10000", "1.19"), undefined);
  assert.equal(validateValue(heartbeat, "10 s"), undefined, "no minor: either type may apply");
  const mode = lookupOption("execution.checkpointing.mode");
  assert.ok(mode);
  assert.equal(validateValue(mode, "at_least_once", "1.20"), undefined);
  assert.match(validateValue(mode, "once", "1.20") ?? "", /EXACTLY_ONCE/);
  const dir = lookupOption("execution.checkpointing.dir");
  assert.ok(dir);
  assert.equal(validateValue(dir, "whatever", "2.0"), undefined, "strings take anything");
});
