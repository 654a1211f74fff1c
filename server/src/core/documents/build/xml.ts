/**
 * Elements with source offsets from @xml-tools/parser's error-tolerant concrete syntax tree. Walking the tree
 * directly keeps only what the pom reader needs (names, where content starts and ends, closing names) and costs
 * a fraction of building the library's full AST.
 */
import type { DocumentCstNode, ElementCstNode, ElementCtx } from "@xml-tools/parser";

type XmlParser = typeof import("@xml-tools/parser");

let loaded: XmlParser | undefined;

/** The parser builds its grammar on load: a server started for YAML files does not wait for it. */
function xmlParser(): XmlParser {
  loaded ??= require("@xml-tools/parser") as XmlParser;
  return loaded;
}

type Token = ElementCtx["Name"][number];

export interface XmlElement {
  name: string;
  /** Offsets of the name in the opening tag ([start, end)). */
  nameStart: number;
  nameEnd: number;
  selfClosing: boolean;
  /** Offset after the opening tag's `>`; undefined when the opening tag is incomplete. */
  contentStart?: number;
  /** Offset of the closing tag's `</`; undefined when there is none. */
  contentEnd?: number;
  /** The name in the closing tag, which may differ from `name` in a broken file. */
  closeName?: string;
  children: XmlElement[];
  parent?: XmlElement;
}

export interface XmlDocument {
  root?: XmlElement;
  /** Offset of the first lexing or parsing error (NaN when it is at the end of the text). */
  firstError?: number;
  /** Elements nested so deep (about a thousand levels) that the parser ran out of stack: nothing was read. */
  tooDeep?: boolean;
}

/** The text with the characters of [from, to) turned into spaces, line breaks kept (offsets stay valid). */
function blank(text: string, from: number, to: number): string {
  return text.slice(0, from) + text.slice(from, to).replace(/[^\r\n]/g, " ") + text.slice(to);
}

/**
 * The text as the parser's lexer can take it in linear time, and where the first thing it could not take is. Its
 * token patterns (`<!--(.|\r?\n)*?-->` and the like) scan to the end of the text, or of the line, from every
 * opener that is never closed: 20,000 unclosed `<!--` cost minutes. An unclosed comment or CDATA section runs to
 * the end of the file, as in XML, so it is blanked out; outside comments and CDATA sections (which may span lines),
 * a `<!` or `<?` with no `>` after it on its line is made a plain `<` (the lexer reads it as a broken tag, as it
 * would have).
 */
/** Comments and CDATA sections: what opens them and what closes them. */
const SECTIONS = [
  ["<!--", "-->"],
  ["<![CDATA[", "]]>"],
] as const;

export function lexableXml(text: string): { text: string; firstError?: number } {
  let out = text;
  let firstError: number | undefined;
  for (const [open, close] of SECTIONS) {
    const lastClose = out.lastIndexOf(close);
    const unclosed = out.indexOf(open, lastClose < 0 ? 0 : lastClose + close.length);
    if (unclosed >= 0) {
      out = blank(out, unclosed, out.length);
      firstError = Math.min(firstError ?? unclosed, unclosed);
    }
  }
  if (!out.includes("<!") && !out.includes("<?")) return { text: out, firstError };
  const chars = out.split("");
  let changed = false;
  let lineEnd = -1;
  let lastGt = -1;
  for (let i = 0; i < chars.length; i++) {
    if (i > lineEnd) {
      // The end of this line and the last `>` on it.
      lineEnd = out.indexOf("\n", i);
      if (lineEnd < 0) lineEnd = out.length;
      lastGt = out.lastIndexOf(">", lineEnd);
      if (lastGt < i) lastGt = -1;
    }
    if (chars[i] !== "<") continue;
    // Comments and CDATA sections may span lines; the ones still here are closed (the rest was blanked above).
    const section = SECTIONS.find(([open]) => out.startsWith(open, i));
    if (section) {
      const end = out.indexOf(section[1], i + section[0].length);
      if (end >= 0) {
        i = end + section[1].length - 1;
        continue;
      }
    }
    if ((chars[i + 1] === "!" || chars[i + 1] === "?") && i + 1 < lineEnd && i + 1 > lastGt) {
      chars[i + 1] = " ";
      changed = true;
    }
  }
  return { text: changed ? chars.join("") : out, firstError };
}

export function parseXml(source: string): XmlDocument {
  const { text, firstError: lexFirst } = lexableXml(source);
  let parsed: ReturnType<XmlParser["parse"]>;
  try {
    parsed = xmlParser().parse(text);
  } catch (e) {
    // The parser descends once per element level; no pom nests anywhere near deep enough to get here.
    if (e instanceof RangeError) return { tooDeep: true, firstError: 0 };
    throw e;
  }
  const { cst, lexErrors, parseErrors } = parsed;
  const rootNode = (cst as DocumentCstNode).children.element?.[0];
  const doc: XmlDocument = { root: rootNode && element(rootNode, undefined) };
  const parserFirst = lexErrors[0]?.offset ?? parseErrors[0]?.token.startOffset;
  // The earlier of the two; NaN (the end of the text) is later than any offset.
  const firstError =
    lexFirst === undefined || (parserFirst !== undefined && parserFirst < lexFirst) ? parserFirst : lexFirst;
  if (firstError !== undefined) doc.firstError = firstError;
  return doc;
}

function element(node: ElementCstNode, parent: XmlElement | undefined): XmlElement | undefined {
  const ctx = node.children;
  const name = real(ctx.Name);
  if (!name) return undefined;
  const startClose = real(ctx.START_CLOSE);
  const slashOpen = real(ctx.SLASH_OPEN);
  const closeName = real(ctx.END_NAME);
  const el: XmlElement = {
    name: name.image,
    nameStart: name.startOffset,
    nameEnd: name.startOffset + name.image.length,
    selfClosing: real(ctx.SLASH_CLOSE) !== undefined,
    children: [],
  };
  if (parent) el.parent = parent;
  if (startClose) el.contentStart = startClose.startOffset + startClose.image.length;
  if (slashOpen) el.contentEnd = slashOpen.startOffset;
  if (closeName) el.closeName = closeName.image;
  for (const content of ctx.content ?? []) {
    for (const child of content.children.element ?? []) {
      const sub = element(child, el);
      if (sub) el.children.push(sub);
    }
  }
  return el;
}

/** The first token of a kind, unless the parser invented it to recover from an error. */
function real(tokens: Token[] | undefined): Token | undefined {
  const t = tokens?.[0];
  return t && !t.isInsertedInRecovery && Number.isFinite(t.startOffset) ? t : undefined;
}

/**
 * `text` with every `open … close` span replaced by what `keep` makes of its inside (nothing by default); an
 * unclosed span runs to the end. One pass with indexOf: a regular expression such as `/<!--[\s\S]*?-->/g` scans
 * to the end once per unclosed `<!--`, which is quadratic in a file of 20,000 of them.
 */
export function replaceSpans(
  text: string,
  open: string,
  close: string,
  keep: (inner: string) => string = () => "",
): string {
  let at = text.indexOf(open);
  if (at < 0) return text;
  let out = "";
  let from = 0;
  while (at >= 0) {
    const end = text.indexOf(close, at + open.length);
    out += text.slice(from, at) + keep(text.slice(at + open.length, end < 0 ? text.length : end));
    if (end < 0) return out;
    from = end + close.length;
    at = text.indexOf(open, from);
  }
  return out + text.slice(from);
}

/** The text without XML comments. */
export function withoutXmlComments(text: string): string {
  return replaceSpans(text, "<!--", "-->");
}
