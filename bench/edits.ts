/**
 * The edits of an editing session: each replaces one digit of the text with another digit (a port, a size, a
 * duration, a topic suffix), the most common small change to configuration and job code. The text keeps its
 * length and line structure, so every edit is valid incremental sync and every version stays comparable.
 */
import type { Range, TextDocumentContentChangeEvent } from "vscode-languageserver-protocol";
import { LineIndex } from "../server/src/core/text";
import { Random } from "./random";

export interface Edit {
  /** Where the replaced digit is in the text. */
  offset: number;
  change: { range: Range; text: string } & TextDocumentContentChangeEvent;
  /** The whole text after the edit (for the floor parser). */
  text: string;
}

export function digitEdits(text: string, count: number, seed: number): Edit[] {
  const rng = new Random(seed);
  const index = new LineIndex(text);
  // Not on the first line: an XML declaration or a package line is not where people type.
  const from = index.lineStarts[1] ?? 0;
  const digits: number[] = [];
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits.push(i);
  }
  if (digits.length === 0) throw new Error("the text has no digit to edit");
  const edits: Edit[] = [];
  let current = text;
  for (let n = 0; n < count; n++) {
    const offset = rng.pick(digits);
    const old = current.charCodeAt(offset) - 48;
    const digit = String((old + rng.int(1, 9)) % 10);
    current = current.slice(0, offset) + digit + current.slice(offset + 1);
    const start = index.positionAt(offset);
    edits.push({
      offset,
      change: { range: { start, end: { line: start.line, character: start.character + 1 } }, text: digit },
      text: current,
    });
  }
  return edits;
}
