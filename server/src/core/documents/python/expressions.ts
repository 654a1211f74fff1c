/**
 * Python expressions lowered to the shared job-code syntax tree (jobcode/ir.ts), in Java's shape:
 * - `Name(…)` and `module.path.Name(…)` (a capitalised name, on nothing or on a lower-case module path) are `new`;
 *   other calls are `call`, with positional arguments in `args`, keyword arguments in `kwargs` and `argsEnd` just
 *   after the last argument. `*xs` is a positional `other`; `**kw` is a keyword argument named `**`.
 * - Method, function and attribute names in lower snake_case are camelCase (`set_group_id` is `setGroupId`);
 *   variables, classes, UPPER_CASE constants and keyword-argument names stay as written. Ranges point at the text
 *   as written. A class imported under another name (`from … import FlinkKafkaConsumer as Consumer`) is read under
 *   its own name.
 * - The receiver of a method (`self`, `cls`) is the name `this`.
 * - `{k: v}` is `mapLit` (form `colon`); `**m` in it is an entry whose key is the unary `**` of `m`. Lists, tuples
 *   and sets are `array`. `a if c else b` is `cond`; `and`, `or`, `not` are `&&`, `||`, `!`; `x[i]` is `other`.
 * - A comprehension is `other`: its first iterable (which always runs), then a `lambda` over its loop variables
 *   holding the element and the other clauses (which run once per item, or never).
 * - Literals carry their decoded `value`; an f-string with replacement fields, a byte string or a `\N{…}` escape
 *   is `unknown`.
 * Nothing here recurses deeper than {@link MAX_DEPTH} levels: deeper parts are `other` and a problem says so.
 */

import { pushAll } from "../../arrays";
import type { CodeParseProblem, CodeValue } from "../../jobcode/facts";
import type { Expr, KwArg, MapLitEntry, Span } from "../../jobcode/ir";
import type { LineIndex } from "../../text";
import { camelCase } from "../code/cst";
import { numberValue, stringLiteralValue, UNKNOWN } from "./literals";
import type { SyntaxNode as Node } from "./tree";

/** How deep expressions and blocks are read; the extractor walks the result recursively too. */
export const MAX_DEPTH = 600;

/** `FlinkKafkaConsumer`, `ReadFromKafka`, `Configuration`: a class, by Python's naming convention. */
export function isClassName(name: string): boolean {
  return /^_*[A-Z]/.test(name) && /[a-z]/.test(name);
}

const OPERATORS: Record<string, string> = { and: "&&", or: "||" };

export interface Arguments {
  args: Expr[];
  kwargs: KwArg[];
  argsEnd: number;
}

export class ExpressionLowering {
  /** Offset of the tree being lowered in the file (a part of a broken file is parsed on its own). */
  protected base = 0;
  protected depth = 0;
  /** The name of the current method's receiver (`self`), read as `this`. */
  protected receiver?: string;
  /** Names imported as another name: alias → the class's own name. */
  readonly aliases = new Map<string, string>();
  called = new Set<string>();
  /** `Owner.method(…)` calls, kept until the file's classes are known. */
  protected readonly qualifiedCalls: [string, string][] = [];
  readonly problems: CodeParseProblem[] = [];
  /** Set once a too deeply nested part of the current unit is reported. */
  protected tooDeepReported = false;

  constructor(
    readonly text: string,
    readonly index: LineIndex,
  ) {}

  // ---- offsets

  protected s(n: Node): number {
    return this.base + n.startIndex;
  }

  protected e(n: Node): number {
    return this.base + n.endIndex;
  }

  protected span(n: Node): Span {
    return { start: this.base + n.startIndex, end: this.base + n.endIndex };
  }

  protected src(n: Node): string {
    return this.text.slice(this.base + n.startIndex, this.base + n.endIndex);
  }

  protected other(n: Node, parts: Expr[] = []): Expr {
    return { k: "other", ...this.span(n), parts };
  }

  /** Records that a part was too deeply nested to read (once per unit of the file). */
  protected tooDeep(n: Node): Expr {
    if (!this.tooDeepReported) {
      this.tooDeepReported = true;
      const at = this.s(n);
      const p = this.index.positionAt(at);
      this.problems.push({
        range: this.index.rangeOf(at, at),
        message: `Python code nested more than ${MAX_DEPTH} levels deep at line ${p.line + 1}, column ${p.character + 1} was not read`,
      });
    }
    return this.other(n);
  }

  // ---- expressions

