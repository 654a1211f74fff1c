/**
 * The lines of a string value (a ConfigMap's `flink-conf.yaml: |` block, a FLINK_PROPERTIES value) in the
 * coordinates of the file that holds them, so findings inside the value point at the right host columns.
 *
 * Literal block scalars map exactly. One-line plain and quoted strings map exactly as long as escapes do not
 * shift columns (`\n` in a double-quoted string only splits lines). Everything else (folded `>` blocks,
 * strings spanning lines, other escapes) is read from the resolved value and marked inexact.
 */
import { isScalar, type Scalar } from "yaml";
import { pushAll } from "../../arrays";
import type { TemplateFill } from "../../model";
import type { SourceLine } from "../flinkConfig/legacy";
import { scalarText, type YamlSource } from "./ast";

export interface BlockLayout {
  /** Host line of the `|` header. */
  headerLine: number;
  /** Column where the content starts; undefined for a block without content. */
  indent?: number;
  /** Host line of the last non-blank content line; undefined for a block without content. */
  lastContentLine?: number;
}

export interface ScalarLines {
  lines: SourceLine[];
  exact: boolean;
  /** Set for literal block scalars, which can take new lines. */
  block?: BlockLayout;
  /** Helm template actions on lines of their own in the text: they write lines of it when the chart is rendered. */
  fills?: TemplateFill[];
}

export function scalarLines(src: YamlSource, node: unknown): ScalarLines | undefined {
  if (!isScalar(node) || !node.range) return undefined;
  const value = scalarText(node) ?? "";
  switch (node.type) {
    case "BLOCK_LITERAL":
      return literalBlock(src, node, value);
    case "PLAIN":
    case "QUOTE_SINGLE":
    case "QUOTE_DOUBLE":
      return oneLineFlow(src, node, value) ?? inexact(src, node, value);
    default:
      return inexact(src, node, value);
  }
}

function literalBlock(src: YamlSource, node: Scalar, value: string): ScalarLines {
  const [start, end] = node.range as [number, number, number];
  const headerLine = src.lineOf(start);
  // In a Helm template, lines of actions are blank to the parser: the content ends at the last line it read.
  let lastLine = src.lineOf(src.trimEnd(start, end));
  while (lastLine > headerLine && src.parsedLine(lastLine).trim() === "") lastLine--;
  const block: BlockLayout = { headerLine: src.hostLine(headerLine) };
  const firstContent = value.split("\n").find((l) => l.trim().length > 0);
  const fills = src.template ? blockFills(src, headerLine + 1, src.lineOf(src.trimEnd(start, end))) : [];
  if (firstContent === undefined || lastLine <= headerLine) return withFills({ lines: [], exact: true, block }, fills);
  let indent = 0;
  for (let line = headerLine + 1; line <= lastLine; line++) {
    const text = src.index.lineText(line);
    if (src.parsedLine(line).trim().length === 0) continue;
    // The parser resolved the indentation (indicators included): the first content line is the host line minus it.
    indent = text.endsWith(firstContent) ? text.length - firstContent.length : text.length - text.trimStart().length;
    break;
  }
  const lines: SourceLine[] = [];
  for (let line = headerLine + 1; line <= lastLine; line++) {
    const hostLine = src.hostLine(line);
    const l: SourceLine = {
      // A template's line of actions is written over when the chart is rendered: a blank line of the text here.
      text: src.isActionLine(line) ? "" : src.index.lineText(line).slice(indent),
      line: hostLine,
      character: indent,
      last: hostLine === src.host.lineCount - 1,
    };
    const parsed = src.template ? src.parsedLine(line).slice(indent) : undefined;
    if (parsed !== undefined && parsed !== l.text && l.text !== "") l.parsed = parsed;
    lines.push(l);
  }
  return withFills({ lines, exact: true, block: { ...block, indent, lastContentLine: src.hostLine(lastLine) } }, fills);
}

/** The actions on lines of their own from `first` to `last` that write text when the chart is rendered. */
function blockFills(src: YamlSource, first: number, last: number): TemplateFill[] {
  const out: TemplateFill[] = [];
  for (let line = first; line <= last; line++) pushAll(out, src.lineFills(line));
  return out;
}

function withFills(lines: ScalarLines, fills: TemplateFill[]): ScalarLines {
  if (fills.length > 0) lines.fills = fills;
  return lines;
}

function oneLineFlow(src: YamlSource, node: Scalar, value: string): ScalarLines | undefined {
  const [start, end] = node.range as [number, number, number];
  if (src.lineOf(start) !== src.lineOf(end)) return undefined;
  const at = src.position(start);
  if (node.type === "PLAIN") return { lines: [{ text: value, line: at.line, character: at.character }], exact: true };
  const inner = src.text.slice(start + 1, end - 1);
  if (node.type === "QUOTE_SINGLE") {
    if (inner.includes("''")) return undefined;
    return { lines: [{ text: inner, line: at.line, character: at.character + 1 }], exact: true };
  }
  const lines: SourceLine[] = [];
  let from = 0;
  for (const part of inner.split("\\n")) {
    if (part.includes("\\")) return undefined;
    lines.push({ text: part, line: at.line, character: at.character + 1 + from });
    from += part.length + 2;
  }
  return { lines, exact: true };
}

function inexact(src: YamlSource, node: Scalar, value: string): ScalarLines {
  const at = src.position((node.range as [number, number, number])[0]);
  return { lines: value.split("\n").map((text) => ({ text, line: at.line, character: at.character })), exact: false };
}
