/** Helpers for Scala reader tests: read a file as the product does, or look at its lowered syntax tree. */

import type { Lowered } from "../../server/src/core/documents/code/treeSitterReader";
import { readDocument } from "../../server/src/core/documents/index";
import { lowerScala } from "../../server/src/core/documents/scala/lower";
import type { JobCode } from "../../server/src/core/jobcode/facts";
import type { Expr, Member, Stmt } from "../../server/src/core/jobcode/ir";
import { dropTree, parseTree } from "../../server/src/core/jobcode/treeSitter";
import { LineIndex } from "../../server/src/core/text";

export const FILE = "/p/src/main/scala/com/example/Job.scala";

/** The job-code facts of a Scala file, read through readDocument as the CLI and the server read it. */
export function scala(text: string, file = FILE): JobCode {
  const code = readDocument(file, text).code;
  if (!code) throw new Error("the file was not read as job code");
  return code;
}

/** The lowered tree of a Scala file (a fresh parse, not kept). */
export function lowered(text: string): Lowered {
  const file = "/lowered/Test.scala";
  const tree = parseTree(file, "scala", text);
  if (!tree) throw new Error("no Scala parser");
  try {
    return lowerScala(tree.rootNode, text, new LineIndex(text));
  } finally {
    dropTree(file);
  }
}

/** The text an IR node spans. */
export function src(text: string, n: { start: number; end: number }): string {
  return text.slice(n.start, n.end);
}

/** Members of every class, flattened. */
export function allMembers(members: Member[]): Member[] {
  return members.flatMap((m) => (m.k === "class" ? [m, ...allMembers(m.members)] : [m]));
}

export function method(l: Lowered, name: string): Member & { k: "method" } {
  const found = allMembers(l.members).find((m): m is Member & { k: "method" } => m.k === "method" && m.name === name);
  if (!found) throw new Error(`no method ${name}`);
  return found;
}

/** The first statement's expression (or a local's initializer, or a returned value). */
export function exprOf(s: Stmt | undefined): Expr {
  if (!s) throw new Error("no statement");
  if (s.k === "expr") return s.expr;
  if (s.k === "local" && s.init) return s.init;
  if (s.k === "return" && s.expr) return s.expr;
  throw new Error(`no expression in ${s.k}`);
}

/** A compact, position-free rendering of an expression, for asserting its shape. */
export function shape(e: Expr | undefined): string {
  if (!e) return "∅";
  switch (e.k) {
    case "literal":
      return e.value?.kind === "string"
        ? JSON.stringify(e.value.value)
        : e.value && "value" in e.value
          ? String(e.value.value)
          : `${e.type}?`;
    case "name":
      return e.name;
    case "field":
      return `${shape(e.target)}.${e.name}`;
    case "call": {
      const kw = (e.kwargs ?? []).map((k) => `${k.name}=${shape(k.value)}`);
      return `${e.target ? `${shape(e.target)}.` : ""}${e.name}(${[...e.args.map(shape), ...kw].join(", ")})`;
    }
    case "new":
      return `new ${e.type}(${e.args.map(shape).join(", ")})${e.body ? "{…}" : ""}`;
    case "classLit":
      return `classOf[${e.type}]`;
    case "array":
      return `[${e.items.map(shape).join(", ")}]`;
    case "mapLit":
      return `{${e.entries.map((x) => `${shape(x.key)} -> ${shape(x.value)}`).join(", ")}}`;
    case "lambda":
      return `(${e.params.join(", ")}) => ${Array.isArray(e.body) ? `{${e.body.length} stmts}` : shape(e.body)}`;
    case "assign":
      return `${shape(e.target)} ${e.op} ${shape(e.value)}`;
    case "binary":
      return `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
    case "unary":
      return `${e.op}${shape(e.operand)}`;
    case "cond":
      return `(${shape(e.test)} ? ${shape(e.whenTrue)} : ${shape(e.whenFalse)})`;
    case "cast":
      return `(${shape(e.expr)}: ${e.type || "conv"})`;
    case "other":
      return `other[${e.parts.map(shape).join(", ")}]`;
  }
}
