/**
 * The lines of a string value (a ConfigMap's `flink-conf.yaml: |` block, a FLINK_PROPERTIES value) in the
 * coordinates of the file that holds them, so findings inside the value point at the right host columns.
 *
 * Literal block scalars map exactly. One-line plain and quoted strings map exactly as long as escapes do not
 * shift columns (`\n` in a double-quoted string only splits lines). Everything else (folded `>` blocks,
 * strings spanning lines, other escapes) is read from the resolved value and marked inexact.
 */
import { isScalar, type Scalar } from "yaml";
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
  const contentEnd = src.trimEnd(start, end);
  const lastLine = src.lineOf(contentEnd);
  const block: BlockLayout = { headerLine: src.hostLine(headerLine) };
  const firstContent = value.split("\n").find((l) => l.trim().length > 0);
  if (firstContent === undefined || lastLine <= headerLine) return { lines: [], exact: true, block };
  let indent = 0;
  for (let line = headerLine + 1; line <= lastLine; line++) {
    const text = src.index.lineText(line);
    if (text.trim().length === 0) continue;
    // The parser resolved the indentation (indicators included): the first content line is the host line minus it.
    indent = text.endsWith(firstContent) ? text.length - firstContent.length : text.length - text.trimStart().length;
    break;
  }
  const lines: SourceLine[] = [];
  for (let line = headerLine + 1; line <= lastLine; line++) {
    const text = src.index.lineText(line);
    const hostLine = src.hostLine(line);
    lines.push({
      text: text.slice(indent),
      line: hostLine,
      character: indent,
      last: hostLine === src.host.lineCount - 1,
    });
  }
  return { lines, exact: true, block: { ...block, indent, lastContentLine: src.hostLine(lastLine) } };
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
