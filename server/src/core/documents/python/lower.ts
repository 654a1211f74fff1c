/**
 * Lowers a Python tree-sitter syntax tree to the shared job-code syntax tree (jobcode/ir.ts): Beam Python
 * pipelines and PyFlink jobs, in scripts and in modules.
 *
 * The file's shape:
 * - `def` at module level is a `method` member, `class` a `class` member holding its methods (the receiver
 *   parameter `self`/`cls` left out; `__init__` is `<init>`), its attributes as `field` members and its other
 *   statements as an `init` member. Module-level assignments of constant values (literals, names, dicts and lists
 *   of them) are `field` members, final when the name is UPPER_CASE or bound once; every other module-level
 *   statement is a script statement, in order.
 * - `if __name__ == "__main__":` runs on the script's main path: its body is not conditional. The branches of
 *   `if`/`elif`/`else`, loop bodies, `except` and `else` clauses of `try`, `case` bodies and nested functions
 *   are conditional; a `try` body and its `finally` are not.
 * - `with X as y:` is `local y = X` followed by the body. The first assignment of a name in a function (or in the
 *   module) is a `local`, later ones are `assign`; `x += v` is `x = x + v`; `a, b = 1, 2` is two assignments, and
 *   names unpacked from anything else (`known, rest = parser.parse_known_args(argv)`) are unknown.
 * - A module-level statement, class member or function with a syntax error contributes nothing and is reported
 *   as a problem; a region of the file that tree-sitter could not close (an unclosed parenthesis swallows the
 *   rest of the file) is read again statement by statement from its top-level lines, so the rest still counts.
 */

import type { Language, Parser, Node as TreeSitterNode } from "web-tree-sitter";
import { pushAll } from "../../arrays";
import type { Member, Param, Stmt } from "../../jobcode/ir";
import type { LineIndex } from "../../text";
import { camelCase } from "../code/cst";
import type { Lowered } from "../code/treeSitterReader";
import { blocksOf, COMPOUND, DEFINITIONS, NameScope, StatementLowering } from "./statements";
import { copyTree, type SyntaxNode as Node, type SyntaxNode } from "./tree";
import { keepUnit, keptUnit } from "./unitCache";

export function lowerPython(root: TreeSitterNode, text: string, index: LineIndex): Lowered {
  return new PythonLowering(text, index, root.tree.language).module(root);
}

/** A statement at the top of the module, copied from the tree only when it has to be lowered. */
interface TopUnit {
  node: TreeSitterNode;
  type: string;
  start: number;
  end: number;
  broken: boolean;
  copy?: SyntaxNode;
}

const UPPER = /^_*[A-Z][A-Z0-9_]*$/;
/** A line that starts a top-level statement, where a broken region is cut to be read again. */
const TOP_LEVEL_START = /^[A-Za-z_@]/;
const CONTINUES_COMPOUND = /^(else|elif|except|finally|case)\b/;

let scratch: Parser | undefined;

/** A parser of the same language, for the parts of a broken file read on their own. */
function scratchParser(language: Language): Parser | undefined {
  try {
    if (!scratch) {
      const { Parser: P } = require("web-tree-sitter") as typeof import("web-tree-sitter");
      scratch = new P();
    }
    scratch.setLanguage(language);
    return scratch;
  } catch {
    return undefined;
  }
}

class PythonLowering extends StatementLowering {
  private readonly classNames: string[] = [];

  constructor(
    text: string,
    index: LineIndex,
    private readonly language: Language,
  ) {
    super(text, index);
  }

  /** How often each module-level name is bound; names assigned once are constants. */
  private moduleBindings = new Map<string, number>();

