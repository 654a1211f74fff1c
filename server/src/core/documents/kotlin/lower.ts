/**
 * Lowers a Kotlin tree-sitter syntax tree (source files and `.kts` scripts) to the shared job-code syntax tree
 * (jobcode/ir.ts), so the one extractor reads Kotlin jobs as it reads Java ones.
 *
 * Declarations: classes, interfaces and objects are `class` members; a companion object's members belong to its
 * class (`Job.GROUP`); functions are methods (a local `fun` becomes a method of its class, so a call to it is
 * followed) and an expression body (`fun props() = mapOf(…)`) is its `return`; `val` and `const val` properties are
 * final fields, `var`s fields, primary constructor parameters fields of their type; `init { }` blocks are
 * initializers and secondary constructors `<init>` methods. A file with statements at the top level (a script) runs
 * them in order in `stmts`, its properties assigned where they stand.
 *
 * Statements are flattened in source order; those on a path that may not run (if/else branches, `when` entries,
 * loops, catch blocks, lambdas other than the scope functions') are conditional.
 *
 * Nothing here throws on bad input: syntax errors become problems and what tree-sitter recovered is still read.
 * Nesting is bounded (LowerContext), and nothing recurses on the tree beyond that bound.
 */
import type { Node as TreeSitterNode } from "web-tree-sitter";
import { pushAll } from "../../arrays";
import type { Expr, Member, Param, Stmt } from "../../jobcode/ir";
import type { LineIndex } from "../../text";
import { syntaxProblems, named as treeSitterNamed } from "../code/cst";
import { cachedDeclarations, cachedLowering, type ItemLowering } from "../code/itemCache";
import {
  type Declarations,
  FileDeclarations,
  identifierText,
  LowerContext,
  splitClassMember,
  tooDeepProblem,
} from "../code/lowering";
import { copyTree, field, type SyntaxNode as Node, named } from "../code/syntaxNode";
import type { Lowered } from "../code/treeSitterReader";
import { KotlinExpressions, typeName } from "./expressions";

/** Node types whose insides the lowering never reads: their subtrees are not copied. */
const OPAQUE = new Set([
  "import",
  "package_header",
  "file_annotation",
  "line_comment",
  "block_comment",
  "annotation",
  "string_content",
  "escape_sequence",
  "number_literal",
  "float_literal",
  "character_literal",
  "user_type",
  "nullable_type",
  "function_type",
  "type_arguments",
  "type_parameters",
  "type_constraints",
  "type_alias",
  "shebang",
]);

const CLASS_LIKE = new Set(["class_declaration", "object_declaration"]);
const DECLARATIONS = new Set([
  ...CLASS_LIKE,
  "function_declaration",
  "property_declaration",
  "type_alias",
  "import",
  "package_header",
  "file_annotation",
  "shebang",
  "line_comment",
  "block_comment",
]);
const SKIPPED = new Set([
  "import",
  "package_header",
  "file_annotation",
  "shebang",
  "type_alias",
  "line_comment",
  "block_comment",
  "getter",
  "setter",
  "enum_entry",
  "modifiers",
]);

/** A unit the lowering keeps by its text: a top-level item, or a member of a split object or class. */
interface Unit {
  node: TreeSitterNode;
  text: string;
}

/** A top-level object or class kept member by member. */
interface SplitItem {
  item: TreeSitterNode;
  members: Unit[];
}

/**
 * A top-level object or class as its members, when it can be lowered member by member (the usual job: one `object`
 * of functions and properties, where a keystroke in one function should lower that function again, not the whole
 * object): no syntax error in it, no primary constructor (its parameters are fields of the class), and a body of
 * functions and named properties only (an `init` block or a companion object is lowered with the whole item).
 */
function splitItem(item: TreeSitterNode, text: string): SplitItem | undefined {
  if (!CLASS_LIKE.has(item.type) || item.hasError) return undefined;
  const parts = treeSitterNamed(item);
  if (parts.some((c) => c.type === "primary_constructor")) return undefined;
  const body = parts.find((c) => c.type === "class_body");
  if (!body) return undefined;
  const members: Unit[] = [];
  for (const c of treeSitterNamed(body)) {
    if (c.type !== "function_declaration" && c.type !== "property_declaration") return undefined;
    if (c.type === "property_declaration" && !treeSitterNamed(c).some((x) => x.type === "variable_declaration"))
      return undefined;
    members.push({ node: c, text: text.slice(c.startIndex, c.endIndex) });
  }
  return { item, members };
}

