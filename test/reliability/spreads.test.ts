/**
 * No call spreads an array of unbounded size into arguments (`list.push(...items)`, `Math.max(...values)`): V8 gives
 * up at about a hundred thousand arguments with "Maximum call stack size exceeded", and a 130,000-line file makes
 * that many findings. `pushAll` (core/arrays.ts) appends one by one. Nor does a map of lists copy its list per value
 * (`map.set(k, [...(map.get(k) ?? []), v])`, quadratic when one key collects many values): `addTo` appends.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { repoPath } from "../harness/fixtures";

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The lines of the product's code that match `pattern`, outside doc comments, as `file:line: text`. */
function offendingLines(pattern: RegExp): string[] {
  const root = repoPath();
  const offending: string[] = [];
  for (const file of sources(repoPath("server", "src"))) {
    const rel = relative(root, file).split("\\").join("/");
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (pattern.test(line) && !line.trim().startsWith("*")) offending.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return offending;
}

test("no push(...array) or Math.max/min(...array) in the product's code", () => {
  assert.deepEqual(offendingLines(/\.push\(\s*\.\.\.|Math\.(max|min)\(\s*\.\.\./), []);
});

test("no map of lists copied per value: map.set(k, [...(map.get(k) ?? []), v])", () => {
  assert.deepEqual(offendingLines(/\.set\([^;]*\[\s*\.\.\.\(?\s*[\w.]+\.get\(/), []);
});
