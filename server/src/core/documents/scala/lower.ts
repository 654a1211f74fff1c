/**
 * Lowers a Scala tree-sitter syntax tree (Scala 2 and Scala 3, braces or indentation) to the shared job-code syntax
 * tree (jobcode/ir.ts), so the one extractor reads Scala jobs as it reads Java ones.
 *
 * Declarations: classes, objects, traits and enums are `class` members; `def`s are methods (a local `def` becomes a
 * method of its class, so a call to it is followed); `val`/`lazy val` members are final fields, `var` members
 * fields; class parameters are fields of their declared type. A body that also holds statements (`object Job
 * extends App { … }`, a class's constructor code, a script) runs in order: its `val`s are declared as fields and
 * assigned where they stand, in one initializer with the statements. Top-level statements of a script go to
 * `stmts`. The last expression of a method that returns a value is its `return`.
 *
 * Statements are flattened in source order; those on a path that may not run (if/else branches, match cases,
 * loops, catch cases, function literals) are conditional. A block assigned to a `val` is hoisted: its statements
 * run before the `val` takes the block's last expression.
 *
 * Nothing here throws on bad input: syntax errors become problems and what tree-sitter recovered is still read.
 * Nesting is bounded (context.ts), and nothing recurses on the tree beyond that bound.
 */

import type { Node as TreeSitterNode } from "web-tree-sitter";
import { pushAll } from "../../arrays";
import type { Expr, Member, Param, Stmt } from "../../jobcode/ir";
import type { LineIndex } from "../../text";
import { named as treeSitterNamed } from "../code/cst";
import { cachedDeclarations, cachedLowering, type ItemLowering } from "../code/itemCache";
import {
  type Declarations,
  FileDeclarations,
  identifierText,
  LowerContext,
  splitClassMember,
  tooDeepProblem,
} from "../code/lowering";
import { copyTree, field, hasToken, type SyntaxNode as Node, named } from "../code/syntaxNode";
import type { Lowered } from "../code/treeSitterReader";
import { declarationsOf, scalaSyntaxProblems } from "./context";
import { ExpressionLowering, typeName } from "./expressions";

const CLASS_LIKE = new Set(["object_definition", "class_definition", "trait_definition", "enum_definition"]);
const SKIPPED = new Set([
  "import_declaration",
  "export_declaration",
  "package_clause",
  "type_definition",
  "function_declaration",
  "val_declaration",
  "var_declaration",
  "given_definition",
  "comment",
  "block_comment",
  "enum_case_definitions",
  "annotation",
]);
const DEFINITIONS = new Set([
  ...CLASS_LIKE,
  "function_definition",
  "extension_definition",
  "val_definition",
  "var_definition",
  ...SKIPPED,
]);

type ValNode = Node & { type: "val_definition" | "var_definition" };

/**
 * The units a file is lowered and kept in (cache.ts): each top-level item, except that an object, class or trait
 * whose body holds definitions only (the usual job: one `object` with its `def`s and `val`s) is kept member by
 * member, so that a keystroke in one `def` lowers that `def` again and not the whole object.
 */
interface Unit {
  /** The item (a top-level item, or a member of a split object or class). */
  node: TreeSitterNode;
  text: string;
}

/** A top-level object, class or trait kept member by member. */
interface SplitItem {
  item: TreeSitterNode;
  /** The parts of the item outside its body (name, class parameters, extends clause). */
  shell: TreeSitterNode[];
  members: Unit[];
}

