/**
 * Kotlin expressions in the shape of the shared syntax tree (jobcode/ir.ts):
 * - `a.b(c)` is a call on `a`; `a.b` stays a field read (the extractor reads a property of an object it follows as
 *   the Java getter: `env.checkpointConfig` is `getCheckpointConfig()`); `a?.b` reads as `a.b`, `a!!` as `a`.
 * - `Foo(…)` and `java.util.Properties()` construct (Kotlin has no `new`); `object : Properties() { init { … } }`
 *   is a construction with a body.
 * - `mapOf("k" to v)`, `mutableMapOf`, `hashMapOf`, `linkedMapOf`, `sortedMapOf`, `emptyMap()` are map literals;
 *   `listOf`, `arrayOf`, `setOf` … lists; `.toMap()`, `.toProperties()`, `as Map<…>` keep the value.
 * - `m["k"] = v` and `m += "k" to v` put an entry; `X::class.java` and `X::class` are class literals.
 * - A trailing lambda is the call's last argument. The lambdas of scope functions (`apply`, `also`, `let`, `run`,
 *   `with`) run once, right away: their statements are not conditional; any other lambda's are.
 * - `true`, `false` and `null` (identifiers in the grammar) are literals.
 */
import type { Expr, KwArg, MapLitEntry, Stmt } from "../../jobcode/ir";
import { type Args, identifierText, LoweringBase } from "../code/lowering";
import { field, type SyntaxNode as Node, named } from "../code/syntaxNode";
import { charValue, numberValue, stringValue } from "./literals";

const MAP_FACTORIES = /^(mapOf|mutableMapOf|hashMapOf|linkedMapOf|sortedMapOf|emptyMap|mutableMapOf)$/;
const LIST_FACTORIES =
  /^(listOf|mutableListOf|arrayListOf|arrayOf|setOf|mutableSetOf|hashSetOf|linkedSetOf|sortedSetOf|emptyList|emptyArray|listOfNotNull|sequenceOf)$/;
/** Conversions that keep the content. */
const CONVERSIONS =
  /^(toMap|toMutableMap|toSortedMap|toProperties|toHashMap|toList|toMutableList|toTypedArray|toSet|toMutableSet|toSortedMap)$/;
export const SCOPE_FUNCTIONS = /^(apply|also|let|run|with)$/;
const NOT_EVALUATED =
  /^(user_type|nullable_type|non_nullable_type|function_type|parenthesized_type|type_arguments|type_parameters|type_constraints|annotation|modifiers|label|line_comment|block_comment|import|package_header)$/;

export abstract class KotlinExpressions extends LoweringBase {
  /** The statements of a block or lambda body, flattened. */
  protected abstract bodyStatements(n: Node, conditional: boolean): Stmt[];

  protected parts(n: Node): Expr[] {
    return named(n)
      .filter((c) => !NOT_EVALUATED.test(c.type))
      .map((c) => this.expr(c));
  }

