/**
 * Known-bug advisories for Beam artifacts, one OSV-shaped JSON record per bug in ./advisories/ (see
 * docs/advisories.md for the format and how to add one). A record says which coordinates and version ranges are
 * affected, how severe each range is, which job-code facts make it worse, and the words the findings use; the
 * rules that report them (BFL301, BFL302) only match records against the project.
 *
 * The records are imported statically so that they are bundled with the server and the CLI.
 */
import type { Severity } from "../findings";
import { SEVERITY_ORDER } from "../findings";
import type { JobApiUsage } from "../model";
import restoreDuplicateSplits from "./advisories/BFLA-2024-0001.json";
import finalizeNeverCalled from "./advisories/BFLA-2024-0002.json";
import { compareMavenVersions, inVersionRange, type VersionRange } from "./mavenVersion";

export type RangeEvent = { introduced: string } | { fixed: string };

export interface AffectedRange {
  type: "ECOSYSTEM";
  /** Maven order; `introduced` is the first affected version, `fixed` the first one that is not. */
  events: RangeEvent[];
  database_specific: {
    severity: Severity;
    /** The evidence does not settle whether these versions are affected; findings say "may". */
    uncertain?: boolean;
    note?: string;
  };
}

export interface AffectedPackage {
  /** `name` is `group:artifact`; a `*` stands for any text (`org.apache.beam:beam-runners-flink-*`). */
  package: { ecosystem: "Maven"; name: string };
  ranges: AffectedRange[];
  database_specific?: { exclude?: string[] };
}

/** A fact of the project's job code that makes the bug worse (BFL302: offsets that are meant to be committed). */
export interface AdvisoryCondition {
  uses: keyof JobApiUsage;
  severity: Severity;
  /** Completes "… because …" in the finding's message. */
  because: string;
  /** The related-information text at each place of use. */
  at: string;
}

export interface Advisory {
  schema_version: string;
  id: string;
  published: string;
  modified: string;
  /** Upstream reports, `owner/repo#number`. */
  aliases: string[];
  related?: string[];
  summary: string;
  details: string;
  affected: AffectedPackage[];
  references: { type: string; url: string }[];
  database_specific: {
    /** The rule that reports the advisory. */
    rule: string;
    /** What happens at run time, as a clause that follows "Beam 2.56.0 has a known bug in the Flink runner: ". */
    effect: string;
    /** A sentence the message adds (what does not help, what else to know). */
    advice?: string;
    conditions?: AdvisoryCondition[];
  };
}

export const ADVISORIES: readonly Advisory[] = [restoreDuplicateSplits, finalizeNeverCalled] as Advisory[];

export function advisoriesOfRule(code: string, records: readonly Advisory[] = ADVISORIES): Advisory[] {
  return records.filter((a) => a.database_specific.rule === code);
}

function globMatches(pattern: string, text: string): boolean {
  const re = new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`);
  return re.test(text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

function packageMatches(affected: AffectedPackage, group: string, artifact: string): boolean {
  const coordinate = `${group}:${artifact}`;
  if (!globMatches(affected.package.name, coordinate)) return false;
  return !(affected.database_specific?.exclude ?? []).some((p) => globMatches(p, coordinate));
}

export function rangeBounds(range: AffectedRange): VersionRange {
  const out: VersionRange = {};
  for (const e of range.events) {
    if ("introduced" in e) out.introduced = e.introduced;
    else out.fixed = e.fixed;
  }
  return out;
}

export interface AdvisoryMatch {
  advisory: Advisory;
  range: AffectedRange;
  bounds: VersionRange;
}

/** The advisories (and the range of each) that affect one coordinate at one version. */
export function matchAdvisories(
  group: string,
  artifact: string,
  version: string,
  records: readonly Advisory[] = ADVISORIES,
): AdvisoryMatch[] {
  const out: AdvisoryMatch[] = [];
  for (const advisory of records) {
    for (const affected of advisory.affected) {
      if (!packageMatches(affected, group, artifact)) continue;
      const range = affected.ranges.find((r) => inVersionRange(version, rangeBounds(r)));
      if (range) out.push({ advisory, range, bounds: rangeBounds(range) });
    }
  }
  return out;
}

/** The conditions of an advisory that the project's job code meets. */
export function metConditions(advisory: Advisory, usage: JobApiUsage): AdvisoryCondition[] {
  return (advisory.database_specific.conditions ?? []).filter((c) => usage[c.uses].length > 0);
}

/** The range's severity, raised by any condition the job code meets. */
export function matchSeverity(match: AdvisoryMatch, usage: JobApiUsage): Severity {
  let severity = match.range.database_specific.severity;
  for (const c of metConditions(match.advisory, usage)) {
    if (SEVERITY_ORDER[c.severity] < SEVERITY_ORDER[severity]) severity = c.severity;
  }
  return severity;
}

/**
 * The first version that no range of the advisory affects: the highest `fixed` event. Undefined when some range
 * is open-ended (no fixed release yet).
 */
export function firstUnaffectedVersion(advisory: Advisory): string | undefined {
  let best: string | undefined;
  for (const affected of advisory.affected) {
    for (const range of affected.ranges) {
      const fixed = rangeBounds(range).fixed;
      if (fixed === undefined) return undefined;
      if (best === undefined || compareMavenVersions(fixed, best) > 0) best = fixed;
    }
  }
  return best;
}
