import type { FindingTag, Fix, FixSafety, RelatedLocation, Severity } from "../findings";
import type { ConfigVersion } from "../project/versions";
import type { Suppression } from "../suppressions";
import type { Range } from "../text";
import type { ProjectModel } from "../workspace/project";

export type RuleFamily = "meta" | "flink-config" | "kubernetes" | "build" | "beam" | "datastream" | "sql";

/** A small project for a rule's documentation: file name (relative) → text. Run as tests. */
export type ExampleFiles = Record<string, string>;

export interface RuleDocs {
  /** What the rule checks, in one or two sentences. */
  whatItDoes: string;
  /** What goes wrong at run time when this is ignored. */
  whyItMatters: string;
  /** Files on which the rule fires. */
  bad: ExampleFiles;
  /** The same files after the fix: the rule stays silent. */
  good: ExampleFiles;
  /** When the rule deliberately stays silent (false-positive traps). */
  whenNotToFire: string;
  /** Upstream issues, release notes, docs. */
  references: string[];
}

export interface RuleMeta {
  code: string;
  name: string;
  family: RuleFamily;
  severity: Severity;
  /** One line, shown in the rule table and SARIF. */
  description: string;
  /** The safety of the rule's fixes; "none" when it has none. */
  fix: FixSafety | "none";
  docs: RuleDocs;
}

export interface Report {
  file: string;
  range: Range;
  /** One sentence of at most 120 characters: what happens at run time. */
  message: string;
  /**
   * The rest: why, the versions and sources involved, how to fix it. The language server shows it as the first
   * related information, at the finding's own place (under the message in the Problems panel and the hover).
   */
  details?: string;
  /** The cluster version the verdict was judged against, when it is not the version of a configuration. */
  versionEvidence?: ConfigVersion;
  /** Defaults to the rule's severity. */
  severity?: Severity;
  related?: RelatedLocation[];
  tags?: FindingTag[];
  fixes?: Fix[];
}

export interface RuleContext {
  project: ProjectModel;
  report(report: Report): void;
  /**
   * Only for rules of the "post" phase: every suppression of the project, those that hid a finding, and whether
   * a code or name a suppression lists belongs to a rule of the product.
   */
  suppressions?: { all: Suppression[]; used: ReadonlySet<Suppression>; isRule(codeOrName: string): boolean };
}

export interface Rule {
  meta: RuleMeta;
  /** "post" rules run after suppressions were applied (BFL001); their own findings cannot be suppressed. */
  phase?: "post";
  check(ctx: RuleContext): void;
}
