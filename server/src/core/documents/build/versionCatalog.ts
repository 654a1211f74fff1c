/**
 * Reads a Gradle version catalog (gradle/libs.versions.toml): `[versions]`, `[libraries]` in its three forms
 * (`"g:a:v"`, `{ module = "g:a", version.ref = "x" }`, `{ group, name, version }`, versions also rich:
 * `{ require = "…" }`) and `[bundles]`. Aliases are kept as build scripts write them: `beam-runner_flink` is
 * `beam.runner.flink`.
 */
import { emptyFacts, type FileFacts } from "../../model";
import { LineIndex } from "../../text";
import type { CatalogLibrary, SymbolDefinition, ValueExpr, ValuePart } from "./facts";
import { readToml, type TomlEntry, type TomlValue } from "./toml";
import { exprOf, textPart } from "./values";

/** Rich version keys in the order their value is taken as the version. */
const RICH_VERSION_KEYS = ["require", "strictly", "prefer"];

/** The accessor a catalog file gets in build scripts: `libs` for libs.versions.toml. */
export function catalogName(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.slice(0, base.length - ".versions.toml".length);
}

export function normalizeAlias(alias: string): string {
  return alias.replace(/[-_]/g, ".");
}

/** "Gradle cannot load this version catalog: this string is never closed …", or without the cause when too long. */
function catalogMessage(problem: string): string {
  const cause = `${problem.charAt(0).toLowerCase()}${problem.slice(1)}`;
  const full = `Gradle cannot load this version catalog: ${cause}`;
  return full.length <= 120 ? full : "Gradle cannot load this version catalog, so the build fails.";
}

export function readVersionCatalog(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "versionCatalog", text);
  const index = new LineIndex(text);
  const { entries, problems } = readToml(text);
  facts.syntaxErrors = problems.map((p) => ({
    range: index.rangeOf(p.start, p.end),
    message: catalogMessage(p.message),
    details: p.message,
  }));
  const versions = new Map<string, { def: SymbolDefinition; rank: number }>();
  const libraries = new Map<string, CatalogLibrary>();
  const bundles: { alias: string; libraries: string[]; range: ReturnType<LineIndex["rangeOf"]> }[] = [];
  for (const entry of entries) {
    const [table, alias, ...rest] = entry.keys;
    if (!alias) continue;
    const name = normalizeAlias(alias.name);
    if (table.name === "versions") {
      const rank = rest.length === 0 ? 0 : RICH_VERSION_KEYS.indexOf(rest[0].name) + 1;
      const value = stringExpr(index, entry.value);
      if ((rest.length > 0 && rank === 0) || rest.length > 1 || !value) continue;
      const known = versions.get(name);
      if (!known || rank < known.rank) {
        versions.set(name, {
          def: { name: `versions.${name}`, value, nameRange: index.rangeOf(alias.start, alias.end) },
          rank,
        });
      }
    } else if (table.name === "libraries") {
      let lib = libraries.get(name);
      if (!lib) {
        lib = { alias: name, range: index.rangeOf(alias.start, alias.end) };
        libraries.set(name, lib);
      }
      readLibraryEntry(
        index,
        lib,
        rest.map((k) => k.name),
        entry,
      );
    } else if (table.name === "bundles" && rest.length === 0 && entry.value.kind === "array") {
      const members = entry.value.items.flatMap((v) => (v.kind === "string" ? [normalizeAlias(v.value)] : []));
      bundles.push({ alias: name, libraries: members, range: index.rangeOf(alias.start, alias.end) });
    }
  }
  facts.build = {
    kind: "versionCatalog",
    name: catalogName(file),
    versions: [...versions.values()].map((v) => v.def),
    libraries: [...libraries.values()],
    bundles,
  };
  return facts;
}

function readLibraryEntry(index: LineIndex, lib: CatalogLibrary, path: string[], entry: TomlEntry): void {
  const value = entry.value;
  if (value.kind !== "string") return;
  const key = path.join(".");
  if (key === "" || key === "module") {
    // "g:a:v" or module = "g:a": split at the colons, keeping each part's exact range.
    const [group, artifact, version] = splitColons(index, value);
    if (!group || !artifact) return;
    lib.group = group;
    lib.artifact = artifact;
    if (key === "" && version) lib.version = version;
  } else if (key === "group") lib.group = stringExpr(index, value);
  else if (key === "name") lib.artifact = stringExpr(index, value);
  else if (key === "version") lib.version = stringExpr(index, value);
  else if (key === "version.ref") {
    const range = index.rangeOf(value.start, value.end);
    lib.version = { parts: [{ ref: `versions.${normalizeAlias(value.value)}`, range }], range };
  } else if (path[0] === "version" && RICH_VERSION_KEYS.includes(path[1]) && !lib.version) {
    lib.version = stringExpr(index, value);
  }
}

function stringExpr(index: LineIndex, value: TomlValue): ValueExpr | undefined {
  if (value.kind !== "string") return undefined;
  return exprOf(index, [textPart(index, value.value, value.start, value.end, value.exact)], value.start, value.end);
}

function splitColons(index: LineIndex, value: TomlValue & { kind: "string" }): ValueExpr[] {
  const out: ValueExpr[] = [];
  let from = 0;
  for (const piece of value.value.split(":")) {
    const start = value.exact ? value.start + from : value.start;
    const end = value.exact ? start + piece.length : value.end;
    const part: ValuePart = textPart(index, piece, start, end, value.exact);
    out.push(exprOf(index, [part], start, end));
    from += piece.length + 1;
  }
  return out;
}
