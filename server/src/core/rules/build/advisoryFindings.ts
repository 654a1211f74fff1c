/**
 * Reports known-bug advisories (knowledge/advisories) where a version is defined. The records decide what is
 * affected, how severe it is and what the finding says; this file matches them against "sites" (a place where a
 * version is defined, and the packages it feeds) and words the finding: one short sentence of what happens at run
 * time, and the details (the mechanism, uncertainty, what does and does not help, how to upgrade) as related
 * information at the same place.
 *
 * `reportAdvisories` covers the Beam artifacts of Maven and Gradle builds (BFL301, BFL302); other rules build their
 * own sites (Kafka connector versions in builds and Dockerfiles: BFL306; Beam Python SDK pins: BFL308) and call
 * `reportSites`.
 */

import { pushAll } from "../../arrays";
import type { Fix, Location, RelatedLocation } from "../../findings";
import {
  type AdvisoryMatch,
  adviceFor,
  advisoriesOfRule,
  type Ecosystem,
  firstUnaffectedVersion,
  matchPackage,
  matchSeverity,
  metConditions,
  requiredFacts,
  requirementsMet,
  titleFor,
  unusedConditions,
} from "../../knowledge/advisories";
import type { ResolvedDependency } from "../../model";
import { fitting } from "../messages";
import type { RuleContext } from "../types";
import { advisoryFacts } from "./advisoryFacts";
import {
  describeUses,
  upgradeAdvice,
  upgradeFix,
  upgradeTarget,
  usesAsRelated,
  type VersionSite,
  versionSites,
} from "./beamVersions";

/** One package a site's version feeds. */
export interface SitePackage {
  ecosystem: Ecosystem;
  /** Maven `group:artifact` or the normalized PyPI name. */
  name: string;
  /** Related information at the places that use the version for this package (declarations, jar references). */
  uses: RelatedLocation[];
}

/** What an upgrade would do for one advisory at one site. */
export interface SiteUpgrade {
  /** The version to move to, when there is one. */
  target?: string;
  fix?: Fix;
  /** The related-information sentence about upgrading. */
  advice: string;
  /** A clause the message ends with when no release fixes the bug for this site ("no fixed release for Flink 1.18"). */
  noFix?: string;
}

/** A place where a version is defined, what it feeds, and how to upgrade it. */
export interface AdvisorySite {
  /** What the message calls the versioned software: "Beam", "flink-connector-kafka". */
  label: string;
  version: string;
  /** The version the records' ranges are compared with, when it is not `version` (`3.1.0` for `3.1.0-1.18`). */
  matchVersion?: string;
  /** Where the finding points: the version at its definition. */
  at: Location;
  packages: SitePackage[];
  /** "This version is used by …" for the affected packages, when the version goes beyond the site itself. */
  usedBy?(packages: SitePackage[]): string;
  upgrade(match: AdvisoryMatch): SiteUpgrade;
}

function sentence(clause: string): string {
  const text = clause.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
}

