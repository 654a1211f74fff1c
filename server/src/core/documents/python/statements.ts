/**
 * Python statements lowered to the shared job-code syntax tree: flat lists in source order, `conditional` on paths
 * that may not run, assignments as `local` (a name's first binding in its function or module) or `assign`.
 * Definitions and broken parts are left to the subclass (lower.ts), which knows where in the file they are.
 */

import type { Expr, Member, Stmt } from "../../jobcode/ir";
import { ExpressionLowering, isClassName, MAX_DEPTH } from "./expressions";
import type { SyntaxNode as Node } from "./tree";

/** Where names are bound: a function's locals, a class body, the module. */
export class NameScope {
  readonly bound = new Set<string>();
  /** `global` and `nonlocal` names: assigning them does not make a local. */
  readonly outer = new Set<string>();

  isNew(name: string): boolean {
    return !this.bound.has(name) && !this.outer.has(name);
  }
}

export const COMPOUND = new Set([
  "if_statement",
  "for_statement",
  "while_statement",
  "try_statement",
  "with_statement",
  "match_statement",
]);
export const DEFINITIONS = new Set(["function_definition", "decorated_definition", "class_definition"]);
export const TARGETS = /^(pattern_list|tuple_pattern|list_pattern|tuple|list|expression_list)$/;

export abstract class StatementLowering extends ExpressionLowering {
  protected scope = new NameScope();

  protected abstract definition(n: Node, inClass: boolean): Member | undefined;

  /** A part that does not parse: it contributes nothing, and the problem says so. */
  protected abstract broken(n: Node): void;

  /** Whether a compound statement's own lines parse, so that its blocks can be read statement by statement. */
  protected headerOk(n: Node): boolean {
    for (const c of n.children) {
      if (!c || c.type === "block" || c.type === "comment") continue;
      if (c.type.endsWith("_clause") && c.type !== "with_clause") {
        if (!this.headerOk(c)) return false;
      } else if (c.hasError || c.isError || c.isMissing) {
        return false;
      }
    }
    return true;
  }

  // ---- statements

  protected block(b: Node, conditional: boolean, out: Stmt[]): void {
    if (this.depth >= MAX_DEPTH) {
      this.tooDeep(b);
      return;
    }
    this.depth++;
    for (const c of b.named) {
      if ((c.hasError || c.isError || c.isMissing) && !(COMPOUND.has(c.type) && this.headerOk(c))) {
        this.broken(c);
        continue;
      }
      this.statement(c, conditional, out);
    }
    this.depth--;
  }

  protected statement(n: Node, conditional: boolean, out: Stmt[], moduleLevel = false): void {
    switch (n.type) {
      case "expression_statement":
        this.expressionStatement(n, conditional, out);
        return;
      case "return_statement": {
        const value = n.named[0];
        out.push({ k: "return", ...this.span(n), expr: value ? this.expr(value) : undefined, conditional });
        return;
      }
      case "if_statement":
        this.ifStatement(n, conditional, out, moduleLevel);
        return;
      case "for_statement":
      case "while_statement": {
        const head = n.childForFieldName(n.type === "for_statement" ? "right" : "condition");
        if (head) this.exprStmt(head, head, conditional, out);
        const left = n.childForFieldName("left");
        if (left) this.bind(left, undefined, "", left, true, out);
        const body = n.childForFieldName("body");
        if (body) this.block(body, true, out);
        for (const alt of n.childrenForFieldName("alternative")) this.clauseBody(alt, true, out);
        return;
      }
      case "try_statement":
        this.tryStatement(n, conditional, out);
        return;
      case "with_statement":
        this.withStatement(n, conditional, out);
        return;
      case "match_statement": {
        const subject = n.childForFieldName("subject");
        if (subject) this.exprStmt(subject, subject, conditional, out);
        const body = n.childForFieldName("body");
        for (const c of body ? body.named : []) {
          if (c.type !== "case_clause") continue;
          const guard = c.childForFieldName("guard");
          if (guard) for (const g of guard.named) this.exprStmt(g, g, true, out);
          const consequence = c.childForFieldName("consequence");
          if (consequence) this.block(consequence, true, out);
        }
        return;
      }
      case "function_definition":
      case "decorated_definition":
      case "class_definition": {
        // A function or class defined inside a block: it may run or not.
        const m = this.definition(n, false);
        if (m) out.push({ k: "class", ...this.span(n), members: m.k === "class" ? m.members : [m], conditional: true });
        return;
      }
      case "raise_statement":
      case "assert_statement":
      case "print_statement":
      case "exec_statement":
        for (const c of n.named) this.exprStmt(c, n, conditional, out);
        return;
      case "global_statement":
      case "nonlocal_statement":
        for (const c of n.named) if (c.type === "identifier") this.scope.outer.add(this.src(c));
        return;
      case "import_statement":
      case "import_from_statement":
      case "future_import_statement":
        this.imports(n);
        return;
      default:
        // pass, break, continue, del, type aliases: nothing the extractor follows.
        return;
    }
  }

