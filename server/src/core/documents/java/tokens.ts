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

/** `[A-Za-z_$]`, by character code: this loop runs once per character of every Java file on every keystroke. */
function isIdentifierStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

/** `[\w$]`. */
function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}

/** `\s`: the ASCII spaces directly, the Unicode ones through the regular expression. */
function isSpace(text: string, i: number, c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c >= 128 && /\s/.test(text[i]);
}

const SLASH = 47;
const STAR = 42;
const LF = 10;
const CR = 13;
const BACKSLASH = 92;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;

/** Offset just after a quoted literal (or text block) opened at `start` with `quote`, escapes honoured. */
function literalEnd(text: string, start: number, quote: string): number {
  let i = start + quote.length;
  const q = quote.charCodeAt(0);
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === q && (quote.length === 1 || text.startsWith(quote, i))) return i + quote.length;
    // An unterminated string or char literal ends at its line; only a text block spans lines.
    else if (quote.length === 1 && (c === LF || c === CR)) return i;
    else i++;
  }
  return text.length;
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      while (i < n && text.charCodeAt(i) !== LF && text.charCodeAt(i) !== CR) i++;
    } else if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const quote = c === DOUBLE_QUOTE && text.startsWith('"""', i) ? '"""' : text[i];
      const end = literalEnd(text, i, quote);
      tokens.push({ kind: c === DOUBLE_QUOTE ? "string" : "char", start: i, end, text: text.slice(i, end) });
      i = end;
    } else if (isIdentifierStart(c)) {
      let end = i + 1;
      while (end < n && isIdentifierPart(text.charCodeAt(end))) end++;
      tokens.push({ kind: "identifier", start: i, end, text: text.slice(i, end) });
      i = end;
    } else {
      if (!isSpace(text, i, c)) tokens.push({ kind: "punctuation", start: i, end: i + 1, text: text[i] });
      i++;
    }
  }
  return tokens;
}
