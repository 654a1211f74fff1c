/** Command-line arguments of `beam-flink-lint`. Every mistake is a UsageError (exit code 2) with a message. */

import { pushAll } from "../core/arrays";
import { ruleMatches, type SeverityOverride } from "../core/config";
import type { FixSafety, Severity } from "../core/findings";
import { ALL_RULES } from "../core/rules/index";

export type OutputFormat = "text" | "json" | "sarif" | "github" | "gitlab" | "junit";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "sarif", "github", "gitlab", "junit"];
export type FixType = FixSafety | "all";

export interface CliOptions {
  paths: string[];
  format: OutputFormat;
  outputFile?: string;
  flinkVersion?: string;
  config?: string;
  rules: SeverityOverride[];
  quiet: boolean;
  /** -1 = no limit. */
  maxWarnings: number;
  fix: boolean;
  fixType: FixType;
  noInlineConfig: boolean;
  exitZero: boolean;
  debug: boolean;
  help: boolean;
  version: boolean;
  /** `--baseline <file>`: findings recorded there are not reported. */
  baseline?: string;
  /** `--write-baseline [file.json]`: record the findings; "" = the --baseline file or the default name. */
  writeBaseline?: string;
}

export class UsageError extends Error {}

interface OptionSpec {
  /** Takes a value (`--format json`, `--format=json`) or is a flag. */
  value: boolean;
  short?: string;
  /** A flag that may take a value: `--flag=value`, or a next argument this accepts. */
  optionalValue?: (next: string) => boolean;
}

const OPTIONS: Record<string, OptionSpec> = {
  format: { value: true, short: "f" },
  "output-file": { value: true, short: "o" },
  "flink-version": { value: true },
  config: { value: true, short: "c" },
  rule: { value: true },
  quiet: { value: false, short: "q" },
  "max-warnings": { value: true },
  fix: { value: false },
  "fix-type": { value: true },
  "no-inline-config": { value: false },
  "exit-zero": { value: false },
  debug: { value: false },
  help: { value: false, short: "h" },
  version: { value: false, short: "v" },
  baseline: { value: true },
  "write-baseline": { value: false, optionalValue: (next) => next.endsWith(".json") && !next.startsWith("-") },
};

const SHORT = new Map(Object.entries(OPTIONS).flatMap(([name, spec]) => (spec.short ? [[spec.short, name]] : [])));

const RULE_SETTINGS: readonly string[] = ["error", "warning", "info", "hint", "off"] satisfies (Severity | "off")[];

