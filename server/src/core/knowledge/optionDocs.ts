/**
 * What an option is for, and where Flink documents it. The descriptions are option-docs.json (one line per option,
 * in the product's own words); the documentation links follow the URL scheme of Flink's published docs.
 *
 * Flink's documentation site (nightlies.apache.org/flink/flink-docs-<version>/) renders every option key as an
 * `<h5>` in a table and gives it an id with AnchorJS 3.1 (docs/static/js/anchor.min.js in apache/flink): the key
 * with `& +$,:;=?@"#{}|^~[`%!'].()*\` turned into `-`, runs of `-` collapsed, cut to 64 characters, lower-cased.
 * `<` and `>` stay, so `metrics.reporter.<name>.factory.class` is `#metrics-reporter-%3Cname%3E-factory-class`.
 * Cluster options are on docs/deployment/config/, Table options on docs/dev/table/config/, SQL client options on
 * docs/dev/table/sqlclient/; the operator's options are on its own site, docs/operations/configuration/ (its
 * anchors are assumed to follow the same scheme: the operator's docs use the same theme).
 */
import data from "./option-docs.json";
import { compareMinors, DEVELOPMENT_MINOR, existsIn, type OptionInfo, optionsForAlias } from "./options";

const DESCRIPTIONS = (data as { descriptions: Record<string, string> }).descriptions;
const RANK = new Map(Object.keys(DESCRIPTIONS).map((key, i) => [key, i]));

/** The keys that have a description, most used first within each topic. */
export function describedKeys(): string[] {
  return Object.keys(DESCRIPTIONS);
}

/**
 * One line on what the option does: its own description, else that of an option it is a deprecated or fallback
 * key of (`state.backend.fs.checkpointdir` → `execution.checkpointing.dir`). Undefined for undescribed options.
 */
export function describeOption(key: string): string | undefined {
  const own = DESCRIPTIONS[key];
  if (own !== undefined) return own;
  for (const alias of optionsForAlias(key)) {
    const text = DESCRIPTIONS[alias.option.key];
    if (text !== undefined) return text;
  }
  return undefined;
}

/** Where the option stands among the commonly set ones (0 = first); undefined for the others. */
export function commonRank(key: string): number | undefined {
  return RANK.get(key);
}

/** The anchor Flink's documentation gives an option key (AnchorJS 3.1 `urlify`). */
export function docsAnchor(key: string): string {
  return key
    .trim()
    .replace(/'/g, "")
    .replace(/[& +$,:;=?@"#{}|^~[`%!'\]./()*\\]/g, "-")
    .replace(/-{2,}/g, "-")
    .substring(0, 64)
    .replace(/^-+|-+$/gm, "")
    .toLowerCase();
}

/** The oldest Flink minor whose documentation has the `docs/deployment/config/` layout. */
const OLDEST_DOCUMENTED_MINOR = "1.13";

const FLINK_DOCS = "https://nightlies.apache.org/flink/flink-docs-";
const OPERATOR_DOCS =
  "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/operations/configuration/";

export interface OptionDocsLink {
  url: string;
  /** The Flink minor whose documentation the link goes to; undefined for the stable or development docs. */
  minor?: string;
  /** `release`, `stable` (the latest release), `master` (the development line) or `operator`. */
  kind: "release" | "stable" | "master" | "operator";
}

/** The page of the Flink documentation that lists an option. */
function pageOf(key: string): string {
  if (key.startsWith("table.")) return "docs/dev/table/config/";
  if (key.startsWith("sql-client.")) return "docs/dev/table/sqlclient/";
  if (key.startsWith("python.")) return "docs/dev/python/python_config/";
  return "docs/deployment/config/";
}

function isReleasedMinor(minor: string): boolean {
  return compareMinors(minor, OLDEST_DOCUMENTED_MINOR) >= 0 && compareMinors(minor, DEVELOPMENT_MINOR) < 0;
}

/**
 * The option in the documentation of Flink `minor` (the project's version; undefined = not known). When the
 * option does not exist in that version, or the version is unknown or unreleased, the link goes to the newest
 * documentation that has it: the last release before it was removed, the stable docs, or the development docs
 * for an option that only exists there.
 */
export function optionDocsLink(option: OptionInfo, minor?: string): OptionDocsLink {
  const anchor = encodeURIComponent(docsAnchor(option.key));
  if (option.operator) return { url: `${OPERATOR_DOCS}#${anchor}`, kind: "operator" };
  const page = pageOf(option.key);
  const release = (m: string): OptionDocsLink => ({
    url: `${FLINK_DOCS}release-${m}/${page}#${anchor}`,
    minor: m,
    kind: "release",
  });
  const m = minor === undefined ? undefined : /^v?(\d+)[._](\d+)/.exec(minor);
  const wanted = m ? `${m[1]}.${m[2]}` : undefined;
  if (wanted && isReleasedMinor(wanted) && existsIn(option, wanted)) return release(wanted);
  if (option.until !== undefined && isReleasedMinor(option.until)) return release(option.until);
  if (option.since === DEVELOPMENT_MINOR) return { url: `${FLINK_DOCS}master/${page}#${anchor}`, kind: "master" };
  return { url: `${FLINK_DOCS}stable/${page}#${anchor}`, kind: "stable" };
}