  protected lower(n: Node): Expr {
    const span = { start: n.startIndex, end: n.endIndex };
    switch (n.type) {
      case "identifier": {
        const name = identifierText(this.cx.text, n);
        if (name === "true" || name === "false")
          return { k: "literal", ...span, type: "bool", image: name, value: { kind: "bool", value: name === "true" } };
        if (name === "null") return { k: "literal", ...span, type: "null", image: "null", value: { kind: "unknown" } };
        return { k: "name", ...span, name };
      }
      case "this_expression":
        return { k: "name", ...span, name: "this" };
      case "string_literal":
      case "multiline_string_literal": {
        const image = this.text(n);
        const s = stringValue(image);
        return { k: "literal", ...span, type: s.type, image, value: s.value };
      }
      case "number_literal":
      case "float_literal": {
        const image = this.text(n);
        return { k: "literal", ...span, type: "number", image, value: numberValue(image) };
      }
      case "character_literal": {
        const image = this.text(n);
        return { k: "literal", ...span, type: "char", image, value: charValue(image) };
      }
      case "navigation_expression":
        return this.navigation(n);
      case "call_expression":
        return this.call(n);
      case "assignment":
        return this.assignment(n);
      case "infix_expression":
        return this.infix(n);
      case "binary_expression": {
        const left = field(n, "left");
        const right = field(n, "right");
        const op = field(n, "operator");
        if (!left || !right || !op) return { k: "other", ...span, parts: this.parts(n) };
        if (this.text(op) === "<" && typeArgumentsCut(this.cx.text, n)) return this.cutGenericCall(n, left);
        return { k: "binary", ...span, op: this.text(op), left: this.expr(left), right: this.expr(right) };
      }
      case "unary_expression": {
        const arg = field(n, "argument");
        const op = field(n, "operator");
        if (!arg) return this.empty(n);
        const o = op ? this.text(op) : "";
        if (o === "!!") return this.expr(arg);
        return { k: "unary", ...span, op: o, operand: this.expr(arg) };
      }
      case "as_expression": {
        const left = field(n, "left");
        const right = field(n, "right");
        if (!left) return this.empty(n);
        return { k: "cast", ...span, type: right ? typeName(this.cx.text, right) : "", expr: this.expr(left) };
      }
      case "parenthesized_expression":
      case "labeled_expression":
      case "annotated_expression":
      case "spread_expression": {
        const kids = named(n).filter((c) => !NOT_EVALUATED.test(c.type));
        const inner = kids[kids.length - 1];
        return inner ? this.expr(inner) : this.empty(n);
      }
      case "if_expression": {
        const test = field(n, "condition");
        const branches = named(n).filter((c) => c !== test);
        const [yes, no] = branches;
        return {
          k: "cond",
          ...span,
          test: test ? this.expr(test) : this.empty(n),
          whenTrue: yes ? this.branchValue(yes) : this.empty(n),
          whenFalse: no ? this.branchValue(no) : { k: "other", start: n.endIndex, end: n.endIndex, parts: [] },
        };
      }
      case "when_expression":
      case "try_expression":
      case "for_statement":
      case "while_statement":
      case "do_while_statement":
        // Only some paths run: what is inside counts as conditional, as in a lambda.
        return {
          k: "other",
          ...span,
          parts: [{ k: "lambda", ...span, params: [], body: this.bodyStatements(n, true) }],
        };
      case "lambda_literal":
        return this.lambda(n, true);
      case "annotated_lambda": {
        const lambda = named(n).find((c) => c.type === "lambda_literal");
        return lambda ? this.lambda(lambda, true) : this.empty(n);
      }
      case "anonymous_function": {
        const body = named(n).find((c) => c.type === "function_body");
        return {
          k: "lambda",
          ...span,
          params: [],
          body: body ? this.bodyStatements(body, true) : [],
        };
      }
      case "callable_reference": {
        const kids = named(n);
        if (/::\s*class$/.test(this.text(n)) && kids[0])
          return { k: "classLit", ...span, type: typeName(this.cx.text, kids[0]) };
        return { k: "other", ...span, parts: [] };
      }
      case "object_literal":
        return this.objectLiteral(n);
      case "collection_literal":
        return { k: "array", ...span, items: this.parts(n) };
      case "index_expression":
        return { k: "other", ...span, parts: this.parts(n) };
      case "block":
        return { k: "lambda", ...span, params: [], body: this.bodyStatements(n, true) };
      default:
        return { k: "other", ...span, parts: this.parts(n) };
    }
  }

  /** A branch of an `if` used as a value: a block's last expression, else the expression. */
  private branchValue(n: Node): Expr {
    if (n.type !== "block") return this.expr(n);
    const kids = named(n);
    if (kids.length === 1 && kids[0].type !== "property_declaration") return this.expr(kids[0]);
    return { k: "other", start: n.startIndex, end: n.endIndex, parts: [this.lower(n)] };
  }