/** `byMember: false` lowers every top-level item whole (tests compare both ways). */
export function lowerKotlin(
  root: TreeSitterNode,
  text: string,
  index: LineIndex,
  options: { byMember: boolean } = { byMember: true },
): Lowered {
  const items = treeSitterNamed(root);
  const runs = items.some((i) => !DECLARATIONS.has(i.type) && i.type !== "ERROR");
  const plans = items.map((item): Unit | SplitItem => {
    // A script's statements run in order with its declarations: its items are kept whole.
    const split = options.byMember && !runs ? splitItem(item, text) : undefined;
    return split ?? { node: item, text: text.slice(item.startIndex, item.endIndex) };
  });
  const copies = new Map<TreeSitterNode, Node>();
  const copy = (n: TreeSitterNode): Node => {
    let c = copies.get(n);
    if (!c) {
      c = copyTree(n, OPAQUE);
      copies.set(n, c);
    }
    return c;
  };
  const declarations: Declarations[] = [];
  for (const plan of plans) {
    if ("item" in plan) {
      const name = plan.item.childForFieldName("name");
      declarations.push({
        ownTypes: name ? [identifierText(text, name)] : [],
        parameterless: [],
        defs: [],
        memberVals: [],
      });
      for (const m of plan.members)
        declarations.push(cachedDeclarations(`kotlin\u0000${m.text}`, () => declarationsOf(copy(m.node), text)));
    } else {
      declarations.push(cachedDeclarations(`kotlin\u0000${plan.text}`, () => declarationsOf(copy(plan.node), text)));
    }
  }
  const decls = new FileDeclarations("", declarations);
  // What the lowering reads of the rest of the file: whether it is a script, and the file's own types (the
  // functions it declares only decide afterwards which calls are followed, so typing a name lowers nothing else).
  const signature = `kotlin|${runs ? "script" : "members"}|${[...decls.ownTypes].sort().join(",")}`;
  const members: Member[] = [];
  const stmts: Stmt[] = [];
  const called = new Set<string>();
  let tooDeepAt: { start: number; end: number } | undefined;
  const take = (lowering: ItemLowering, into: Member[]) => {
    pushAll(into, lowering.members);
    pushAll(stmts, lowering.stmts);
    for (const name of lowering.called) if (decls.defs.has(name)) called.add(name);
    tooDeepAt ??= lowering.tooDeepAt;
  };
  for (const plan of plans) {
    if ("item" in plan) {
      const classMembers: Member[] = [];
      for (const m of plan.members) {
        take(
          cachedLowering(`${signature}|body\u0000${m.text}`, m.node.startIndex, () =>
            lowerBodyMember(copy(m.node), text, decls),
          ),
          classMembers,
        );
      }
      members.push(splitClassMember(plan.item, text, classMembers));
    } else {
      take(
        cachedLowering(`${signature}\u0000${plan.text}`, plan.node.startIndex, () =>
          lowerItem(copy(plan.node), text, decls, runs),
        ),
        members,
      );
    }
  }
  const problems = syntaxProblems(root, index, "Kotlin");
  if (tooDeepAt) problems.push(tooDeepProblem("Kotlin", tooDeepAt, index));
  return { members, stmts, classNames: [...decls.ownTypes], called, problems };
}

/** The texts of the units a file is lowered and kept in (for tests). */
export function loweringUnits(root: TreeSitterNode, text: string): string[] {
  return treeSitterNamed(root).flatMap((item) => {
    const split = splitItem(item, text);
    return split ? split.members.map((m) => m.text) : [text.slice(item.startIndex, item.endIndex)];
  });
}

/** The classes, objects and functions under `item`, without recursion. */
function declarationsOf(item: Node, text: string): Declarations {
  const d: Declarations = { ownTypes: [], parameterless: [], defs: [], memberVals: [] };
  const stack: Node[] = [item];
  while (stack.length > 0) {
    const n = stack.pop() as Node;
    if (CLASS_LIKE.has(n.type)) {
      const name = field(n, "name");
      if (name) d.ownTypes.push(identifierText(text, name));
    } else if (n.type === "function_declaration") {
      const name = field(n, "name");
      if (name) d.defs.push(identifierText(text, name));
    }
    for (let i = n.children.length - 1; i >= 0; i--) if (n.children[i].isNamed) stack.push(n.children[i]);
  }
  return d;
}

