/** One run of `beam-flink-lint`: arguments → files → analysis (and fixes) → report → exit code. */

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pushAll } from "../core/arrays";
import type { ProjectConfig } from "../core/config";
import { readProjectConfig } from "../core/documents/projectConfig";
import { decodeText } from "../core/encoding";
import { analyzeProject, type RuleFailure } from "../core/engine";
import { compareFindings, type Finding } from "../core/findings";
import {
  type DeploymentReport,
  deploymentReports,
  findingVersion,
  type VersionReport,
  versionReport,
} from "../core/project/versionReport";
import type { ConfigVersion } from "../core/project/versions";
import { ALL_RULES } from "../core/rules/index";
import type { ProjectModel } from "../core/workspace/project";
import { readSmallTextFile, toPosixPath, WriteError, writeFileAtomic } from "../node/files";
import { type LoadedWorkspace, loadWorkspace } from "../node/loadWorkspace";
import { DEFAULT_MAX_FILE_BYTES } from "../node/walk";
import { type CliOptions, HELP, parseArgs, UsageError } from "./args";
import { applyBaselineOptions } from "./baseline";
import { fixedBytes, fixWorkspace } from "./fix";
import { formatGithub } from "./format/github";
import { formatGitlab } from "./format/gitlab";
import { formatJson } from "./format/json";
import { formatJunit } from "./format/junit";
import { formatSarif, type SarifContext } from "./format/sarif";
import { escapeControl, formatText } from "./format/text";
import { displayPath, type LintReport } from "./report";
import { productVersion } from "./version";

export interface CliIo {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether the terminal takes colours (a TTY, and NO_COLOR unset). */
  color: boolean;
}

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE_OR_INTERNAL = 2;

export function runCli(argv: readonly string[], io: CliIo): number {
  let options: CliOptions;
  try {
    options = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`beam-flink-lint: ${e.message}\nRun 'beam-flink-lint --help' for the options.\n`);
    return EXIT_USAGE_OR_INTERNAL;
  }
  if (options.help) {
    io.stdout(HELP);
    return EXIT_OK;
  }
  if (options.version) {
    io.stdout(`${productVersion()}\n`);
    return EXIT_OK;
  }
  try {
    return lint(options, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`beam-flink-lint: ${e.message}\n`);
    } else {
      const detail =
        options.debug && e instanceof Error ? (e.stack ?? e.message) : e instanceof Error ? e.message : String(e);
      const hint = options.debug ? "" : " (run with --debug for details)";
      io.stderr(`beam-flink-lint: internal error: ${detail}${hint}\n`);
    }
    return EXIT_USAGE_OR_INTERNAL;
  }
}

function readExplicitConfig(path: string, cwd: string): ProjectConfig {
  const file = toPosixPath(path, cwd);
  const read = readSmallTextFile(file, DEFAULT_MAX_FILE_BYTES);
  if ("error" in read) throw new UsageError(`cannot read --config ${path}: ${read.error}`);
  const text = read.text;
  const { config, problems } = readProjectConfig(file, text);
  if (problems.length > 0) {
    const lines = problems.map(
      (p) => `  ${path}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.message}`,
    );
    throw new UsageError(`the --config file has problems:\n${lines.join("\n")}`);
  }
  return config;
}