  expr(n: Node): Expr {
    if (this.depth >= MAX_DEPTH) return this.tooDeep(n);
    this.depth++;
    const out = this.expression(n);
    this.depth--;
    return out;
  }

  private expression(node: Node): Expr {
    let n = node;
    while (n.type === "parenthesized_expression") {
      const inner = n.named[0];
      if (!inner) return this.other(n);
      n = inner;
    }
    switch (n.type) {
      case "identifier":
        return this.name(n);
      case "true":
      case "false":
        return this.literal(n, "bool", { kind: "bool", value: n.type === "true" });
      case "none":
        return this.literal(n, "null", UNKNOWN);
      case "integer":
      case "float":
        return this.literal(n, "number", numberValue(this.src(n)));
      case "string":
      case "concatenated_string":
        return this.literal(n, "string", this.stringValue(n));
      case "attribute": {
        const obj = n.childForFieldName("object");
        const attr = n.childForFieldName("attribute");
        if (!obj || !attr) return this.other(n);
        return {
          k: "field",
          ...this.span(n),
          target: this.expr(obj),
          name: camelCase(this.src(attr)),
          nameStart: this.s(attr),
          dot: this.dotOf(n),
        };
      }
      case "call":
        return this.call(n);
      case "list":
      case "tuple":
      case "set":
      case "expression_list":
      case "pattern_list":
      case "tuple_pattern":
      case "list_pattern":
        return { k: "array", ...this.span(n), items: n.named.map((c) => this.expr(c)) };
      case "dictionary":
        return this.dictionary(n);
      case "binary_operator": {
        const left = n.childForFieldName("left");
        const right = n.childForFieldName("right");
        const op = n.childForFieldName("operator");
        if (!left || !right)
          return this.other(
            n,
            n.named.map((c) => this.expr(c)),
          );
        return {
          k: "binary",
          ...this.span(n),
          op: op ? this.src(op) : "?",
          left: this.expr(left),
          right: this.expr(right),
        };
      }
      case "boolean_operator": {
        const left = n.childForFieldName("left");
        const right = n.childForFieldName("right");
        const op = n.childForFieldName("operator");
        if (!left || !right)
          return this.other(
            n,
            n.named.map((c) => this.expr(c)),
          );
        const written = op ? this.src(op) : "?";
        return {
          k: "binary",
          ...this.span(n),
          op: OPERATORS[written] ?? written,
          left: this.expr(left),
          right: this.expr(right),
        };
      }
      case "comparison_operator":
        return this.comparison(n);
      case "not_operator": {
        const arg = n.childForFieldName("argument");
        return arg ? { k: "unary", ...this.span(n), op: "!", operand: this.expr(arg) } : this.other(n);
      }
      case "unary_operator": {
        const arg = n.childForFieldName("argument");
        const op = n.childForFieldName("operator");
        return arg
          ? { k: "unary", ...this.span(n), op: op ? this.src(op) : "?", operand: this.expr(arg) }
          : this.other(n);
      }
      case "conditional_expression": {
        const [whenTrue, test, whenFalse] = n.named;
        if (!whenTrue || !test || !whenFalse)
          return this.other(
            n,
            n.named.map((c) => this.expr(c)),
          );
        return {
          k: "cond",
          ...this.span(n),
          test: this.expr(test),
          whenTrue: this.expr(whenTrue),
          whenFalse: this.expr(whenFalse),
        };
      }
      case "lambda":
        return this.lambda(n);
      case "named_expression": {
        const name = n.childForFieldName("name");
        const value = n.childForFieldName("value");
        if (!name || !value) return this.other(n);
        return { k: "assign", ...this.span(n), op: "=", target: this.name(name), value: this.expr(value) };
      }
      case "list_comprehension":
      case "set_comprehension":
      case "generator_expression":
      case "dictionary_comprehension":
        return this.comprehension(n);
      case "ERROR":
        return this.other(n);
      default:
        // subscripts, slices, await, yield, starred expressions, ellipsis: only the expressions inside matter.
        return this.other(
          n,
          n.named.map((c) => this.expr(c)),
        );
    }
  }

  protected name(n: Node): Expr {
    const written = this.src(n);
    if (this.receiver !== undefined && written === this.receiver) return { k: "name", ...this.span(n), name: "this" };
    return { k: "name", ...this.span(n), name: this.aliases.get(written) ?? written };
  }

  private literal(n: Node, type: "string" | "number" | "bool" | "null", value: CodeValue): Expr & { k: "literal" } {
    return { k: "literal", ...this.span(n), type, image: this.src(n), value };
  }

