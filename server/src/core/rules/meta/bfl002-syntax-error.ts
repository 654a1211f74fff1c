import type { Rule } from "../types";

export const rule: Rule = {
  meta: {
    code: "BFL002",
    name: "syntax-error",
    family: "meta",
    severity: "error",
    description: "A file that Flink, Kubernetes or the build cannot read the way it is written.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports what stops a file from being read the way its consumer reads it: YAML errors in a Flink config.yaml and in manifests, values files and compose files that hold Flink settings; YAML errors inside a config.yaml embedded in a ConfigMap; nested YAML in a legacy flink-conf.yaml, which Flink reads line by line (a warning); a Gradle version catalog that sets a key or defines a table twice, which Gradle refuses to load.",
      whyItMatters:
        "Flink refuses to start with a config.yaml it cannot parse, and `kubectl apply` rejects a broken manifest, so the job never runs. A nested block in flink-conf.yaml is worse: Flink reads each indented line as a short key of its own (`interval` instead of `execution.checkpointing.interval`) and the setting silently does not apply. The other rules still check what could be read.",
      bad: {
        "config.yaml": "taskmanager.numberOfTaskSlots: 4\nenv.java.opts.all: -Dlog.level=INFO: -XX:+UseG1GC\n",
      },
      good: {
        "config.yaml": 'taskmanager.numberOfTaskSlots: 4\nenv.java.opts.all: "-Dlog.level=INFO: -XX:+UseG1GC"\n',
      },
      whenNotToFire:
        "YAML files that hold no Flink settings (workflows, other tools' config.yaml): their syntax is not this product's business. Helm chart templates with `{{ … }}` directives, which are not YAML until rendered: they are read with their actions set aside, and a Flink document that still does not parse is reported as not analysed (BFL003). ksqlDB scripts (`CREATE STREAM`, `EMIT CHANGES`, `WITH (KAFKA_TOPIC=…)`), whose `WITH` lists are not Flink's, and a database's init scripts (`SET search_path TO …`, `SET NAMES utf8mb4`), whose SET has no `=`. Duplicate keys are reported by BFL105, lines Flink's legacy reader skips by BFL100.",
      references: [
        "FLIP-366 / FLINK-33297: config.yaml is standard YAML 1.2 (Flink 1.19)",
        "Flink GlobalConfiguration.loadYAMLResource (legacy flink-conf.yaml line reader)",
        "https://nightlies.apache.org/flink/flink-docs-release-1.19/docs/deployment/config/",
      ],
    },
  },
  check(ctx) {
    for (const file of ctx.project.files) {
      for (const problem of file.syntaxErrors) {
        ctx.report({
          file: file.file,
          range: problem.range,
          message: problem.message,
          details: problem.details,
          severity: problem.severity,
        });
      }
    }
  },
};