  /**
   * tree-sitter-kotlin sometimes reads `KafkaSource.builder<String>()` as `KafkaSource.builder < String` followed by
   * an error holding `>()`: that is the call without arguments it stands for.
   */
  private cutGenericCall(n: Node, callee: Node): Expr {
    const span = { start: n.startIndex, end: errorAfter(n)?.endIndex ?? n.endIndex };
    if (callee.type === "navigation_expression") {
      const parts = named(callee);
      const last = parts[parts.length - 1];
      if (parts.length >= 2 && last?.type === "identifier")
        return {
          k: "call",
          ...span,
          target: this.expr(parts[0]),
          name: identifierText(this.cx.text, last),
          nameStart: last.startIndex,
          nameEnd: last.endIndex,
          dot: dotOf(callee, last),
          args: [],
        };
    }
    if (callee.type === "identifier") {
      const name = identifierText(this.cx.text, callee);
      return { k: "call", ...span, name, nameStart: callee.startIndex, nameEnd: callee.endIndex, args: [] };
    }
    return { k: "other", ...span, parts: [this.expr(callee)] };
  }

  // ---- member selection and calls

  /** `target.name` (also `target?.name`); `X::class.java` is a class literal. */
  private navigation(n: Node): Expr {
    const kids = named(n);
    const target = kids[0];
    const nameNode = kids[kids.length - 1];
    if (!target || !nameNode || target === nameNode || nameNode.type !== "identifier")
      return { k: "other", start: n.startIndex, end: n.endIndex, parts: this.parts(n) };
    const name = identifierText(this.cx.text, nameNode);
    const span = { start: n.startIndex, end: n.endIndex };
    if (name === "java" && isClassReference(this.cx.text, target)) {
      const type = classReferenceType(this.cx.text, target);
      return { k: "classLit", ...span, type };
    }
    if (name === "class") return { k: "classLit", ...span, type: typeName(this.cx.text, target) };
    return {
      k: "field",
      ...span,
      target: this.expr(target),
      name,
      nameStart: nameNode.startIndex,
      dot: dotOf(n, nameNode) ?? nameNode.startIndex,
    };
  }

  private call(n: Node): Expr {
    const kids = named(n);
    const callee = kids[0];
    const argsNode = kids.find((c) => c.type === "value_arguments");
    const lambdaNode = kids.find((c) => c.type === "annotated_lambda");
    if (!callee) return this.empty(n);
    // `with(env) { … }`, `f(a) { … }`: the grammar nests the call with arguments inside a call of its trailing
    // lambda. It is one call, the lambda its last argument.
    if (callee.type === "call_expression" && lambdaNode && !argsNode) {
      const inner = this.call(callee);
      if ((inner.k === "call" || inner.k === "new") && !named(callee).some((c) => c.type === "annotated_lambda")) {
        const runsOnce = inner.k === "call" && SCOPE_FUNCTIONS.test(inner.name);
        const lambda = this.args(undefined, lambdaNode, runsOnce).args;
        return { ...inner, end: n.endIndex, args: [...inner.args, ...lambda] };
      }
    }
    const span = { start: n.startIndex, end: n.endIndex };
    let target: Node | undefined;
    let nameNode: Node | undefined;
    if (callee.type === "identifier") nameNode = callee;
    else if (callee.type === "navigation_expression") {
      const parts = named(callee);
      const last = parts[parts.length - 1];
      if (parts.length >= 2 && last?.type === "identifier") {
        target = parts[0];
        nameNode = last;
      }
    }
    if (!nameNode) {
      const a = this.args(argsNode, lambdaNode, false);
      return { k: "other", ...span, parts: [this.expr(callee), ...a.args, ...a.kwargs.map((k) => k.value)] };
    }
    const name = identifierText(this.cx.text, nameNode);
    const owner = target ? dotted(this.cx.text, target) : undefined;
    const packageOwner = owner !== undefined && /^[a-z][^.]*(\.[a-z][^.]*)*$/.test(owner) && !this.isLocalRoot(owner);
    if (!target || (packageOwner && owner?.startsWith("kotlin"))) {
      if (MAP_FACTORIES.test(name) && argsNode && !lambdaNode) {
        const map = this.mapLiteral(n, argsNode);
        if (map) return map;
      }
      if (LIST_FACTORIES.test(name) && !lambdaNode) return { k: "array", ...span, items: this.args(argsNode).args };
    }
    if (target && CONVERSIONS.test(name) && !argsNode?.children.some((c) => c.isNamed) && !lambdaNode)
      return { k: "cast", ...span, type: "", expr: this.expr(target) };
    const a = this.args(argsNode, lambdaNode, SCOPE_FUNCTIONS.test(name));
    const extra = {
      ...(a.kwargs.length > 0 ? { kwargs: a.kwargs } : {}),
      ...(a.argsEnd !== undefined ? { argsEnd: a.argsEnd } : {}),
    };
    if (/^[A-Z]/.test(name) && (!target || packageOwner) && !this.cx.isLocal(name)) {
      return {
        k: "new",
        ...span,
        type: packageOwner ? `${owner}.${name}` : name,
        typeStart: nameNode.startIndex,
        typeEnd: nameNode.endIndex,
        args: a.args,
        ...extra,
      };
    }
    if (!target) {
      if (!this.cx.isLocal(name)) this.cx.called.add(name);
      return {
        k: "call",
        ...span,
        name,
        nameStart: nameNode.startIndex,
        nameEnd: nameNode.endIndex,
        args: a.args,
        ...extra,
      };
    }
    if (owner === "this" || (owner !== undefined && this.cx.ownTypes.has(owner.slice(owner.lastIndexOf(".") + 1))))
      this.cx.called.add(name);
    return {
      k: "call",
      ...span,
      target: this.expr(target),
      name,
      nameStart: nameNode.startIndex,
      nameEnd: nameNode.endIndex,
      dot: dotOf(callee, nameNode),
      args: a.args,
      ...extra,
    };
  }