  private exprStmt(e: Node, stmt: Node, conditional: boolean, out: Stmt[]): void {
    out.push({ k: "expr", ...this.span(stmt), expr: this.expr(e), conditional });
  }

  private expressionStatement(n: Node, conditional: boolean, out: Stmt[]): void {
    const parts = n.named;
    // A docstring, or a string standing alone: it does nothing (and is not a flag to the pipeline).
    if (parts.length === 1 && (parts[0].type === "string" || parts[0].type === "concatenated_string")) return;
    for (const p of parts) {
      if (p.type === "assignment") this.assignment(p, n, conditional, out);
      else if (p.type === "augmented_assignment") this.augmented(p, n, conditional, out);
      else this.exprStmt(p, n, conditional, out);
    }
  }

  private assignment(a: Node, stmt: Node, conditional: boolean, out: Stmt[]): void {
    const targets: Node[] = [];
    let type = "";
    let cur: Node = a;
    let value: Node | null = null;
    for (;;) {
      const left = cur.childForFieldName("left");
      if (left) targets.push(left);
      const t = cur.childForFieldName("type");
      if (t && !type) type = this.src(t);
      const right = cur.childForFieldName("right");
      if (right?.type === "assignment") {
        cur = right;
        continue;
      }
      value = right;
      break;
    }
    // `x: int` declares a type and binds nothing.
    if (!value || targets.length === 0) return;
    const v = this.expr(value);
    this.bind(targets[0], v, type, stmt, conditional, out);
    // `a = b = v`: Python assigns the one value to each target, left to right.
    for (const t of targets.slice(1)) {
      const same: Expr = targets[0].type === "identifier" ? this.name(targets[0]) : this.other(value);
      this.bind(t, same, "", stmt, conditional, out);
    }
  }

  /** `x += v` is `x = x + v`, so the new value is known when both are. */
  private augmented(a: Node, stmt: Node, conditional: boolean, out: Stmt[]): void {
    const left = a.childForFieldName("left");
    const right = a.childForFieldName("right");
    const op = a.childForFieldName("operator");
    if (!left || !right) return;
    const target = this.expr(left);
    const rhs = this.expr(right);
    const written = op ? this.src(op) : "=";
    const value: Expr = {
      k: "binary",
      start: target.start,
      end: rhs.end,
      op: written.slice(0, -1) || "?",
      left: target,
      right: rhs,
    };
    out.push({
      k: "expr",
      ...this.span(stmt),
      expr: { k: "assign", start: target.start, end: rhs.end, op: "=", target, value },
      conditional,
    });
  }

  /** Binds an assignment target to a value (undefined: a value only the running program knows). */
  private bind(
    target: Node,
    value: Expr | undefined,
    type: string,
    stmt: Node,
    conditional: boolean,
    out: Stmt[],
  ): void {
    let t = target;
    while (t.type === "parenthesized_expression" || t.type === "list_splat_pattern" || t.type === "list_splat") {
      const inner = t.named[0];
      if (!inner) return;
      t = inner;
    }
    if (t.type === "identifier") {
      const name = this.src(t);
      if (name !== this.receiver && this.scope.isNew(name)) {
        this.scope.bound.add(name);
        out.push({ k: "local", ...this.span(stmt), type, name, nameStart: this.s(t), init: value, conditional });
        return;
      }
      const v = value ?? { k: "other", start: this.e(t), end: this.e(t), parts: [] };
      const assign: Expr = { k: "assign", start: this.s(t), end: v.end, op: "=", target: this.name(t), value: v };
      out.push({ k: "expr", ...this.span(stmt), expr: assign, conditional });
      return;
    }
    if (t.type === "attribute" || t.type === "subscript") {
      const lhs = this.expr(t);
      const v = value ?? { k: "other", start: lhs.end, end: lhs.end, parts: [] };
      out.push({
        k: "expr",
        ...this.span(stmt),
        expr: { k: "assign", start: lhs.start, end: v.end, op: "=", target: lhs, value: v },
        conditional,
      });
      return;
    }
    if (TARGETS.test(t.type)) {
      const parts = t.named;
      const pairwise =
        value?.k === "array" &&
        value.items.length === parts.length &&
        !parts.some((p) => p.type === "list_splat_pattern" || p.type === "list_splat") &&
        !this.refersTo(value, this.targetNames(t));
      if (pairwise && value?.k === "array") {
        for (let i = 0; i < parts.length; i++) this.bind(parts[i], value.items[i], "", stmt, conditional, out);
        return;
      }
      if (value) out.push({ k: "expr", ...this.span(stmt), expr: value, conditional });
      for (const p of parts) this.bind(p, undefined, "", stmt, conditional, out);
      return;
    }
    if (value) out.push({ k: "expr", ...this.span(stmt), expr: value, conditional });
  }

