import { compareMinors } from "../../knowledge/options";
import type { FlinkConfig } from "../../model";
import { flinkMinorFor, isOperatorConfig } from "../../project/clusters";
import type { Rule, RuleContext } from "../types";

function dir(file: string): string {
  return file.slice(0, file.lastIndexOf("/"));
}

/** Files in one folder, or data keys of one ConfigMap, end up side by side in Flink's conf/ folder. */
function sameConfDir(a: FlinkConfig, b: FlinkConfig): boolean {
  if (a.host === "file" && b.host === "file") return dir(a.file) === dir(b.file);
  if (a.host === "configmap" && b.host === "configmap") return a.owner !== undefined && a.owner === b.owner;
  return false;
}

function where(config: FlinkConfig): string {
  return config.host === "configmap" ? `this ConfigMap's ${config.logicalName}` : `this ${config.logicalName}`;
}

function checkConfig(ctx: RuleContext, config: FlinkConfig, all: FlinkConfig[]) {
  if (config.host !== "file" && config.host !== "configmap") return;
  if (config.entries.length === 0) return;
  const minor = flinkMinorFor(ctx.project, config);
  if (minor === undefined) return;
  const report = (severity: "error" | "info", message: string, details: string, other?: FlinkConfig) =>
    ctx.report({
      file: config.file,
      range: config.anchor,
      severity,
      message,
      details,
      related: other
        ? [{ file: other.file, range: other.anchor, message: `the ${other.logicalName} Flink reads` }]
        : [],
    });
  if (config.logicalName === "flink-conf.yaml" && compareMinors(minor, "2.0") >= 0) {
    report(
      "error",
      `Flink ${minor} no longer reads flink-conf.yaml: every setting in ${where(config)} is ignored.`,
      "Move them to config.yaml (standard YAML; Flink ships bin/migrate-config-file.sh for this).",
    );
  } else if (config.logicalName === "config.yaml" && compareMinors(minor, "1.19") < 0) {
    report(
      "error",
      `Flink ${minor} reads only flink-conf.yaml: every setting in ${where(config)} is ignored.`,
      "config.yaml arrived in Flink 1.19. Rename it to flink-conf.yaml and write one `key: value` per line.",
    );
  } else if (config.logicalName === "config.yaml" && compareMinors(minor, "2.0") < 0) {
    const legacy = all.find((c) => c !== config && c.logicalName === "flink-conf.yaml" && sameConfDir(c, config));
    if (legacy) {
      report(
        "info",
        `Flink ${minor} reads flink-conf.yaml when both files are present, so ${where(config)} is ignored.`,
        "Keep one of the two files.",
        legacy,
      );
    }
  }
}

export const rule: Rule = {
  meta: {
    code: "BFL108",
    name: "config-file-format",
    family: "flink-config",
    severity: "error",
    description: "A Flink configuration file that the Flink version in use does not read.",
    fix: "none",
    docs: {
      whatItDoes:
        "Compares the configuration file name (on disk or as a ConfigMap data key) with the detected Flink version: flink-conf.yaml with Flink 2.x and config.yaml before Flink 1.19 are errors; with Flink 1.19 and 1.20, a config.yaml next to a flink-conf.yaml is reported as info, because Flink then reads only flink-conf.yaml.",
      whyItMatters:
        "Flink 2.0 dropped the legacy flink-conf.yaml: a cluster upgraded without converting the file starts with default settings, so checkpointing, state backend, memory and HA settings silently disappear. Flink 1.18 and older do not know config.yaml at all.",
      bad: {
        ".beam-flink-lint.yaml": 'flinkVersion: "2.0"\n',
        "conf/flink-conf.yaml": "execution.checkpointing.interval: 30 s\n",
      },
      good: {
        ".beam-flink-lint.yaml": 'flinkVersion: "2.0"\n',
        "conf/config.yaml": "execution.checkpointing.interval: 30 s\n",
      },
      whenNotToFire:
        "No Flink version detected; empty files; FlinkDeployment `flinkConfiguration` (the operator writes the right file for the Flink version); files in different folders; the Kubernetes Operator's own configuration (`kubernetes.operator.*` keys, `flink-operator-config`), which the operator reads whatever Flink its clusters run.",
      references: [
        "FLIP-366 / FLINK-33297 (config.yaml, Flink 1.19)",
        "FLINK-33677 (flink-conf.yaml no longer supported in Flink 2.0)",
        "Flink 1.19 release notes (flink-conf.yaml takes priority when present)",
      ],
    },
  },
  check(ctx) {
    // The Kubernetes Operator's own configuration is read by the operator, whatever Flink its clusters run.
    for (const config of ctx.project.flinkConfigs)
      if (!isOperatorConfig(config)) checkConfig(ctx, config, ctx.project.flinkConfigs);
  },
};
