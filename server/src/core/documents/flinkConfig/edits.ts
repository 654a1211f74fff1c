/** Text edits that add whole lines to a configuration, in the line breaks the file already uses. */
import type { LineIndex, TextEdit } from "../../text";

/** Inserts lines after a line of the file (-1: before the first line). */
export function insertLinesAfter(index: LineIndex, afterLine: number, lines: readonly string[]): TextEdit {
  const eol = index.eol;
  if (afterLine < 0) {
    const at = { line: 0, character: 0 };
    return { range: { start: at, end: at }, newText: lines.map((l) => l + eol).join("") };
  }
  if (afterLine + 1 < index.lineCount) {
    const at = { line: afterLine + 1, character: 0 };
    return { range: { start: at, end: at }, newText: lines.map((l) => l + eol).join("") };
  }
  const at = index.positionAt(index.lineEnd(afterLine));
  return { range: { start: at, end: at }, newText: lines.map((l) => eol + l).join("") };
}