/** Reports the advisories of rule `code` that affect the sites. */
export function reportSites(ctx: RuleContext, code: string, sites: AdvisorySite[]): void {
  const records = advisoriesOfRule(code);
  if (records.length === 0) return;
  const facts = advisoryFacts(ctx.project);
  for (const site of sites) {
    const byAdvisory = new Map<string, { match: AdvisoryMatch; packages: SitePackage[] }>();
    for (const p of site.packages) {
      for (const match of matchPackage(p.ecosystem, p.name, site.matchVersion ?? site.version, records)) {
        if (!requirementsMet(match, facts)) continue;
        const entry = byAdvisory.get(match.advisory.id) ?? { match, packages: [] };
        entry.packages.push(p);
        byAdvisory.set(match.advisory.id, entry);
      }
    }
    for (const { match, packages } of byAdvisory.values()) {
      const { advisory, range } = match;
      const specific = { ...advisory.database_specific, title: titleFor(advisory, facts) };
      const conditions = metConditions(advisory, facts);
      const upgrade = site.upgrade(match);
      const has = range.database_specific.uncertain ? "may still have" : "has";
      const head = `${site.label} ${site.version} ${has} a known bug`;
      const withFixNote = `${head} in ${specific.component}: ${specific.title}${upgrade.noFix ? `; ${upgrade.noFix}` : ""}.`;
      const message = fitting(
        withFixNote,
        `${head} in ${specific.component}: ${specific.title}.`,
        `${head}: ${specific.title}.`,
        `${head} in ${specific.component}.`,
      );
      const details: string[] = [sentence(specific.effect)];
      if (upgrade.noFix && message !== withFixNote) details.unshift(sentence(upgrade.noFix));
      if (!message.includes(specific.title)) details.unshift(sentence(specific.title));
      if (range.database_specific.note) details.push(range.database_specific.note);
      const usedBy = site.usedBy?.(packages);
      if (usedBy) details.push(`This version is used by ${usedBy}.`);
      if (conditions.length > 0) {
        details.push(`It matters here because ${conditions.map((c) => c.because).join(" and ")}.`);
      }
      pushAll(details, adviceFor(advisory, site.version));
      details.push(upgrade.advice);
      const reached = requiredFacts(match, facts);
      const requiredAt = match.affected.database_specific?.requiredAt;
      const related: RelatedLocation[] = [
        ...details.map((message) => ({ ...site.at, message })),
        ...packages.flatMap((p) => p.uses),
        ...(requiredAt ? reached.map((l) => ({ ...l, message: requiredAt })) : []),
        ...conditions.flatMap((c) => (facts[c.uses] ?? []).map((l) => ({ ...l, message: c.at }))),
        ...unusedConditions(advisory, facts).flatMap((c) =>
          c.unusedNote ? [{ ...site.at, message: c.unusedNote }] : [],
        ),
      ];
      ctx.report({
        file: site.at.file,
        range: site.at.range,
        message,
        severity: matchSeverity(match, facts),
        related,
        fixes: upgrade.fix ? [upgrade.fix] : [],
      });
    }
  }
}

/** A Maven/Gradle version site of Beam artifacts, with the "Upgrade Beam" fix at the definition. */
function beamSite(ctx: RuleContext, site: VersionSite): AdvisorySite {
  return {
    label: "Beam",
    version: site.version,
    at: site.at,
    packages: packagesOf(site),
    usedBy: (packages) => describeUses(depsOf(site, packages)),
    upgrade(match) {
      const target = upgradeTarget(ctx.project, firstUnaffectedVersion(match.advisory));
      const fix = upgradeFix(ctx.project, site, target);
      return { target, fix, advice: upgradeAdvice(site, target, fix) };
    },
  };
}

const coordinate = (d: ResolvedDependency) => `${d.group}:${d.artifact}`;

/** One package per coordinate the site's version feeds, with the declarations that use it. */
export function packagesOf(site: VersionSite): SitePackage[] {
  const names = [...new Set(site.dependencies.map(coordinate))];
  return names.map((name) => ({
    ecosystem: "Maven",
    name,
    uses: usesAsRelated(
      site.dependencies.filter((d) => coordinate(d) === name),
      site.version,
    ),
  }));
}

function depsOf(site: VersionSite, packages: SitePackage[]): ResolvedDependency[] {
  const names = new Set(packages.map((p) => p.name));
  return site.dependencies.filter((d) => names.has(coordinate(d)));
}

/** Reports the advisories of rule `code` at the places where the project's Beam versions are defined. */
export function reportAdvisories(ctx: RuleContext, code: string): void {
  const sites = versionSites(ctx.project).filter((s) => s.dependencies.some((d) => d.group === "org.apache.beam"));
  reportSites(
    ctx,
    code,
    sites.map((s) => beamSite(ctx, s)),
  );
}
