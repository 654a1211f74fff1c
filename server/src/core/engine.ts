/**
 * Runs the rules over one project: rule checks, severity settings, suppressions, and unused suppressions (BFL001).
 * A rule that throws is contained: its error is returned as an internal problem and the other rules still run.
 */

import { pushAll } from "./arrays";
import { type EngineOptions, type RuleSetting, ruleMatches } from "./config";
import { compareFindings, type Finding, type Severity } from "./findings";
import type { FileFacts } from "./model";
import { commandLineSafeFixes } from "./rules/configEdits";
import { ALL_RULES, findRule } from "./rules/index";
import type { Rule, RuleContext } from "./rules/types";
import {
  annotationSuppressions,
  commentSyntaxFor,
  parseSuppressionComments,
  type Suppression,
  suppressionMatches,
} from "./suppressions";
import { LineIndex } from "./text";
import type { ProjectModel } from "./workspace/project";

export interface RuleFailure {
  rule: string;
  error: string;
}

export interface ProjectAnalysis {
  /** Findings per file of the project; every file of the project has an entry (possibly empty). */
  byFile: Map<string, Finding[]>;
  /** Rules that threw. */
  failures: RuleFailure[];
  /** How long each rule that ran took, in milliseconds (for the language server's log of slow rules). */
  timings: { rule: string; ms: number }[];
  /** How many rules ran: 0 when settings turned every rule off. */
  rulesRun: number;
}

const ORDER: Severity[] = ["hint", "info", "warning", "error"];

function shift(severity: Severity, by: number): Severity {
  const i = Math.max(0, Math.min(ORDER.length - 1, ORDER.indexOf(severity) + by));
  return ORDER[i];
}

/** The severity a finding ends up with after project config and editor/CLI overrides; undefined = off. */
export function effectiveSeverity(
  rule: Rule,
  reported: Severity,
  project: ProjectModel,
  options: EngineOptions,
): Severity | undefined {
  const fromProject: RuleSetting | undefined =
    project.config.rules[rule.meta.code] ?? project.config.rules[rule.meta.name];
  // A severity configured for the rule replaces whatever the rule reported, escalations included.
  let severity: Severity | undefined = fromProject === "off" ? undefined : (fromProject ?? reported);
  // Overrides apply in order and the last matching one wins, so `*=off` followed by `BFL100=warning` runs one rule.
  for (const o of options.severityOverrides ?? []) {
    if (!ruleMatches(o.rule, rule.meta.code, rule.meta.name)) continue;
    if (o.severity === "off") severity = undefined;
    else if (o.severity === "default") severity = reported;
    else if (o.severity === "downgrade") severity = severity && shift(severity, -1);
    else if (o.severity === "upgrade") severity = severity && shift(severity, 1);
    else severity = o.severity;
  }
  return severity;
}

function isRuleOff(rule: Rule, project: ProjectModel, options: EngineOptions): boolean {
  return effectiveSeverity(rule, rule.meta.severity, project, options) === undefined;
}

/** Suppression comments per read of a file: a keystroke in one file does not scan the project's others again. */
const commentCache = new WeakMap<FileFacts, Suppression[]>();

function commentSuppressions(f: FileFacts): Suppression[] {
  let found = commentCache.get(f);
  if (!found) {
    // A flink-conf.yaml that Flink reads line by line takes a `#` anywhere as the start of a comment.
    const legacy = f.kind === "flinkConfig" && f.flinkConfigs.some((c) => c.host === "file" && c.dialect === "legacy");
    found = parseSuppressionComments(f.file, new LineIndex(f.text), commentSyntaxFor(f.file, legacy));
    commentCache.set(f, found);
  }
  return found;
}

export function analyzeProject(
  project: ProjectModel,
  options: EngineOptions = {},
  rules: readonly Rule[] = ALL_RULES,
): ProjectAnalysis {
  const byFile = new Map<string, Finding[]>();
  for (const f of project.files) byFile.set(f.file, []);
  const failures: RuleFailure[] = [];
  const raw: Finding[] = [];

  const timings: { rule: string; ms: number }[] = [];
  const runRule = (rule: Rule, extra?: Partial<RuleContext>) => {
    if (isRuleOff(rule, project, options)) return;
    const started = performance.now();
    const ctx: RuleContext = {
      project,
      ...extra,
      report(r) {
        const severity = effectiveSeverity(rule, r.severity ?? rule.meta.severity, project, options);
        if (!severity) return;
        raw.push({
          rule: rule.meta.code,
          name: rule.meta.name,
          severity,
          message: r.message,
          ...(r.details ? { details: r.details } : {}),
          ...(r.versionEvidence ? { versionEvidence: r.versionEvidence } : {}),
          file: r.file,
          range: r.range,
          related: r.related ?? [],
          tags: r.tags ?? [],
          fixes: r.fixes ? commandLineSafeFixes(project, r.fixes) : [],
        });
      },
    };
    try {
      rule.check(ctx);
    } catch (e) {
      failures.push({ rule: rule.meta.code, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
    timings.push({ rule: rule.meta.code, ms: performance.now() - started });
  };

  const postRules = rules.filter((r) => r.phase === "post");
  for (const rule of rules) if (rule.phase !== "post") runRule(rule);

  // Suppressions: comments in every file, annotations on Kubernetes objects.
  const suppressions: Suppression[] = [];
  if (!options.noInlineConfig) {
    for (const f of project.files) pushAll(suppressions, commentSuppressions(f));
    pushAll(suppressions, annotationSuppressions(project.k8sObjects));
  }
  const used = new Set<Suppression>();
  const kept: Finding[] = [];
  for (const finding of raw) {
    const by = suppressions.filter((s) => suppressionMatches(s, finding));
    if (by.length === 0) kept.push(finding);
    for (const s of by) used.add(s);
  }

  const postFindings: Finding[] = [];
  const before = raw.length;
  const isRule = (codeOrName: string) => findRule(codeOrName) !== undefined;
  for (const rule of postRules) runRule(rule, { suppressions: { all: suppressions, used, isRule } });
  pushAll(postFindings, raw.slice(before));

  for (const f of [...kept, ...postFindings]) {
    let list = byFile.get(f.file);
    if (!list) {
      list = [];
      byFile.set(f.file, list);
    }
    list.push(f);
  }
  for (const list of byFile.values()) list.sort(compareFindings);
  return { byFile, failures, timings, rulesRun: timings.length };
}