function lowerItem(item: Node, text: string, decls: FileDeclarations, runs: boolean): ItemLowering {
  const cx = new LowerContext(text, decls);
  const members: Member[] = [];
  const stmts: Stmt[] = [];
  new KotlinLowering(cx).topLevel(item, members, stmts, runs);
  return { members, stmts, called: [...cx.called], ...(cx.tooDeepAt ? { tooDeepAt: cx.tooDeepAt } : {}) };
}

/** One member of a split object or class, lowered as the whole item lowers it (same scopes, same depth). */
function lowerBodyMember(member: Node, text: string, decls: FileDeclarations): ItemLowering {
  const cx = new LowerContext(text, decls);
  const members: Member[] = [];
  const stmts: Stmt[] = [];
  new KotlinLowering(cx).bodyMember(member, members, stmts);
  return { members, stmts, called: [...cx.called], ...(cx.tooDeepAt ? { tooDeepAt: cx.tooDeepAt } : {}) };
}

class KotlinLowering extends KotlinExpressions {
  protected item(item: Node, members: Member[], stmts: Stmt[], runs: boolean): void {
    this.memberItem(item, members, stmts, runs);
  }

  /** A member of a class body, in the scopes and at the depth `classMember` lowers it in. */
  bodyMember(member: Node, members: Member[], stmts: Stmt[]): void {
    this.cx.pushScope();
    this.cx.pushScope();
    this.sinks.push(members);
    if (this.cx.enter(member)) {
      if (this.cx.enter(member)) {
        this.memberItem(member, members, stmts, false);
        this.cx.leave();
      }
      this.cx.leave();
    }
    this.sinks.pop();
    this.cx.popScope();
    this.cx.popScope();
  }

  /** One item of a class body or of the file; statements (a script's) go to `ctor`. */
  private memberItem(item: Node, members: Member[], ctor: Stmt[], runs: boolean): void {
    switch (item.type) {
      case "class_declaration":
      case "object_declaration":
        members.push(this.classMember(item));
        return;
      case "companion_object": {
        // `Job.GROUP`, `Job.main`: the companion's members are the class's.
        const body = named(item).find((c) => c.type === "class_body");
        if (body) this.classBody(body, members, ctor);
        return;
      }
      case "function_declaration":
        members.push(this.method(item));
        return;
      case "secondary_constructor":
        members.push(this.constructorMethod(item));
        return;
      case "anonymous_initializer": {
        const block = named(item).find((c) => c.type === "block");
        if (block)
          members.push({ k: "init", start: item.startIndex, end: item.endIndex, body: this.blockOf(block, false) });
        return;
      }
      case "property_declaration":
        this.property(item, members, ctor, runs);
        return;
      case "class_body":
      case "enum_class_body":
      case "ERROR":
        for (const c of named(item)) {
          if (!this.cx.enter(c)) continue;
          try {
            this.memberItem(c, members, ctor, runs || item.type === "ERROR");
          } finally {
            this.cx.leave();
          }
        }
        return;
      default:
        if (SKIPPED.has(item.type)) return;
        this.statement(item, false, ctor);
    }
  }

  private classBody(body: Node, members: Member[], ctor: Stmt[]): void {
    for (const c of named(body)) {
      if (!this.cx.enter(c)) continue;
      try {
        this.memberItem(c, members, ctor, false);
      } finally {
        this.cx.leave();
      }
    }
  }

