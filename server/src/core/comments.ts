/**
 * Where the comments of a file are, in its own syntax: only text there can be a suppression directive. A string
 * that merely contains `# beam-flink-lint-disable-line` (a hint in a YAML value, a Java constant) is not a comment,
 * and removing it as one would break the file.
 *
 * Each scanner is one pass over the text, never throws, and treats what it cannot read (an unclosed string) as
 * running to the end of its line or, where the syntax allows strings over lines, of the file.
 */

export type CommentSyntax =
  /** YAML: `#` at the start of a line or after a space, outside quoted scalars; block scalars read line by line. */
  | "yaml"
  /** Flink's legacy flink-conf.yaml reader: everything after the first `#` of a line, quotes or not. */
  | "legacy"
  /** Java properties (gradle.properties): a line whose first non-blank character is `#` or `!`. */
  | "properties"
  /** TOML: `#` outside basic, literal and multi-line strings. */
  | "toml"
  /** Dockerfile: a line whose first non-blank character is `#`. */
  | "dockerfile"
  /** Shell scripts: `#` at the start of a word, outside quotes. */
  | "shell"
  /** Java, Groovy, Kotlin, Scala, JSON with comments: `//` and `/* … *\/` outside strings and character literals. */
  | "c"
  /** XML: `<!-- … -->` outside CDATA sections, processing instructions and attribute values. */
  | "xml"
  /** Flink SQL: `--` and `/* … *\/` outside quoted strings and backtick identifiers. */
  | "sql";

export interface Comment {
  /** Offset of the comment sign (`#`, `//`, `/*`, `<!--`). */
  start: number;
  /** Offset after the comment: after its closer, or the end of its line. */
  end: number;
  /** Offsets of the comment's text, between the sign and the closer. */
  bodyStart: number;
  bodyEnd: number;
}

function lineEndFrom(text: string, i: number): number {
  let j = i;
  while (j < text.length && text[j] !== "\n" && text[j] !== "\r") j++;
  return j;
}

function lineComment(text: string, at: number, sign: number): Comment {
  const end = lineEndFrom(text, at);
  return { start: at, end, bodyStart: at + sign, bodyEnd: end };
}

/** The comments of a text in the given syntax, in order. */
export function scanComments(text: string, syntax: CommentSyntax): Comment[] {
  switch (syntax) {
    case "yaml":
      return yamlComments(text);
    case "legacy":
      return perLine(text, (line, start) => {
        const at = line.indexOf("#");
        return at < 0 ? undefined : lineComment(text, start + at, 1);
      });
    case "properties":
    case "dockerfile":
      return perLine(text, (line, start) => {
        const m = (syntax === "properties" ? /^[ \t\f]*[#!]/ : /^[ \t]*#/).exec(line);
        return m ? lineComment(text, start + m[0].length - 1, 1) : undefined;
      });
    case "shell":
      return shellComments(text);
    case "toml":
      return tomlComments(text);
    case "c":
      return cComments(text);
    case "xml":
      return xmlComments(text);
    case "sql":
      return sqlComments(text);
  }
}

function perLine(text: string, find: (line: string, start: number) => Comment | undefined): Comment[] {
  const out: Comment[] = [];
  let start = 0;
  while (start <= text.length) {
    const end = lineEndFrom(text, start);
    const c = find(text.slice(start, end), start);
    if (c) out.push(c);
    if (end >= text.length) break;
    start = text[end] === "\r" && text[end + 1] === "\n" ? end + 2 : end + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// YAML

const BLOCK_HEADER = /^[|>][-+0-9]*[ \t]*(#.*)?$/;

function indentOf(line: string): number {
  let i = 0;
  while (line[i] === " ") i++;
  return i;
}

/**
 * One line of YAML from `from`, with the quote left open by the line before (`quote`): its comment, the quote it
 * leaves open, and whether a block scalar starts after it. `multiLine` false (inside a block scalar, whose lines are
 * text of their own): a quote never stays open past the line.
 */
function yamlLine(
  text: string,
  from: number,
  to: number,
  quote: string,
  multiLine: boolean,
): { comment?: Comment; quote: string; block: boolean } {
  let q = quote;
  // A quoted scalar may start where a value may: at the start, after `- `, `? `, `: `, `[`, `{`, `,`.
  let valueStart = true;
  let afterIndicator = false;
  for (let i = from; i < to; i++) {
    const c = text[i];
    if (q === '"') {
      if (c === "\\") i++;
      else if (c === '"') q = "";
      continue;
    }
    if (q === "'") {
      if (c === "'" && text[i + 1] === "'") i++;
      else if (c === "'") q = "";
      continue;
    }
    if (c === " " || c === "\t") continue;
    if (c === "#" && (i === from || text[i - 1] === " " || text[i - 1] === "\t")) {
      return { comment: lineComment(text, i, 1), quote: "", block: false };
    }
    if (valueStart && (c === '"' || c === "'")) {
      q = c;
      valueStart = false;
      continue;
    }
    if (valueStart && afterIndicator && (c === "|" || c === ">") && BLOCK_HEADER.test(text.slice(i, to))) {
      const hash = text.slice(i, to).indexOf("#");
      const comment = hash > 0 ? lineComment(text, i + hash, 1) : undefined;
      return { comment, quote: "", block: true };
    }
    const next = text[i + 1];
    const spaced = next === undefined || i + 1 >= to || next === " " || next === "\t";
    if ((c === "-" || c === "?" || c === ":") && spaced) {
      valueStart = true;
      afterIndicator = true;
      continue;
    }
    if (c === "[" || c === "{" || c === ",") {
      valueStart = true;
      afterIndicator = false;
      continue;
    }
    valueStart = false;
  }
  return { quote: multiLine ? q : "", block: false };
}

function yamlComments(text: string): Comment[] {
  const out: Comment[] = [];
  let quote = "";
  /** Indentation of the line that opened the block scalar being read, or -1. */
  let blockIndent = -1;
  let start = 0;
  while (start <= text.length) {
    const end = lineEndFrom(text, start);
    const line = text.slice(start, end);
    const blank = line.trim() === "";
    let inBlock = false;
    if (blockIndent >= 0) {
      if (blank || indentOf(line) > blockIndent) inBlock = true;
      else blockIndent = -1;
    }
    const r = yamlLine(text, start, end, inBlock ? "" : quote, !inBlock);
    if (r.comment) out.push(r.comment);
    if (!inBlock) {
      quote = r.quote;
      if (r.block) blockIndent = indentOf(line);
    }
    if (end >= text.length) break;
    start = text[end] === "\r" && text[end + 1] === "\n" ? end + 2 : end + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shell and TOML

function shellComments(text: string): Comment[] {
  const out: Comment[] = [];
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = "";
      continue;
    }
    if (quote === '"') {
      if (c === "\\") i++;
      else if (c === '"') quote = "";
      continue;
    }
    if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]))) {
      const comment = lineComment(text, i, 1);
      out.push(comment);
      i = comment.end;
    }
  }
  return out;
}

function tomlComments(text: string): Comment[] {
  const out: Comment[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "#") {
      const comment = lineComment(text, i, 1);
      out.push(comment);
      i = comment.end;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      i = triple ? closeTriple(text, i + 3, c) : closeOnLine(text, i + 1, c, c === '"');
    } else i++;
  }
  return out;
}

