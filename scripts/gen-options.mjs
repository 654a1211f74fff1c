// Generates server/src/core/knowledge/flink-options.json from the reference option table
// (../shared/reference/flink-options-full.tsv, relative to the repository). The output is committed; nothing reads
// the table at run time. Usage: node scripts/gen-options.mjs [path/to/flink-options-full.tsv]
//
// What is kept: facts only (key, type per Flink minor, default per minor, deprecated and fallback keys, the minors a
// key exists in, whether it is a Kubernetes Operator option) and the pass-through prefixes from the table's `#` lines.
// What is dropped: descriptions; keys Flink writes for itself (`$internal.*`, `__…__`); rows the table marks as not
// being configuration-file keys (relative keys used under a prefix, SQL `WITH` / model options, connector builder
// options).
//
// Versions: every commit label maps to its Flink minor (`1.20-branchpoint`, `1.20.4` → 1.20). `master` is the next
// minor after the newest branch point (the development line), so a key seen only on master gets `since` = that minor.
// A key seen at the first label has no `since` (it is at least as old as the data). `until` is the last minor a key
// was seen in, absent when it is still on master.
//
// Deprecations and removals come from a second table (../shared/reference/flink2-removed-options.tsv, or the second
// argument): Flink 2.0's list of removed options and the renames of 1.17–1.20, each with what 2.0.2, 2.1.2, 2.2.1 and
// master still read. It corrects the option table where the two disagree (the option table follows the generated docs
// tables, which drop an option once it is deprecated, although Flink still reads it) and adds what the option table
// cannot say: since when an option is deprecated (`deprecatedSince`), what replaces it (`replacedBy`), in which minors
// an old key is still read as an alias of a newer option (`aliasRanges`), and which keys Flink 2.0 removed
// (`flink2Removals`). CORRECTIONS below holds the few facts verified in the Flink sources that neither table has.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsvPath = resolve(process.argv[2] ?? join(root, "..", "shared", "reference", "flink-options-full.tsv"));
const removalsPath = resolve(process.argv[3] ?? join(root, "..", "shared", "reference", "flink2-removed-options.tsv"));
const outPath = join(root, "server", "src", "core", "knowledge", "flink-options.json");

const lines = readFileSync(tsvPath, "utf8").split(/\r?\n/);
const header = lines[0].split("\t");
const expected = ["key", "type", "default", "deprecated_keys", "source_table", "seen_in_commits"];
if (header.join("\t") !== expected.join("\t")) throw new Error(`unexpected header: ${lines[0]}`);

// The label order is stated in the table's first comment line; read it from there so a regenerated table with more
// labels needs no change here.
const legend = lines.find((l) => l.startsWith("# ") && l.includes("label order:")) ?? "";
const orderMatch = /label order: ([^)]*)\)/.exec(legend);
if (!orderMatch) throw new Error("label order not found in the table's comments");
const [flinkLabels, operatorLabels] = orderMatch[1].split(" / ").map((s) => s.split(",").map((l) => l.trim()));

const branchMinors = [...new Set(flinkLabels.filter((l) => l !== "master").map(minorOfRelease))];
const lastBranch = branchMinors[branchMinors.length - 1];
const developmentMinor = nextMinor(lastBranch);
const minors = [...branchMinors, developmentMinor];

function minorOfRelease(label) {
  const m = /^(\d+)\.(\d+)/.exec(label);
  if (!m) throw new Error(`not a release label: ${label}`);
  return `${m[1]}.${m[2]}`;
}

function nextMinor(minor) {
  const [major, min] = minor.split(".").map(Number);
  return `${major}.${min + 1}`;
}

function minorOf(label) {
  return label === "master" ? developmentMinor : minorOfRelease(label);
}

/** `a@sha..b@sha,c@sha` → the labels it covers, in table order. */
function expandLabels(text) {
  const out = [];
  for (const part of text.split(",")) {
    const [from, to] = part.split("..").map((s) => s.replace(/@[0-9a-f]+$/, "").trim());
    const order = from.startsWith("op-") ? operatorLabels : flinkLabels;
    const i = order.indexOf(from);
    const j = to === undefined ? i : order.indexOf(to);
    if (i < 0 || j < 0 || j < i) throw new Error(`bad label range: ${part}`);
    out.push(...order.slice(i, j + 1));
  }
  return out;
}

