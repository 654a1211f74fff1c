/**
 * Reads gradle.properties (Java properties syntax): `key=value`, `key: value`, `key value`, `#`/`!` comments,
 * `\` line continuations and escapes. Values are project properties every build script of the folder can read.
 */
import { emptyFacts, type FileFacts } from "../../model";
import { LineIndex } from "../../text";
import type { SymbolDefinition } from "./facts";
import { exprOf, textPart } from "./values";

export function readGradleProperties(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "gradleProperties", text);
  const index = new LineIndex(text);
  const definitions: SymbolDefinition[] = [];
  for (let line = 0; line < index.lineCount; line++) {
    const lineStart = index.lineStarts[line];
    const raw = index.lineText(line);
    const keyStart = raw.search(/\S/);
    if (keyStart < 0 || raw[keyStart] === "#" || raw[keyStart] === "!") continue;
    let i = keyStart;
    let key = "";
    while (i < raw.length && !/[=:\s]/.test(raw[i])) {
      if (raw[i] === "\\" && i + 1 < raw.length) i++;
      key += raw[i++];
    }
    const keyEnd = i;
    while (i < raw.length && /[ \t\f]/.test(raw[i])) i++;
    if (raw[i] === "=" || raw[i] === ":") i++;
    while (i < raw.length && /[ \t\f]/.test(raw[i])) i++;
    // A value continued on the next lines, or holding escapes, has no single exact range.
    let value = raw.slice(i);
    let exact = !value.includes("\\");
    let end = lineStart + raw.length;
    while (value.endsWith("\\") && !value.endsWith("\\\\") && line + 1 < index.lineCount) {
      line++;
      value = value.slice(0, -1) + index.lineText(line).trimStart();
      end = index.lineStarts[line] + index.lineText(line).length;
      exact = false;
    }
    if (!exact) value = value.replace(/\\(.)/g, (_, c: string) => ({ n: "\n", t: "\t", r: "\r" })[c] ?? c);
    const valueStart = lineStart + i;
    const trimmed = exact ? value.replace(/\s+$/, "") : value;
    const valueEnd = exact ? valueStart + trimmed.length : end;
    definitions.push({
      name: key,
      value: exprOf(index, [textPart(index, trimmed, valueStart, valueEnd, exact)], valueStart, valueEnd),
      nameRange: index.rangeOf(lineStart + keyStart, lineStart + keyEnd),
    });
  }
  facts.build = { kind: "gradleProperties", definitions };
  return facts;
}