function lint(options: CliOptions, io: CliIo): number {
  const projectConfig = options.config !== undefined ? readExplicitConfig(options.config, io.cwd) : undefined;
  const loaded = loadWorkspace(options.paths, {
    cwd: io.cwd,
    projectConfig,
    assumedFlinkVersion: options.flinkVersion,
    severityOverrides: options.rules,
    noInlineConfig: options.noInlineConfig,
    keepBytes: options.fix,
  });
  if (loaded.missing.length > 0) {
    throw new UsageError(`no such file or folder: ${loaded.missing.join(", ")}`);
  }
  const shown = (file: string) => escapeControl(displayPath(file, io.cwd));
  for (const note of loaded.notes) io.stderr(`note: ${shown(note.path)}: ${escapeControl(note.message)}\n`);

  const ws = loaded.workspace;
  const targets = new Set(loaded.files);
  let failures: RuleFailure[] = [];
  // The JSON report says where each finding's Flink version came from, read from the model its analysis used.
  const versions = options.format === "json" ? new ReportedVersions(io.cwd, targets) : undefined;
  const analyse = (last = false): Finding[] => {
    failures = [];
    const findings: Finding[] = [];
    const roots = new Set([...targets].map((f) => ws.projectRootOf(f)));
    for (const root of [...roots].sort()) {
      const model = ws.project(root);
      const analysis = analyzeProject(model, ws.options);
      pushAll(failures, analysis.failures);
      for (const [file, list] of analysis.byFile) {
        if (!targets.has(file) || !ws.isIncluded(file)) continue;
        pushAll(findings, list);
        if (last) versions?.add(model, list);
      }
      if (last) versions?.addDeployments(model);
      // `--fix` analyses again after each pass; a plain run is done with the project.
      if (!options.fix) ws.releaseFacts(root);
    }
    return findings.sort(compareFindings);
  };

  const writeFailures = options.fix ? applyFixes(loaded, targets, options, analyse, io) : 0;
  // `--fix` leaves a file that is not UTF-8 alone (BFL003 says so), so its findings are not offered as fixable.
  let findings = analyse(true).map((f) => {
    if (!ws.encodingOf(f.file) || f.fixes.length === 0) return f;
    const copy = { ...f, fixes: [] };
    versions?.same(copy, f);
    return copy;
  });
  const analysed = [...targets].filter((f) => ws.isIncluded(f));
  const baselined = applyBaselineOptions(options, io.cwd, findings, (f) => ws.text(f), new Set(analysed));
  for (const note of baselined.notes) io.stderr(`note: ${note}\n`);
  findings = baselined.findings;
  if (options.quiet) findings = findings.filter((f) => f.severity === "error");
  const report: LintReport = {
    cwd: io.cwd,
    findings,
    filesAnalyzed: analysed.length,
    analysedFiles: analysed,
    textOf: (f) => ws.text(f),
  };
  if (versions) report.versions = versions;

  const output = format(report, options, io, {
    version: productVersion(),
    rules: ALL_RULES,
    notifications: [
      ...failures.map((f) => ({ level: "error" as const, message: `Rule ${f.rule} failed: ${firstLine(f.error)}` })),
      ...loaded.notes.map((n) => ({ level: "note" as const, message: `${displayPath(n.path, io.cwd)}: ${n.message}` })),
    ],
  });
  if (options.outputFile === undefined) io.stdout(output);
  else {
    try {
      writeFileSync(resolve(io.cwd, options.outputFile), output, "utf8");
    } catch (e) {
      throw new UsageError(
        `cannot write --output-file ${options.outputFile}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  if (failures.length > 0) {
    for (const f of failures) {
      const detail = options.debug ? f.error : `${firstLine(f.error)} (run with --debug for details)`;
      io.stderr(`beam-flink-lint: internal error in rule ${f.rule}: ${detail}\n`);
    }
    return EXIT_USAGE_OR_INTERNAL;
  }
  // A fix that could not be written leaves the file as it was: the run did not do what was asked.
  if (writeFailures > 0) return EXIT_PROBLEMS;
  if (options.exitZero) return EXIT_OK;
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.filter((f) => f.severity === "warning").length;
  if (errors > 0) return EXIT_PROBLEMS;
  if (options.maxWarnings >= 0 && warnings > options.maxWarnings) {
    io.stderr(`beam-flink-lint: too many warnings (${warnings}; --max-warnings is ${options.maxWarnings}).\n`);
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

/**
 * `--fix`: applies the fixes to the texts, then writes each changed file: its bytes as read with the edited ranges
 * replaced, atomically. A file that is not UTF-8 is left alone (with a note) and so is one that cannot be written:
 * its text goes back to what is on disk, so the report shows what is there. Returns the number of write failures.
 */
function applyFixes(
  loaded: LoadedWorkspace,
  targets: ReadonlySet<string>,
  options: CliOptions,
  analyse: () => Finding[],
  io: CliIo,
): number {
  const ws = loaded.workspace;
  const shown = (file: string) => escapeControl(displayPath(file, io.cwd));
  const editable = new Set<string>();
  const refused = new Set<string>();
  for (const file of targets) {
    const disk = loaded.disk.get(file);
    if (!disk) continue;
    if (disk.problem) refused.add(file);
    else editable.add(file);
  }
  const outcome = fixWorkspace(ws, editable, options.fixType, analyse, refused);
  for (const file of [...outcome.refusedWanted].sort()) {
    const problem = loaded.disk.get(file)?.problem;
    const what = problem?.encoding === "not UTF-8" ? "not valid UTF-8" : `${problem?.encoding}, not UTF-8`;
    io.stderr(`note: ${shown(file)}: not fixed: the file is ${what}, and writing it back would change other bytes\n`);
  }
  let failures = 0;
  for (const file of [...outcome.changed].sort()) {
    const disk = loaded.disk.get(file);
    if (!disk) continue;
    const bytes = fixedBytes(disk.bytes, disk.bom, disk.text, outcome.history.get(file) ?? []);
    const decoded = decodeText(bytes);
    let error: string | undefined;
    if (decoded.problem || decoded.text !== ws.text(file)) error = "the fixed text does not map back to its bytes";
    else {
      try {
        writeFileAtomic(disk, bytes);
      } catch (e) {
        error = e instanceof WriteError ? e.message : e instanceof Error ? e.message : String(e);
      }
    }
    if (error === undefined) continue;
    failures++;
    io.stderr(`beam-flink-lint: could not write ${shown(file)}: ${escapeControl(error)}; it is left as it was\n`);
    ws.setFile(file, disk.text, disk.problem);
  }
  return failures;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0];
}

/**
 * Where the versions of the analysed projects came from: each version-dependent finding's configuration version,
 * and every cluster of the projects of the analysed files (those with a file among the targets). Filled project by
 * project from the model that project's analysis used, so its derived facts are computed once.
 */
class ReportedVersions {
  private readonly byFinding = new Map<Finding, VersionReport | undefined>();
  readonly deployments: DeploymentReport[] = [];
  private readonly relative: (file: string) => string;

  constructor(
    cwd: string,
    private readonly targets: ReadonlySet<string>,
  ) {
    this.relative = (file) => displayPath(file, cwd);
  }

  add(model: ProjectModel, findings: readonly Finding[]): void {
    // The findings of one configuration share its version: described once.
    const reports = new Map<ConfigVersion, VersionReport>();
    for (const f of findings) {
      const version = findingVersion(model, f);
      let report = version && reports.get(version);
      if (version && !report) {
        report = versionReport(version, this.relative);
        reports.set(version, report);
      }
      this.byFinding.set(f, report);
    }
  }

  addDeployments(model: ProjectModel): void {
    for (const d of deploymentReports(model, this.relative))
      if (this.targets.has(d.configuration.file)) this.deployments.push(d);
  }

  /** `copy` is `original` with other fixes. */
  same(copy: Finding, original: Finding): void {
    this.byFinding.set(copy, this.byFinding.get(original));
  }

  finding(f: Finding): VersionReport | undefined {
    return this.byFinding.get(f);
  }
}

function format(report: LintReport, options: CliOptions, io: CliIo, sarif: SarifContext): string {
  switch (options.format) {
    case "json":
      return formatJson(report);
    case "sarif":
      return formatSarif(report, sarif);
    case "github":
      return formatGithub(report);
    case "gitlab":
      return formatGitlab(report);
    case "junit":
      return formatJunit(report);
    default:
      return formatText(report, { color: io.color && options.outputFile === undefined });
  }
}
