/** Helpers for Python tests: lower a file and show the tree compactly, read a file's job-code facts. */

import type { Lowered } from "../../server/src/core/documents/code/treeSitterReader";
import { readDocument } from "../../server/src/core/documents/index";
import { lowerPython } from "../../server/src/core/documents/python/lower";
import type { JobCode } from "../../server/src/core/jobcode/facts";
import type { Expr, Member, Stmt } from "../../server/src/core/jobcode/ir";
import { dropTree, parseTree } from "../../server/src/core/jobcode/treeSitter";
import { LineIndex } from "../../server/src/core/text";

export const FILE = "/p/jobs/orders_job.py";

/** The lowering of a file, parsed afresh. */
export function lowered(text: string, file = "/lowering/test.py"): Lowered {
  dropTree(file);
  const tree = parseTree(file, "python", text);
  if (!tree) throw new Error("the Python grammar is not available");
  const out = lowerPython(tree.rootNode, text, new LineIndex(text));
  dropTree(file);
  return out;
}

/** The job-code facts of a Python file, as the workspace reads it. */
export function py(text: string, file = FILE): JobCode {
  const code = readDocument(file, text).code;
  if (!code) throw new Error("no job code read");
  return code;
}

/** One line per statement, `?` before conditional ones. */
export function showStmts(stmts: Stmt[]): string[] {
  return stmts.map((s) => `${s.conditional ? "? " : ""}${showStmt(s)}`);
}

function showStmt(s: Stmt): string {
  switch (s.k) {
    case "local":
      return `local ${s.name}${s.type ? `: ${s.type}` : ""}${s.init ? ` = ${show(s.init)}` : ""}`;
    case "expr":
      return show(s.expr);
    case "return":
      return `return${s.expr ? ` ${show(s.expr)}` : ""}`;
    case "class":
      return `class { ${s.members.map(showMember).join("; ")} }`;
  }
}

export function showMember(m: Member): string {
  switch (m.k) {
    case "field":
      return `${m.modifiers.includes("final") ? "final " : ""}field ${m.declarators
        .map((d) => `${d.name}${d.init ? ` = ${show(d.init)}` : ""}`)
        .join(", ")}${m.type ? `: ${m.type}` : ""}`;
    case "method":
      return `def ${m.name}(${m.params.map((p) => (p.type ? `${p.name}: ${p.type}` : p.name)).join(", ")})${
        m.returnType ? ` -> ${m.returnType}` : ""
      } { ${showStmts(m.body).join("; ")} }`;
    case "init":
      return `init { ${showStmts(m.body).join("; ")} }`;
    case "class":
      return `class ${m.name ?? "?"} { ${m.members.map(showMember).join("; ")} }`;
  }
}

/** A compact rendering of an expression: calls as `target.name(args; kw=v)`, `new T(…)`, maps as `{k: v}`. */
export function show(e: Expr): string {
  switch (e.k) {
    case "literal":
      return e.image;
    case "name":
      return e.name;
    case "field":
      return `${show(e.target)}.${e.name}`;
    case "call":
      return `${e.target ? `${show(e.target)}.` : ""}${e.name}(${showArgs(e.args, e.kwargs)})`;
    case "new":
      return `new ${e.type}(${showArgs(e.args, e.kwargs)})`;
    case "array":
      return `[${e.items.map(show).join(", ")}]`;
    case "mapLit":
      return `{${e.entries.map((x) => `${show(x.key)}: ${show(x.value)}`).join(", ")}}`;
    case "lambda":
      return `(${e.params.join(", ")}) => ${Array.isArray(e.body) ? `{ ${showStmts(e.body).join("; ")} }` : show(e.body)}`;
    case "assign":
      return `${show(e.target)} ${e.op} ${show(e.value)}`;
    case "binary":
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case "unary":
      return `${e.op}${show(e.operand)}`;
    case "cond":
      return `(${show(e.test)} ? ${show(e.whenTrue)} : ${show(e.whenFalse)})`;
    case "cast":
      return `(${e.type}) ${show(e.expr)}`;
    case "classLit":
      return `${e.type}.class`;
    case "other":
      return `other(${e.parts.map(show).join(", ")})`;
  }
}

function showArgs(args: Expr[], kwargs: { name: string; value: Expr }[] | undefined): string {
  const positional = args.map(show).join(", ");
  const named = (kwargs ?? []).map((k) => `${k.name}=${show(k.value)}`).join(", ");
  return named ? `${positional}; ${named}` : positional;
}

/** The text of the file between two offsets. */
export function slice(text: string, span: { start: number; end: number }): string {
  return text.slice(span.start, span.end);
}

/** A script's statements, one per line. */
export function script(text: string): string[] {
  return showStmts(lowered(text).stmts);
}

/** The statements of a function body holding these lines (so constants stay statements). */
export function body(text: string): string[] {
  const indented = text
    .split("\n")
    .map((l) => (l ? `    ${l}` : l))
    .join("\n");
  const m = lowered(`def f():\n${indented}`).members[0];
  if (m?.k !== "method") throw new Error("no function");
  return showStmts(m.body);
}

/**
 * One expression, written alone on a line (offsets are the source's own); a literal, which would be a docstring
 * alone, is read as the argument of a call.
 */
export function expression(source: string): Expr {
  const stmt = lowered(`${source}\n`).stmts[0];
  if (stmt?.k === "expr") return stmt.expr;
  if (stmt?.k === "local" && stmt.init) return stmt.init;
  const call = lowered(`f(${source})\n`).stmts[0];
  if (call?.k === "expr" && call.expr.k === "call" && call.expr.args[0]) return call.expr.args[0];
  throw new Error(`no expression in ${source}`);
}

export function lines(...l: string[]): string {
  return `${l.join("\n")}\n`;
}
