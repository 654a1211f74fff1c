/**
 * schemas/beam-flink-lint.schema.json and the project config reader must agree: the same settings, and the same
 * verdict on valid and invalid samples. The schema is checked with a small validator for the draft-07 keywords it
 * uses (written here: the tests use no network and no extra packages).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parse } from "yaml";
import { readProjectConfig } from "../../server/src/core/documents/projectConfig";
import { repoPath } from "../harness/fixtures";

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema and YAML values are walked generically.
type Json = any;

const schema: Json = JSON.parse(readFileSync(repoPath("schemas", "beam-flink-lint.schema.json"), "utf8"));

const USED_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$ref",
  "title",
  "description",
  "type",
  "properties",
  "additionalProperties",
  "propertyNames",
  "pattern",
  "enum",
  "items",
  "oneOf",
  "allOf",
  "minimum",
  "minLength",
  "default",
  "examples",
  "definitions",
]);

function typeOf(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function validate(s: Json, v: Json, path = "$"): string[] {
  if (s.$ref) return validate(schema.definitions[s.$ref.replace("#/definitions/", "")], v, path);
  const errors: string[] = [];
  for (const key of Object.keys(s))
    if (!USED_KEYWORDS.has(key)) errors.push(`${path}: keyword ${key} not supported here`);
  if (s.type) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    const t = typeOf(v);
    if (!types.includes(t) && !(t === "integer" && types.includes("number"))) return [`${path}: ${t} is not ${types}`];
  }
  if (s.enum && !s.enum.includes(v)) errors.push(`${path}: ${v} not in enum`);
  if (s.pattern && typeof v === "string" && !new RegExp(s.pattern).test(v)) errors.push(`${path}: pattern`);
  if (s.minLength !== undefined && typeof v === "string" && v.length < s.minLength) errors.push(`${path}: minLength`);
  if (s.minimum !== undefined && typeof v === "number" && v < s.minimum) errors.push(`${path}: minimum`);
  if (s.allOf) for (const sub of s.allOf) errors.push(...validate(sub, v, path));
  if (s.oneOf && s.oneOf.filter((sub: Json) => validate(sub, v, path).length === 0).length !== 1)
    errors.push(`${path}: oneOf`);
  if (s.items && Array.isArray(v)) {
    for (const [i, item] of v.entries()) errors.push(...validate(s.items, item, `${path}[${i}]`));
  }
  if (typeOf(v) === "object") {
    for (const [k, value] of Object.entries(v)) {
      if (s.propertyNames) errors.push(...validate(s.propertyNames, k, `${path}.${k} (name)`));
      if (s.properties?.[k]) errors.push(...validate(s.properties[k], value, `${path}.${k}`));
      else if (s.additionalProperties === false) errors.push(`${path}.${k}: not allowed`);
      else if (typeof s.additionalProperties === "object")
        errors.push(...validate(s.additionalProperties, value, `${path}.${k}`));
    }
  }
  return errors;
}

const VALID = `
rules:
  BFL116: off
  checkpointing-disabled: error
flinkVersion: 1.20
beamVersion: "2.64.0"
beamUpgradeTarget: 2.70.0
operatorVersion: 1.9.0
include: ["deploy/**", "conf/**"]
exclude: generated/**
flinkConfigFiles:
  - conf/flink-*.yaml
kafkaTopics:
  orders: 12
checkpointInterval: 30 s
`;

test("the schema and the reader name the same settings", () => {
  const read = readProjectConfig("/p/.beam-flink-lint.yaml", VALID);
  assert.deepEqual(read.problems, []);
  // Every setting of the sample was read into the config (the reader knows each schema property)…
  const internal = new Set(["file", "flinkVersionRange", "operatorVersionRange", "checkpointIntervalMillis"]);
  const readKeys = Object.keys(read.config)
    .filter((k) => !internal.has(k))
    .sort();
  assert.deepEqual(readKeys, Object.keys(schema.properties).sort());
  assert.deepEqual(Object.keys(parse(VALID)).sort(), readKeys, "the sample sets every setting");
  // …and the reader rejects what the schema does not list.
  const unknown = readProjectConfig("/p/.beam-flink-lint.yaml", "colour: red\n");
  assert.match(unknown.problems[0]?.message ?? "", /Unknown setting 'colour'/);
  assert.equal(schema.additionalProperties, false);
});

test("the reader takes what is written: 1.20 stays 1.20", () => {
  const read = readProjectConfig("/p/.beam-flink-lint.yaml", VALID);
  assert.equal(read.config.flinkVersion, "1.20");
  assert.deepEqual(read.config.flinkVersionRange, {
    start: { line: 4, character: 14 },
    end: { line: 4, character: 18 },
  });
  assert.deepEqual(read.config.exclude, ["generated/**"]);
});

test("the schema accepts the valid sample and every example it gives", () => {
  assert.deepEqual(validate(schema, parse(VALID)), []);
  for (const [key, property] of Object.entries<Json>(schema.properties)) {
    assert.ok(typeof property.description === "string" && property.description.length > 0, `${key} has a description`);
    for (const example of property.examples ?? []) {
      assert.deepEqual(validate(schema, { [key]: example }), [], `${key}: ${JSON.stringify(example)}`);
      assert.deepEqual(readProjectConfig("/p/c.yaml", `${key}: ${JSON.stringify(example)}\n`).problems, [], key);
    }
  }
});

const INVALID: [string, string][] = [
  ["an unknown setting", "colour: red\n"],
  ["an unknown severity", "rules:\n  BFL101: loud\n"],
  ["a rule without a setting", "rules:\n  BFL101:\n"],
  ["rules as a list", "rules:\n  - BFL101\n"],
  ["a version that is not one", "flinkVersion: latest\n"],
  ["a partition count of zero", "kafkaTopics:\n  orders: 0\n"],
  ["a fractional partition count", "kafkaTopics:\n  orders: 1.5\n"],
  ["a glob that is not a string", "exclude:\n  - 3\n"],
  ["globs as a mapping", "include:\n  a: b\n"],
  ["an empty checkpoint interval", "checkpointInterval: ''\n"],
];

for (const [what, text] of INVALID) {
  test(`both reject ${what}`, () => {
    assert.notDeepEqual(validate(schema, parse(text)), [], "the schema rejects it");
    assert.notDeepEqual(readProjectConfig("/p/c.yaml", text).problems, [], "the reader rejects it");
  });
}
