/**
 * Where Python job code reads Kafka with Beam's cross-language `ReadFromKafka` (apache_beam.io.kafka): a scan of the
 * file's text for the name used as a call, outside comments and strings. It says that the pipeline reads Kafka from
 * Python, nothing more (which transform options it sets is for a Python job-code reader).
 */
import type { Location } from "../../findings";
import { LineIndex } from "../../text";

const NAME = "ReadFromKafka";

/** The ranges of `ReadFromKafka(` calls (and `kafka.ReadFromKafka(`), skipping `#` comments and string literals. */
export function pythonKafkaReads(file: string, text: string): Location[] {
  if (!text.includes(NAME)) return [];
  const out: Location[] = [];
  const index = new LineIndex(text);
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = undefined;
      } else if (c === "\n" && quote.length === 1) quote = undefined;
      continue;
    }
    if (c === "#") {
      const eol = text.indexOf("\n", i);
      i = eol < 0 ? text.length : eol;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length - 1;
      continue;
    }
    if (
      text.startsWith(NAME, i) &&
      !/[\w]/.test(text[i - 1] ?? "") &&
      /^\s*\(/.test(text.slice(i + NAME.length, i + NAME.length + 20))
    ) {
      out.push({ file, range: index.rangeOf(i, i + NAME.length) });
      i += NAME.length - 1;
    }
  }
  return out;
}