  module(root: TreeSitterNode): Lowered {
    const members: Member[] = [];
    const stmts: Stmt[] = [];
    const top: TopUnit[] = [];
    for (const n of root.type === "module" ? root.children : [root]) {
      if (!n || n.type === "comment") continue;
      top.push({ node: n, type: n.type, start: n.startIndex, end: n.endIndex, broken: isBrokenNode(n) });
    }
    const copyOf = (u: TopUnit) => {
      u.copy ??= copyTree(u.node, this.language);
      return u.copy;
    };
    // Imports first: a function may use a class imported below it (the module runs before the function does).
    for (const u of top) if (u.type === "import_from_statement" && !u.broken) this.imports(copyOf(u));
    const definitions = top.filter((u) => DEFINITIONS.has(u.type) && !u.broken);
    this.moduleBindings = this.countBindings(
      top.filter((u) => !definitions.includes(u)).map(copyOf),
      definitions.map((u) => definitionName(u.node)),
    );
    for (const m of this.text.matchAll(/^[ \t]+(?:global|nonlocal)[ \t]+([A-Za-z_][\w \t,]*)/gm)) {
      for (const name of m[1].split(/[\s,]+/)) if (name) this.moduleBindings.set(name, 2);
    }
    for (const u of top) {
      const field = u.broken || DEFINITIONS.has(u.type) ? undefined : this.constantAssignment(copyOf(u));
      if (field) this.scope.bound.add(field.name);
    }
    for (let i = 0; i < top.length; ) {
      const u = top[i];
      if (!u.broken) {
        if (DEFINITIONS.has(u.type)) this.keptDefinition(u, copyOf, members);
        else this.topLevel(copyOf(u), members, stmts);
        i++;
        continue;
      }
      // A part that does not parse may have pulled in what follows it (an unclosed parenthesis runs to the end of
      // the file; the methods of a class whose header broke come out as top-level functions): the region up to the
      // next line that starts a statement, with every top-level node inside it, is read again statement by
      // statement.
      let j = i + 1;
      let end = this.nextStatementLine(u.end);
      while (j < top.length && top[j].start < end) {
        end = Math.max(end, this.nextStatementLine(top[j].end));
        j++;
      }
      const cuts = this.cuts(u.start, end);
      if (j === i + 1 && cuts.length === 0) this.topLevel(copyOf(u), members, stmts);
      else this.reparse(copyOf(u), [u.start, ...cuts, end], members, stmts);
      i = j;
    }
    for (const [owner, name] of this.qualifiedCalls) if (this.classNames.includes(owner)) this.called.add(name);
    this.problems.sort(
      (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
    return { members, stmts, classNames: this.classNames, called: this.called, problems: this.problems };
  }

  /**
   * A module-level function or class, from the unit cache when the same text was lowered with the same import
   * aliases before: what it adds to the file's lists is replayed. Units that report a problem are not kept.
   */
  private keptDefinition(u: TopUnit, copyOf: (u: TopUnit) => SyntaxNode, members: Member[]): void {
    const aliases = [...this.aliases].map(([a, b]) => `${a}=${b}`).join(",");
    const key = `${aliases}\u0000${this.text.slice(u.start, u.end)}`;
    const kept = keptUnit(key, u.start);
    if (kept) {
      members.push(kept.member);
      for (const name of kept.called) this.called.add(name);
      pushAll(this.qualifiedCalls, kept.qualified);
      pushAll(this.classNames, kept.classNames);
      this.scope.bound.add(kept.name);
      return;
    }
    const outer = this.called;
    this.called = new Set();
    const qualified = this.qualifiedCalls.length;
    const classes = this.classNames.length;
    const problems = this.problems.length;
    const aliasCount = this.aliases.size;
    this.tooDeepReported = false;
    const member = this.definition(copyOf(u), false);
    const called = [...this.called];
    this.called = outer;
    for (const name of called) outer.add(name);
    if (!member) return;
    members.push(member);
    if (this.problems.length > problems || this.aliases.size !== aliasCount) return;
    keepUnit(key, {
      member,
      base: u.start,
      name: definitionName(u.node),
      called,
      qualified: this.qualifiedCalls.slice(qualified),
      classNames: this.classNames.slice(classes),
    });
  }

  private topLevel(n: Node, members: Member[], stmts: Stmt[]): void {
    this.tooDeepReported = false;
    if (n.type === "comment") return;
    if (isBroken(n) && !this.readableInParts(n)) {
      this.broken(n);
      return;
    }
    if (DEFINITIONS.has(n.type)) {
      const m = this.definition(n, false);
      if (m) members.push(m);
      return;
    }
    const constant = this.constantAssignment(n);
    if (constant) {
      const { name, target, value, type } = constant;
      const final = UPPER.test(name) || (this.moduleBindings.get(name) ?? 0) <= 1;
      members.push({
        k: "field",
        ...this.span(n),
        modifiers: final ? ["final"] : [],
        type,
        declarators: [{ name, nameStart: this.s(target), init: this.expr(value) }],
      });
      return;
    }
    this.statement(n, false, stmts, true);
  }

  // ---- broken parts

  /** For each line, the first line at or after it that starts a top-level statement (computed once, when needed). */
  private statementLines?: Int32Array;

  /**
   * Lines that start a top-level statement: column 0, not a clause of a compound statement, not after a decorator
   * or a backslash. One pass over the file, so that reading broken regions stays linear.
   */
  private nextStatementLines(): Int32Array {
    if (this.statementLines) return this.statementLines;
    const count = this.index.lineCount;
    const next = new Int32Array(count + 1).fill(count);
    const starts = new Uint8Array(count);
    let previous = "";
    for (let line = 0; line < count; line++) {
      const text = this.index.lineText(line);
      starts[line] =
        TOP_LEVEL_START.test(text) &&
        !CONTINUES_COMPOUND.test(text) &&
        !previous.startsWith("@") &&
        !previous.endsWith("\\")
          ? 1
          : 0;
      const trimmed = text.trimEnd();
      if (trimmed.trim() !== "" && !trimmed.trimStart().startsWith("#")) previous = trimmed;
    }
    for (let line = count - 1; line >= 0; line--) next[line] = starts[line] ? line : next[line + 1];
    this.statementLines = next;
    return next;
  }

  private startsStatement(line: number): boolean {
    return this.nextStatementLines()[line] === line;
  }

  /** The start of the first line at or after `offset` that starts a top-level statement, or the end of the file. */
  private nextStatementLine(offset: number): number {
    const p = this.index.positionAt(offset);
    const from = p.character === 0 ? p.line : p.line + 1;
    const line = from < this.index.lineCount ? this.nextStatementLines()[from] : this.index.lineCount;
    return line < this.index.lineCount ? this.index.lineStarts[line] : this.text.length;
  }

  /** Line starts strictly inside [start, end) where a top-level statement begins, outside triple-quoted strings. */
  private cuts(start: number, end: number): number[] {
    const out: number[] = [];
    const first = this.index.positionAt(start).line;
    let triple: string | undefined;
    for (let line = first; line < this.index.lineCount && this.index.lineStarts[line] < end; line++) {
      const at = this.index.lineStarts[line];
      if (line > first && !triple && at > start && this.startsStatement(line)) out.push(at);
      triple = tripleQuoteState(this.index.lineText(line), triple);
    }
    return out;
  }

  /** Reads each part of a broken region (between consecutive points) on its own, as top-level code. */
  private reparse(n: Node, points: number[], members: Member[], stmts: Stmt[]): void {
    const parser = scratchParser(this.language);
    if (!parser) {
      this.broken(n);
      return;
    }
    const saved = this.base;
    for (let i = 0; i + 1 < points.length; i++) {
      let tree: ReturnType<Parser["parse"]> = null;
      try {
        tree = parser.parse(this.text.slice(points[i], points[i + 1]));
      } catch {
        tree = null;
      }
      if (!tree) {
        const at = this.index.positionAt(points[i]);
        this.problems.push({
          range: this.index.rangeOf(points[i], points[i + 1]),
          message: `Python code from line ${at.line + 1} could not be read`,
        });
        continue;
      }
      const root = copyTree(tree.rootNode, this.language);
      tree.delete();
      this.base = points[i];
      for (const c of root.type === "module" ? root.named : [root]) this.topLevel(c, members, stmts);
      this.base = saved;
    }
  }

  /**
   * Whether a broken compound statement or class can still be read statement by statement (or member by member):
   * its own header parses, and only parts of its blocks do not. A function is one unit: it is dropped whole.
   */
  private readableInParts(n: Node): boolean {
    if (COMPOUND.has(n.type) || n.type === "class_definition") return this.headerOk(n);
    if (n.type !== "decorated_definition") return false;
    const def = n.childForFieldName("definition");
    return def?.type === "class_definition" && n.named.every((c) => c === def || !isBroken(c)) && this.headerOk(def);
  }

  /** A part that does not parse: it contributes nothing, and the problem says where it stopped. */
  protected broken(n: Node): void {
    const error = firstError(n);
    const open = error?.isError ? unclosedBracket(error) : undefined;
    const at = open ? this.s(open) : error ? this.s(error) : this.s(n);
    const p = this.index.positionAt(at);
    let what = "unexpected text";
    if (open) what = `'${open.type}' was never closed`;
    else if (error?.isMissing) what = `missing '${error.type}'`;
    else if (error) {
      const shown = /^\S{1,20}/.exec(this.text.slice(at, this.e(error)))?.[0];
      what = shown ? `unexpected '${shown}'` : "unexpected end of input";
    }
    this.problems.push({
      range: this.index.rangeOf(this.s(n), this.e(n)),
      message: `Python syntax error at line ${p.line + 1}, column ${p.character + 1}: ${what}`,
    });
  }

  // ---- definitions

  protected definition(n: Node, inClass: boolean): Member | undefined {
    const def = n.type === "decorated_definition" ? n.childForFieldName("definition") : n;
    if (!def) return undefined;
    if (def.type === "class_definition") return this.classDefinition(def, n);
    if (def.type !== "function_definition") return undefined;
    const decorators = n.type === "decorated_definition" ? n.named.filter((c) => c.type === "decorator") : [];
    return this.functionDefinition(def, n, decorators, inClass);
  }

  private functionDefinition(def: Node, outer: Node, decorators: Node[], inClass: boolean): Member | undefined {
    const nameNode = def.childForFieldName("name");
    if (!nameNode) return undefined;
    const written = this.src(nameNode);
    const isStatic = decorators.some((d) => /\bstaticmethod\b/.test(this.src(d)));
    const savedScope = this.scope;
    const savedReceiver = this.receiver;
    this.scope = new NameScope();
    if (inClass) this.receiver = undefined;
    const params: Param[] = [];
    const list = def.childForFieldName("parameters");
    let first = true;
    for (const p of list ? list.named : []) {
      if (p.type === "keyword_separator" || p.type === "positional_separator") continue;
      const names = this.paramNames(p);
      for (const name of names) this.scope.bound.add(name);
      if (inClass && !isStatic && first && names.length === 1) {
        this.receiver = names[0];
        first = false;
        continue;
      }
      first = false;
      // `*args` and `**kwargs` take what is left over: they are not parameters a call's arguments line up with.
      if (names.length !== 1 || p.type === "list_splat_pattern" || p.type === "dictionary_splat_pattern") continue;
      const type = p.childForFieldName("type");
      const optional = p.type === "default_parameter" || p.type === "typed_default_parameter";
      params.push({ name: names[0], type: type ? this.src(type) : "", ...(optional ? { optional } : {}) });
    }
    const body: Stmt[] = [];
    const block = def.childForFieldName("body");
    if (block) this.block(block, false, body);
    this.scope = savedScope;
    this.receiver = savedReceiver;
    this.scope.bound.add(written);
    const returnType = def.childForFieldName("return_type");
    return {
      k: "method",
      ...this.span(outer),
      name: inClass && written === "__init__" ? "<init>" : camelCase(written),
      params,
      body,
      returnType: returnType ? this.src(returnType) : "",
    };
  }

  private classDefinition(def: Node, outer: Node): Member {
    const nameNode = def.childForFieldName("name");
    const name = nameNode ? this.src(nameNode) : "";
    if (name) this.classNames.push(name);
    const body = def.childForFieldName("body");
    const statements = body ? body.named : [];
    const bindings = this.countBindings(statements);
    const savedScope = this.scope;
    const savedReceiver = this.receiver;
    this.scope = new NameScope();
    this.receiver = undefined;
    const members: Member[] = [];
    const init: Stmt[] = [];
    for (const c of statements) {
      if (c.type === "comment") continue;
      if (isBroken(c) && !this.readableInParts(c)) {
        this.broken(c);
        continue;
      }
      if (DEFINITIONS.has(c.type)) {
        const m = this.definition(c, true);
        if (m) members.push(m);
        continue;
      }
      const a = this.simpleAssignment(c);
      if (a) {
        const final = UPPER.test(a.name) || (bindings.get(a.name) ?? 0) <= 1;
        this.scope.bound.add(a.name);
        members.push({
          k: "field",
          ...this.span(c),
          modifiers: final ? ["final"] : [],
          type: a.type,
          declarators: [{ name: a.name, nameStart: this.s(a.target), init: this.expr(a.value) }],
        });
        continue;
      }
      this.statement(c, false, init);
    }
    this.scope = savedScope;
    this.receiver = savedReceiver;
    if (name) this.scope.bound.add(name);
    if (init.length > 0) members.push({ k: "init", start: init[0].start, end: init[init.length - 1].end, body: init });
    return { k: "class", ...this.span(outer), name, members };
  }

  /** `NAME = value` or `NAME: type = value` alone in a statement. */
  private simpleAssignment(n: Node): { name: string; target: Node; value: Node; type: string } | undefined {
    if (n.type !== "expression_statement" || n.named.length !== 1) return undefined;
    const a = n.named[0];
    if (a?.type !== "assignment") return undefined;
    const target = a.childForFieldName("left");
    const value = a.childForFieldName("right");
    if (target?.type !== "identifier" || !value || value.type === "assignment") return undefined;
    const type = a.childForFieldName("type");
    return { name: this.src(target), target, value, type: type ? this.src(type) : "" };
  }

  /** A module-level assignment of a constant value: a field functions can read. */
  private constantAssignment(n: Node): ReturnType<PythonLowering["simpleAssignment"]> {
    const a = this.simpleAssignment(n);
    return a && isConstant(a.value) ? a : undefined;
  }

  /** How often each name is bound by the statements (and the blocks inside them, not inside functions). */
  private countBindings(statements: Node[], defined: string[] = []): Map<string, number> {
    const counts = new Map<string, number>();
    const add = (names: string[]) => {
      for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    };
    add(defined.filter((n) => n));
    const stack = [...statements];
    while (stack.length > 0) {
      const n = stack.pop() as Node;
      if (n.type === "expression_statement") {
        for (const a of n.named) {
          let cur: Node | null = a;
          while (cur && (cur.type === "assignment" || cur.type === "augmented_assignment")) {
            const left = cur.childForFieldName("left");
            if (left) add(this.targetNames(left));
            cur = cur.childForFieldName("right");
          }
        }
      } else if (DEFINITIONS.has(n.type)) {
        const def = n.type === "decorated_definition" ? n.childForFieldName("definition") : n;
        const name = def?.childForFieldName("name");
        if (name) add([this.src(name)]);
      } else if (COMPOUND.has(n.type)) {
        if (n.type === "for_statement") {
          const left = n.childForFieldName("left");
          if (left) add(this.targetNames(left));
        }
        for (const b of blocksOf(n)) pushAll(stack, b.named);
      }
    }
    return counts;
  }
}

/** Literals, names, and dicts, lists, tuples and operators over them: values a module constant may hold. */
function isConstant(n: Node): boolean {
  const stack: Node[] = [n];
  let seen = 0;
  while (stack.length > 0) {
    const c = stack.pop() as Node;
    if (++seen > 10_000) return false;
    switch (c.type) {
      case "string":
      case "concatenated_string":
      case "integer":
      case "float":
      case "true":
      case "false":
      case "none":
      case "identifier":
        continue;
      case "attribute":
      case "unary_operator":
      case "binary_operator":
      case "parenthesized_expression":
      case "list":
      case "tuple":
      case "set":
      case "dictionary":
      case "pair":
      case "dictionary_splat":
        for (const x of c.named) stack.push(x);
        continue;
      default:
        return false;
    }
  }
  return true;
}

function isBroken(n: Node): boolean {
  return n.hasError || n.isError || n.isMissing;
}

function isBrokenNode(n: TreeSitterNode): boolean {
  return n.hasError || n.isError || n.isMissing;
}

/** The name a module-level `def` or `class` binds. */
function definitionName(n: TreeSitterNode): string {
  const def = n.type === "decorated_definition" ? n.childForFieldName("definition") : n;
  return def?.childForFieldName("name")?.text ?? "";
}

/** The first syntax error under `n` (an ERROR or MISSING node), found without recursion. */
function firstError(n: Node): Node | undefined {
  const stack: Node[] = [n];
  while (stack.length > 0) {
    const c = stack.pop() as Node;
    if (c.isError || c.isMissing) return c;
    if (!c.hasError) continue;
    for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i]);
  }
  return undefined;
}

const CLOSING: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/** The first bracket among an error's own tokens that nothing closes: `f(` swallowing the lines after it. */
function unclosedBracket(error: Node): Node | undefined {
  const open: Node[] = [];
  for (const c of error.children) {
    if (!c) continue;
    if (CLOSING[c.type]) open.push(c);
    else if (open.length > 0 && c.type === CLOSING[open[open.length - 1].type]) open.pop();
  }
  return open[0];
}

/** Whether a line leaves a triple-quoted string open, given whether one was open before it. */
function tripleQuoteState(line: string, open: string | undefined): string | undefined {
  let state = open;
  let i = 0;
  while (i < line.length) {
    if (state) {
      const close = line.indexOf(state, i);
      if (close < 0) return state;
      i = close + 3;
      state = undefined;
      continue;
    }
    const c = line[i];
    if (c === "#") return undefined;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3);
      if (line.startsWith(triple, i)) {
        state = triple;
        i += 3;
        continue;
      }
      // A one-line string: skip to its end.
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === "\\" ? 2 : 1;
      i = j + 1;
      continue;
    }
    i++;
  }
  return state;
}
