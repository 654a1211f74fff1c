/** Reads `.beam-flink-lint.yaml`, the project configuration. Unknown or mistyped fields are reported, not fatal. */
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import { defaultProjectConfig, type ProjectConfig, type RuleSetting } from "../config";
import { globProblem } from "../glob";
import { parseDuration } from "../knowledge/values";
import type { SyntaxProblem } from "../model";
import { LineIndex, type Range } from "../text";
import { withoutStackTraces } from "./yaml/ast";

export const PROJECT_CONFIG_NAMES = [".beam-flink-lint.yaml", ".beam-flink-lint.yml"];

const SETTINGS: readonly string[] = ["off", "error", "warning", "info", "hint"];

export interface ProjectConfigResult {
  config: ProjectConfig;
  problems: SyntaxProblem[];
}

/**
 * A scalar as written: `flinkVersion: 1.20` is the version 1.20, not the number 1.2 a YAML parser makes of it.
 * Quoted scalars give their content.
 */
function scalarText(node: unknown): string {
  if (!isScalar(node) || node.value === null) return "";
  return node.source ?? String(node.value);
}

export function readProjectConfig(file: string, text: string): ProjectConfigResult {
  const config = defaultProjectConfig();
  config.file = file;
  const problems: SyntaxProblem[] = [];
  const index = new LineIndex(text);
  const rangeOf = (node: unknown): Range => {
    const r = (node as { range?: [number, number, number] } | null)?.range;
    return r ? index.rangeOf(r[0], r[1]) : index.rangeOf(0, 0);
  };
  const doc = withoutStackTraces(() => parseDocument(text, { uniqueKeys: true, prettyErrors: false }));
  for (const e of doc.errors) problems.push({ range: index.rangeOf(e.pos[0], e.pos[1]), message: e.message });
  const root = doc.contents;
  if (root === null || root === undefined) return { config, problems };
  if (!isMap(root)) {
    problems.push({ range: rangeOf(root), message: "The project configuration must be a mapping." });
    return { config, problems };
  }
  const strings = (node: unknown, field: string): string[] => {
    if (isSeq(node)) {
      const out: string[] = [];
      for (const item of node.items) {
        if (isScalar(item) && typeof item.value === "string") {
          const problem = globProblem(item.value);
          if (problem) problems.push({ range: rangeOf(item), message: `This glob ${problem}, so it matches nothing.` });
          else out.push(item.value);
        } else problems.push({ range: rangeOf(item), message: `Each entry of '${field}' must be a string (a glob).` });
      }
      return out;
    }
    if (isScalar(node) && typeof node.value === "string") {
      const problem = globProblem(node.value);
      if (!problem) return [node.value];
      problems.push({ range: rangeOf(node), message: `This glob ${problem}, so it matches nothing.` });
      return [];
    }
    problems.push({ range: rangeOf(node), message: `'${field}' must be a list of globs.` });
    return [];
  };
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    const value = pair.value;
    switch (key) {
      case "rules":
        if (!isMap(value)) {
          problems.push({
            range: rangeOf(value ?? pair.key),
            message: "'rules' must map rule codes or names to a severity or off.",
          });
          break;
        }
        for (const rule of value.items) {
          const code = isScalar(rule.key) ? String(rule.key.value) : "";
          const setting = isScalar(rule.value) ? String(rule.value.value) : "";
          if (!SETTINGS.includes(setting)) {
            problems.push({
              range: rangeOf(rule.value ?? rule.key),
              message: `'${setting}' is not a rule setting; use one of ${SETTINGS.join(", ")}.`,
            });
            continue;
          }
          config.rules[code] = setting as RuleSetting;
        }
        break;
      case "flinkVersion":
      case "beamVersion":
      case "beamUpgradeTarget":
      case "operatorVersion": {
        const v = scalarText(value);
        if (!/^\d+\.\d+(\.\d+)?$/.test(v)) {
          problems.push({
            range: rangeOf(value ?? pair.key),
            message: `'${key}' must be a version such as ${key === "operatorVersion" ? "1.9.0" : "1.19 or 2.56.0"}.`,
          });
          break;
        }
        config[key] = v;
        if (key === "flinkVersion") config.flinkVersionRange = rangeOf(value);
        if (key === "operatorVersion") config.operatorVersionRange = rangeOf(value);
        break;
      }
      case "include":
      case "exclude":
      case "flinkConfigFiles":
        config[key] = strings(value, key);
        break;
      case "kafkaTopics":
        if (!isMap(value)) {
          problems.push({
            range: rangeOf(value ?? pair.key),
            message: "'kafkaTopics' must map topic names to partition counts.",
          });
          break;
        }
        for (const t of value.items) {
          const n = isScalar(t.value) ? Number(t.value.value) : Number.NaN;
          if (!Number.isInteger(n) || n < 1) {
            problems.push({
              range: rangeOf(t.value ?? t.key),
              message: "A partition count must be a whole number ≥ 1.",
            });
            continue;
          }
          config.kafkaTopics[isScalar(t.key) ? String(t.key.value) : ""] = n;
        }
        break;
      case "checkpointInterval": {
        // Parsed once, here: every fix that enables checkpointing writes this interval, in each file's syntax.
        const v = scalarText(value);
        const parsed = v ? parseDuration(v) : undefined;
        if (v && parsed && parsed.millis >= 10) {
          config.checkpointInterval = v;
          config.checkpointIntervalMillis = parsed.millis;
          break;
        }
        problems.push({
          range: rangeOf(value ?? pair.key),
          message:
            parsed && parsed.millis < 10
              ? "'checkpointInterval' must be at least 10 ms (Flink rejects shorter intervals)."
              : "'checkpointInterval' must be a duration such as 1 min; the fixes use 1 min meanwhile.",
        });
        break;
      }
      default:
        problems.push({ range: rangeOf(pair.key), message: `Unknown setting '${key}' in the project configuration.` });
    }
  }
  return { config, problems };
}