/** Offset after a `"…"` or `'…'` opened before `from`; an unclosed one ends at its line. */
function closeOnLine(text: string, from: number, quote: string, escapes: boolean): number {
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (escapes && c === "\\") i += 2;
    else if (c === quote) return i + 1;
    else if (c === "\n" || c === "\r") return i;
    else i++;
  }
  return text.length;
}

/** Offset after a triple-quoted string opened before `from`; an unclosed one runs to the end. */
function closeTriple(text: string, from: number, quote: string, escapes = quote === '"'): number {
  const close = quote.repeat(3);
  let i = from;
  while (i < text.length) {
    if (escapes && text[i] === "\\") i += 2;
    else if (text.startsWith(close, i)) {
      // `""""` closes with the last three.
      let j = i + 3;
      while (text[j] === quote) j++;
      return j;
    } else i++;
  }
  return text.length;
}

// ---------------------------------------------------------------------------------------------
// C-like languages

function cComments(text: string): Comment[] {
  const out: Comment[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      const comment = lineComment(text, i, 2);
      out.push(comment);
      i = comment.end;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const end = close < 0 ? text.length : close + 2;
      out.push({ start: i, end, bodyStart: i + 2, bodyEnd: close < 0 ? text.length : close });
      i = end;
    } else if (c === '"' || c === "'") {
      // Text blocks and Kotlin raw strings (`"""`), Groovy's `'''`; else a string or character literal.
      if (text.startsWith(c.repeat(3), i)) i = closeTriple(text, i + 3, c, true);
      else i = closeOnLine(text, i + 1, c, true);
    } else i++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// XML

function xmlComments(text: string): Comment[] {
  const out: Comment[] = [];
  let i = 0;
  const skipTo = (close: string, from: number) => {
    const at = text.indexOf(close, from);
    return at < 0 ? text.length : at + close.length;
  };
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    if (lt < 0) break;
    if (text.startsWith("<!--", lt)) {
      const close = text.indexOf("-->", lt + 4);
      const end = close < 0 ? text.length : close + 3;
      out.push({ start: lt, end, bodyStart: lt + 4, bodyEnd: close < 0 ? text.length : close });
      i = end;
    } else if (text.startsWith("<![CDATA[", lt)) i = skipTo("]]>", lt + 9);
    else if (text.startsWith("<?", lt)) i = skipTo("?>", lt + 2);
    else {
      // A tag: `>` inside an attribute value does not end it.
      let j = lt + 1;
      while (j < text.length && text[j] !== ">") {
        if (text[j] === '"' || text[j] === "'") {
          const close = text.indexOf(text[j], j + 1);
          j = close < 0 ? text.length : close + 1;
        } else if (text[j] === "<") break;
        else j++;
      }
      i = j < text.length && text[j] === ">" ? j + 1 : j;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// SQL

function sqlComments(text: string): Comment[] {
  const out: Comment[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === "'" || c === "`") {
      // `''` inside a string is an escaped quote: the string goes on.
      let j = i + 1;
      while (j < n && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      i = j + 1;
    } else if (c === "-" && text[i + 1] === "-") {
      const comment = lineComment(text, i, 2);
      out.push(comment);
      i = comment.end;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const end = close < 0 ? n : close + 2;
      out.push({ start: i, end, bodyStart: i + 2, bodyEnd: close < 0 ? n : close });
      i = end;
    } else i++;
  }
  return out;
}

/** The text with every comment's characters turned to spaces (line breaks kept): offsets and lines stay as they were. */
export function withoutComments(text: string, syntax: CommentSyntax): string {
  const comments = scanComments(text, syntax);
  if (comments.length === 0) return text;
  let out = "";
  let at = 0;
  for (const c of comments) {
    out += text.slice(at, c.start) + text.slice(c.start, c.end).replace(/[^\r\n]/g, " ");
    at = c.end;
  }
  return out + text.slice(at);
}
