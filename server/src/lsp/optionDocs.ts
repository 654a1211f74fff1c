/** Flink options in words, for hovers and completion details. */
import { describeOption, optionDocsLink } from "../core/knowledge/optionDocs";
import {
  defaultIn,
  existsIn,
  lookupOption,
  mapOptionAbove,
  type OptionInfo,
  optionsForAlias,
  passThroughScope,
  removedIn,
  typesIn,
} from "../core/knowledge/options";

/** What a key written in a configuration stands for. */
export type KeyMeaning =
  | { kind: "option"; option: OptionInfo }
  | { kind: "alias"; option: OptionInfo; aliasKind: "deprecated" | "fallback" }
  | { kind: "mapEntry"; option: OptionInfo }
  | { kind: "passThrough"; scope: string }
  | { kind: "unknown" };

/**
 * What `key` means in Flink `minor` (undefined = the newest): an option of that version first, then a deprecated
 * or fallback key of one (`state.backend` is its own option up to 1.16 and an alias of `state.backend.type` from
 * 1.17), then a map entry or pass-through key; an option or alias of another version last.
 */
export function meaningOf(key: string, minor?: string): KeyMeaning {
  const exact = lookupOption(key);
  if (exact && existsIn(exact, minor)) return { kind: "option", option: exact };
  const aliases = optionsForAlias(key);
  const alias = aliases.find((a) => existsIn(a.option, minor)) ?? (exact ? undefined : aliases[0]);
  if (alias) return { kind: "alias", option: alias.option, aliasKind: alias.kind };
  const map = mapOptionAbove(key);
  if (map) return { kind: "mapEntry", option: map };
  const scope = passThroughScope(key);
  if (scope) return { kind: "passThrough", scope };
  return exact ? { kind: "option", option: exact } : { kind: "unknown" };
}

/** The type as one phrase: `Duration`, `Enum (EXACTLY_ONCE, AT_LEAST_ONCE)`, `List<String>`. */
export function typeText(option: OptionInfo, minor?: string): string {
  return typesIn(option, minor)
    .map((t) => (t.type === "List" && t.element ? `List<${t.element}>` : t.type))
    .filter((t, i, all) => all.indexOf(t) === i)
    .join(" or ");
}

export function enumValues(option: OptionInfo, minor?: string): string[] {
  const values = new Set<string>();
  for (const t of typesIn(option, minor)) {
    for (const v of t.enumValues ?? []) values.add(v);
    if (t.type === "Boolean") for (const v of ["true", "false"]) values.add(v);
  }
  return [...values];
}

export function versionText(option: OptionInfo): string {
  if (option.operator) return "Flink Kubernetes Operator option";
  const removed = removedIn(option);
  if (option.since && removed) return `Flink ${option.since} to ${option.until} (removed in ${removed})`;
  if (option.since) return `since Flink ${option.since}`;
  if (removed) return `until Flink ${option.until} (removed in ${removed})`;
  return "all supported Flink versions";
}

/** One line for completion details: `Duration · default 10 s`. */
export function optionDetail(option: OptionInfo, minor?: string): string {
  const def = defaultIn(option, minor);
  return `${typeText(option, minor)} · ${def === undefined ? "no default" : `default ${def}`}`;
}

/** The documentation link as Markdown: `[Flink 1.19 documentation](…#state-backend-type)`. */
export function docsLinkMarkdown(option: OptionInfo, minor?: string): string {
  const link = optionDocsLink(option, minor);
  const title =
    link.kind === "operator"
      ? "Flink Kubernetes Operator documentation"
      : link.kind === "release"
        ? `Flink ${link.minor} documentation`
        : link.kind === "master"
          ? "Flink documentation (development version)"
          : "Flink documentation (latest release)";
  return `[${title}](${link.url})`;
}

/**
 * The facts about an option as Markdown paragraphs: what it does, type, default, values, versions and a link to
 * the Flink documentation of that version. `minor` is the project's Flink version (undefined = unknown).
 */
export function optionMarkdown(option: OptionInfo, minor?: string): string[] {
  const lines = [`**\`${option.key}\`** · ${typeText(option, minor)}`];
  const description = describeOption(option.key);
  if (description) lines.push(description);
  const def = defaultIn(option, minor);
  lines.push(`Default: ${def === undefined ? "none" : `\`${def}\``}`);
  const values = typesIn(option, minor).flatMap((t) => t.enumValues ?? []);
  if (values.length > 0) lines.push(`Values: ${values.map((v) => `\`${v}\``).join(", ")}`);
  lines.push(`Available: ${versionText(option)}`);
  if (minor && !existsIn(option, minor)) lines.push(`**Not an option of Flink ${minor}.**`);
  if (option.deprecatedKeys.length > 0) {
    lines.push(`Deprecated keys: ${option.deprecatedKeys.map((k) => `\`${k}\``).join(", ")}`);
  }
  lines.push(docsLinkMarkdown(option, minor));
  return lines;
}