  /** A property of a class, an object or the file. */
  private property(n: Node, members: Member[], ctor: Stmt[], runs: boolean): void {
    const decl = named(n).find((c) => c.type === "variable_declaration");
    const value = propertyValue(n);
    const modifiers = this.modifiers(n);
    const span = { start: n.startIndex, end: n.endIndex };
    if (!decl) {
      // `val (a, b) = …`: the value is evaluated, the names are not followed.
      if (value) this.statement(value, false, ctor);
      return;
    }
    const id = named(decl).find((c) => c.type === "identifier");
    if (!id) return;
    const typeNode = named(decl).find((c) => c.type !== "identifier");
    const type = typeNode ? typeName(this.cx.text, typeNode) : "";
    const name = identifierText(this.cx.text, id);
    const declarator = { name, nameStart: id.startIndex };
    if (!runs) {
      members.push({
        k: "field",
        ...span,
        modifiers,
        type,
        declarators: [{ ...declarator, ...(value ? { init: this.initOf(value) } : {}) }],
      });
      return;
    }
    members.push({ k: "field", ...span, modifiers, type, declarators: [declarator] });
    if (!value) return;
    const init = this.initOf(value);
    const target: Expr = { k: "name", start: id.startIndex, end: id.endIndex, name };
    ctor.push({ k: "expr", ...span, expr: { k: "assign", ...span, op: "=", target, value: init }, conditional: false });
  }

  /** A property's value; `by lazy { … }` is the lambda's last expression. */
  private initOf(value: Node): Expr {
    if (value.type === "property_delegate") {
      const call = named(value).find((c) => c.type === "call_expression");
      const lambda = call && named(call).find((c) => c.type === "annotated_lambda");
      const literal = lambda && named(lambda).find((c) => c.type === "lambda_literal");
      const body = literal ? named(literal).filter((c) => c.type !== "lambda_parameters") : [];
      const last = body[body.length - 1];
      if (last && body.length === 1 && !DECLARATIONS.has(last.type)) return this.expr(last);
      return call ? this.expr(call) : this.empty(value);
    }
    return this.expr(value);
  }

  private modifiers(n: Node): string[] {
    const out: string[] = [];
    for (const m of named(n)) {
      if (m.type !== "modifiers") continue;
      for (const w of this.text(m).split(/\s+/)) if (/^[a-z]+$/.test(w)) out.push(w);
    }
    if (n.children.some((c) => !c.isNamed && c.type === "val")) out.push("final");
    return out;
  }

  private classMember(n: Node): Member {
    const nameNode = field(n, "name");
    const members: Member[] = [];
    this.cx.pushScope();
    this.sinks.push(members);
    const ctor = named(n).find((c) => c.type === "primary_constructor");
    const list = ctor ? named(ctor).find((c) => c.type === "class_parameters") : undefined;
    for (const p of list ? named(list) : []) {
      if (p.type !== "class_parameter") continue;
      const id = named(p).find((c) => c.type === "identifier");
      const t = named(p).find((c) => c.type === "user_type" || c.type === "nullable_type");
      if (!id) continue;
      members.push({
        k: "field",
        start: p.startIndex,
        end: p.endIndex,
        modifiers: p.children.some((c) => !c.isNamed && c.type === "var") ? [] : ["final"],
        type: t ? typeName(this.cx.text, t) : "",
        declarators: [{ name: identifierText(this.cx.text, id), nameStart: id.startIndex }],
      });
    }
    const body = named(n).find((c) => c.type === "class_body" || c.type === "enum_class_body");
    const statements: Stmt[] = [];
    if (body) this.classBody(body, members, statements);
    if (statements.length > 0 && body)
      members.push({ k: "init", start: body.startIndex, end: body.endIndex, body: statements });
    this.sinks.pop();
    this.cx.popScope();
    return {
      k: "class",
      start: n.startIndex,
      end: n.endIndex,
      name: nameNode ? identifierText(this.cx.text, nameNode) : undefined,
      members,
    };
  }

  private params(n: Node): Param[] {
    const list = named(n).find((c) => c.type === "function_value_parameters");
    const params: Param[] = [];
    let last: Param | undefined;
    for (const p of list ? list.children : []) {
      // `fun run(args: Array<String> = arrayOf())`: the `=` after a parameter gives it a default.
      if (p.type === "=" && last) last.optional = true;
      if (p.type !== "parameter") continue;
      last = undefined;
      const id = named(p).find((c) => c.type === "identifier");
      const t = named(p).find((c) => c.type !== "identifier" && c.type !== "parameter_modifiers");
      if (id) {
        last = { name: identifierText(this.cx.text, id), type: t ? typeName(this.cx.text, t) : "" };
        params.push(last);
      }
    }
    return params;
  }