/** Minors covered by labels, as { since, until } (absent = open end), plus the minors inside that are missing. */
function minorRange(labels) {
  const seen = new Set(labels.map(minorOf));
  const covered = minors.filter((m) => seen.has(m));
  const first = covered[0];
  const last = covered[covered.length - 1];
  const span = minors.slice(minors.indexOf(first), minors.indexOf(last) + 1);
  const range = {};
  if (first !== minors[0]) range.since = first;
  if (last !== developmentMinor) range.until = last;
  const gaps = span.filter((m) => !seen.has(m));
  return { range, gaps };
}

/** `A (labels) | B (labels)` → [{ text, labels }]; a plain value → [{ text }]. */
function splitVariants(text) {
  const parts = text.split(" | ");
  const variants = parts.map((p) => {
    const m = /^(.*) \(([^()]*)\)$/.exec(p);
    if (!m || !/^(\d+\.\d+[-.\w]*|master|op-[\w.]+)(@[0-9a-f]+)?([.,]|$)/.test(m[2])) return undefined;
    return { text: m[1], labels: expandLabels(m[2]) };
  });
  if (parts.length > 1 && variants.every((v) => v !== undefined)) return variants;
  return [{ text }];
}

const SCALAR_TYPES = new Set(["Boolean", "Integer", "Long", "Double", "Float", "String", "Duration", "MemorySize"]);

function parseType(text) {
  // Options declared without a type take any string.
  if (text === "(untyped)") return { type: "String" };
  const enumMatch = /^Enum(?:\[(.*)\])?$/.exec(text);
  if (enumMatch) return enumMatch[1] ? { type: "Enum", enumValues: enumMatch[1].split("|") } : { type: "Enum" };
  const listMatch = /^List<(\w+)>(?:\[(.*)\])?$/.exec(text);
  if (listMatch) {
    const t = { type: "List", element: listMatch[1] };
    if (listMatch[2]) t.enumValues = listMatch[2].split("|");
    return t;
  }
  if (text === "Map" || SCALAR_TYPES.has(text)) return { type: text };
  throw new Error(`unknown type: ${text}`);
}

function cleanDefault(text) {
  // `java:…` marks a default computed at run time (e.g. from the processor count): no literal to show.
  if (text === "(none)" || text === "" || text.startsWith("java:")) return undefined;
  const quoted = /^"(.*)"$/.exec(text);
  return quoted ? quoted[1] : text;
}

/**
 * Versioned facts: one entry per variant, each with the minors it applies to. Operator options keep only their
 * newest variant: which operator release runs is not something a configuration file tells.
 */
function versioned(text, parse) {
  const variants = splitVariants(text);
  const last = variants[variants.length - 1];
  if (last.labels?.[0].startsWith("op-")) return [parse(last.text)];
  return variants.map((v) => {
    const value = parse(v.text);
    return v.labels ? { ...value, ...minorRange(v.labels).range } : value;
  });
}

const NOT_A_CONFIG_KEY = /\[(relative key|[^\]]*not a flink-conf key|[^\]]*connector builder option)/;
const INTERNAL_KEY = /^(\$internal\.|__.*__$)/;

const options = [];
/** Keys declared `@Deprecated` in the Flink sources the table was read from (every minor it covers). */
const annotatedDeprecated = new Set();
const skipped = { internal: 0, notConfigKey: 0 };
const gapReport = [];
for (const line of lines.slice(1)) {
  if (line.trim() === "" || line.startsWith("#")) continue;
  const [key, type, def, aliasText, source, seen] = line.split("\t");
  if (INTERNAL_KEY.test(key)) {
    skipped.internal++;
    continue;
  }
  if (NOT_A_CONFIG_KEY.test(source)) {
    skipped.notConfigKey++;
    continue;
  }
  const labels = expandLabels(seen);
  if (source.includes("(@Deprecated)")) annotatedDeprecated.add(key);
  const operator = labels.every((l) => l.startsWith("op-"));
  const option = { key };
  const types = versioned(type, parseType);
  if (types.length === 1) Object.assign(option, types[0]);
  else option.types = types;
  const defaults = versioned(def, (t) => ({ value: cleanDefault(t) }));
  if (defaults.length === 1) {
    if (defaults[0].value !== undefined) option.default = defaults[0].value;
  } else option.defaults = defaults;
  const deprecated = [];
  const fallback = [];
  for (const a of aliasText.split(";").filter(Boolean)) {
    if (a.startsWith("fallback:")) fallback.push(a.slice("fallback:".length));
    else deprecated.push(a);
  }
  if (deprecated.length > 0) option.deprecatedKeys = deprecated;
  if (fallback.length > 0) option.fallbackKeys = fallback;
  if (operator) option.operator = true;
  else {
    const { range, gaps } = minorRange(labels);
    Object.assign(option, range);
    // since/until assume a key stays from its first to its last minor; say so when the table disagrees.
    if (gaps.length > 0) gapReport.push(`${key}: ${gaps.join(", ")}`);
  }
  options.push(option);
}
// Keys that Flink's shell scripts (bin/config.sh and the scripts it serves) read from the configuration file in every
// version covered, whether or not a Java option or a docs table existed for them at the time.
const SCRIPT_KEYS = [
  { key: "env.java.home", type: "String" },
  { key: "taskmanager.compute.numa", type: "Boolean" },
  { key: "zookeeper.heap.mb", type: "Integer" },
];
for (const script of SCRIPT_KEYS) {
  const existing = options.find((o) => o.key === script.key);
  if (existing) delete existing.since;
  else options.push({ ...script });
}
options.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

