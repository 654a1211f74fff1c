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
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsvPath = resolve(process.argv[2] ?? join(root, "..", "shared", "reference", "flink-options-full.tsv"));
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
if (gapReport.length > 0) console.log(`keys missing from some minors inside their range:\n  ${gapReport.join("\n  ")}`);