  /** Whether an expression's text mentions one of the names (`a, b = b, a` swaps: read as unknown). */
  private refersTo(e: Expr, names: string[]): boolean {
    const source = this.text.slice(e.start, e.end);
    return names.some((n) => new RegExp(`(^|[^\\w.])${n}(?!\\w)`).test(source));
  }

  private ifStatement(n: Node, conditional: boolean, out: Stmt[], moduleLevel: boolean): void {
    const condition = n.childForFieldName("condition");
    const main = moduleLevel && condition !== null && isMainGuard(this.src(condition));
    if (condition && !main) this.exprStmt(condition, condition, conditional, out);
    const consequence = n.childForFieldName("consequence");
    if (consequence) this.block(consequence, main ? conditional : true, out);
    for (const alt of n.childrenForFieldName("alternative")) {
      if (alt.type === "elif_clause") {
        const c = alt.childForFieldName("condition");
        if (c) this.exprStmt(c, c, true, out);
        const body = alt.childForFieldName("consequence");
        if (body) this.block(body, true, out);
      } else {
        this.clauseBody(alt, true, out);
      }
    }
  }

  /** The block of an `else`, `except` or `finally` clause. */
  private clauseBody(clause: Node, conditional: boolean, out: Stmt[]): void {
    const body = clause.childForFieldName("body") ?? clause.named.find((c) => c.type === "block");
    if (body) this.block(body, conditional, out);
  }

  private tryStatement(n: Node, conditional: boolean, out: Stmt[]): void {
    for (const c of n.named) {
      switch (c.type) {
        case "block":
          this.block(c, conditional, out);
          break;
        case "except_clause":
        case "except_group_clause": {
          const value = c.childForFieldName("value");
          const alias = value?.type === "as_pattern" ? value.childForFieldName("alias") : null;
          const target = alias?.named[0];
          if (target) this.bind(target, undefined, "", target, true, out);
          this.clauseBody(c, true, out);
          break;
        }
        case "else_clause":
          this.clauseBody(c, true, out);
          break;
        case "finally_clause":
          this.clauseBody(c, conditional, out);
          break;
      }
    }
  }

  private withStatement(n: Node, conditional: boolean, out: Stmt[]): void {
    const clause = n.named.find((c) => c.type === "with_clause");
    for (const item of clause ? clause.named : []) {
      if (item.type !== "with_item") continue;
      const value = item.childForFieldName("value");
      if (!value) continue;
      if (value.type === "as_pattern") {
        const expr = value.named[0];
        const alias = value.childForFieldName("alias");
        const target = alias?.named[0];
        if (!expr) continue;
        if (target) this.bind(target, this.expr(expr), "", item, conditional, out);
        else this.exprStmt(expr, item, conditional, out);
      } else {
        this.exprStmt(value, item, conditional, out);
      }
    }
    const body = n.childForFieldName("body");
    if (body) this.block(body, conditional, out);
  }

  /** `from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer as Consumer`: `Consumer` is the class. */
  protected imports(n: Node): void {
    if (n.type !== "import_from_statement") return;
    for (const c of n.childrenForFieldName("name")) {
      if (c.type !== "aliased_import") continue;
      const original = c.childForFieldName("name");
      const alias = c.childForFieldName("alias");
      if (!original || !alias) continue;
      const simple = this.src(original).split(".").pop() ?? "";
      const as = this.src(alias);
      if (isClassName(simple) && as !== simple) this.aliases.set(as, simple);
    }
  }
}

/** `__name__ == "__main__"` (either way round, either quotes). */
export function isMainGuard(condition: string): boolean {
  const c = condition.replace(/\s+/g, "");
  return /^__name__==(['"])__main__\1$/.test(c) || /^(['"])__main__\1==__name__$/.test(c);
}

/** The blocks directly under a compound statement and its clauses. */
export function blocksOf(n: Node): Node[] {
  const out: Node[] = [];
  for (const c of n.named) {
    if (c.type === "block") out.push(c);
    else if (c.type.endsWith("_clause") || c.type === "case_clause") {
      for (const b of c.named) if (b.type === "block") out.push(b);
    }
  }
  return out;
}
