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

export function parseXml(text: string): XmlDocument {
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
  const firstError = lexErrors[0]?.offset ?? parseErrors[0]?.token.startOffset;
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