  private isLocalRoot(owner: string): boolean {
    return this.cx.isLocal(owner.split(".")[0]);
  }

  /** Positional and named arguments, and a trailing lambda as the last argument. */
  protected args(n: Node | undefined, lambda?: Node, runsOnce = false): Args {
    const args: Expr[] = [];
    const kwargs: KwArg[] = [];
    let argsEnd: number | undefined;
    if (n) {
      const list = named(n).filter((c) => c.type === "value_argument");
      for (let i = 0; i < list.length; i++) {
        const c = list[i];
        const cut = this.cutTypeArguments(list, i);
        if (cut) {
          args.push(cut.expr);
          i = cut.last;
          continue;
        }
        const parts = named(c).filter((p) => !NOT_EVALUATED.test(p.type));
        const hasName = c.children.some((x) => !x.isNamed && x.type === "=");
        if (hasName && parts.length >= 2 && parts[0].type === "identifier") {
          kwargs.push({
            start: c.startIndex,
            end: c.endIndex,
            name: identifierText(this.cx.text, parts[0]),
            nameStart: parts[0].startIndex,
            value: this.expr(parts[parts.length - 1]),
          });
        } else if (parts.length > 0) {
          args.push(this.expr(parts[parts.length - 1]));
        }
      }
      const open = n.children[0];
      const last = list[list.length - 1];
      argsEnd = last ? last.endIndex : open?.type === "(" ? open.endIndex : undefined;
    }
    if (lambda) {
      const literal = named(lambda).find((c) => c.type === "lambda_literal");
      if (literal) args.push(this.lambda(literal, !runsOnce));
    }
    return { args, kwargs, ...(argsEnd !== undefined ? { argsEnd } : {}) };
  }

