/**
 * A light scan of a Java file for the Beam APIs whose behaviour depends on the Beam version: KafkaIO's
 * `commitOffsetsInFinalize(`, `PubsubIO.read…` and the `use_deprecated_read` experiment. It tokenizes just enough
 * to skip comments and to tell code from string literals, char literals and text blocks, so a commented-out call
 * or a log message does not count. It does not parse: it works on broken files and pasted snippets alike.
 */
import type { Location } from "../../findings";
import type { JobApiUsage } from "../../model";
import { LineIndex } from "../../text";
import { tokenize } from "./tokens";

export function scanJobApiUsage(file: string, text: string): JobApiUsage {
  const usage: JobApiUsage = { commitOffsetsInFinalize: [], pubsubRead: [], useDeprecatedRead: [] };
  // A cheap pre-filter: most Java files of a project use none of these.
  if (!/commitOffsetsInFinalize|PubsubIO|use_deprecated_read/.test(text)) return usage;
  const index = new LineIndex(text);
  const at = (start: number, end: number): Location => ({ file, range: index.rangeOf(start, end) });
  const tokens = tokenize(text);
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (t.kind === "string") {
      for (let from = t.text.indexOf("use_deprecated_read"); from >= 0; ) {
        usage.useDeprecatedRead.push(at(t.start + from, t.start + from + "use_deprecated_read".length));
        from = t.text.indexOf("use_deprecated_read", from + 1);
      }
    } else if (t.kind === "identifier" && t.text === "commitOffsetsInFinalize" && next?.text === "(") {
      usage.commitOffsetsInFinalize.push(at(t.start, t.end));
    } else if (t.kind === "identifier" && t.text === "PubsubIO" && next?.text === ".") {
      const method = tokens[i + 2];
      if (method?.kind !== "identifier" || !method.text.startsWith("read")) return;
      // `PubsubIO.readStrings` as one range when written on one line, else the method name alone.
      const sameLine = index.positionAt(t.start).line === index.positionAt(method.end).line;
      usage.pubsubRead.push(at(sameLine ? t.start : method.start, method.end));
    }
  });
  return usage;
}