// ---------------------------------------------------------------------------------------------
// Deprecations and removals (the second table)

const removalLines = readFileSync(removalsPath, "utf8").split(/\r?\n/);
const removalHeader = [
  "key",
  "removed_in",
  "replacement_key",
  "still_read_as_deprecated_alias_in_2x",
  "alias_detail_2x",
  "deprecated_since",
  "replacement_introduced_in",
  "row_kind",
  "notes",
  "source",
];
if (removalLines[0] !== removalHeader.join("\t"))
  throw new Error(`unexpected removal table header: ${removalLines[0]}`);

/** The last 1.x minor: a key Flink 2.0 removed was last read there. */
const LAST_BEFORE_2 = "1.20";
/** The 2.x releases the removal table read, and the minor each stands for. */
const ALIAS_LABELS = { "2.0.2": "2.0", "2.1.2": "2.1", "2.2.1": "2.2", master: developmentMinor };

/**
 * Facts verified in the Flink sources (the full-history mirror snuyanzin/flink) that neither table holds.
 * `aliasUntil`: the last minor that reads an old key as an alias; `option`: fields of an option to replace.
 */
const CORRECTIONS = {
  // SecurityOptions.java at the 2.3 branch point (096f031b95) still lists these deprecated keys; master c43754cdc4
  // does not. The removal table stops at 2.2.1 and master.
  aliasUntil: {
    "security.kerberos.fetch.delegation-token": "2.3",
    "security.kerberos.tokens.renewal.retry.backoff": "2.3",
    "security.kerberos.tokens.renewal.time-ratio": "2.3",
  },
  option: {
    // ReporterSetup: reporters configured by class were deprecated at the 1.16 branch point (FLINK-27206, commit
    // 77ae6dd63c9); from the 1.17 branch point Flink only logs a warning and loads no reporter (FLINK-24235, commit
    // 3c9a394c608). The field itself disappears in 2.0.
    "metrics.reporter.<name>.class": {
      until: "1.16",
      deprecatedSince: "1.16",
      replacedBy: ["metrics.reporter.<name>.factory.class"],
      note: "From Flink 1.17 Flink only logs a warning for it and loads no reporter (FLINK-24235).",
    },
    // ReporterSetup at the 1.15 branch point already loads reporters through `factory.class`.
    "metrics.reporter.<name>.factory.class": { since: undefined },
    // QueryableStateOptions: the class is `@Deprecated` from Flink 1.18 on ("The Queryable State feature is deprecated
    // since Flink 1.18, and will be removed in a future Flink major version") and keeps every option; the generated
    // docs tables drop them from 1.18, so the option table ends them at 1.17. The queryable state client is still
    // published for Flink 2.1 (flink-queryable-state-client-java 2.1.2, deprecated), and Flink 2.0's list of removed
    // options does not name them.
    ...Object.fromEntries(
      [
        "queryable-state.client.network-threads",
        "queryable-state.enable",
        "queryable-state.proxy.network-threads",
        "queryable-state.proxy.ports",
        "queryable-state.proxy.query-threads",
        "queryable-state.server.network-threads",
        "queryable-state.server.ports",
        "queryable-state.server.query-threads",
      ].map((key) => [
        key,
        {
          until: developmentMinor,
          deprecatedSince: "1.18",
          note: "Queryable State is deprecated since Flink 1.18 and is to be removed in a future major release.",
        },
      ]),
    ),
    // ClusterOptions javadoc at release-1.20.4.
    "cluster.evenly-spread-out-slots": {
      note: "`true` corresponds to `taskmanager.load-balance.mode: SLOTS`, `false` to `NONE`.",
    },
  },
};