export const HELP = `Usage: beam-flink-lint [options] [path ...]

Finds the Apache Flink / Beam / Kafka configuration mistakes that lose or duplicate messages: flink-conf.yaml,
config.yaml, Kubernetes manifests, Helm values, docker-compose files, Dockerfiles and build files.
Paths are files or folders; the default is the current folder.

Options:
  -f, --format <format>             output format: text (default), json, sarif, github (workflow
                                    annotations), gitlab (Code Quality JSON) or junit (JUnit XML)
  -o, --output-file <file>          write the report to a file instead of standard output
      --flink-version <X.Y>         Flink version to assume where the project does not say
  -c, --config <file>               project configuration to use for every project, in place of their
                                    own .beam-flink-lint.yaml
      --rule <CODE=severity>        set a rule's severity (error, warning, info, hint) or turn it off (off);
                                    CODE is a code, a name or a glob such as BFL1*; repeatable
  -q, --quiet                       report errors only
      --max-warnings <n>            exit with 1 when there are more than n warnings (default: -1, no limit)
      --fix                         apply fixes and write the files (safe fixes only, unless --fix-type says)
      --fix-type <safe|unsafe|all>  which fixes --fix applies (default: safe)
      --no-inline-config            ignore suppression comments and annotations
      --baseline <file>             do not report the findings recorded in this baseline file; say which
                                    recorded findings are gone
      --write-baseline [file.json]  record today's findings in a baseline file (default: the --baseline
                                    file, else .beam-flink-lint-baseline.json) and report none of them
      --exit-zero                   exit with 0 even when problems are found
      --debug                       show stack traces of internal errors
  -h, --help                        show this help
  -v, --version                     show the version

Exit codes: 0 = no errors and no more warnings than --max-warnings; 1 = errors or too many warnings;
2 = usage error or internal error.
`;

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${option} must be one of ${allowed.join(", ")} (got '${value}')`);
}

function parseRule(value: string): SeverityOverride {
  const eq = value.lastIndexOf("=");
  const rule = eq > 0 ? value.slice(0, eq).trim() : "";
  const severity = eq > 0 ? value.slice(eq + 1).trim() : "";
  if (!rule || !RULE_SETTINGS.includes(severity)) {
    throw new UsageError(
      `--rule takes CODE=severity with severity one of ${RULE_SETTINGS.join(", ")} (got '${value}')`,
    );
  }
  if (!ALL_RULES.some((r) => ruleMatches(rule, r.meta.code, r.meta.name))) {
    throw new UsageError(`--rule: no rule is called '${rule}'`);
  }
  return { rule, severity: severity as SeverityOverride["severity"] };
}

export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    paths: [],
    format: "text",
    rules: [],
    quiet: false,
    maxWarnings: -1,
    fix: false,
    fixType: "safe",
    noInlineConfig: false,
    exitZero: false,
    debug: false,
    help: false,
    version: false,
  };
  let fixTypeGiven = false;
  const set = (name: string, value: string | undefined) => {
    switch (name) {
      case "format":
        options.format = oneOf(name, value ?? "", OUTPUT_FORMATS);
        break;
      case "output-file":
        options.outputFile = value;
        break;
      case "flink-version":
        if (!/^\d+\.\d+(\.\d+)?$/.test(value ?? "")) {
          throw new UsageError(`--flink-version must be a version such as 1.19 (got '${value}')`);
        }
        options.flinkVersion = value;
        break;
      case "config":
        options.config = value;
        break;
      case "rule":
        options.rules.push(parseRule(value ?? ""));
        break;
      case "max-warnings": {
        const n = Number(value);
        if (!/^-?\d+$/.test(value ?? "") || n < -1) {
          throw new UsageError(`--max-warnings must be a whole number, or -1 for no limit (got '${value}')`);
        }
        options.maxWarnings = n;
        break;
      }
      case "fix-type":
        options.fixType = oneOf(name, value ?? "", ["safe", "unsafe", "all"]);
        fixTypeGiven = true;
        break;
      case "quiet":
        options.quiet = true;
        break;
      case "fix":
        options.fix = true;
        break;
      case "no-inline-config":
        options.noInlineConfig = true;
        break;
      case "exit-zero":
        options.exitZero = true;
        break;
      case "debug":
        options.debug = true;
        break;
      case "help":
        options.help = true;
        break;
      case "version":
        options.version = true;
        break;
      case "baseline":
        options.baseline = value;
        break;
      case "write-baseline":
        options.writeBaseline = value ?? "";
        break;
    }
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      pushAll(options.paths, argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      options.paths.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const written = eq > 0 ? arg.slice(0, eq) : arg;
    const name = written.startsWith("--") ? written.slice(2) : SHORT.get(written.slice(1));
    const known =
      name !== undefined && Object.hasOwn(OPTIONS, name) && (written.startsWith("--") || written.length === 2);
    const spec = known ? OPTIONS[name] : undefined;
    if (!name || !spec) throw new UsageError(`unknown option '${written}'`);
    if (!spec.value) {
      if (spec.optionalValue) {
        const next = argv[i + 1];
        if (eq > 0) set(name, arg.slice(eq + 1));
        else if (next !== undefined && spec.optionalValue(next)) set(name, argv[++i]);
        else set(name, undefined);
        continue;
      }
      if (eq > 0) throw new UsageError(`${written} takes no value`);
      set(name, undefined);
      continue;
    }
    let value: string;
    if (eq > 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    else throw new UsageError(`${written} needs a value`);
    set(name, value);
  }
  if (fixTypeGiven && !options.fix) throw new UsageError("--fix-type only applies together with --fix");
  return options;
}