  private method(n: Node): Member & { k: "method" } {
    const nameNode = field(n, "name");
    const params = this.params(n);
    // The return type follows the parameters' `:`.
    let returnType = "";
    let afterParams = false;
    for (const c of n.children) {
      if (c.type === "function_value_parameters") afterParams = true;
      else if (afterParams && c.isNamed && c.type !== "function_body" && c.type !== "type_constraints") {
        returnType = typeName(this.cx.text, c);
        break;
      }
    }
    const bodyNode = named(n).find((c) => c.type === "function_body");
    const body: Stmt[] = [];
    this.cx.pushScope(params.map((p) => p.name));
    if (bodyNode) this.functionBody(bodyNode, body);
    this.cx.popScope();
    return {
      k: "method",
      start: n.startIndex,
      end: n.endIndex,
      name: nameNode ? identifierText(this.cx.text, nameNode) : "",
      params,
      body,
      returnType,
    };
  }

  private constructorMethod(n: Node): Member & { k: "method" } {
    const params = this.params(n);
    const block = named(n).find((c) => c.type === "block");
    this.cx.pushScope(params.map((p) => p.name));
    const body = block ? this.blockOf(block, false) : [];
    this.cx.popScope();
    return { k: "method", start: n.startIndex, end: n.endIndex, name: "<init>", params, body, returnType: "" };
  }

  /** `{ … }` or `= expression` (the value returned). */
  private functionBody(n: Node, out: Stmt[]): void {
    const inner = named(n)[0];
    if (!inner) return;
    if (inner.type === "block" && !n.children.some((c) => !c.isNamed && c.type === "=")) {
      this.statements(named(inner), false, out);
      return;
    }
    // `fun main() = run { … }`: the statements run; a value is returned.
    out.push({ k: "return", start: inner.startIndex, end: inner.endIndex, expr: this.expr(inner), conditional: false });
  }

  protected anonymousBody(n: Node): Member[] {
    const members: Member[] = [];
    const ctor: Stmt[] = [];
    this.cx.pushScope();
    this.sinks.push(members);
    this.classBody(n, members, ctor);
    this.sinks.pop();
    this.cx.popScope();
    if (ctor.length > 0) members.push({ k: "init", start: n.startIndex, end: n.endIndex, body: ctor });
    return members;
  }

  // ---------------------------------------------------------------------------------------------
  // Statements

  /** The statements of a block, a lambda, a loop or a `when`/`try` (every path taken as conditional). */
  protected bodyStatements(n: Node, conditional: boolean): Stmt[] {
    const out: Stmt[] = [];
    this.cx.pushScope();
    if (n.type === "block" || n.type === "lambda_literal" || n.type === "function_body")
      this.statements(
        named(n).filter((c) => c.type !== "lambda_parameters"),
        conditional,
        out,
      );
    else this.statement(n, conditional, out);
    this.cx.popScope();
    return out;
  }

  private blockOf(block: Node, conditional: boolean): Stmt[] {
    const out: Stmt[] = [];
    this.cx.pushScope();
    this.statements(named(block), conditional, out);
    this.cx.popScope();
    return out;
  }

  private statements(list: Node[], conditional: boolean, out: Stmt[]): void {
    for (const c of list) this.statement(c, conditional, out);
  }

  /** A branch with its own scope: a block's statements or one statement. */
  private branch(n: Node, conditional: boolean, out: Stmt[]): void {
    this.cx.pushScope();
    if (n.type === "block") this.statements(named(n), conditional, out);
    else this.statement(n, conditional, out);
    this.cx.popScope();
  }

  private statement(n: Node, conditional: boolean, out: Stmt[]): void {
    if (!this.cx.enter(n)) return;
    try {
      this.statementInner(n, conditional, out);
    } finally {
      this.cx.leave();
    }
  }

  private exprStmt(n: Node, conditional: boolean, out: Stmt[]): void {
    out.push({ k: "expr", start: n.startIndex, end: n.endIndex, expr: this.expr(n), conditional });
  }