const optionByKey = new Map(options.map((o) => [o.key, o]));
const readersOf = (alias) =>
  options.filter((o) => (o.deprecatedKeys ?? []).includes(alias) || (o.fallbackKeys ?? []).includes(alias));
const cmpMinor = (a, b) => {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am !== bm ? am - bm : an - bn;
};
const optionLastMinor = (o) => o.until ?? developmentMinor;
const optionFirstMinor = (o) => o.since ?? minors[0];

/** `<=1.16` (already deprecated at the oldest branch point the table read) → 1.16; a minor → itself. */
function deprecationMinor(text) {
  const m = /^(<=)?(\d+\.\d+)$/.exec(text.trim());
  return m ? m[2] : undefined;
}

/** Moves the last minor of an option (and of its per-minor types and defaults) to `until`. */
function setUntil(option, until) {
  const old = optionLastMinor(option);
  if (until === developmentMinor) delete option.until;
  else option.until = until;
  for (const field of ["types", "defaults"]) {
    if (!option[field]) continue;
    option[field] = option[field].filter((v) => v.since === undefined || cmpMinor(v.since, until) <= 0);
    for (const v of option[field]) {
      const last = v.until ?? developmentMinor;
      if (last === old || cmpMinor(last, until) > 0) {
        if (until === developmentMinor) delete v.until;
        else v.until = until;
      }
    }
  }
}

function setAliasRange(option, alias, range) {
  const r = { ...(option.aliasRanges?.[alias] ?? {}) };
  if (range.since !== undefined && cmpMinor(range.since, optionFirstMinor(option)) > 0) r.since = range.since;
  if (range.until !== undefined && cmpMinor(range.until, optionLastMinor(option)) < 0) r.until = range.until;
  if (Object.keys(r).length === 0) return;
  option.aliasRanges = { ...(option.aliasRanges ?? {}), [alias]: r };
}

function addAlias(option, alias, kind) {
  const field = kind === "fallback" ? "fallbackKeys" : "deprecatedKeys";
  if ((option.deprecatedKeys ?? []).includes(alias) || (option.fallbackKeys ?? []).includes(alias)) return;
  option[field] = [...(option[field] ?? []), alias];
  changes.push(`${option.key}: reads ${alias} (${kind})`);
}

