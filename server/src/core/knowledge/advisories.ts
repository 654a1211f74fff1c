/**
 * Known-bug advisories for Beam and Flink artifacts (Beam's Flink runner, the Beam Python SDK, flink-connector-kafka),
 * one OSV-shaped JSON record per bug in ./advisories/ (see docs/advisories.md for the format and how to add one). A
 * record says which packages and version ranges are affected, how severe each range is, which facts of the project
 * make it worse or are needed for it to matter at all, and the words the findings use; the rules that report them
 * (BFL301, BFL302, BFL306, BFL308) only match records against the project.
 *
 * The records are imported statically so that they are bundled with the server and the CLI: advisories/index.ts
 * lists them and is generated from the folder by scripts/gen-advisories.mjs, so adding a record is adding a file.
 */
import type { Location, Severity } from "../findings";
import { SEVERITY_ORDER } from "../findings";
import { RECORDS } from "./advisories/index";
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

/** `Maven`: `group:artifact`, versions in Maven order. `PyPI`: a normalized project name, versions compared alike. */
export type Ecosystem = "Maven" | "PyPI";

export interface AffectedPackage {
  /** Maven: `group:artifact`, PyPI: the normalized name; a `*` stands for any text (`org.apache.beam:beam-runners-flink-*`). */
  package: { ecosystem: Ecosystem; name: string };
  ranges: AffectedRange[];
  database_specific?: {
    exclude?: string[];
    /** The package counts only when the project shows at least one of these facts (how the bug is reached). */
    requires?: AdvisoryFact[];
    /** The related-information text at each place that shows a required fact. */
    requiredAt?: string;
  };
}

/**
 * Facts of a project that decide whether a bug matters or how much: places in job code or launch flags.
 * `commitOffsetsInFinalize`, `pubsubRead`, `useDeprecatedRead`: Beam Java job code. `kafkaSink`,
 * `boundedKafkaSource`, `latestOffsetsKafkaSource`: Flink DataStream job code and Flink SQL Kafka tables (written,
 * read bounded, read from the latest offsets). `legacyKafkaProducer`: Flink DataStream job code.
 * `pythonKafkaRead`: `ReadFromKafka` in the project's Python code. `sdfKafkaRead`: a Java KafkaIO read in a pipeline
 * launched with `--experiments=beam_fn_api` or `use_sdf_read`, which makes KafkaIO use its splittable-DoFn read.
 * `unboundedRead`: what makes a Beam pipeline stream (an unbounded KafkaIO read, an unbounded IO such as PubsubIO
 * or KinesisIO, `streaming` set). `beamPipeline`: a Beam pipeline created in the project's job code.
 */
export type AdvisoryFact =
  | "commitOffsetsInFinalize"
  | "pubsubRead"
  | "useDeprecatedRead"
  | "kafkaSink"
  | "boundedKafkaSource"
  | "latestOffsetsKafkaSource"
  | "legacyKafkaProducer"
  | "pythonKafkaRead"
  | "sdfKafkaRead"
  | "unboundedRead"
  | "beamPipeline"
  | "kafkaCode";

export const ADVISORY_FACTS: readonly AdvisoryFact[] = [
  "commitOffsetsInFinalize",
  "pubsubRead",
  "useDeprecatedRead",
  "kafkaSink",
  "boundedKafkaSource",
  "latestOffsetsKafkaSource",
  "legacyKafkaProducer",
  "pythonKafkaRead",
  "sdfKafkaRead",
  "unboundedRead",
  "beamPipeline",
  "kafkaCode",
];

/** Where the project shows each fact; a missing fact is the same as none. */
export type AdvisoryFacts = Partial<Record<AdvisoryFact, readonly Location[]>>;

/** A fact of the project that makes the bug worse (BFL302: offsets that are meant to be committed). */
export interface AdvisoryCondition {
  uses: AdvisoryFact;
  severity: Severity;
  /** Completes "… because …" in the finding's message. */
  because: string;
  /** The related-information text at each place of use. */
  at: string;
  /**
   * The severity when the project's job code uses Kafka but not this (`kafkaCode` present, `uses` absent): the bug
   * then reaches only jobs built elsewhere with the same dependency.
   */
  unused?: Severity;
  /** The fact that shows the job code was read, for `unused` (default `kafkaCode`). */
  seenIn?: AdvisoryFact;
  /** The related-information text at the version when `unused` applies. */
  unusedNote?: string;
}

/**
 * A sentence of advice, for every affected version or only for some: `introduced`/`fixed` bound the versions it is
 * for (`outside`: for every affected version except those).
 */
export type AdvisoryAdvice = string | { text: string; introduced?: string; fixed?: string; outside?: boolean };