  private statementInner(n: Node, conditional: boolean, out: Stmt[]): void {
    const span = { start: n.startIndex, end: n.endIndex };
    switch (n.type) {
      case "property_declaration": {
        const decl = named(n).find((c) => c.type === "variable_declaration");
        const value = propertyValue(n);
        const init = value ? this.initOf(value) : undefined;
        const id = decl ? named(decl).find((c) => c.type === "identifier") : undefined;
        if (decl && id) {
          const typeNode = named(decl).find((c) => c.type !== "identifier");
          const name = identifierText(this.cx.text, id);
          out.push({
            k: "local",
            ...span,
            type: typeNode ? typeName(this.cx.text, typeNode) : "",
            name,
            nameStart: id.startIndex,
            ...(init ? { init } : {}),
            conditional,
          });
          this.cx.declareLocal(name);
        } else {
          if (init) out.push({ k: "expr", ...span, expr: init, conditional });
          const multi = named(n).find((c) => c.type === "multi_variable_declaration");
          for (const v of multi ? named(multi) : []) {
            const vid = named(v).find((c) => c.type === "identifier");
            if (vid) this.cx.declareLocal(identifierText(this.cx.text, vid));
          }
        }
        return;
      }
      case "function_declaration":
        this.sink().push(this.method(n));
        return;
      case "class_declaration":
      case "object_declaration":
        this.sink().push(this.classMember(n));
        return;
      case "if_expression": {
        const test = field(n, "condition");
        if (test) this.exprStmt(test, conditional, out);
        for (const c of named(n)) if (c !== test) this.branch(c, true, out);
        return;
      }
      case "when_expression": {
        for (const c of named(n)) {
          if (c.type === "when_subject") {
            for (const s of named(c)) {
              if (s.type === "property_declaration") this.statement(s, conditional, out);
              else if (s.type !== "variable_declaration") this.exprStmt(s, conditional, out);
            }
          } else if (c.type === "when_entry") {
            let arrow = false;
            for (const part of c.children) {
              if (part.type === "->") arrow = true;
              else if (part.isNamed && !/comment$/.test(part.type)) {
                if (arrow) this.branch(part, true, out);
                else this.exprStmt(part, true, out);
              }
            }
          }
        }
        return;
      }
      case "try_expression":
        for (const c of named(n)) {
          if (c.type === "block") this.branch(c, conditional, out);
          else if (c.type === "catch_block") {
            this.cx.pushScope();
            const id = named(c).find((x) => x.type === "identifier");
            if (id) this.cx.declareLocal(identifierText(this.cx.text, id));
            const block = named(c).find((x) => x.type === "block");
            if (block) this.branch(block, true, out);
            this.cx.popScope();
          } else if (c.type === "finally_block") {
            const block = named(c).find((x) => x.type === "block");
            if (block) this.branch(block, conditional, out);
          }
        }
        return;
      case "for_statement": {
        this.cx.pushScope();
        for (const c of named(n)) {
          if (c.type === "variable_declaration" || c.type === "multi_variable_declaration") {
            const ids = c.type === "variable_declaration" ? [c] : named(c);
            for (const v of ids) {
              const id = named(v).find((x) => x.type === "identifier");
              if (id) this.cx.declareLocal(identifierText(this.cx.text, id));
            }
          } else if (c.type === "block") this.branch(c, true, out);
          else if (c.type !== "annotation" && c.type !== "label") this.exprStmt(c, true, out);
        }
        this.cx.popScope();
        return;
      }
      case "while_statement":
      case "do_while_statement":
        for (const c of named(n)) {
          if (c.type === "block") this.branch(c, true, out);
          else this.exprStmt(c, conditional, out);
        }
        return;
      case "return_expression": {
        const inner = named(n).filter((c) => c.type !== "label")[0];
        out.push({ k: "return", ...span, ...(inner ? { expr: this.expr(inner) } : {}), conditional });
        return;
      }
      case "throw_expression": {
        const inner = named(n)[0];
        if (inner) out.push({ k: "expr", ...span, expr: this.expr(inner), conditional });
        return;
      }
      case "block":
        this.branch(n, conditional, out);
        return;
      case "ERROR":
        for (const c of named(n)) this.statement(c, conditional, out);
        return;
      default:
        if (SKIPPED.has(n.type)) return;
        this.exprStmt(n, conditional, out);
    }
  }

  private sink(): Member[] {
    return this.sinks[this.sinks.length - 1];
  }
}

/** The value of a property: the expression after `=`, or its delegate (`by lazy { … }`). */
function propertyValue(n: Node): Node | undefined {
  let afterEquals = false;
  for (const c of n.children) {
    if (!c.isNamed && c.type === "=") afterEquals = true;
    else if (c.type === "property_delegate") return c;
    else if (afterEquals && c.isNamed && !/comment$/.test(c.type)) return c;
  }
  return undefined;
}
