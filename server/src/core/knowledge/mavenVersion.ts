/**
 * Version order as Maven defines it (the POM reference's "Version Order Specification"), so that ranges in the
 * advisories and the Beam ↔ Flink matrix mean what they mean to the build that resolves the dependency:
 *
 * - a version splits into tokens at `.`, at `-` and where digits meet letters (a letter/digit switch counts as
 *   `-`); an empty token is 0;
 * - every `-` opens a nested list, and so does a qualifier after `.` that ends the version or is followed by a
 *   number (1.0.rc1 = 1-rc-1); each list drops its trailing "null" tokens (0, "", `final`, `ga`, `release`), so
 *   1.0 = 1 and 2.64.0-ga = 2.64;
 * - numbers compare as numbers; qualifiers as alpha < beta < milestone < rc = cr < snapshot < "" (release) < sp <
 *   any other qualifier (alphabetically); `a1`, `b1`, `m1` are alpha-1, beta-1, milestone-1;
 * - a number is greater than a qualifier and a nested list; a nested list is greater than a qualifier:
 *   1-foo < 1-1 < 1.1, and 2.63.0-RC1 < 2.63.0-SNAPSHOT < 2.63.0 < 2.63.0-sp.
 *
 * The results agree with Maven 3.8's ComparableVersion, edge cases included (1-ga-1 < 1-1, 1.foo.2 ≠ 1-foo-2).
 */

type Item = NumberItem | QualifierItem | ListItem;

interface NumberItem {
  kind: "number";
  /** Digits without leading zeros ("" is zero), so arbitrarily long numbers compare exactly. */
  digits: string;
}

interface QualifierItem {
  kind: "qualifier";
  /** Lower-case, aliases resolved (cr → rc, ga/final/release → ""). */
  text: string;
}

interface ListItem {
  kind: "list";
  items: Item[];
}

const KNOWN_QUALIFIERS = ["alpha", "beta", "milestone", "rc", "snapshot", "", "sp"];
const RELEASE_RANK = KNOWN_QUALIFIERS.indexOf("");
const ALIASES: Record<string, string> = { cr: "rc", ga: "", final: "", release: "" };
const SHORT_BEFORE_DIGIT: Record<string, string> = { a: "alpha", b: "beta", m: "milestone" };

function numberItem(token: string): NumberItem {
  return { kind: "number", digits: token.replace(/^0+/, "") };
}

function qualifierItem(token: string, followedByDigit: boolean): QualifierItem {
  const text = (followedByDigit ? SHORT_BEFORE_DIGIT[token] : undefined) ?? ALIASES[token] ?? token;
  return { kind: "qualifier", text };
}

function isNull(item: Item): boolean {
  if (item.kind === "number") return item.digits === "";
  if (item.kind === "qualifier") return item.text === "";
  return item.items.length === 0;
}

/** Drops trailing nulls; nulls in front of a trailing nested list go too (1.0-1 = 1-1). */
function normalize(list: ListItem): void {
  for (let i = list.items.length - 1; i >= 0; i--) {
    const item = list.items[i];
    if (isNull(item)) list.items.splice(i, 1);
    else if (item.kind !== "list") break;
  }
}

function parseMavenVersion(text: string): ListItem {
  const version = text.trim().toLowerCase();
  const root: ListItem = { kind: "list", items: [] };
  const open: ListItem[] = [root];
  let list = root;
  let start = 0;
  let inDigits = false;
  const nest = () => {
    const child: ListItem = { kind: "list", items: [] };
    list.items.push(child);
    list = child;
    open.push(child);
  };
  // A qualifier ending the version or followed by a number is read as if `-` stood before it: 1.0.rc1 = 1-rc1.
  const nestAfterDot = () => {
    if (list.items.length > 0) nest();
  };
  const push = (token: string, followedByDigit = false) => {
    if (token === "") list.items.push(numberItem("0"));
    else list.items.push(inDigits ? numberItem(token) : qualifierItem(token, followedByDigit));
  };
  for (let i = 0; i < version.length; i++) {
    const c = version[i];
    if (c === "." || c === "-") {
      push(version.slice(start, i));
      start = i + 1;
      if (c === "-") nest();
      inDigits = false;
      continue;
    }
    const digit = c >= "0" && c <= "9";
    if (i > start && digit !== inDigits) {
      // A switch between letters and digits separates like `-`: 1.0alpha1 is 1.0-alpha-1, 1.rc1 is 1-rc-1.
      if (!inDigits) nestAfterDot();
      push(version.slice(start, i), digit);
      start = i;
      nest();
    }
    inDigits = digit;
  }
  if (version.length > start) {
    if (!inDigits) nestAfterDot();
    push(version.slice(start));
  }
  for (let i = open.length - 1; i >= 0; i--) normalize(open[i]);
  return root;
}

function qualifierRank(text: string): number {
  const i = KNOWN_QUALIFIERS.indexOf(text);
  return i >= 0 ? i : KNOWN_QUALIFIERS.length;
}

function compareQualifiers(a: string, b: string): number {
  const ra = qualifierRank(a);
  const rb = qualifierRank(b);
  if (ra !== rb) return ra - rb;
  return ra === KNOWN_QUALIFIERS.length ? (a < b ? -1 : a > b ? 1 : 0) : 0;
}

function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares an item with a missing one (the shorter version's padding). */
function compareWithNothing(a: Item): number {
  if (a.kind === "number") return a.digits === "" ? 0 : 1;
  if (a.kind === "qualifier") return Math.sign(qualifierRank(a.text) - RELEASE_RANK);
  for (const item of a.items) {
    const c = compareWithNothing(item);
    if (c !== 0) return c;
  }
  return 0;
}

const KIND_ORDER: Record<Item["kind"], number> = { qualifier: 0, list: 1, number: 2 };

function compareItems(a: Item | undefined, b: Item | undefined): number {
  if (!a) return b ? -compareWithNothing(b) : 0;
  if (!b) return compareWithNothing(a);
  if (a.kind !== b.kind) return Math.sign(KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  if (a.kind === "number") return Math.sign(compareDigits(a.digits, (b as NumberItem).digits));
  if (a.kind === "qualifier") return Math.sign(compareQualifiers(a.text, (b as QualifierItem).text));
  const other = b as ListItem;
  for (let i = 0; i < Math.max(a.items.length, other.items.length); i++) {
    const c = compareItems(a.items[i], other.items[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** Negative when a < b, 0 when Maven treats them as the same version, positive when a > b. */
export function compareMavenVersions(a: string, b: string): number {
  return compareItems(parseMavenVersion(a), parseMavenVersion(b));
}

/** A half-open range as OSV writes it: `introduced` ≤ v < `fixed`; a missing end is open. */
export interface VersionRange {
  introduced?: string;
  fixed?: string;
}

export function inVersionRange(version: string, range: VersionRange): boolean {
  if (range.introduced !== undefined && compareMavenVersions(version, range.introduced) < 0) return false;
  if (range.fixed !== undefined && compareMavenVersions(version, range.fixed) >= 0) return false;
  return true;
}

/**
 * A single version as a build writes it for a release or pre-release (2.56.0, 2.63.0-RC1, 2.64.0-SNAPSHOT).
 * Maven ranges (`[2.52,2.60)`), Gradle dynamic versions (`2.+`, `latest.release`) and unresolved placeholders
 * (`${beam.version}`) are not: what they resolve to is decided when the build runs.
 */
export function isConcreteVersion(text: string): boolean {
  const t = text.trim();
  return /^\d[A-Za-z0-9.-]*$/.test(t) && !/[.-]{2}|[.-]$/.test(t);
}
