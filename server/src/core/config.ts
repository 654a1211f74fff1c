/**
 * Project configuration (`.beam-flink-lint.yaml`) and the engine options that come from the editor or the CLI.
 * The JSON Schema for the file is `schemas/beam-flink-lint.schema.json`; keep both in step.
 */
import type { Severity } from "./findings";
import { globMatch } from "./glob";
import type { Range } from "./text";

export type RuleSetting = Severity | "off";

export interface ProjectConfig {
  /** Per rule (code or name): a severity or "off". */
  rules: Record<string, RuleSetting>;
  /** Flink version to assume for this project, e.g. "1.19"; wins over detection. */
  flinkVersion?: string;
  /** Where `flinkVersion` is written in the project config file. */
  flinkVersionRange?: Range;
  /** The Flink Kubernetes Operator version the project deploys with, e.g. "1.9.0"; wins over detection. */
  operatorVersion?: string;
  /** Where `operatorVersion` is written in the project config file. */
  operatorVersionRange?: Range;
  /** Beam version to assume where the build does not say. */
  beamVersion?: string;
  /** The Beam version the "Upgrade Beam" fixes of known-bug findings move to. */
  beamUpgradeTarget: string;
  /** Globs (relative to the project root) of files to analyse; default all. */
  include: string[];
  /** Globs (relative to the project root) of files to skip. */
  exclude: string[];
  /** Globs of extra files that hold a Flink configuration (read as flink-conf.yaml, or config.yaml if so named). */
  flinkConfigFiles: string[];
  /** Kafka topic → partition count, for rules that compare parallelism with partitions. */
  kafkaTopics: Record<string, number>;
  /** The interval the checkpointing fixes insert, as written (a Flink duration, e.g. `1 min`). */
  checkpointInterval: string;
  /** The same interval in milliseconds (parsed once, when the project config is read). */
  checkpointIntervalMillis: number;
  /** Where the project config was read from, and its problems (reported as BFL002 on that file). */
  file?: string;
}

export const DEFAULT_CHECKPOINT_INTERVAL = "1 min";

/** The first Beam release without the known Flink runner bugs (BFL301, BFL302). */
export const DEFAULT_BEAM_UPGRADE_TARGET = "2.64.0";

export function defaultProjectConfig(): ProjectConfig {
  return {
    rules: {},
    include: [],
    exclude: [],
    flinkConfigFiles: [],
    kafkaTopics: {},
    checkpointInterval: DEFAULT_CHECKPOINT_INTERVAL,
    checkpointIntervalMillis: 60_000,
    beamUpgradeTarget: DEFAULT_BEAM_UPGRADE_TARGET,
  };
}

/** Options of one analysis run that do not live in the project (editor settings, CLI flags). */
export interface EngineOptions {
  /** Flink version to assume when neither the project config nor the files say. */
  assumedFlinkVersion?: string;
  /** Severity overrides applied last (vscode settings `rules.customizations`, CLI `--rule`). */
  severityOverrides?: SeverityOverride[];
  /** Ignore suppression comments and annotations, so a central policy cannot be bypassed (CLI `--no-inline-config`). */
  noInlineConfig?: boolean;
}

/** Like vscode-eslint's customizations: `rule` is a code, a name, or a glob over them (`BFL1*`, `*`). */
export interface SeverityOverride {
  rule: string;
  severity: RuleSetting | "downgrade" | "upgrade" | "default";
}

export function ruleMatches(pattern: string, code: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === code || pattern === name;
  // Only `*` is special here; everything else is literal. Matched without backtracking: a pattern from a
  // workspace's settings must not be able to stall the server.
  const literal = pattern.replace(/[\\?[\]{}()!@+]/g, "\\$&");
  return globMatch(code, literal) || globMatch(name, literal);
}