  /**
   * tree-sitter-kotlin reads `f(mapOf<String, Any>("k" to v))` as the comparisons `mapOf < String` and
   * `Any > ("k" to v)`, two arguments: the generic call they stand for, when argument `i` starts one.
   */
  private cutTypeArguments(list: Node[], i: number): { expr: Expr; last: number } | undefined {
    const only = (c: Node | undefined) => {
      const inner = c ? named(c) : [];
      return inner.length === 1 ? inner[0] : undefined;
    };
    const first = only(list[i]);
    if (first?.type !== "binary_expression") return undefined;
    const op = field(first, "operator");
    const callee = field(first, "left");
    if (
      !op ||
      this.text(op) !== "<" ||
      !callee ||
      (callee.type !== "identifier" && callee.type !== "navigation_expression")
    )
      return undefined;
    if (field(first, "right")?.type !== "identifier") return undefined;
    for (let j = i + 1; j < list.length && j <= i + 4; j++) {
      const part = only(list[j]);
      if (part?.type === "identifier") continue;
      if (part?.type !== "binary_expression") return undefined;
      const close = field(part, "operator");
      const paren = field(part, "right");
      if (!close || this.text(close) !== ">" || field(part, "left")?.type !== "identifier") return undefined;
      if (paren?.type !== "parenthesized_expression") return undefined;
      return { expr: this.genericCall(first, callee, paren, part.endIndex), last: j };
    }
    return undefined;
  }

  /** `callee<…>(inner)` rebuilt from a cut: a map or list factory, a constructor or a call with one argument. */
  private genericCall(first: Node, callee: Node, paren: Node, end: number): Expr {
    const span = { start: first.startIndex, end };
    const inner = named(paren)[0];
    const open = paren.children[0];
    const close = paren.children[paren.children.length - 1];
    const name = callee.type === "identifier" ? identifierText(this.cx.text, callee) : undefined;
    if (name && MAP_FACTORIES.test(name) && inner) {
      const pair = this.pairOf(inner);
      if (pair)
        return {
          k: "mapLit",
          ...span,
          form: "to",
          entries: [
            { start: pair[0].startIndex, end: pair[1].endIndex, key: this.expr(pair[0]), value: this.expr(pair[1]) },
          ],
          openEnd: open?.endIndex ?? paren.startIndex,
          closeStart: close?.type === ")" ? close.startIndex : paren.endIndex,
        };
    }
    const args = inner ? [this.expr(inner)] : [];
    const argsEnd = inner ? inner.endIndex : (open?.endIndex ?? paren.startIndex);
    if (name && LIST_FACTORIES.test(name)) return { k: "array", ...span, items: args };
    if (name && /^[A-Z]/.test(name) && !this.cx.isLocal(name))
      return { k: "new", ...span, type: name, typeStart: callee.startIndex, typeEnd: callee.endIndex, args, argsEnd };
    if (name) {
      if (!this.cx.isLocal(name)) this.cx.called.add(name);
      return { k: "call", ...span, name, nameStart: callee.startIndex, nameEnd: callee.endIndex, args, argsEnd };
    }
    const parts = named(callee);
    const last = parts[parts.length - 1];
    if (parts.length < 2 || last?.type !== "identifier") return { k: "other", ...span, parts: args };
    return {
      k: "call",
      ...span,
      target: this.expr(parts[0]),
      name: identifierText(this.cx.text, last),
      nameStart: last.startIndex,
      nameEnd: last.endIndex,
      dot: dotOf(callee, last),
      args,
      argsEnd,
    };
  }

  protected lambda(n: Node, conditional: boolean): Expr {
    const paramsNode = named(n).find((c) => c.type === "lambda_parameters");
    const params: string[] = [];
    if (paramsNode) {
      for (const p of named(paramsNode)) {
        const id = p.type === "variable_declaration" ? named(p).find((c) => c.type === "identifier") : undefined;
        if (id) params.push(identifierText(this.cx.text, id));
        else if (p.type === "multi_variable_declaration") params.push("_");
      }
    }
    this.cx.pushScope(params.length > 0 ? params : ["it"]);
    try {
      return {
        k: "lambda",
        start: n.startIndex,
        end: n.endIndex,
        params,
        body: this.bodyStatements(n, conditional),
      };
    } finally {
      this.cx.popScope();
    }
  }

