/**
 * What the Scala lowering knows about the whole file before it lowers any part of it (the classes, objects and
 * traits it declares, its parameterless `def`s, the `val`s of its objects), and the state of lowering one item.
 */
import type { Node as TreeSitterNode } from "web-tree-sitter";
import type { CodeParseProblem } from "../../jobcode/facts";
import type { LineIndex } from "../../text";
import { field, type SyntaxNode } from "./syntaxNode";

/**
 * How deep expressions and statements are lowered. Real job code stays far below; anything deeper (generated
 * code, a fuzzer's input) is cut off there with a problem, so that neither the lowering nor the extractor, which
 * walk the lowered tree recursively, can run out of stack.
 */
export const MAX_DEPTH = 400;

/** Where a node is: its offsets (a tree-sitter node or its copy). */
interface Span {
  startIndex: number;
  endIndex: number;
}

const CLASS_LIKE = new Set(["object_definition", "class_definition", "trait_definition", "enum_definition"]);
const BODY_HOLDERS = new Set(["template_body", "compilation_unit", "enum_body"]);

/** What one top-level item of a file declares; the file's declarations are the union over its items. */
export interface Declarations {
  /** Classes, objects, traits and enums. */
  ownTypes: string[];
  /** `def name = …` / `def name: T = …` without parameter lists: a reference to the name is a call. */
  parameterless: string[];
  /** Every `def`. */
  defs: string[];
  /** `val`s and `var`s declared directly in a class, an object or the file (not in a method). */
  memberVals: string[];
}

/** The declarations under `item`, without recursion (the tree may be arbitrarily deep). */
export function declarationsOf(item: SyntaxNode, text: string): Declarations {
  const d: Declarations = { ownTypes: [], parameterless: [], defs: [], memberVals: [] };
  const stack: SyntaxNode[] = [item];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (CLASS_LIKE.has(n.type)) {
      const name = field(n, "name");
      if (name) d.ownTypes.push(identifierText(text, name));
    } else if (n.type === "function_definition" || n.type === "function_declaration") {
      const name = field(n, "name");
      if (name) {
        const s = identifierText(text, name);
        d.defs.push(s);
        if (!field(n, "parameters") && s !== "this") d.parameterless.push(s);
      }
    } else if (n.type === "val_definition" || n.type === "var_definition") {
      const pattern = field(n, "pattern");
      // A val of a class, an object or the file (the item itself is at the top).
      if (pattern?.type === "identifier" && (!n.parent || BODY_HOLDERS.has(n.parent.type))) {
        d.memberVals.push(identifierText(text, pattern));
      }
    }
    for (let i = n.children.length - 1; i >= 0; i--) if (n.children[i].isNamed) stack.push(n.children[i]);
  }
  return d;
}

/** The declarations of the whole file, as sets. */
export class FileDeclarations {
  readonly ownTypes = new Set<string>();
  readonly parameterless = new Set<string>();
  readonly defs = new Set<string>();
  readonly memberVals = new Set<string>();
  private javaImports?: Set<string>;

  constructor(
    readonly text: string,
    items: readonly Declarations[],
  ) {
    for (const d of items) {
      for (const x of d.ownTypes) this.ownTypes.add(x);
      for (const x of d.parameterless) this.parameterless.add(x);
      for (const x of d.defs) this.defs.add(x);
      for (const x of d.memberVals) this.memberVals.add(x);
    }
  }

  /**
   * Everything in the file that changes how an item is lowered: items are lowered again when it changes. The
   * lowering reads the file's own types, its parameterless `def`s and its java.util imports; the other `def`s and
   * the member `val`s only decide, after the lowering, which calls are followed, so typing a method's name does not
   * lower every other item again.
   */
  signature(): string {
    const list = (s: Set<string>) => [...s].sort().join(",");
    const imports = /\bimport\s+java\.util\.[^\n]*/g;
    const javaUtil = [...this.text.matchAll(imports)].map((m) => m[0]).join(";");
    return [list(this.ownTypes), list(this.parameterless), javaUtil].join("|");
  }

  /** The file imports `name` from `java.util` (`import java.util.HashMap`, `java.util.{Map, HashMap}`, `java.util._`). */
  importsFromJavaUtil(name: string): boolean {
    if (!this.javaImports) {
      this.javaImports = new Set();
      for (const m of this.text.matchAll(/\bimport\s+java\.util\.(\{[^}]*\}|[\w*]+)/g)) {
        const list = m[1].startsWith("{") ? m[1].slice(1, -1).split(",") : [m[1]];
        for (const item of list) {
          const name = item.trim().split(/\s/)[0];
          this.javaImports.add(name === "*" ? "_" : name);
        }
      }
    }
    return this.javaImports.has(name) || this.javaImports.has("_");
  }
}

