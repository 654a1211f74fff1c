/**
 * Hover and completion in Flink SQL scripts (`.sql` files; none in a ksqlDB script): inside `WITH (…)` of a Kafka or upsert-kafka table,
 * the connector's options (type, default, allowed values, the connector versions that read them); inside `SET '…'`,
 * Flink's options, as in flink-conf.yaml. Hovers on `SET` keys come from the configuration hover (the statements
 * are a Flink configuration); this module adds the table options.
 */
import { type CompletionItem, CompletionItemKind, type CompletionList, type Hover } from "vscode-languageserver/node";
import { type SqlToken, tokenizeSql } from "../core/documents/sql/scanner";
import {
  isKafkaTableConnector,
  type KafkaTableConnector,
  type TableOption,
  tableOption,
  tableOptions,
} from "../core/knowledge/kafkaTableOptions";
import { commonRank } from "../core/knowledge/optionDocs";
import { allOptionKeys, lookupOption } from "../core/knowledge/options";
import type { FileFacts } from "../core/model";
import { comparePositions, LineIndex, type Position, type Range } from "../core/text";
import type { CompletionData } from "./completion";
import { sortText } from "./completion";
import { enumValues, meaningOf, optionDetail } from "./optionDocs";

function touches(range: Range, p: Position): boolean {
  return comparePositions(range.start, p) <= 0 && comparePositions(p, range.end) <= 0;
}

export function tableOptionMarkdown(connector: KafkaTableConnector, option: TableOption): string {
  const parts = [`**${option.key}** · ${connector} table option`, option.doc];
  const facts = [`Type: \`${option.type}\``, `Default: ${option.default === null ? "none" : `\`${option.default}\``}`];
  if (option.allowed) facts.push(`Values: ${option.allowed.map((v) => `\`${v}\``).join(", ")}`);
  parts.push(facts.join(" · "));
  parts.push(
    `Read by connector ${option.since} and later${option.bundledSince ? `, and by the connector bundled with Flink ${option.bundledSince}–1.17` : ""}.`,
  );
  if (option.deprecated) parts.push(`Deprecated: use \`${option.deprecated}\`.`);
  return parts.join("\n\n");
}

/** A WITH option key of a Kafka table under the cursor. */
export function sqlHover(facts: FileFacts, p: Position): Hover | undefined {
  for (const table of facts.sql?.tables ?? []) {
    if (!isKafkaTableConnector(table.connector)) continue;
    for (const o of table.options) {
      if (!touches(o.keyRange, p)) continue;
      const option = tableOption(table.connector, o.key);
      if (!option) return undefined;
      return { contents: { kind: "markdown", value: tableOptionMarkdown(table.connector, option) }, range: o.keyRange };
    }
  }
  return undefined;
}

type SqlContext =
  | { kind: "setKey"; typed: SqlToken }
  | { kind: "setValue"; key: string; typed: SqlToken }
  | { kind: "optionKey"; connector: KafkaTableConnector; typed: SqlToken }
  | { kind: "optionValue"; connector: KafkaTableConnector; key: string; typed: SqlToken };

function isPunct(t: SqlToken | undefined, v: string): boolean {
  return t?.kind === "punct" && t.value === v;
}

function isWord(t: SqlToken | undefined, v: string): boolean {
  return t?.kind === "word" && t.value.toUpperCase() === v;
}