/** The advice of a record that applies at `version`. */
export function adviceFor(advisory: Advisory, version: string): string[] {
  return (advisory.database_specific.advice ?? []).flatMap((a) => {
    if (typeof a === "string") return [a];
    const inside = inVersionRange(version, { introduced: a.introduced, fixed: a.fixed });
    return inside !== (a.outside === true) ? [a.text] : [];
  });
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
    /** The part of the software that has the bug, as in "Beam 2.56.0 has a known bug in <component>". */
    component: string;
    /** What happens at run time in a few words: the message reads "… has a known bug in <component>: <title>." */
    title: string;
    /**
     * The title for a project whose job code was read (it shows `seenIn`) and shows no `fact`: a bug of every
     * source, told without naming the one most projects use (Kafka) to a project that uses another.
     */
    titleWithout?: { fact: AdvisoryFact; seenIn: AdvisoryFact; title: string };
    /** What happens at run time, in full (one sentence, shown as related information). */
    effect: string;
    /** Sentences the finding adds as related information (what does not help, what else to know). */
    advice?: AdvisoryAdvice[];
    conditions?: AdvisoryCondition[];
  };
}

export const ADVISORIES: readonly Advisory[] = RECORDS as Advisory[];

/** The title of a record for a project with these facts (`titleWithout` where it applies). */
export function titleFor(advisory: Advisory, facts: AdvisoryFacts): string {
  const { title, titleWithout } = advisory.database_specific;
  if (!titleWithout) return title;
  const seen = (facts[titleWithout.seenIn]?.length ?? 0) > 0;
  return seen && (facts[titleWithout.fact]?.length ?? 0) === 0 ? titleWithout.title : title;
}

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

function packageMatches(affected: AffectedPackage, ecosystem: Ecosystem, name: string): boolean {
  if (affected.package.ecosystem !== ecosystem || !globMatches(affected.package.name, name)) return false;
  return !(affected.database_specific?.exclude ?? []).some((p) => globMatches(p, name));
}

/** PEP 503: `Apache_Beam` and `apache.beam` are `apache-beam`. */
export function normalizePythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
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
  affected: AffectedPackage;
  range: AffectedRange;
  bounds: VersionRange;
}

/** The advisories (and the range of each) that affect one package of an ecosystem at one version. */
export function matchPackage(
  ecosystem: Ecosystem,
  name: string,
  version: string,
  records: readonly Advisory[] = ADVISORIES,
): AdvisoryMatch[] {
  const out: AdvisoryMatch[] = [];
  for (const advisory of records) {
    for (const affected of advisory.affected) {
      if (!packageMatches(affected, ecosystem, name)) continue;
      const range = affected.ranges.find((r) => inVersionRange(version, rangeBounds(r)));
      if (range) out.push({ advisory, affected, range, bounds: rangeBounds(range) });
    }
  }
  return out;
}

/** The advisories (and the range of each) that affect one Maven coordinate at one version. */
export function matchAdvisories(
  group: string,
  artifact: string,
  version: string,
  records: readonly Advisory[] = ADVISORIES,
): AdvisoryMatch[] {
  return matchPackage("Maven", `${group}:${artifact}`, version, records);
}

/** Whether the project shows a fact the matched package needs to be affected (always, when it needs none). */
export function requirementsMet(match: AdvisoryMatch, facts: AdvisoryFacts): boolean {
  const requires = match.affected.database_specific?.requires;
  return requires === undefined || requires.some((f) => (facts[f]?.length ?? 0) > 0);
}

/** The places where the project shows the facts a matched package needs. */
export function requiredFacts(match: AdvisoryMatch, facts: AdvisoryFacts): Location[] {
  return (match.affected.database_specific?.requires ?? []).flatMap((f) => facts[f] ?? []);
}

/** The conditions of an advisory that the project meets. */
export function metConditions(advisory: Advisory, facts: AdvisoryFacts): AdvisoryCondition[] {
  return (advisory.database_specific.conditions ?? []).filter((c) => (facts[c.uses]?.length ?? 0) > 0);
}

/**
 * The conditions whose component the project's job code could use but does not: none of the advisory's conditions
 * is met, and the job code was read (it shows the condition's `seenIn` fact, by default `kafkaCode`).
 */
export function unusedConditions(advisory: Advisory, facts: AdvisoryFacts): AdvisoryCondition[] {
  if (metConditions(advisory, facts).length > 0) return [];
  return (advisory.database_specific.conditions ?? []).filter(
    (c) => c.unused !== undefined && (facts[c.seenIn ?? "kafkaCode"]?.length ?? 0) > 0,
  );
}

/** The range's severity, raised by any condition the project meets, lowered where its job code avoids them all. */
export function matchSeverity(match: AdvisoryMatch, facts: AdvisoryFacts): Severity {
  const unused = unusedConditions(match.advisory, facts);
  const lowered = unused.find((c) => c.unused)?.unused;
  if (lowered) return lowered;
  let severity = match.range.database_specific.severity;
  for (const c of metConditions(match.advisory, facts)) {
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
