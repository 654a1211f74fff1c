/**
 * The YAML syntax tree of one text, parsed once, with positions in the coordinates of the file that holds it.
 * Embedded YAML (a config.yaml block scalar inside a ConfigMap) is parsed from its de-indented lines and mapped
 * back: content line i is host line `origin.line + i`, shifted right by `origin.character`.
 */
import { type Document, isMap, isScalar, isSeq, type Node, type Pair, parseAllDocuments, type YAMLMap } from "yaml";
import type { Located, SyntaxProblem, TemplateFill } from "../../model";
import { LineIndex, type Position, type Range } from "../../text";
import { firstActionAfter, type MaskedTemplate, unmaskTemplates, writesText } from "./helmTemplate";

export type YamlDocument = Document.Parsed;

/**
 * Runs a parse without capturing stack traces: the yaml library makes an Error for every problem it meets, and a
 * broken file of a few megabytes has hundreds of thousands of them, each of which would walk the stack.
 */
export function withoutStackTraces<T>(parse: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parse();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Parses every document of a text. Duplicate keys are kept so rules can report them. */
export function parseYamlDocuments(text: string): YamlDocument[] {
  const docs = withoutStackTraces(() =>
    parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false, keepSourceTokens: false }),
  );
  return Array.isArray(docs) ? docs : [];
}

export interface Origin {
  host: LineIndex;
  line: number;
  character: number;
}

export class YamlSource {
  readonly index: LineIndex;
  /** The index of the file that holds the text (the same as `index` unless embedded). */
  readonly host: LineIndex;
  private parsedIndex?: LineIndex;

  constructor(
    readonly file: string,
    readonly text: string,
    private readonly origin?: Origin,
    /** A Helm chart template: the text was parsed with its actions masked. */
    readonly template?: MaskedTemplate,
  ) {
    this.index = new LineIndex(text);
    this.host = origin?.host ?? this.index;
  }

  /** A line of this text as the parser read it: with Helm actions masked in a template. */
  parsedLine(line: number): string {
    if (!this.template) return this.index.lineText(line);
    this.parsedIndex ??= new LineIndex(this.template.text);
    return this.parsedIndex.lineText(line);
  }

  /** A line of a template that holds only actions (`{{- if … }}`, `{{- include … | nindent 4 }}`), blank to the parser. */
  isActionLine(line: number): boolean {
    return (
      this.template !== undefined && this.parsedLine(line).trim() === "" && this.index.lineText(line).trim() !== ""
    );
  }

  /**
   * The actions of a template line of actions that write text when rendered (not `if`, `end`, comments or
   * variables), as fills of the configuration that holds the line.
   */
  lineFills(line: number): TemplateFill[] {
    const actions = this.template?.actions;
    if (!actions || !this.isActionLine(line)) return [];
    const start = this.index.lineStarts[line];
    const end = this.index.lineEnd(line);
    const out: TemplateFill[] = [];
    for (let i = firstActionAfter(actions, start); i < actions.length && actions[i].start < end; i++) {
      const a = actions[i];
      // A multi-line action is the fill of the line it starts on.
      if (a.start < start) continue;
      const text = this.text.slice(a.start, a.end);
      if (writesText(text)) out.push({ text, range: this.range(a.start, a.end) });
    }
    return out;
  }

  /** The host line of a line of this text. */
  hostLine(line: number): number {
    return line + (this.origin?.line ?? 0);
  }