  /** `mapOf("k" to v, Pair("k2", v2))`; undefined when an argument is not a pair (`mapOf(*entries)`). */
  private mapLiteral(n: Node, argsNode: Node): Expr | undefined {
    const entries: MapLitEntry[] = [];
    for (const c of named(argsNode)) {
      if (c.type !== "value_argument") continue;
      const inner = named(c).filter((p) => !NOT_EVALUATED.test(p.type));
      if (inner.length !== 1 || c.children.some((x) => !x.isNamed && (x.type === "=" || x.type === "*")))
        return undefined;
      const pair = this.pairOf(inner[0]);
      if (!pair) return undefined;
      entries.push({
        start: pair[0].startIndex,
        end: pair[1].endIndex,
        key: this.expr(pair[0]),
        value: this.expr(pair[1]),
      });
    }
    const open = argsNode.children[0];
    const close = argsNode.children[argsNode.children.length - 1];
    return {
      k: "mapLit",
      start: n.startIndex,
      end: n.endIndex,
      form: "to",
      entries,
      openEnd: open?.type === "(" ? open.endIndex : argsNode.startIndex,
      closeStart: close?.type === ")" ? close.startIndex : argsNode.endIndex,
    };
  }

  /** `k to v`, `(k to v)`, `Pair(k, v)`: the two sides. */
  protected pairOf(n: Node): [Node, Node] | undefined {
    let cur = n;
    for (let i = 0; i < 8 && cur.type === "parenthesized_expression"; i++) {
      const inner = named(cur);
      if (inner.length !== 1) return undefined;
      cur = inner[0];
    }
    if (cur.type === "infix_expression") {
      const [left, op, right] = named(cur);
      if (left && op && right && this.text(op) === "to") return [left, right];
      return undefined;
    }
    if (cur.type === "call_expression") {
      const kids = named(cur);
      if (kids[0]?.type === "identifier" && this.text(kids[0]) === "Pair") {
        const argsNode = kids.find((c) => c.type === "value_arguments");
        const values = argsNode ? named(argsNode).filter((c) => c.type === "value_argument") : [];
        const a = values[0] && named(values[0])[0];
        const b = values[1] && named(values[1])[0];
        if (values.length === 2 && a && b) return [a, b];
      }
    }
    return undefined;
  }

  /** `a op b` with a named operator: `k to v` outside a map, `1 until 5`, `x shl 2`. */
  private infix(n: Node): Expr {
    const [left, op, right] = named(n);
    const span = { start: n.startIndex, end: n.endIndex };
    if (!left || !op || !right) return { k: "other", ...span, parts: this.parts(n) };
    const name = this.text(op);
    if (name === "to") return { k: "other", ...span, parts: [this.expr(left), this.expr(right)] };
    return {
      k: "call",
      ...span,
      target: this.expr(left),
      name,
      nameStart: op.startIndex,
      nameEnd: op.endIndex,
      args: [this.expr(right)],
    };
  }

  /** `a = b`, `a.b = c` (a property write), `m["k"] = v`, `m += "k" to v` (a put). */
  private assignment(n: Node): Expr {
    const left = field(n, "left");
    const right = field(n, "right");
    const op = field(n, "operator");
    const span = { start: n.startIndex, end: n.endIndex };
    if (!left || !right) return { k: "other", ...span, parts: this.parts(n) };
    const operator = op ? this.text(op) : "=";
    if (operator === "+=") {
      const pair = this.pairOf(right);
      if (pair)
        return {
          k: "call",
          ...span,
          target: this.expr(left),
          name: "put",
          nameStart: op?.startIndex ?? n.startIndex,
          nameEnd: op?.endIndex ?? n.startIndex,
          args: [this.expr(pair[0]), this.expr(pair[1])],
        };
    }
    return { k: "assign", ...span, op: operator, target: this.expr(left), value: this.expr(right) };
  }

