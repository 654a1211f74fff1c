/**
 * A light Java tokenizer: just enough to skip comments and to tell code from string literals, char literals and
 * text blocks. It works on any text (broken files, pasted snippets) and never throws. Numbers and operators come
 * out as one-character punctuation, which is all the callers need.
 */

export interface Token {
  kind: "identifier" | "string" | "char" | "punctuation";
  start: number;
  end: number;
  text: string;
}

const IDENTIFIER_START = /[A-Za-z_$]/;
const IDENTIFIER_PART = /[\w$]/;

/** Offset just after a quoted literal (or text block) opened at `start` with `quote`, escapes honoured. */
function literalEnd(text: string, start: number, quote: string): number {
  let i = start + quote.length;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (text.startsWith(quote, i)) return i + quote.length;
    // An unterminated string or char literal ends at its line; only a text block spans lines.
    else if (quote.length === 1 && (c === "\n" || c === "\r")) return i;
    else i++;
  }
  return text.length;
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (text.startsWith("//", i)) {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? text.length : close + 2;
    } else if (c === '"' || c === "'") {
      const quote = text.startsWith('"""', i) ? '"""' : c;
      const end = literalEnd(text, i, quote);
      tokens.push({ kind: c === '"' ? "string" : "char", start: i, end, text: text.slice(i, end) });
      i = end;
    } else if (IDENTIFIER_START.test(c)) {
      let end = i + 1;
      while (end < text.length && IDENTIFIER_PART.test(text[end])) end++;
      tokens.push({ kind: "identifier", start: i, end, text: text.slice(i, end) });
      i = end;
    } else {
      if (!/\s/.test(c)) tokens.push({ kind: "punctuation", start: i, end: i + 1, text: c });
      i++;
    }
  }
  return tokens;
}