/**
 * The state of lowering one top-level item: the file's declarations, the local names in scope (a local shadows a
 * parameterless `def`), the nesting depth, the names called, and where the code was nested too deeply.
 */
export class LowerContext {
  /** Names the item calls as functions of the file. */
  readonly called = new Set<string>();
  /** The first place nested too deeply to be read. */
  tooDeepAt?: { start: number; end: number };
  private depth = 0;
  /** Local names per scope; a scope without any is undefined. */
  private readonly scopes: (Set<string> | undefined)[] = [];

  constructor(
    readonly text: string,
    readonly decls: FileDeclarations,
  ) {}

  get ownTypes(): Set<string> {
    return this.decls.ownTypes;
  }

  get parameterless(): Set<string> {
    return this.decls.parameterless;
  }

  get defs(): Set<string> {
    return this.decls.defs;
  }

  get memberVals(): Set<string> {
    return this.decls.memberVals;
  }

  /** Enters one level of nesting; false when that is too deep (the place is recorded). */
  enter(n: Span): boolean {
    if (this.depth >= MAX_DEPTH) {
      this.tooDeep(n);
      return false;
    }
    this.depth++;
    return true;
  }

  leave(): void {
    this.depth--;
  }

  /** Records that the code at `n` is nested too deeply to be read (the first place only). */
  tooDeep(n: Span): void {
    this.tooDeepAt ??= { start: n.startIndex, end: n.endIndex };
  }

  pushScope(names: readonly string[] = []): void {
    this.scopes.push(names.length > 0 ? new Set(names) : undefined);
  }

  popScope(): void {
    this.scopes.pop();
  }

  declareLocal(name: string): void {
    const last = this.scopes.length - 1;
    if (last < 0) return;
    let scope = this.scopes[last];
    if (!scope) {
      scope = new Set();
      this.scopes[last] = scope;
    }
    scope.add(name);
  }

  isLocal(name: string): boolean {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]?.has(name)) return true;
    return false;
  }

  importsFromJavaUtil(name: string): boolean {
    return this.decls.importsFromJavaUtil(name);
  }
}

/** The problem for code nested more deeply than the lowering goes. */
export function tooDeepProblem(at: { start: number; end: number }, index: LineIndex): CodeParseProblem {
  const p = index.positionAt(at.start);
  return {
    range: index.rangeOf(at.start, at.end),
    message: `Scala code at line ${p.line + 1}, column ${p.character + 1} is nested more than ${MAX_DEPTH} levels deep and was not read`,
  };
}

/** An identifier's text, backquotes removed (`` `type` `` is `type`). */
export function identifierText(text: string, n: Span): string {
  const s = text.slice(n.startIndex, n.endIndex);
  return s.length > 1 && s.startsWith("`") && s.endsWith("`") ? s.slice(1, -1) : s;
}

/**
 * Syntax errors as parse problems, one per error (at most `max`). An error node that spans a large part of the
 * file (tree-sitter wraps what it could not fit, often from the enclosing object on) is reported at the errors
 * inside it, which are where the text went wrong.
 */
export function scalaSyntaxProblems(root: TreeSitterNode, index: LineIndex, max = 20): CodeParseProblem[] {
  const out: CodeParseProblem[] = [];
  if (!root.hasError) return out;
  const stack: TreeSitterNode[] = [root];
  while (stack.length > 0 && out.length < max) {
    const node = stack.pop() as TreeSitterNode;
    const inner = node.isError && hasErrorInside(node);
    if ((node.isError && !inner) || node.isMissing) {
      const at = index.positionAt(node.startIndex);
      const what = node.isMissing ? `missing ${node.type}` : "unexpected text";
      out.push({
        range: index.rangeOf(node.startIndex, Math.max(node.endIndex, node.startIndex)),
        message: `Scala syntax error at line ${at.line + 1}, column ${at.character + 1}: ${what}`,
      });
      continue;
    }
    if (!node.hasError && !node.isError) continue;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const c = node.child(i);
      if (c && (c.hasError || c.isError || c.isMissing)) stack.push(c);
    }
  }
  return out;
}

function hasErrorInside(n: TreeSitterNode): boolean {
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (c && (c.isError || c.isMissing || c.hasError)) return true;
  }
  return false;
}