const flink2Removals = [];
const notInCatalogue = [];
const changes = [];
for (const line of removalLines.slice(1)) {
  if (line.trim() === "" || line.startsWith("#")) continue;
  const [key, , replacement, stillRead, aliasDetail, deprecatedSince, , rowKind] = line.split("\t");
  // `state.backend.type` is listed, but only a duplicate field was removed: the option is still Flink's.
  if (/still an option/.test(stillRead)) continue;
  const removed = rowKind.startsWith("removed-2.0");
  // `<=1.16`: deprecated at the oldest source the removal table read (1.16), maybe long before. When the option
  // table's sources declare the option `@Deprecated` from its first minor on (heap.size since Flink 1.10/1.11), it is
  // deprecated from that minor.
  const since =
    deprecatedSince.trim().startsWith("<=") && annotatedDeprecated.has(key) && optionByKey.get(key)
      ? optionFirstMinor(optionByKey.get(key))
      : deprecationMinor(deprecatedSince);
  const replacedBy = replacement
    .split(";")
    .map((k) => k.trim())
    .filter((k) => k && k !== key);
  const own = optionByKey.get(key);
  const readers = readersOf(key);
  if (!own && readers.length === 0 && !/^yes/.test(stillRead)) {
    notInCatalogue.push(key);
    continue;
  }
  if (removed) flink2Removals.push({ key, listed: !rowKind.includes("NOT in the release-notes list") });

  // The key as an option of its own.
  // A key Flink 2.0 removed was read up to 1.20 (every such row cites the 1.20.4 source that declares it). Where
  // the option table ends it earlier, it followed a docs table that dropped the deprecated option; where the key is
  // also an old name of another option, that option reads it and the key's own entry is not stretched.
  const ownLast = own && optionLastMinor(own);
  const stretch = own && readers.length === 0 && cmpMinor(ownLast, LAST_BEFORE_2) < 0;
  if (own && removed && (stretch || cmpMinor(ownLast, LAST_BEFORE_2) > 0)) {
    changes.push(`${key}: until ${ownLast} → ${LAST_BEFORE_2}`);
    setUntil(own, LAST_BEFORE_2);
  }
  if (own && since !== undefined && cmpMinor(since, optionLastMinor(own)) <= 0) {
    own.deprecatedSince = cmpMinor(since, optionFirstMinor(own)) < 0 ? optionFirstMinor(own) : since;
    if (replacedBy.length > 0) own.replacedBy = replacedBy;
  }

  // The key as an alias of newer options: which 2.x minors still read it, and as what.
  const present = new Map(); // option key → { kind, minors }
  for (const part of aliasDetail.split(/\s+/).filter(Boolean)) {
    const [label, what] = part.split("=");
    const minor = ALIAS_LABELS[label];
    if (!minor) throw new Error(`unknown label in alias detail: ${part}`);
    for (const item of what.split("+")) {
      const m = /^(deprecated-key-of|fallback-of):(.+)$/.exec(item);
      if (!m) continue;
      const entry = present.get(m[2]) ?? { kind: m[1] === "fallback-of" ? "fallback" : "deprecated", minors: [] };
      entry.minors.push(minor);
      present.set(m[2], entry);
    }
  }
  for (const [target, { kind, minors: seen }] of present) {
    const option = optionByKey.get(target);
    if (!option) {
      notInCatalogue.push(`${target} (reads ${key})`);
      continue;
    }
    addAlias(option, key, kind);
    let until = seen.includes(developmentMinor) ? undefined : seen.sort(cmpMinor)[seen.length - 1];
    if (CORRECTIONS.aliasUntil[key]) until = CORRECTIONS.aliasUntil[key];
    setAliasRange(option, key, { since: removed ? undefined : since, until });
  }
  // An option that reads a removed key but is not among what 2.x reads: the alias ends with 1.x.
  if (removed)
    for (const option of readers) if (!present.has(option.key)) setAliasRange(option, key, { until: LAST_BEFORE_2 });
}
for (const [key, fields] of Object.entries(CORRECTIONS.option)) {
  const option = optionByKey.get(key);
  if (!option) throw new Error(`correction for an option not in the catalogue: ${key}`);
  for (const [field, value] of Object.entries(fields)) {
    if (field === "until") setUntil(option, value);
    else if (value === undefined) delete option[field];
    else option[field] = value;
  }
}
flink2Removals.sort((a, b) => (a.key < b.key ? -1 : 1));

// Pass-through prefixes: `# <prefix>\t<scope>\t<evidence>` rows between the PREFIX header and the NOT-prefixes note.
const passThrough = [];
let inPrefixes = false;
for (const line of lines) {
  if (line.startsWith("# PREFIX\t")) {
    inPrefixes = true;
    continue;
  }
  if (!inPrefixes) continue;
  if (!line.startsWith("# ") || line.startsWith("# NOT prefixes") || line.startsWith("# ---")) break;
  const [prefix, scope] = line.slice(2).split("\t");
  passThrough.push({ prefix, scope });
}
if (passThrough.length === 0) throw new Error("no pass-through prefixes found");

const catalogue = {
  source: "apache/flink and apache/flink-kubernetes-operator option tables (generated docs and ConfigOptions in code)",
  minors,
  developmentMinor,
  passThrough,
  flink2Removals,
  options,
};
// One field, prefix or option per line: small diffs when the table is regenerated.
const fields = Object.entries(catalogue).map(([name, value]) =>
  Array.isArray(value) && typeof value[0] === "object"
    ? `${JSON.stringify(name)}: [\n${value.map((v) => `  ${JSON.stringify(v)}`).join(",\n")}\n]`
    : `${JSON.stringify(name)}: ${JSON.stringify(value)}`,
);
writeFileSync(outPath, `{\n${fields.join(",\n")}\n}\n`);
console.log(
  `${options.length} options (${skipped.internal} internal and ${skipped.notConfigKey} non-configuration rows skipped), ` +
    `${passThrough.length} pass-through prefixes, minors ${minors[0]}..${developmentMinor} → ${outPath}`,
);
console.log(
  `${flink2Removals.length} keys removed in Flink 2.0; ${changes.length} corrections from the removal table` +
    (notInCatalogue.length > 0 ? `; not in the catalogue: ${notInCatalogue.join(", ")}` : ""),
);
if (gapReport.length > 0) console.log(`keys missing from some minors inside their range:\n  ${gapReport.join("\n  ")}`);
