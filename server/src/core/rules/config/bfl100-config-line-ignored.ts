import type { Rule } from "../types";

const WHY: Record<string, string> = {
  "no-separator": "it has no ': ' between key and value",
  "empty-key": "its key is empty",
  "empty-value": "its value is empty",
};

export const rule: Rule = {
  meta: {
    code: "BFL100",
    name: "config-line-ignored",
    family: "flink-config",
    severity: "warning",
    description: "A flink-conf.yaml line that Flink's line reader skips without an error.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports lines of a legacy flink-conf.yaml that Flink does not read: lines without `: ` between key and value (`key=value`, `key:value`, `key:<tab>value`) and lines whose key or value is empty.",
      whyItMatters:
        "Flink reads flink-conf.yaml line by line, logs a warning for such a line and goes on without it. The setting silently does not apply: a checkpoint interval written as `execution.checkpointing.interval:30s` leaves checkpointing off, and the job re-reads Kafka data after every restart.",
      bad: { "flink-conf.yaml": "taskmanager.numberOfTaskSlots: 4\nexecution.checkpointing.interval:30s\n" },
      good: { "flink-conf.yaml": "taskmanager.numberOfTaskSlots: 4\nexecution.checkpointing.interval: 30s\n" },
      whenNotToFire:
        "Comment lines and blank lines. Standard-YAML config.yaml files (Flink 1.19+) are read by a YAML parser and are not checked by this rule; their syntax errors are BFL002.",
      references: [
        "Flink GlobalConfiguration.loadYAMLResource (legacy line reader)",
        "FLINK-27299 (comment handling in flink-conf.yaml)",
        "https://nightlies.apache.org/flink/flink-docs-release-1.18/docs/deployment/config/",
      ],
    },
  },
  check(ctx) {
    for (const config of ctx.project.flinkConfigs) {
      if (config.dialect !== "legacy") continue;
      for (const line of config.ignoredLines) {
        ctx.report({
          file: config.file,
          range: line.range,
          message: `Flink ignores this line because ${WHY[line.reason]}; the setting does not apply.`,
          details:
            line.reason === "no-separator"
              ? "flink-conf.yaml is read line by line: a key and its value are separated by a colon followed by a space (`key: value`)."
              : "flink-conf.yaml is read line by line: a line needs a key, `: ` and a value.",
        });
      }
    }
  },
};