  /** The `.` of an attribute (`env\n    .enable_checkpointing`): where a chain's style is read from. */
  protected dotOf(attribute: Node): number {
    for (const c of attribute.children) if (c.type === ".") return this.s(c);
    return this.s(attribute);
  }

  // ---- calls

  private call(n: Node): Expr {
    const fn = n.childForFieldName("function");
    const argNode = n.childForFieldName("arguments");
    const a: Arguments = argNode ? this.arguments(argNode) : { args: [], kwargs: [], argsEnd: this.e(n) };
    const span = this.span(n);
    if (fn?.type === "identifier") {
      const written = this.src(fn);
      const name = this.aliases.get(written) ?? written;
      // `cls(…)` in a class method makes an instance of a class this file reads as `this`.
      if (written === this.receiver)
        return { k: "other", ...span, parts: [this.name(fn), ...a.args, ...a.kwargs.map((k) => k.value)] };
      if (isClassName(name)) {
        return { k: "new", ...span, type: name, typeStart: this.s(fn), typeEnd: this.e(fn), ...a };
      }
      const lowered = camelCase(name);
      this.called.add(lowered);
      return { k: "call", ...span, name: lowered, nameStart: this.s(fn), nameEnd: this.e(fn), ...a };
    }
    if (fn?.type === "attribute") {
      const obj = fn.childForFieldName("object");
      const attr = fn.childForFieldName("attribute");
      if (obj && attr) {
        const written = this.src(attr);
        const path = isClassName(written) ? this.modulePath(obj) : undefined;
        if (path !== undefined) {
          return {
            k: "new",
            ...span,
            type: `${path}.${written}`,
            typeStart: this.s(attr),
            typeEnd: this.e(attr),
            ...a,
          };
        }
        const target = this.expr(obj);
        const name = camelCase(written);
        if (target.k === "name") {
          if (target.name === "this") this.called.add(name);
          else this.qualifiedCalls.push([target.name, name]);
        }
        return {
          k: "call",
          ...span,
          target,
          name,
          nameStart: this.s(attr),
          nameEnd: this.e(attr),
          dot: this.dotOf(fn),
          ...a,
        };
      }
    }
    // A call of a call's result or of a subscript: only the expressions inside matter.
    const parts = fn ? [this.expr(fn)] : [];
    return { k: "other", ...span, parts: [...parts, ...a.args, ...a.kwargs.map((k) => k.value)] };
  }

  /** `apache_beam.io.kafka` in `apache_beam.io.kafka.ReadFromKafka(…)`: names starting in lower case only. */
  private modulePath(obj: Node): string | undefined {
    const names: string[] = [];
    let cur: Node | null = obj;
    while (cur) {
      if (cur.type === "identifier") {
        const name = this.src(cur);
        if (!/^[a-z_]/.test(name) || name === this.receiver) return undefined;
        names.push(name);
        break;
      }
      if (cur.type !== "attribute") return undefined;
      const attr = cur.childForFieldName("attribute");
      if (!attr) return undefined;
      const name = this.src(attr);
      if (!/^[a-z_]/.test(name)) return undefined;
      names.push(name);
      cur = cur.childForFieldName("object");
    }
    return names.reverse().join(".");
  }

  protected arguments(n: Node): Arguments {
    if (n.type === "generator_expression") {
      const g = this.expr(n);
      return { args: [g], kwargs: [], argsEnd: Math.max(this.s(n), this.e(n) - 1) };
    }
    const args: Expr[] = [];
    const kwargs: KwArg[] = [];
    // An argument list starts with its parenthesis.
    let argsEnd = this.s(n) + 1;
    for (const c of n.children) {
      if (!c) continue;
      switch (c.type) {
        case "(":
        case ")":
        case ",":
        case "comment":
        case "ERROR":
          continue;
        case "keyword_argument": {
          const name = c.childForFieldName("name");
          const value = c.childForFieldName("value");
          if (!name || !value) continue;
          kwargs.push({ ...this.span(c), name: this.src(name), nameStart: this.s(name), value: this.expr(value) });
          break;
        }
        case "dictionary_splat": {
          const inner = c.named[0];
          kwargs.push({
            ...this.span(c),
            name: "**",
            nameStart: this.s(c),
            value: inner ? this.expr(inner) : this.other(c),
          });
          break;
        }
        default:
          args.push(this.expr(c));
      }
      argsEnd = this.e(c);
    }
    return { args, kwargs, argsEnd };
  }

