/**
 * A YAML string value with the file offset of every character, for values read word by word (a command line):
 * the resolved value is walked against the text as written, blanks and line breaks of the one matching runs of
 * blanks, line breaks and indentation of the other (plain and quoted strings over several lines, folded and literal
 * blocks). A character written as an escape (`\"`, `''`) has no offset; where the two stop matching otherwise, the
 * rest has none.
 */
import { isScalar } from "yaml";
import type { OffsetText } from "../commandLine";
import { scalarText, type YamlSource } from "./ast";

const SPACE = /[ \t\r\n]/;

export function scalarChars(src: YamlSource, node: unknown): OffsetText | undefined {
  if (!isScalar(node) || !node.range) return undefined;
  const value = scalarText(node);
  if (value === undefined) return undefined;
  const [start, valueEnd] = node.range;
  let j = start;
  let end = valueEnd;
  const text = src.text;
  const quote = node.type === "QUOTE_DOUBLE" ? '"' : node.type === "QUOTE_SINGLE" ? "'" : undefined;
  if (quote) {
    j++;
    end = text.lastIndexOf(quote, valueEnd - 1);
    if (end < j) end = valueEnd;
  } else if (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") {
    // The header line (`|`, `>-`, a comment) holds no content.
    const header = text.indexOf("\n", start);
    j = header < 0 ? valueEnd : header + 1;
    while (j < end && SPACE.test(text[j])) j++;
  }
  const at: (number | undefined)[] = new Array(value.length).fill(undefined);
  let i = 0;
  while (i < value.length && j <= end) {
    const c = value[i];
    if (SPACE.test(c)) {
      if (j < end && !SPACE.test(text[j])) {
        if (quote === '"' && text[j] === "\\") {
          j += 2;
          i++;
          continue;
        }
        break;
      }
      while (i < value.length && SPACE.test(value[i])) i++;
      while (j < end && SPACE.test(text[j])) j++;
      continue;
    }
    if (j >= end) break;
    if (text[j] === c) {
      at[i++] = j++;
      continue;
    }
    if (quote === '"' && text[j] === "\\") {
      // An escape: `\"`, `\\`, `\t`; longer ones (`\x41`, `\u0041`) stop the walk below if they do not match.
      const width = text[j + 1] === "x" ? 4 : text[j + 1] === "u" ? 6 : text[j + 1] === "U" ? 10 : 2;
      i++;
      j += width;
      continue;
    }
    if (quote === "'" && c === "'" && text[j] === "'" && text[j + 1] === "'") {
      i++;
      j += 2;
      continue;
    }
    break;
  }
  return { value, at };
}
