/**
 * Hovers: on a key of any Flink configuration (file, ConfigMap block, flinkConfiguration map) the option's type,
 * default, versions and the value Flink will use; on a rule code in a suppression comment, what the rule checks;
 * on a Beam version or coordinate in a build file, and on KafkaIO reads and checkpoint intervals in job code, what
 * the core hovers say about them in the context of the whole project.
 */

import type { Hover } from "vscode-languageserver/node";
import { pushAll } from "../core/arrays";
import { buildHoverAt } from "../core/hover/buildHover";
import { javaHover } from "../core/hover/javaHover";
import type { OptionInfo } from "../core/knowledge/options";
import type { ConfigEntry, FileFacts, FlinkConfig } from "../core/model";
import { configVersion } from "../core/project/clusters";
import { describeVersion } from "../core/project/versions";
import { ruleDocsUrl } from "../core/rules/docsUrl";
import { findRule } from "../core/rules/index";
import { comparePositions, LineIndex, type Position, type Range } from "../core/text";
import type { ProjectModel } from "../core/workspace/project";
import { relativeTo } from "../core/workspace/workspace";
import { describeVersionSource } from "./analysis";
import { meaningOf, optionMarkdown } from "./optionDocs";
import { sqlHover } from "./sqlAssist";

function touches(range: Range, p: Position): boolean {
  return comparePositions(range.start, p) <= 0 && comparePositions(p, range.end) <= 0;
}

/**
 * The entry whose key is under the cursor, and its configuration: the file's own, and with the project, the chart
 * values a Helm template writes into a FlinkDeployment (read from this values file for that template).
 */
export function entryAt(
  facts: FileFacts,
  p: Position,
  project?: ProjectModel,
): { config: FlinkConfig; entry: ConfigEntry } | undefined {
  const configs = project ? project.flinkConfigs.filter((c) => c.file === facts.file) : facts.flinkConfigs;
  for (const config of configs) {
    for (const entry of config.entries) if (touches(entry.keyRange, p)) return { config, entry };
  }
  return undefined;
}

function lastWith(entries: readonly ConfigEntry[], key: string): ConfigEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].key === key) return entries[i];
  return undefined;
}

/**
 * The entry Flink takes the value from: the last occurrence of the option's own key, else of its deprecated and
 * fallback keys in the order Flink tries them.
 */
export function effectiveEntry(config: FlinkConfig, key: string, option?: OptionInfo): ConfigEntry | undefined {
  const entries = config.entries.filter((e) => e.valueKind === "scalar");
  if (!option) return lastWith(entries, key);
  for (const k of [option.key, ...option.aliases]) {
    const found = lastWith(entries, k);
    if (found) return found;
  }
  return undefined;
}

function effectiveText(entry: ConfigEntry, effective: ConfigEntry | undefined): string | undefined {
  if (!effective) return undefined;
  const line = effective.keyRange.start.line + 1;
  if (effective === entry) return `Effective value: \`${effective.value}\` (this line, ${line})`;
  const via = effective.key === entry.key ? "" : ` via \`${effective.key}\``;
  return `Effective value: \`${effective.value}\`, set on line ${line}${via}; this line does not apply`;
}

function versionBasis(project: ProjectModel | undefined): string {
  const source = project && describeVersionSource(project);
  return source ? `Project: ${source}` : "Project Flink version not detected: facts are for the newest Flink version.";
}

function configHover(facts: FileFacts, p: Position, project: ProjectModel | undefined): Hover | undefined {
  const found = entryAt(facts, p, project);
  if (!found || found.entry.valueKind === "mapping") return undefined;
  const { config, entry } = found;
  const version = project ? configVersion(project, config) : undefined;
  const minor = version?.minor;
  const meaning = meaningOf(entry.key, minor);
  const parts: string[] = [];
  let option: OptionInfo | undefined;
  switch (meaning.kind) {
    case "option":
      option = meaning.option;
      pushAll(parts, optionMarkdown(option, minor));
      break;
    case "alias":
      option = meaning.option;
      parts.push(
        meaning.aliasKind === "deprecated"
          ? `\`${entry.key}\` is a deprecated key: use \`${option.key}\`. Flink reads it only when \`${option.key}\` is not set.`
          : `\`${entry.key}\` is a fallback key of \`${option.key}\`: Flink reads it only when \`${option.key}\` is not set.`,
        ...optionMarkdown(option, minor),
      );
      break;
    case "mapEntry":
      parts.push(`An entry of the map option \`${meaning.option.key}\`.`);
      break;
    case "passThrough":
      parts.push(`**\`${entry.key}\`** · passed on as is: ${meaning.scope}.`);
      break;
    case "unknown":
      parts.push(`**\`${entry.key}\`** is not a Flink option this extension knows.`);
      break;
  }
  const effective = effectiveText(entry, effectiveEntry(config, entry.key, option));
  if (effective) parts.push(effective);
  parts.push(
    project && version
      ? `Version: ${describeVersion(version, (f) => relativeTo(project.root, f))}`
      : versionBasis(project),
  );
  return { contents: { kind: "markdown", value: parts.join("\n\n") }, range: entry.keyRange };
}

/** A rule code or name inside a `beam-flink-lint-disable…` comment. */
function suppressionHover(text: string, p: Position): Hover | undefined {
  const line = new LineIndex(text).lineText(p.line);
  if (!line.includes("beam-flink-lint-disable")) return undefined;
  const token = /[A-Za-z0-9-]+/g;
  for (let m = token.exec(line); m; m = token.exec(line)) {
    if (p.character < m.index || p.character > m.index + m[0].length) continue;
    const rule = findRule(m[0]);
    if (!rule) return undefined;
    const { code, name, description } = rule.meta;
    return {
      contents: {
        kind: "markdown",
        value: `**${code}** · ${name}\n\n${description}\n\n[Documentation](${ruleDocsUrl(code)})`,
      },
      range: { start: { line: p.line, character: m.index }, end: { line: p.line, character: m.index + m[0].length } },
    };
  }
  return undefined;
}

/** Build files and job code: the Beam version and its runners; reads and checkpoint intervals. */
function projectHover(facts: FileFacts, p: Position, project: ProjectModel | undefined): Hover | undefined {
  if (!project) return undefined;
  // Flags passed to a pipeline live in build scripts, launch files and FlinkDeployments as well as in code.
  const found = (facts.build ? buildHoverAt(project, facts.file, p) : undefined) ?? javaHover(project, facts.file, p);
  return found && { contents: { kind: "markdown", value: found.markdown }, range: found.range };
}

export function hoverAt(facts: FileFacts, p: Position, project: ProjectModel | undefined): Hover | undefined {
  return (
    suppressionHover(facts.text, p) ??
    configHover(facts, p, project) ??
    sqlHover(facts, p) ??
    projectHover(facts, p, project)
  );
}