  // ---- literals

  /** The decoded value of a string or of adjacent strings (`"a" "b"`). */
  private stringValue(n: Node): CodeValue {
    let out = "";
    const parts = n.type === "concatenated_string" ? n.named : [n];
    for (const part of parts) {
      if (part.type !== "string" || part.hasError) return UNKNOWN;
      const value = stringLiteralValue(this.src(part));
      if (value === undefined) return UNKNOWN;
      out += value;
    }
    return { kind: "string", value: out };
  }

  private dictionary(n: Node): Expr {
    const entries: MapLitEntry[] = [];
    let openEnd = this.s(n) + 1;
    let closeStart = Math.max(openEnd, this.e(n) - 1);
    for (const c of n.children) {
      if (!c) continue;
      if (c.type === "{") openEnd = this.e(c);
      else if (c.type === "}") closeStart = this.s(c);
      else if (c.type === "pair") {
        const key = c.childForFieldName("key");
        const value = c.childForFieldName("value");
        if (key && value) entries.push({ ...this.span(c), key: this.expr(key), value: this.expr(value) });
      } else if (c.type === "dictionary_splat") {
        const inner = c.named[0];
        if (!inner) continue;
        const value = this.expr(inner);
        entries.push({ ...this.span(c), key: { k: "unary", ...this.span(c), op: "**", operand: value }, value });
      }
    }
    return { k: "mapLit", ...this.span(n), form: "colon", entries, openEnd, closeStart };
  }

  /** `a < b <= c` as `(a < b) <= c`; `not in` and `is not` keep their two words. */
  private comparison(n: Node): Expr {
    let left: Expr | undefined;
    let op = "";
    for (const c of n.children) {
      if (!c || c.type === "comment") continue;
      if (!c.isNamed) {
        op = op ? `${op} ${this.src(c)}` : this.src(c);
        continue;
      }
      const right = this.expr(c);
      left = left ? { k: "binary", start: left.start, end: right.end, op: op || "?", left, right } : right;
      op = "";
    }
    return left ?? this.other(n);
  }

  private lambda(n: Node): Expr {
    const params: string[] = [];
    const list = n.childForFieldName("parameters");
    if (list) for (const p of list.named) pushAll(params, this.paramNames(p));
    const body = n.childForFieldName("body");
    return { k: "lambda", ...this.span(n), params, body: body ? this.expr(body) : this.other(n) };
  }

  /** The names a parameter binds: `x`, `x=1`, `x: int`, `*args`, `**kw`. */
  protected paramNames(p: Node): string[] {
    if (p.type === "identifier") return [this.src(p)];
    const name = p.childForFieldName("name") ?? p.named.find((c) => c.type === "identifier");
    return name?.type === "identifier" ? [this.src(name)] : [];
  }

  private comprehension(n: Node): Expr {
    const clauses = n.named;
    const body = n.childForFieldName("body");
    const firstFor = clauses.find((c) => c.type === "for_in_clause");
    const first = firstFor?.childForFieldName("right");
    const params: string[] = [];
    const inner: Expr[] = [];
    for (const c of clauses) {
      if (c === body) continue;
      if (c.type === "for_in_clause") {
        const left = c.childForFieldName("left");
        if (left) pushAll(params, this.targetNames(left));
        const right = c.childForFieldName("right");
        if (right && c !== firstFor) inner.push(this.expr(right));
      } else if (c.type === "if_clause") {
        pushAll(
          inner,
          c.named.map((x) => this.expr(x)),
        );
      }
    }
    if (body) {
      if (body.type === "pair")
        pushAll(
          inner,
          body.named.map((x) => this.expr(x)),
        );
      else inner.push(this.expr(body));
    }
    const each: Expr = { k: "lambda", ...this.span(n), params, body: { k: "other", ...this.span(n), parts: inner } };
    return this.other(n, first ? [this.expr(first), each] : [each]);
  }

  /** The names an assignment or loop target binds (`a`, `a, b`, `(a, *rest)`). */
  protected targetNames(n: Node): string[] {
    const out: string[] = [];
    const stack: Node[] = [n];
    while (stack.length > 0) {
      const c = stack.pop() as Node;
      if (c.type === "identifier") out.push(this.src(c));
      else if (
        /^(pattern_list|tuple_pattern|list_pattern|tuple|list|expression_list|list_splat_pattern|parenthesized_expression|list_splat)$/.test(
          c.type,
        )
      )
        pushAll(stack, [...c.named].reverse());
    }
    return out;
  }
}
