/**
 * Completion of Flink option keys, and of enum values after `key: `, wherever a Flink configuration is written:
 * flink-conf.yaml and config.yaml files, `flink-conf.yaml: |` / `config.yaml: |` blocks (ConfigMaps, Helm values)
 * and `flinkConfiguration:` maps. The context comes from the indentation above the cursor, so it works on a line
 * that is still being typed and does not read as an entry yet.
 *
 * Keys are offered in this order: commonly set options (those with a description, in the order of
 * option-docs.json) whose key starts with what is typed, other options that start with it, then the rest; each
 * item's documentation (on resolve) says what the option does and links to the Flink docs of the project's version.
 */
import { type CompletionItem, CompletionItemKind, type CompletionList } from "vscode-languageserver/node";
import { commonRank } from "../core/knowledge/optionDocs";
import { allOptionKeys, lookupOption } from "../core/knowledge/options";
import type { FileFacts } from "../core/model";
import { LineIndex, type Position } from "../core/text";
import { enumValues, meaningOf, optionDetail, optionMarkdown } from "./optionDocs";
import { sqlCompletion } from "./sqlAssist";

interface ConfigContext {
  /** Keys of the mappings the cursor is nested in, inside the configuration (`execution.checkpointing`). */
  prefix: string;
}

/** What a completion item remembers for completionItem/resolve. */
export interface CompletionData {
  key: string;
  minor?: string;
}

const BLOCK_NAMES = new Set(["flink-conf.yaml", "flink-conf.yml", "config.yaml", "config.yml"]);
const MAPPING_LINE = /^(\s*)(?:-\s+)?(["']?)([^"'#:]+)\2:(?:\s+(.*))?$/;

function indentOf(text: string): number {
  return /^\s*/.exec(text)?.[0].length ?? 0;
}

function isBlank(text: string): boolean {
  return /^\s*(#.*)?$/.test(text);
}

/**
 * Walks up through the lines that contain the cursor's line by indentation. Returns the configuration context,
 * or undefined when the cursor is not inside a Flink configuration.
 */
export function configContext(facts: FileFacts, index: LineIndex, p: Position): ConfigContext | undefined {
  const wholeFile = facts.kind === "flinkConfig";
  const legacy = wholeFile && facts.flinkConfigs.every((c) => c.dialect === "legacy");
  if (legacy) return { prefix: "" };
  const line = index.lineText(p.line);
  const before = line.slice(0, p.character);
  let indent = isBlank(before) ? before.length : indentOf(line);
  const parents: string[] = [];
  for (let l = p.line - 1; l >= 0 && indent > 0; l--) {
    const text = index.lineText(l);
    if (isBlank(text) || indentOf(text) >= indent) continue;
    indent = indentOf(text);
    const m = MAPPING_LINE.exec(text);
    if (!m) return undefined;
    const key = m[3].trim();
    const rest = (m[4] ?? "").trim();
    if (!wholeFile && BLOCK_NAMES.has(key) && /^[|>]/.test(rest)) {
      return { prefix: key.startsWith("flink-conf") ? "" : parents.reverse().join(".") };
    }
    if (!wholeFile && key === "flinkConfiguration" && rest === "") return { prefix: parents.reverse().join(".") };
    if (rest !== "" && !rest.startsWith("#")) return undefined;
    parents.push(key);
  }
  return wholeFile ? { prefix: parents.reverse().join(".") } : undefined;
}

function keyItems(ctx: ConfigContext, line: string, p: Position, minor?: string): CompletionItem[] {
  const before = line.slice(0, p.character);
  const m = /^(\s*(?:-\s+)?)([^\s:#"']*)$/.exec(before);
  if (!m) return [];
  const start = m[1].length;
  const rest = /^[^\s:#]*/.exec(line.slice(p.character))?.[0] ?? "";
  const hasSeparator = line.slice(p.character + rest.length).startsWith(":");
  const range = {
    start: { line: p.line, character: start },
    end: { line: p.line, character: p.character + rest.length },
  };
  const prefix = ctx.prefix ? `${ctx.prefix}.` : "";
  const typed = m[2];
  const items: CompletionItem[] = [];
  for (const key of allOptionKeys(minor)) {
    if (!key.startsWith(prefix)) continue;
    const option = lookupOption(key);
    if (!option) continue;
    const label = key.slice(prefix.length);
    const data: CompletionData = { key, minor };
    items.push({
      label,
      kind: CompletionItemKind.Property,
      detail: optionDetail(option, minor),
      sortText: sortText(label, typed, commonRank(key)),
      textEdit: { range, newText: hasSeparator ? label : `${label}: ` },
      data,
    });
  }
  return items;
}

/**
 * Common options that start with what is typed, then other options that start with it, then common options that
 * only match loosely, then the rest; common ones in the order of option-docs.json, the others by key.
 */
export function sortText(label: string, typed: string, rank: number | undefined): string {
  const prefixMatch = label.toLowerCase().startsWith(typed.toLowerCase());
  const tier = (prefixMatch ? 0 : 2) + (rank === undefined ? 1 : 0);
  return `${tier}${String(rank ?? 0).padStart(5, "0")}${label}`;
}

function valueItems(ctx: ConfigContext, line: string, p: Position, minor?: string): CompletionItem[] {
  const m = /^\s*(?:-\s+)?(["']?)([^\s"'#:][^"'#]*?)\1:\s+([^\s#]*)$/.exec(line.slice(0, p.character));
  if (!m) return [];
  const key = ctx.prefix ? `${ctx.prefix}.${m[2]}` : m[2];
  const meaning = meaningOf(key, minor);
  if (meaning.kind !== "option" && meaning.kind !== "alias") return [];
  const option = meaning.option;
  const range = { start: { line: p.line, character: p.character - m[3].length }, end: p };
  return enumValues(option, minor).map((value) => ({
    label: value,
    kind: CompletionItemKind.EnumMember,
    detail: option.key,
    textEdit: { range, newText: value },
  }));
}

export function completionAt(facts: FileFacts, p: Position, minor?: string): CompletionList | undefined {
  if (facts.kind === "sql") return sqlCompletion(facts, p, minor);
  const index = new LineIndex(facts.text);
  const ctx = configContext(facts, index, p);
  if (!ctx) return undefined;
  const line = index.lineText(p.line);
  const values = valueItems(ctx, line, p, minor);
  const items = values.length > 0 ? values : keyItems(ctx, line, p, minor);
  return { isIncomplete: false, items };
}

export function resolveCompletion(item: CompletionItem): CompletionItem {
  const data = item.data as CompletionData | undefined;
  const option = data && lookupOption(data.key);
  if (option) item.documentation = { kind: "markdown", value: optionMarkdown(option, data.minor).join("\n\n") };
  return item;
}
