/**
 * Reads a Maven pom.xml with an error-tolerant XML parser that keeps positions: coordinates, parent, properties,
 * dependencies and dependency management (imported BOMs included) and profiles. A half-typed pom still
 * gives every element that could be read, plus syntax errors for unclosed or mismatched tags.
 */
import { emptyFacts, type FileFacts, type SyntaxProblem } from "../../model";
import { LineIndex, type Range } from "../../text";
import type { PomCoordinates, PomFacts, PomProfile, RawDependency, SymbolDefinition, ValueExpr } from "./facts";
import { literalText, placeholderExpr } from "./values";
import { parseXml, replaceSpans, withoutXmlComments, type XmlElement } from "./xml";

export function readPom(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "maven", text);
  const index = new LineIndex(text);
  const { root, firstError, tooDeep } = parseXml(text);
  const reader = new PomReader(text, index);
  if (root) {
    reader.checkTags(root);
    facts.build = reader.project(root);
  }
  facts.syntaxErrors = reader.problems;
  if (facts.syntaxErrors.length === 0 && firstError !== undefined) {
    // The parser found something the tag check does not describe (a broken attribute, text outside the root).
    const at = Number.isFinite(firstError) ? firstError : text.length;
    facts.syntaxErrors.push({
      range: index.rangeOf(at, Math.min(text.length, at + 1)),
      message: tooDeep
        ? "pom.xml nests elements hundreds of levels deep here, too deep to be read; no project needs that nesting."
        : "pom.xml is not well-formed XML here, so Maven cannot read it.",
    });
  }
  return facts;
}

class PomReader {
  readonly problems: SyntaxProblem[] = [];

  constructor(
    private readonly text: string,
    private readonly index: LineIndex,
  ) {}

  /**
   * Unclosed and mismatched tags, reported at the opening tag's name. One broken tag also unbalances every
   * enclosing element; only the innermost problem is reported. Returns whether the subtree has a problem.
   */
  checkTags(el: XmlElement): boolean {
    let inner = false;
    for (const sub of el.children) inner = this.checkTags(sub) || inner;
    if (inner || el.selfClosing || el.closeName === el.name) return inner;
    // `</dependencies>` closing a `<dependency>`: the dependency itself was left open.
    const unclosed = el.closeName === undefined || closesAncestor(el, el.closeName);
    const message = unclosed
      ? `\`<${el.name}>\` is never closed, so Maven cannot read this pom.xml.`
      : `\`<${el.name}>\` is closed by \`</${el.closeName}>\`, so Maven cannot read this pom.xml.`;
    this.problems.push({ range: this.nameRange(el), message });
    return true;
  }

  project(root: XmlElement): PomFacts {
    const parentEl = child(root, "parent");
    const relativePath = parentEl ? child(parentEl, "relativePath") : undefined;
    const packaging = this.value(child(root, "packaging"));
    const facts: PomFacts = {
      kind: "maven",
      project: { ...this.coordinates(root), packaging: literalText(packaging) },
      properties: this.properties(root),
      dependencies: this.dependencies(root),
      profiles: children(child(root, "profiles"), "profile").map((p) => this.profile(p)),
    };
    if (parentEl) {
      facts.parent = { ...this.coordinates(parentEl), range: this.nameRange(parentEl) };
      if (relativePath) facts.parent.relativePath = literalText(this.value(relativePath)) ?? "";
    }
    return facts;
  }

  private profile(el: XmlElement): PomProfile {
    const idEl = child(el, "id");
    const activation = child(el, "activation");
    return {
      id: literalText(this.value(idEl)) ?? "",
      idRange: idEl ? (this.value(idEl)?.range ?? this.nameRange(idEl)) : this.nameRange(el),
      activeByDefault: literalText(this.value(activation && child(activation, "activeByDefault"))) === "true",
      properties: this.properties(el),
      dependencies: this.dependencies(el),
    };
  }

  private coordinates(el: XmlElement): PomCoordinates {
    const out: PomCoordinates = {};
    const groupId = this.value(child(el, "groupId"));
    const artifactId = this.value(child(el, "artifactId"));
    const version = this.value(child(el, "version"));
    if (groupId) out.groupId = groupId;
    if (artifactId) out.artifactId = artifactId;
    if (version) out.version = version;
    return out;
  }

  private properties(el: XmlElement): SymbolDefinition[] {
    return (child(el, "properties")?.children ?? []).flatMap((p) => {
      const value = this.value(p) ?? this.emptyValue(p);
      return [{ name: p.name, value, nameRange: this.nameRange(p) }];
    });
  }

  private dependencies(el: XmlElement): RawDependency[] {
    const declared = children(child(el, "dependencies"), "dependency").map((d) => this.dependency(d, false));
    const managed = child(el, "dependencyManagement");
    const imports = children(managed && child(managed, "dependencies"), "dependency").map((d) =>
      this.dependency(d, true),
    );
    return [...declared, ...imports];
  }

  private dependency(el: XmlElement, managed: boolean): RawDependency {
    const { groupId, artifactId, version } = this.coordinates(el);
    const scope = literalText(this.value(child(el, "scope")));
    const type = literalText(this.value(child(el, "type")));
    const dep: RawDependency = {
      group: groupId,
      artifact: artifactId,
      version,
      range: artifactId?.range ?? this.nameRange(el),
      platform: managed && scope === "import" && type === "pom",
      managed,
    };
    if (scope) dep.scope = scope;
    return dep;
  }

  /**
   * The text of a leaf element, trimmed, with `${…}` references. Comments, CDATA and entities make the text differ
   * from the source; the range then covers the whole content and is not exact.
   */
  private value(el: XmlElement | undefined): ValueExpr | undefined {
    const start = el?.contentStart;
    if (!el || start === undefined || el.selfClosing || el.children.length > 0) return undefined;
    let end = el.contentEnd ?? this.text.indexOf("<", start);
    if (end < 0) end = this.text.length;
    const raw = this.text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (!trimmed) return undefined;
    if (!/[<&]/.test(trimmed)) return placeholderExpr(this.index, trimmed, start + lead);
    return placeholderExpr(this.index, decodeXmlText(trimmed), start + lead, false);
  }

  private emptyValue(el: XmlElement): ValueExpr {
    return placeholderExpr(this.index, "", el.contentStart ?? el.nameEnd);
  }

  private nameRange(el: XmlElement): Range {
    return this.index.rangeOf(el.nameStart, el.nameEnd);
  }
}

function closesAncestor(el: XmlElement, name: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (p.name === name) return true;
  return false;
}

function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((s) => s.name === name);
}

function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((s) => s.name === name) : [];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeXmlText(raw: string): string {
  return replaceSpans(withoutXmlComments(raw), "<![CDATA[", "]]>", (inner) => inner)
    .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|\w+);/g, (m, e: string) => {
      if (e.startsWith("#x")) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
      if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
      return ENTITIES[e] ?? m;
    })
    .trim();
}