  position(offset: number): Position {
    const p = this.index.positionAt(offset);
    if (!this.origin) return p;
    return { line: p.line + this.origin.line, character: p.character + this.origin.character };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  lineOf(offset: number): number {
    return this.index.positionAt(offset).line;
  }

  /** Host range of whole lines `first..last` of this text, the last line break included. */
  wholeLines(first: number, last: number): Range {
    const from = this.hostLine(first);
    const to = this.hostLine(last);
    const host = this.host;
    if (to + 1 < host.lineCount) return { start: { line: from, character: 0 }, end: { line: to + 1, character: 0 } };
    return {
      start: { line: from, character: 0 },
      end: { line: to, character: host.lineEnd(to) - host.lineStarts[to] },
    };
  }

  /** The last offset before `end` (and not before `start`) that is not whitespace, plus one. */
  trimEnd(start: number, end: number): number {
    let e = end;
    while (e > start && /\s/.test(this.text[e - 1])) e--;
    return e;
  }

  /** The source text of a node (quotes included), without trailing line breaks. */
  raw(node: Node | null | undefined): string {
    const r = node?.range;
    return r ? this.text.slice(r[0], this.trimEnd(r[0], r[1])) : "";
  }

  located<T>(node: Node, value: T): Located<T> {
    const r = node.range as [number, number, number];
    return { value, raw: this.raw(node), file: this.file, range: this.range(r[0], this.trimEnd(r[0], r[1])) };
  }

  /** A scalar's text as written (`0755` stays `0755`, quotes removed), or undefined for collections. */
  locatedString(node: unknown): Located<string> | undefined {
    const s = scalarText(node);
    return s === undefined ? undefined : this.located(node as Node, s);
  }

  /** An integer scalar (`2`, `"2"`); Helm templates and other text give undefined. */
  locatedInt(node: unknown): Located<number> | undefined {
    const s = scalarText(node);
    if (s === undefined || !/^[+-]?\d+$/.test(s.trim())) return undefined;
    return this.located(node as Node, Number(s.trim()));
  }

  /**
   * Parse errors of a document as syntax problems on single-line ranges: `message` says what they mean at run time,
   * the parser's own words are the details.
   */
  problems(doc: YamlDocument, message: string): SyntaxProblem[] {
    return doc.errors.map((e) => {
      const start = this.position(e.pos[0]);
      let end = this.position(Math.max(e.pos[0], e.pos[1]));
      if (end.line !== start.line) {
        const hostLine = this.host.lineStarts[start.line];
        end = { line: start.line, character: this.host.lineEnd(start.line) - hostLine };
      }
      return { range: { start, end }, message, details: `The YAML parser says: ${e.message.replace(/\.?$/, ".")}` };
    });
  }
}

/**
 * The text of a scalar as written; the source of plain scalars keeps numbers like `0755` and `1.10` intact.
 * Helm directives masked for parsing (helmTemplate.ts) come back as `{{ }}`.
 */
export function scalarText(node: unknown): string | undefined {
  if (!isScalar(node)) return undefined;
  if (typeof node.source === "string") return unmaskTemplates(node.source);
  return node.value === null || node.value === undefined ? "" : String(node.value);
}

export function keyText(pair: Pair): string | undefined {
  return scalarText(pair.key);
}

export function mapPairs(node: unknown): Pair[] {
  return isMap(node) ? (node.items as Pair[]) : [];
}

/** The last pair with this key (Kubernetes and Flink both keep the last of duplicated keys). */
export function getPair(node: unknown, key: string): Pair | undefined {
  const items = mapPairs(node);
  for (let i = items.length - 1; i >= 0; i--) if (keyText(items[i]) === key) return items[i];
  return undefined;
}

export function getValue(node: unknown, key: string): unknown {
  return getPair(node, key)?.value ?? undefined;
}

export function getIn(node: unknown, path: readonly string[]): unknown {
  let cur = node;
  for (const key of path) {
    cur = getValue(cur, key);
    if (cur === undefined) return undefined;
  }
  return cur;
}

export function getMap(node: unknown, key: string): YAMLMap | undefined {
  const v = getValue(node, key);
  return isMap(v) ? v : undefined;
}

export function seqItems(node: unknown): unknown[] {
  return isSeq(node) ? node.items : [];
}

/** A scalar or a sequence of scalars as strings: `command: taskmanager`, `args: ["taskmanager", "-D…"]`. */
export function scalarStrings(node: unknown): string[] {
  const one = scalarText(node);
  if (one !== undefined) return [one];
  return seqItems(node)
    .map(scalarText)
    .filter((s): s is string => s !== undefined);
}

/** A flow mapping that is really a Helm template written without quotes: `key: {{ .Values.x }}`. */
export function isTemplateNode(source: YamlSource, node: unknown): boolean {
  if (!isMap(node) || !node.flow || !node.range) return false;
  return source.text.startsWith("{{", node.range[0]);
}

/** `${…}` placeholders and Helm `{{ … }}` templates: values not known until deploy time. */
export function hasTemplate(value: string): boolean {
  return /\$\{[^}]*\}|\{\{.*?\}\}/.test(value);
}
