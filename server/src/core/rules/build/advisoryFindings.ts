/**
 * Reports the known-bug advisories of one rule (knowledge/advisories) at the places where the project's Beam
 * versions are defined. The records decide what is affected, how severe it is and what the message says; this
 * file only matches them against the project and words the finding.
 */
import type { RelatedLocation } from "../../findings";
import {
  type AdvisoryMatch,
  advisoriesOfRule,
  firstUnaffectedVersion,
  matchAdvisories,
  matchSeverity,
  metConditions,
} from "../../knowledge/advisories";
import type { ResolvedDependency } from "../../model";
import type { RuleContext } from "../types";
import { describeUses, upgradeAdvice, upgradeFix, upgradeTarget, usesAsRelated, versionSites } from "./beamVersions";

export function reportAdvisories(ctx: RuleContext, code: string): void {
  const records = advisoriesOfRule(code);
  const usage = ctx.project.jobApi;
  for (const site of versionSites(ctx.project)) {
    const affected = new Map<string, { match: AdvisoryMatch; deps: ResolvedDependency[] }>();
    for (const dep of site.dependencies) {
      for (const match of matchAdvisories(dep.group, dep.artifact, site.version, records)) {
        const entry = affected.get(match.advisory.id) ?? { match, deps: [] };
        entry.deps.push(dep);
        affected.set(match.advisory.id, entry);
      }
    }
    for (const { match, deps } of affected.values()) {
      const { advisory, range } = match;
      const conditions = metConditions(advisory, usage);
      const target = upgradeTarget(ctx.project, firstUnaffectedVersion(advisory));
      const fix = upgradeFix(ctx.project, site, target);
      const specific = advisory.database_specific;
      const parts = [
        `Beam ${site.version} ${range.database_specific.uncertain ? "may still have" : "has"} a known bug in the Flink runner (${advisory.aliases.join(", ")}): ${specific.effect}.`,
      ];
      if (range.database_specific.note) parts.push(range.database_specific.note);
      parts.push(`This version is used by ${describeUses(deps)}.`);
      if (conditions.length > 0) {
        parts.push(`It matters here because ${conditions.map((c) => c.because).join(" and ")}.`);
      }
      if (specific.advice) parts.push(specific.advice);
      parts.push(upgradeAdvice(site, target, fix));
      const related: RelatedLocation[] = [
        ...usesAsRelated(deps, site.version),
        ...conditions.flatMap((c) => usage[c.uses].map((l) => ({ ...l, message: c.at }))),
      ];
      ctx.report({
        file: site.at.file,
        range: site.at.range,
        message: parts.join(" "),
        severity: matchSeverity(match, usage),
        related,
        fixes: fix ? [fix] : [],
      });
    }
  }
}