/** Where the cursor stands: in a string of a SET statement or of an open WITH list. */
function contextAt(text: string, offset: number): SqlContext | undefined {
  const tokens = tokenizeSql(text.slice(0, offset));
  const last = tokens[tokens.length - 1];
  // Only inside an open string: `'exec|`.
  if (last?.kind !== "string" || !last.unterminated) return undefined;
  let start = tokens.length - 1;
  while (start > 0 && !isPunct(tokens[start - 1], ";")) start--;
  const st = tokens.slice(start);
  const i = st.length - 1;
  if (isWord(st[0], "SET")) {
    if (i === 1) return { kind: "setKey", typed: last };
    if (i === 3 && st[1].kind === "string" && isPunct(st[2], "="))
      return { kind: "setValue", key: st[1].value, typed: last };
    return undefined;
  }
  if (!isWord(st[0], "CREATE")) return undefined;
  // The innermost open `(` must follow WITH.
  let depth = 0;
  let open = -1;
  for (let j = i - 1; j >= 0; j--) {
    if (isPunct(st[j], ")")) depth++;
    else if (isPunct(st[j], "(")) {
      if (depth === 0) {
        open = j;
        break;
      }
      depth--;
    }
  }
  if (open < 1 || !isWord(st[open - 1], "WITH")) return undefined;
  let connector: KafkaTableConnector = "kafka";
  for (let j = open + 1; j + 2 < i; j++) {
    if (st[j].kind === "string" && st[j].value === "connector" && isPunct(st[j + 1], "=")) {
      const named = st[j + 2].value.trim().toLowerCase();
      if (!isKafkaTableConnector(named)) return undefined;
      connector = named;
    }
  }
  const before = st[i - 1];
  if (isPunct(before, "(") || isPunct(before, ",")) return { kind: "optionKey", connector, typed: last };
  if (isPunct(before, "=") && st[i - 2]?.kind === "string")
    return { kind: "optionValue", connector, key: st[i - 2].value, typed: last };
  return undefined;
}

export function sqlCompletion(facts: FileFacts, p: Position, minor?: string): CompletionList | undefined {
  // A ksqlDB script or Confluent statements (read as no Flink SQL): its SET keys and WITH properties are not Flink's.
  if (!facts.sql) return undefined;
  const index = new LineIndex(facts.text);
  const offset = index.offsetAt(p);
  const ctx = contextAt(facts.text, offset);
  if (!ctx) return undefined;
  // Items replace what is typed inside the quotes (up to the closing quote, when it is there already).
  const from = index.positionAt(ctx.typed.start + 1);
  let to = offset;
  while (to < facts.text.length && /[\w.-]/.test(facts.text[to])) to++;
  const range = { start: from, end: index.positionAt(to) };
  const typed = facts.text.slice(ctx.typed.start + 1, offset);
  const items: CompletionItem[] = [];
  if (ctx.kind === "setKey") {
    for (const key of allOptionKeys(minor)) {
      const option = lookupOption(key);
      if (!option) continue;
      const data: CompletionData = { key, minor };
      items.push({
        label: key,
        kind: CompletionItemKind.Property,
        detail: optionDetail(option, minor),
        sortText: sortText(key, typed, commonRank(key)),
        textEdit: { range, newText: key },
        data,
      });
    }
  } else if (ctx.kind === "setValue") {
    const meaning = meaningOf(ctx.key, minor);
    if (meaning.kind === "option" || meaning.kind === "alias")
      for (const value of enumValues(meaning.option, minor))
        items.push({
          label: value,
          kind: CompletionItemKind.EnumMember,
          detail: meaning.option.key,
          textEdit: { range, newText: value },
        });
  } else if (ctx.kind === "optionKey") {
    for (const option of tableOptions(ctx.connector)) {
      if (option.key === "properties.*") continue;
      items.push({
        label: option.key,
        kind: CompletionItemKind.Property,
        detail: `${option.type}${option.default === null ? "" : ` = ${option.default}`}${option.deprecated ? " (deprecated)" : ""}`,
        documentation: { kind: "markdown", value: tableOptionMarkdown(ctx.connector, option) },
        sortText: `${option.key.startsWith(typed) ? 0 : 1}${option.deprecated ? 1 : 0}${option.key}`,
        tags: option.deprecated ? [1] : undefined,
        textEdit: { range, newText: option.key },
      });
    }
  } else {
    const option = tableOption(ctx.connector, ctx.key);
    for (const value of option?.allowed ?? [])
      items.push({
        label: value,
        kind: CompletionItemKind.EnumMember,
        detail: ctx.key,
        textEdit: { range, newText: value },
      });
  }
  return { isIncomplete: false, items };
}