  /** `object : Properties() { init { … } }`: a construction of the supertype with a body. */
  private objectLiteral(n: Node): Expr {
    const specifiers = named(n).find((c) => c.type === "delegation_specifiers");
    const invocation = specifiers
      ? named(specifiers)
          .flatMap((s) => named(s))
          .find((c) => c.type === "constructor_invocation")
      : undefined;
    const typeNode = invocation ? named(invocation).find((c) => c.type === "user_type") : undefined;
    const argsNode = invocation ? named(invocation).find((c) => c.type === "value_arguments") : undefined;
    const body = named(n).find((c) => c.type === "class_body");
    const a = this.args(argsNode);
    const last = typeNode ? lastIdentifier(typeNode) : undefined;
    return {
      k: "new",
      start: n.startIndex,
      end: n.endIndex,
      type: typeNode ? typeName(this.cx.text, typeNode) : "",
      typeStart: last?.startIndex ?? n.startIndex,
      typeEnd: last?.endIndex ?? n.startIndex,
      args: a.args,
      ...(body ? { body: this.anonymousBody(body) } : {}),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers on nodes

function dotOf(selection: Node, nameNode: Node): number | undefined {
  for (let i = selection.children.length - 1; i >= 0; i--) {
    const c = selection.children[i];
    if ((c.type === "." || c.type === "?.") && c.endIndex <= nameNode.startIndex) return c.startIndex;
  }
  return undefined;
}

/** `a.b.c` for identifiers and selections (without recursion), else undefined. */
export function dotted(text: string, n: Node): string | undefined {
  const names: string[] = [];
  let cur: Node | undefined = n;
  for (let i = 0; cur && i < 200; i++) {
    if (cur.type === "identifier") {
      names.unshift(identifierText(text, cur));
      return names.join(".");
    }
    if (cur.type === "this_expression") {
      names.unshift("this");
      return names.join(".");
    }
    if (cur.type !== "navigation_expression") return undefined;
    const kids = named(cur);
    const last = kids[kids.length - 1];
    if (kids.length < 2 || last?.type !== "identifier") return undefined;
    names.unshift(identifierText(text, last));
    cur = kids[0];
  }
  return undefined;
}

/** `X::class` (a callable reference to a class) or `X.class` as tree-sitter reads `X::class.java`. */
function isClassReference(text: string, n: Node): boolean {
  if (n.type === "callable_reference") return /::\s*class$/.test(text.slice(n.startIndex, n.endIndex));
  if (n.type === "navigation_expression") {
    const kids = named(n);
    const last = kids[kids.length - 1];
    return (
      last !== undefined &&
      text.slice(last.startIndex, last.endIndex) === "class" &&
      /::\s*class$/.test(text.slice(n.startIndex, n.endIndex))
    );
  }
  return false;
}

function classReferenceType(text: string, n: Node): string {
  const kids = named(n);
  const first = kids[0];
  return first ? typeName(text, first) : "";
}

function lastIdentifier(n: Node): Node | undefined {
  const kids = named(n).filter((c) => c.type === "identifier");
  return kids[kids.length - 1];
}

/** A type as the extractor reads it: `Map<String, Any>` is `Map`, `java.util.Properties` stays qualified. */
export function typeName(text: string, n: Node): string {
  const s = text.slice(n.startIndex, n.endIndex);
  return s
    .replace(/<[\s\S]*$/, "")
    .replace(/[?!\s]/g, "")
    .replace(/`/g, "");
}

/** The error node right after `n` among its parent's children, if any. */
function errorAfter(n: Node): Node | undefined {
  const siblings = n.parent?.children ?? [];
  const i = siblings.indexOf(n);
  const next = i >= 0 ? siblings[i + 1] : undefined;
  return next?.type === "ERROR" ? next : undefined;
}

/** `a.b < T` followed by an error that starts with `>` and holds the empty argument list. */
function typeArgumentsCut(text: string, n: Node): boolean {
  const error = errorAfter(n);
  return error !== undefined && /^>\s*\(\s*\)$/.test(text.slice(error.startIndex, error.endIndex));
}
