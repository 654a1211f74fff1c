/**
 * The lowering state the tree-sitter job-code readers share (Scala and Kotlin): what a file declares, the state of
 * lowering one top-level item (scopes, depth, names called), and the base of their expression lowerings.
 */

import type { Node as TreeSitterNode } from "web-tree-sitter";
import type { CodeParseProblem } from "../../jobcode/facts";
import type { Expr, KwArg, Member, Stmt } from "../../jobcode/ir";
import type { LineIndex } from "../../text";
import type { SyntaxNode } from "./syntaxNode";

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
export function tooDeepProblem(
  language: string,
  at: { start: number; end: number },
  index: LineIndex,
): CodeParseProblem {
  const p = index.positionAt(at.start);
  return {
    range: index.rangeOf(at.start, at.end),
    message: `${language} code at line ${p.line + 1}, column ${p.character + 1} is nested more than ${MAX_DEPTH} levels deep and was not read`,
  };
}

/** An identifier's text, backquotes removed (`` `type` `` is `type`). */
export function identifierText(text: string, n: Span): string {
  const s = text.slice(n.startIndex, n.endIndex);
  return s.length > 1 && s.startsWith("`") && s.endsWith("`") ? s.slice(1, -1) : s;
}

/** The class member of a top-level object or class kept member by member: its name and span, and those members. */
export function splitClassMember(item: TreeSitterNode, text: string, members: Member[]): Member {
  const name = item.childForFieldName("name");
  return {
    k: "class",
    start: item.startIndex,
    end: item.endIndex,
    name: name ? identifierText(text, name) : undefined,
    members,
  };
}

/** A call's arguments: positional, named, and where the argument list ends (where a new argument goes). */
export interface Args {
  args: Expr[];
  kwargs: KwArg[];
  argsEnd?: number;
}

/**
 * What the Scala and Kotlin lowerings share: the state of one item, a node's text, the empty expression, the
 * depth guard around every expression, and where local functions and classes go (`sink`).
 */
export abstract class LoweringBase {
  /** Where local functions and classes go: the members of the class (or file) being lowered. */
  protected readonly sinks: Member[][] = [];

  constructor(protected readonly cx: LowerContext) {}

  /** The members of an anonymous class or object expression's body. */
  protected abstract anonymousBody(n: SyntaxNode): Member[];
  /** One expression node, inside the depth guard. */
  protected abstract lower(n: SyntaxNode): Expr;
  /** One top-level item: its members, and its statements when the file is a script. */
  protected abstract item(item: SyntaxNode, members: Member[], stmts: Stmt[], runs: boolean): void;

  protected text(n: SyntaxNode): string {
    return this.cx.text.slice(n.startIndex, n.endIndex);
  }

  protected empty(n: SyntaxNode): Expr {
    return { k: "other", start: n.startIndex, end: n.endIndex, parts: [] };
  }

  expr(n: SyntaxNode): Expr {
    if (!this.cx.enter(n)) return this.empty(n);
    try {
      return this.lower(n);
    } finally {
      this.cx.leave();
    }
  }

  /** A top-level item of the file, in a scope of its own. */
  topLevel(item: SyntaxNode, members: Member[], stmts: Stmt[], runs: boolean): void {
    this.cx.pushScope();
    this.sinks.push(members);
    if (this.cx.enter(item)) {
      this.item(item, members, stmts, runs);
      this.cx.leave();
    }
    this.sinks.pop();
    this.cx.popScope();
  }
}