/** `byMember: false` lowers every top-level item whole (tests compare both ways). */
export function lowerScala(
  root: TreeSitterNode,
  text: string,
  index: LineIndex,
  options: { byMember: boolean } = { byMember: true },
): Lowered {
  const items = topLevelItems(root);
  const plans = items.map((item): Unit | SplitItem => {
    const split = options.byMember ? splitItem(item, text) : undefined;
    return split ?? { node: item, text: text.slice(item.startIndex, item.endIndex) };
  });
  // Copies of the units that are not in the cache, made once for both passes.
  const copies = new Map<TreeSitterNode, Node>();
  const copy = (n: TreeSitterNode): Node => {
    let c = copies.get(n);
    if (!c) {
      c = copyTree(n);
      copies.set(n, c);
    }
    return c;
  };
  const declarations: Declarations[] = [];
  for (const plan of plans) {
    if ("item" in plan) {
      const name = plan.item.childForFieldName("name");
      const own = name ? [identifierText(text, name)] : [];
      declarations.push({ ownTypes: own, parameterless: [], defs: [], memberVals: [] });
      for (const part of plan.shell) declarations.push(declarationsOf(copy(part), text));
      for (const m of plan.members)
        declarations.push(cachedDeclarations(m.text, () => declarationsOf(copy(m.node), text)));
    } else {
      declarations.push(cachedDeclarations(plan.text, () => declarationsOf(copy(plan.node), text)));
    }
  }
  const decls = new FileDeclarations(text, declarations);
  const runs = topLevelRuns(items);
  // Kept results are looked up by a short number for the signature, not the signature itself (one per unit).
  const declared = signatureId(decls.signature());
  const signature = `${runs ? "script" : "members"}|${declared}`;
  const members: Member[] = [];
  const stmts: Stmt[] = [];
  const called = new Set<string>();
  let tooDeepAt: { start: number; end: number } | undefined;
  const take = (lowering: ItemLowering, into: Member[]) => {
    pushAll(into, lowering.members);
    pushAll(stmts, lowering.stmts);
    for (const name of lowering.called) if (decls.defs.has(name) && name !== "this") called.add(name);
    tooDeepAt ??= lowering.tooDeepAt;
  };
  for (const plan of plans) {
    if ("item" in plan) {
      const classMembers: Member[] = [];
      for (const part of plan.shell) take(lowerShellPart(copy(part), text, decls), classMembers);
      for (const m of plan.members) {
        const lowering = cachedLowering(`body|${declared}\u0000${m.text}`, m.node.startIndex, () =>
          lowerBodyMember(copy(m.node), text, decls),
        );
        take(lowering, classMembers);
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
  const problems = scalaSyntaxProblems(root, index);
  if (tooDeepAt) problems.push(tooDeepProblem("Scala", tooDeepAt, index));
  return { members, stmts, classNames: [...decls.ownTypes], called, problems };
}

const signatureIds = new Map<string, number>();

/** A number for a file signature, the same for the same signature (a bounded table: a full one starts again). */
function signatureId(signature: string): number {
  let id = signatureIds.get(signature);
  if (id === undefined) {
    if (signatureIds.size >= 1000) signatureIds.clear();
    id = nextSignatureId++;
    signatureIds.set(signature, id);
  }
  return id;
}

let nextSignatureId = 0;

/**
 * A top-level object, class or trait as its shell and members, when it can be lowered member by member: no syntax
 * error in it, and a body of definitions only (a body that also runs statements is one constructor, in order).
 */
function splitItem(item: TreeSitterNode, text: string): SplitItem | undefined {
  if (!SPLIT_KINDS.has(item.type) || item.hasError) return undefined;
  const body = item.childForFieldName("body");
  if (body?.type !== "template_body") return undefined;
  const members: Unit[] = [];
  for (const c of treeSitterNamed(body)) {
    if (!DEFINITIONS.has(c.type) || c.type === "extension_definition") return undefined;
    members.push({ node: c, text: text.slice(c.startIndex, c.endIndex) });
  }
  const shell = treeSitterNamed(item).filter((c) => c.type !== "template_body" && c.type !== "identifier");
  return { item, shell, members };
}

/** The texts of the units a file is lowered and kept in (for tests). */
export function loweringUnits(root: TreeSitterNode, text: string): string[] {
  return topLevelItems(root).flatMap((item) => {
    const split = splitItem(item, text);
    return split ? split.members.map((m) => m.text) : [text.slice(item.startIndex, item.endIndex)];
  });
}

const SPLIT_KINDS = new Set(["object_definition", "class_definition", "trait_definition"]);

/** One top-level item of the file, lowered on its own. */
function lowerItem(item: Node, text: string, decls: FileDeclarations, runs: boolean): ItemLowering {
  const cx = new LowerContext(text, decls);
  const members: Member[] = [];
  const stmts: Stmt[] = [];
  new ScalaLowering(cx).topLevel(item, members, stmts, runs);
  return { members, stmts, called: [...cx.called], ...(cx.tooDeepAt ? { tooDeepAt: cx.tooDeepAt } : {}) };
}

/** One member of a split object or class, lowered as the whole item lowers it (same scopes, same depth). */
function lowerBodyMember(member: Node, text: string, decls: FileDeclarations): ItemLowering {
  const cx = new LowerContext(text, decls);
  const members: Member[] = [];
  new ScalaLowering(cx).bodyMember(member, members);
  return { members, stmts: [], called: [...cx.called], ...(cx.tooDeepAt ? { tooDeepAt: cx.tooDeepAt } : {}) };
}

/** The fields a split class's parameters declare (its other shell parts declare none). */
function lowerShellPart(part: Node, text: string, decls: FileDeclarations): ItemLowering {
  const cx = new LowerContext(text, decls);
  const members: Member[] = [];
  if (part.type === "class_parameters") new ScalaLowering(cx).classParameters(part, members);
  return { members, stmts: [], called: [...cx.called] };
}

class ScalaLowering extends ExpressionLowering {
  protected item(item: Node, members: Member[], stmts: Stmt[], runs: boolean): void {
    this.templateItem(item, members, stmts, runs);
  }

  /**
   * The items of a class body or of the file. Definitions become members; statements run in order in `ctor` (the
   * constructor of a class, the script of a file), where the body's `val`s are then assigned as they come.
   */
  private template(items: Node[], members: Member[], ctor: Stmt[]): void {
    const runs = bodyRuns(items);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      // `val stream = env fromSource\n  (source, strategy, "src")` in an object's body, as in a block.
      const postfix = trailingPostfix(item);
      if (postfix && continues(this.cx.text, postfix, items[i + 1])) {
        this.continuedArgs.set(`${postfix.startIndex}:${postfix.endIndex}`, items[i + 1]);
        i++;
      }
      if (!this.cx.enter(item)) continue;
      try {
        this.templateItem(item, members, ctor, runs);
      } finally {
        this.cx.leave();
      }
    }
  }

  private templateItem(item: Node, members: Member[], ctor: Stmt[], runs: boolean): void {
    if (CLASS_LIKE.has(item.type)) {
      members.push(this.classMember(item));
    } else if (item.type === "function_definition") {
      members.push(this.method(item));
    } else if (item.type === "extension_definition") {
      for (const c of named(item)) if (c.type === "function_definition") members.push(this.method(c));
      const body = field(item, "body");
      if (body && body.type !== "function_definition") this.template(named(body), members, ctor);
    } else if (item.type === "val_definition" || item.type === "var_definition") {
      this.memberVal(item as ValNode, members, ctor, runs);
    } else if (item.type === "ERROR") {
      this.template(named(item), members, ctor);
    } else if (!SKIPPED.has(item.type)) {
      this.statement(item, false, ctor, false);
    }
  }

  /** A `val`/`var` of a class, an object or the file. */
  private memberVal(n: ValNode, members: Member[], ctor: Stmt[], runs: boolean): void {
    const pattern = field(n, "pattern");
    const typeNode = field(n, "type");
    const value = field(n, "value");
    const modifiers = this.modifiers(n);
    const type = typeNode ? typeName(this.cx.text, typeNode) : "";
    const span = { start: n.startIndex, end: n.endIndex };
    if (pattern?.type !== "identifier") {
      // `val (a, b) = …`: the value is evaluated, the names are not followed.
      if (value) this.statement(value, false, ctor, false);
      return;
    }
    const name = identifierText(this.cx.text, pattern);
    const declarator = { name, nameStart: pattern.startIndex };
    if (!runs) {
      members.push({
        k: "field",
        ...span,
        modifiers,
        type,
        declarators: [{ ...declarator, init: value ? this.expr(value) : undefined }],
      });
      return;
    }
    members.push({ k: "field", ...span, modifiers, type, declarators: [declarator] });
    if (!value) return;
    const init = this.hoisted(value, false, ctor);
    if (!init) return;
    const target: Expr = { k: "name", start: pattern.startIndex, end: pattern.endIndex, name };
    ctor.push({ k: "expr", ...span, expr: { k: "assign", ...span, op: "=", target, value: init }, conditional: false });
  }

  private modifiers(n: Node): string[] {
    const out: string[] = [];
    for (const m of named(n)) {
      if (m.type !== "modifiers") continue;
      for (const c of named(m)) out.push(this.text(c).split(/[\s[]/)[0]);
      for (const c of m.children) if (!c.isNamed) out.push(c.type);
    }
    if (n.type === "val_definition") out.push("final");
    return out;
  }

  /**
   * A member of a class body that holds definitions only, lowered where `template` would lower it: inside the
   * scopes of the top-level item and its class, two levels deep, local `def`s going to the class's members.
   */
  bodyMember(item: Node, members: Member[]): void {
    this.cx.pushScope();
    this.cx.pushScope();
    this.sinks.push(members);
    if (this.cx.enter(item)) {
      if (this.cx.enter(item)) {
        this.templateItem(item, members, [], false);
        this.cx.leave();
      }
      this.cx.leave();
    }
    this.sinks.pop();
    this.cx.popScope();
    this.cx.popScope();
  }

  /** The fields of a class's parameter list (`class Job(val topic: String)`). */
  classParameters(list: Node, members: Member[]): void {
    for (const p of named(list)) {
      const pname = field(p, "name");
      const ptype = field(p, "type");
      if (!pname) continue;
      members.push({
        k: "field",
        start: p.startIndex,
        end: p.endIndex,
        modifiers: this.text(p).trimStart().startsWith("var") ? [] : ["final"],
        type: ptype ? typeName(this.cx.text, ptype) : "",
        declarators: [{ name: identifierText(this.cx.text, pname), nameStart: pname.startIndex }],
      });
    }
  }

  private classMember(n: Node): Member {
    const nameNode = field(n, "name");
    const members: Member[] = [];
    this.cx.pushScope();
    this.sinks.push(members);
    for (const list of named(n)) if (list.type === "class_parameters") this.classParameters(list, members);
    const body = field(n, "body");
    const ctor: Stmt[] = [];
    if (body) this.template(named(body), members, ctor);
    if (ctor.length > 0 && body) members.push({ k: "init", start: body.startIndex, end: body.endIndex, body: ctor });
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

  private method(n: Node): Member & { k: "method" } {
    const nameNode = field(n, "name");
    const rawName = nameNode ? identifierText(this.cx.text, nameNode) : "";
    const params: Param[] = [];
    const implicits: Param[] = [];
    for (const list of named(n)) {
      if (list.type !== "parameters") continue;
      // Implicit and `using` parameters are not written at the call: calls match the explicit ones.
      const into = /^\(\s*(implicit|using)\b/.test(this.text(list)) ? implicits : params;
      for (const p of named(list)) {
        if (p.type !== "parameter") continue;
        const pname = field(p, "name");
        const ptype = field(p, "type");
        const optional = field(p, "default_value") !== undefined;
        if (pname)
          into.push({
            name: identifierText(this.cx.text, pname),
            type: ptype ? typeName(this.cx.text, ptype) : "",
            ...(optional ? { optional } : {}),
          });
      }
    }
    const returnNode = field(n, "return_type");
    const returnType = returnNode ? typeName(this.cx.text, returnNode) : "";
    // `def main(args: Array[String]) { … }` (procedure syntax) and `: Unit` return nothing.
    const hasEquals = hasToken(n, "=");
    const returns = hasEquals && returnType !== "Unit";
    const bodyNode = field(n, "body");
    const body: Stmt[] = [];
    this.cx.pushScope([...params, ...implicits].map((p) => p.name));
    if (bodyNode) this.branch(bodyNode, false, body, returns);
    this.cx.popScope();
    return {
      k: "method",
      start: n.startIndex,
      end: n.endIndex,
      name: rawName === "this" ? "<init>" : rawName,
      params,
      ...(implicits.length > 0 ? { implicits } : {}),
      body,
      returnType,
    };
  }

  protected anonymousBody(n: Node): Member[] {
    const members: Member[] = [];
    const ctor: Stmt[] = [];
    this.cx.pushScope();
    this.sinks.push(members);
    this.template(named(n), members, ctor);
    this.sinks.pop();
    this.cx.popScope();
    if (ctor.length > 0) members.push({ k: "init", start: n.startIndex, end: n.endIndex, body: ctor });
    return members;
  }

  // ---------------------------------------------------------------------------------------------
  // Statements

  protected blockStatements(n: Node, conditional: boolean): Stmt[] {
    const out: Stmt[] = [];
    this.cx.pushScope();
    this.branch(n, conditional, out, false);
    this.cx.popScope();
    return out;
  }

  /** A block's statements, or one statement; `asReturn`: its last expression is the value returned. */
  private branch(n: Node, conditional: boolean, out: Stmt[], asReturn: boolean): void {
    if (n.type === "block" || n.type === "indented_block" || n.type === "template_body") {
      const kids = named(n);
      for (let i = 0; i < kids.length; i++) {
        const c = kids[i];
        const postfix = trailingPostfix(c);
        const next = kids[i + 1];
        if (postfix && next && continues(this.cx.text, postfix, next)) {
          this.continuedArgs.set(`${postfix.startIndex}:${postfix.endIndex}`, next);
          i++;
        }
        this.statement(c, conditional, out, asReturn && i === kids.length - 1);
      }
      return;
    }
    this.statement(n, conditional, out, asReturn);
  }

  private statement(n: Node, conditional: boolean, out: Stmt[], asReturn: boolean): void {
    if (!this.cx.enter(n)) return;
    try {
      this.statementInner(n, conditional, out, asReturn);
    } finally {
      this.cx.leave();
    }
  }

  private statementInner(n: Node, conditional: boolean, out: Stmt[], asReturn: boolean): void {
    const span = { start: n.startIndex, end: n.endIndex };
    switch (n.type) {
      case "val_definition":
      case "var_definition": {
        const pattern = field(n, "pattern");
        const typeNode = field(n, "type");
        const value = field(n, "value");
        const init = value ? this.hoisted(value, conditional, out) : undefined;
        if (pattern?.type === "identifier") {
          const name = identifierText(this.cx.text, pattern);
          out.push({
            k: "local",
            ...span,
            type: typeNode ? typeName(this.cx.text, typeNode) : "",
            name,
            nameStart: pattern.startIndex,
            ...(init ? { init } : {}),
            conditional,
          });
          this.cx.declareLocal(name);
        } else {
          if (init) out.push({ k: "expr", ...span, expr: init, conditional });
          if (pattern) for (const id of patternNames(pattern)) this.cx.declareLocal(identifierText(this.cx.text, id));
        }
        return;
      }
      case "function_definition":
        this.sink().push(this.method(n));
        return;
      case "object_definition":
      case "class_definition":
      case "trait_definition":
      case "enum_definition":
        this.sink().push(this.classMember(n));
        return;
      case "block":
      case "indented_block":
        this.cx.pushScope();
        this.branch(n, conditional, out, asReturn);
        this.cx.popScope();
        return;
      case "if_expression": {
        const test = field(n, "condition");
        if (test)
          out.push({ k: "expr", start: test.startIndex, end: test.endIndex, expr: this.expr(test), conditional });
        const yes = field(n, "consequence");
        const no = field(n, "alternative");
        if (yes) this.scoped(yes, true, out, asReturn);
        if (no) this.scoped(no, true, out, asReturn);
        return;
      }
      case "match_expression": {
        const value = field(n, "value");
        if (value)
          out.push({ k: "expr", start: value.startIndex, end: value.endIndex, expr: this.expr(value), conditional });
        const body = field(n, "body");
        if (body) this.cases(body, out, asReturn);
        return;
      }
      case "case_block":
        this.cases(n, out, asReturn);
        return;
      case "try_expression": {
        const body = field(n, "body");
        if (body) this.scoped(body, conditional, out, asReturn);
        for (const c of named(n)) {
          if (c.type === "catch_clause") {
            for (const h of named(c)) {
              if (h.type === "case_block") this.cases(h, out, asReturn);
              else this.scoped(h, true, out, asReturn);
            }
          } else if (c.type === "finally_clause") {
            for (const f of named(c)) this.scoped(f, conditional, out, false);
          }
        }
        return;
      }
      case "while_expression": {
        const test = field(n, "condition");
        if (test)
          out.push({ k: "expr", start: test.startIndex, end: test.endIndex, expr: this.expr(test), conditional });
        const body = field(n, "body");
        if (body) this.scoped(body, true, out, false);
        return;
      }
      case "do_while_expression":
      case "for_expression": {
        this.cx.pushScope();
        for (const c of named(n)) {
          if (c.type === "enumerators") {
            for (const e of named(c)) {
              const parts = e.children;
              for (const [i, part] of parts.entries()) {
                if (!part.isNamed || part.type === "comment") continue;
                if (/pattern$|^identifier$|^wildcard$/.test(part.type) && parts[i + 1]?.type === "<-") {
                  for (const id of patternNames(part)) this.cx.declareLocal(identifierText(this.cx.text, id));
                  continue;
                }
                out.push({
                  k: "expr",
                  start: part.startIndex,
                  end: part.endIndex,
                  expr: this.expr(part),
                  conditional: true,
                });
              }
            }
          } else {
            this.branch(c, true, out, false);
          }
        }
        this.cx.popScope();
        return;
      }
      case "return_expression": {
        const inner = named(n)[0];
        out.push({ k: "return", ...span, ...(inner ? { expr: this.expr(inner) } : {}), conditional });
        return;
      }
      case "throw_expression": {
        const inner = named(n)[0];
        if (inner) out.push({ k: "expr", ...span, expr: this.expr(inner), conditional });
        return;
      }
      case "ERROR":
        for (const c of named(n)) this.statement(c, conditional, out, false);
        return;
      default:
        if (SKIPPED.has(n.type) || n.type === "extension_definition") return;
        if (asReturn) out.push({ k: "return", ...span, expr: this.expr(n), conditional });
        else out.push({ k: "expr", ...span, expr: this.expr(n), conditional });
    }
  }

  /** A branch with its own scope. */
  private scoped(n: Node, conditional: boolean, out: Stmt[], asReturn: boolean): void {
    this.cx.pushScope();
    this.branch(n, conditional, out, asReturn);
    this.cx.popScope();
  }

  /** The cases of a `match` or `catch`: each runs on some paths only. */
  private cases(block: Node, out: Stmt[], asReturn: boolean): void {
    for (const clause of named(block)) {
      if (clause.type !== "case_clause") continue;
      this.cx.pushScope();
      let afterArrow = false;
      const body: Node[] = [];
      for (const c of clause.children) {
        if (c.type === "=>") afterArrow = true;
        else if (!afterArrow && c.isNamed)
          for (const id of patternNames(c)) this.cx.declareLocal(identifierText(this.cx.text, id));
        else if (afterArrow && c.isNamed && c.type !== "comment") body.push(c);
      }
      for (const [i, c] of body.entries()) this.statement(c, true, out, asReturn && i === body.length - 1);
      this.cx.popScope();
    }
  }

  /**
   * The value a `val` is initialised with. A block is hoisted: its statements go to `out` first, and its last
   * expression is the value.
   */
  private hoisted(value: Node, conditional: boolean, out: Stmt[]): Expr | undefined {
    if (value.type !== "block" && value.type !== "indented_block") return this.expr(value);
    const kids = named(value);
    const last = kids[kids.length - 1];
    if (!last) return undefined;
    for (const c of kids.slice(0, -1)) this.statement(c, conditional, out, false);
    if (DEFINITIONS.has(last.type) || /^(if|match|try|while|for|do_while|return|throw)_expression$/.test(last.type)) {
      this.statement(last, conditional, out, false);
      return undefined;
    }
    return this.expr(last);
  }

  private sink(): Member[] {
    return this.sinks[this.sinks.length - 1];
  }
}

/** The items of the file, package bodies (`package a { … }`, `package a:`) opened. */
function topLevelItems(root: TreeSitterNode): TreeSitterNode[] {
  const out: TreeSitterNode[] = [];
  const stack: TreeSitterNode[] = [...treeSitterNamed(root)].reverse();
  while (stack.length > 0) {
    const n = stack.pop() as TreeSitterNode;
    if (n.type === "package_clause") {
      const body = n.childForFieldName("body");
      if (body) pushAll(stack, [...treeSitterNamed(body)].reverse());
      continue;
    }
    out.push(n);
  }
  return out;
}

/** Whether the file is a script: statements besides definitions at the top level. */
function topLevelRuns(items: TreeSitterNode[]): boolean {
  return items.some(
    (i) =>
      (!DEFINITIONS.has(i.type) && i.type !== "ERROR") ||
      (i.type === "ERROR" &&
        treeSitterNamed(i).some((c) => /_expression$/.test(c.type) && c.type !== "instance_expression")),
  );
}

/** Whether a body (a class's, the file's) holds statements that run, besides definitions. */
function bodyRuns(items: Node[]): boolean {
  return items.some((i) => !DEFINITIONS.has(i.type) && i.type !== "ERROR") || items.some(errorWithStatements);
}

/** An error node that holds statements: the file still runs code there (a half-typed script line). */
function errorWithStatements(n: Node): boolean {
  return n.type === "ERROR" && named(n).some((c) => /_expression$/.test(c.type) && c.type !== "instance_expression");
}

/** The names a pattern binds (`(k, v)`, `x: String`, `Some(x)`), looked for a few levels deep. */
function patternNames(n: Node): Node[] {
  const out: Node[] = [];
  const stack: { node: Node; depth: number }[] = [{ node: n, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: Node; depth: number };
    if (node.type === "identifier") {
      out.push(node);
      continue;
    }
    if (depth > 8 || /type/.test(node.type)) continue;
    for (const c of named(node)) stack.push({ node: c, depth: depth + 1 });
  }
  return out;
}

/** The postfix call a statement ends with: the statement itself, or the value of a `val` / `var`. */
function trailingPostfix(n: Node): Node | undefined {
  if (n.type === "postfix_expression") return n;
  if (n.type === "val_definition" || n.type === "var_definition") {
    const value = field(n, "value");
    return value?.type === "postfix_expression" ? value : undefined;
  }
  return undefined;
}

/** Whether `next` is the argument list of `postfix` written on the following line (only blanks between them). */
function continues(text: string, postfix: Node, next: Node | undefined): boolean {
  if (!next || (next.type !== "tuple_expression" && next.type !== "parenthesized_expression")) return false;
  const between = text.slice(postfix.endIndex, next.startIndex);
  return /^[ \t]*\r?\n[ \t]*$/.test(between);
}
