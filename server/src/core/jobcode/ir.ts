/**
 * The small syntax tree every job-code language is lowered to: Java (from java-parser), Scala, Kotlin and Python
 * (from tree-sitter). The extractor (extract.ts) walks only this tree, so one extractor reads every language, and a
 * language needs a lowering, not rules of its own.
 *
 * Offsets are absolute in the file, `end` is exclusive. Keys that hold offsets are named `start`, `end`, `dot` or
 * end in `Start`/`End` (the Java parse cache shifts exactly those when a unit moves). Statements come as a flat list
 * in source order; those that only run on some paths (if/else, loops, switch, catch, lambda bodies) are marked
 * `conditional`.
 *
 * What the lowerings map onto Java's shape:
 * - Calls without parentheses (Scala `env.getCheckpointConfig`) and property reads (Kotlin `env.checkpointConfig`)
 *   stay `field`; the extractor reads a field of an object it follows as a call of that getter.
 * - Property writes (Kotlin `env.parallelism = 4`, Python `options.view_as(X).streaming = True`) stay `assign`;
 *   the extractor reads them as the setter call.
 * - Constructor calls written without `new` (Scala 3, Kotlin `Properties()`, Python `FlinkKafkaConsumer(…)`) are
 *   `new` when the callee is a capitalised name.
 * - Map literals (Python `{k: v}`, Scala `Map(k -> v)`, Kotlin `mapOf(k to v)`) are `mapLit`; list literals
 *   (Python `[…]`, Scala `List(…)`/`Seq(…)`, Kotlin `listOf(…)`) are `array`.
 * - Python snake_case method names are lowered to camelCase (`enable_checkpointing` is `enableCheckpointing`);
 *   ranges still point at the name as written, and fixes are rendered back in the file's own spelling.
 */
import type { CodeValue } from "./facts";

export interface Span {
  start: number;
  end: number;
}

/** A named argument: Python `commit_offset_in_finalize=True`, Kotlin and Scala `name = value`. */
export interface KwArg extends Span {
  name: string;
  nameStart: number;
  value: Expr;
}

/** One entry of a map literal, from the key's start to the value's end. */
export interface MapLitEntry extends Span {
  key: Expr;
  value: Expr;
}

/** How a map literal writes its entries: `"k": v` (Python), `"k" -> v` (Scala), `"k" to v` (Kotlin). */
export type MapLitForm = "colon" | "arrow" | "to";

export type Expr =
  | (Span & {
      k: "literal";
      type: "string" | "text" | "number" | "bool" | "char" | "null";
      /** The literal as written. */
      image: string;
      /** The decoded value, when the lowering decoded it (other languages than Java); else read from `image`. */
      value?: CodeValue;
    })
  | (Span & { k: "name"; name: string })
  | (Span & { k: "field"; target: Expr; name: string; nameStart: number; dot: number })
  | (Span & {
      k: "call";
      target?: Expr;
      name: string;
      nameStart: number;
      nameEnd: number;
      /** Offset of the `.` before the name, for calls on a target. */
      dot?: number;
      args: Expr[];
      /** Named arguments, in source order (after the positional ones). */
      kwargs?: KwArg[];
      /** Just after the last argument, or after `(` when there is none: where a new argument goes. */
      argsEnd?: number;
    })
  | (Span & {
      k: "new";
      type: string;
      typeStart: number;
      typeEnd: number;
      args: Expr[];
      kwargs?: KwArg[];
      body?: Member[];
      argsEnd?: number;
    })
  | (Span & { k: "classLit"; type: string })
  | (Span & { k: "array"; items: Expr[] })
  | (Span & {
      k: "mapLit";
      form: MapLitForm;
      entries: MapLitEntry[];
      /** Just after the opening `{` or `(`. */
      openEnd: number;
      /** Where the closing `}` or `)` starts. */
      closeStart: number;
    })
  | (Span & { k: "lambda"; params: string[]; body: Expr | Stmt[] })
  | (Span & { k: "assign"; op: string; target: Expr; value: Expr })
  | (Span & { k: "binary"; op: string; left: Expr; right: Expr })
  | (Span & { k: "unary"; op: string; operand: Expr })
  | (Span & { k: "cond"; test: Expr; whenTrue: Expr; whenFalse: Expr })
  | (Span & { k: "cast"; type: string; expr: Expr })
  /** Anything else (method references, array access, switch expressions): only the expressions inside matter. */
  | (Span & { k: "other"; parts: Expr[] });

export type Stmt =
  | (Span & { k: "local"; type: string; name: string; nameStart: number; init?: Expr; conditional: boolean })
  | (Span & { k: "expr"; expr: Expr; conditional: boolean })
  | (Span & { k: "return"; expr?: Expr; conditional: boolean })
  | (Span & { k: "class"; members: Member[]; conditional: boolean });

export interface Param {
  type: string;
  name: string;
  /** It has a default value (`def main(argv=None)`): a call may leave it out. */
  optional?: boolean;
}

export type Member =
  | (Span & {
      k: "field";
      modifiers: string[];
      type: string;
      declarators: { name: string; nameStart: number; init?: Expr }[];
    })
  | (Span & {
      k: "method";
      name: string;
      params: Param[];
      /** Scala's `implicit` / `using` parameters: not written at the call, taken from what the caller has in scope. */
      implicits?: Param[];
      body: Stmt[];
      returnType: string;
    })
  | (Span & { k: "init"; body: Stmt[] })
  | (Span & { k: "class"; name?: string; members: Member[] });

export type CallExpr = Expr & { k: "call" };

/** `a.b.c` for a chain of names and fields; undefined for anything else. */
export function dottedName(e: Expr): string | undefined {
  if (e.k === "name") return e.name;
  if (e.k === "field") {
    const head = dottedName(e.target);
    return head === undefined ? undefined : `${head}.${e.name}`;
  }
  return undefined;
}
