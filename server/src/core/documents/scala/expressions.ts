/**
 * Scala expressions in the shape of the shared syntax tree (jobcode/ir.ts):
 * - `a.b(c)` is a call on `a`; `a.b` stays a field read (the extractor reads a field of an object it follows as a
 *   getter call: `env.getCheckpointConfig`), except where Scala says it is a call: a lower-case member of a class
 *   or object name (`StreamExecutionEnvironment.getExecutionEnvironment`, `OffsetsInitializer.earliest`), explicit
 *   type arguments (`KafkaIO.read[String, String]`), a postfix call (`stream print`), a parameterless `def` of
 *   the file named without arguments.
 * - `Foo(…)` and `java.util.Properties()` without `new` construct (Scala 3 creator applications, case classes).
 * - `Map("k" -> v)`, `mutable.Map(…)`, `HashMap((k, v))` are map literals; `List(…)`, `Seq(…)`, `Array(…)` lists.
 * - Infix calls (`stream map f`) are calls; `m("k") = v` and `m += ("k" -> v)` put an entry; `.asJava`,
 *   `.asScala`, `mapAsJavaMap(m)`, `x.asInstanceOf[T]` and `x: T` are transparent casts.
 * - Placeholder functions (`_.split(" ")`), function literals and block arguments (`map { x => … }`) are lambdas.
 */
import { pushAll } from "../../arrays";
import type { Expr, KwArg, MapLitEntry, Stmt } from "../../jobcode/ir";
import { type Args, identifierText, LoweringBase, MAX_DEPTH } from "../code/lowering";
import { field, type SyntaxNode as Node, named } from "../code/syntaxNode";
import { charLiteral, interpolatedLiteral, numberLiteral, stringLiteral } from "./literals";

const MAP_NAMES = new Set([
  "Map",
  "HashMap",
  "LinkedHashMap",
  "ListMap",
  "TreeMap",
  "SortedMap",
  "SeqMap",
  "VectorMap",
]);
const LIST_NAMES = new Set([
  "List",
  "Seq",
  "Array",
  "Vector",
  "IndexedSeq",
  "Iterable",
  "Set",
  "HashSet",
  "LinkedHashSet",
  "ArrayBuffer",
  "ListBuffer",
  "ArraySeq",
]);
/** Conversions that keep the content: the converted value is the value. */
const CONVERSION_MEMBERS = new Set([
  "asJava",
  "asScala",
  "asJavaCollection",
  "asJavaDictionary",
  "asJavaMap",
  "toMap",
  "toList",
  "toSeq",
  "toArray",
  "toVector",
  "toSet",
  "toBuffer",
  "toIndexedSeq",
]);
const CONVERSION_FUNCTIONS =
  /^(mapAsJava\w*|mutableMapAsJava\w*|seqAsJava\w*|bufferAsJava\w*|setAsJava\w*|mutableSeqAsJava\w*|asJava\w*|mapAsScala\w*|propertiesAsScalaMap|dictionaryAsScalaMap|asScala\w*)$/;
const SYMBOLIC_BINARY = new Set(["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "&", "|", "^"]);
const NOT_ASSIGNMENT = new Set(["==", "!=", "<=", ">=", "===", "=!=", "=="]);
/** Nodes that are types, patterns or declarations: nothing in them is evaluated. */
const NOT_EVALUATED =
  /^(type_identifier|generic_type|stable_type_identifier|compound_type|function_type|tuple_type|type_arguments|type_parameters|annotation|modifiers|access_modifier|.*_pattern|parameters?|class_parameters?|bindings?|extends_clause|derives_clause|comment|block_comment|package_identifier|import_declaration)$/;

export abstract class ExpressionLowering extends LoweringBase {
  /**
   * Arguments written on the line after an infix operator (`env fromSource\n  (source, strategy, "src")`, which Scala
   * reads as one call, `InfixExpr id [nl] InfixExpr`): tree-sitter-scala ends the statement at the operator, so the
   * block gives the tuple of the next line to the postfix call it continues. By the postfix node's start and end.
   */
  protected readonly continuedArgs = new Map<string, Node>();

  /** The statements of a block or indented block (or of one expression), flattened. */
  protected abstract blockStatements(n: Node, conditional: boolean): Stmt[];

  protected lower(n: Node): Expr {
    const span = { start: n.startIndex, end: n.endIndex };
    switch (n.type) {
      case "identifier":
      case "operator_identifier": {
        const name = identifierText(this.cx.text, n);
        if (this.cx.parameterless.has(name) && !this.cx.isLocal(name)) {
          this.cx.called.add(name);
          return { k: "call", ...span, name, nameStart: n.startIndex, nameEnd: n.endIndex, args: [] };
        }
        return { k: "name", ...span, name };
      }
      case "wildcard":
        return { k: "name", ...span, name: "_" };
      case "string": {
        const image = this.text(n);
        const s = stringLiteral(image);
        return { k: "literal", ...span, type: s.type, image, value: s.value };
      }
      case "interpolated_string_expression": {
        const image = this.text(n);
        const interpolator = field(n, "interpolator");
        const body = named(n).find((c) => c.type === "interpolated_string");
        const parts = body ? named(body).some((c) => c.type === "interpolation") : false;
        const value = interpolatedLiteral(
          interpolator ? this.text(interpolator) : "",
          body ? this.text(body) : "",
          parts,
        );
        return { k: "literal", ...span, type: "string", image, value };
      }
      case "integer_literal":
      case "floating_point_literal": {
        const image = this.text(n);
        return { k: "literal", ...span, type: "number", image, value: numberLiteral(image) };
      }
      case "boolean_literal": {
        const image = this.text(n);
        return { k: "literal", ...span, type: "bool", image, value: { kind: "bool", value: image === "true" } };
      }
      case "character_literal": {
        const image = this.text(n);
        return { k: "literal", ...span, type: "char", image, value: charLiteral(image) };
      }
      case "null_literal":
        return { k: "literal", ...span, type: "null", image: "null", value: { kind: "unknown" } };
      case "field_expression":
        return this.fieldExpression(n);
      case "call_expression":
        return this.call(n);
      case "generic_function":
        return this.genericFunction(n);
      case "instance_expression":
        return this.instance(n);
      case "infix_expression":
        return this.infix(n);
      case "prefix_expression": {
        const operand = named(n)[0];
        const op = n.children[0];
        if (!operand || !op) return this.empty(n);
        return { k: "unary", ...span, op: this.text(op), operand: this.expr(operand) };
      }
      case "postfix_expression": {
        const [target, name] = named(n);
        if (!target || !name) return this.empty(n);
        const continued = this.continuedArgs.get(`${n.startIndex}:${n.endIndex}`);
        const args = !continued
          ? []
          : continued.type === "tuple_expression"
            ? named(continued).map((c) => this.argument(c))
            : named(continued)
                .map((c) => this.argument(c))
                .slice(0, 1);
        return {
          k: "call",
          start: n.startIndex,
          end: continued ? continued.endIndex : n.endIndex,
          target: this.expr(target),
          name: identifierText(this.cx.text, name),
          nameStart: name.startIndex,
          nameEnd: name.endIndex,
          args,
        };
      }
      case "assignment_expression":
        return this.assignment(n);
      case "lambda_expression":
        return this.lambda(n);
      case "block":
      case "indented_block":
        return this.blockExpression(n);
      case "case_block":
        return { k: "lambda", ...span, params: [], body: this.blockStatements(n, true) };
      case "parenthesized_expression": {
        const inner = named(n)[0];
        return inner ? this.expr(inner) : this.empty(n);
      }
      case "if_expression": {
        const test = field(n, "condition");
        const yes = field(n, "consequence");
        const no = field(n, "alternative");
        return {
          k: "cond",
          ...span,
          test: test ? this.expr(test) : this.empty(n),
          whenTrue: yes ? this.expr(yes) : this.empty(n),
          whenFalse: no ? this.expr(no) : { k: "other", start: n.endIndex, end: n.endIndex, parts: [] },
        };
      }
      case "match_expression":
      case "try_expression":
      case "while_expression":
      case "do_while_expression":
      case "for_expression":
        // Only some paths run: what is inside counts as conditional, as in a lambda.
        return {
          k: "other",
          ...span,
          parts: [{ k: "lambda", ...span, params: [], body: this.blockStatements(n, true) }],
        };
      case "ascription_expression": {
        const [inner, type] = named(n);
        if (!inner) return this.empty(n);
        return { k: "cast", ...span, type: type ? typeName(this.cx.text, type) : "", expr: this.expr(inner) };
      }
      default:
        return { k: "other", ...span, parts: this.parts(n) };
    }
  }

  /** The evaluated expressions inside a node the lowering does not model. */
  protected parts(n: Node): Expr[] {
    return named(n)
      .filter((c) => !NOT_EVALUATED.test(c.type))
      .map((c) => this.expr(c));
  }

  // ---- member selection and calls

  private fieldExpression(n: Node): Expr {
    const target = field(n, "value");
    const nameNode = field(n, "field");
    if (!target || !nameNode) return { k: "other", start: n.startIndex, end: n.endIndex, parts: this.parts(n) };
    const name = identifierText(this.cx.text, nameNode);
    if (CONVERSION_MEMBERS.has(name))
      return { k: "cast", start: n.startIndex, end: n.endIndex, type: "", expr: this.expr(target) };
    if (this.selectionIsCall(target, name)) return this.callOn(n, target, nameNode, {}, {});
    return {
      k: "field",
      start: n.startIndex,
      end: n.endIndex,
      target: this.expr(target),
      name,
      nameStart: nameNode.startIndex,
      dot: dotOf(n, nameNode) ?? nameNode.startIndex,
    };
  }

  /**
   * `Owner.member` without an argument list is a call when Scala says so: a lower-case member of a class or
   * object name (values of the file's own objects excepted), or a parameterless `def` of the file.
   */
  private selectionIsCall(target: Node, name: string): boolean {
    const owner = dotted(this.cx.text, target);
    if (owner === undefined) return false;
    const simple = owner.slice(owner.lastIndexOf(".") + 1);
    if (owner === "this" || this.cx.ownTypes.has(simple)) {
      // The file's own objects: a `def` is called, a `val` is read (its value is a constant of the file).
      if (!this.cx.parameterless.has(name)) return false;
      this.cx.called.add(name);
      return true;
    }
    return /^[A-Z]/.test(simple) && /^[a-z]/.test(name) && !this.cx.isLocal(owner.split(".")[0]);
  }

  private callOn(n: Node, target: Node, nameNode: Node, a: Partial<Args>, extra: { end?: number }): Expr {
    return {
      k: "call",
      start: n.startIndex,
      end: extra.end ?? n.endIndex,
      target: this.expr(target),
      name: identifierText(this.cx.text, nameNode),
      nameStart: nameNode.startIndex,
      nameEnd: nameNode.endIndex,
      dot: dotOf(target.parent ?? n, nameNode),
      args: a.args ?? [],
      ...(a.kwargs && a.kwargs.length > 0 ? { kwargs: a.kwargs } : {}),
      ...(a.argsEnd !== undefined ? { argsEnd: a.argsEnd } : {}),
    };
  }

  /** `x.m[T]` and `m[T]` without arguments: a call (a value cannot take type arguments); `classOf[T]`. */
  private genericFunction(n: Node): Expr {
    const fn = field(n, "function");
    if (!fn) return this.empty(n);
    if (fn.type === "identifier" && this.text(fn) === "classOf") {
      const type = named(field(n, "type_arguments") ?? n).find((c) => c.type !== "comment");
      return { k: "classLit", start: n.startIndex, end: n.endIndex, type: type ? typeName(this.cx.text, type) : "" };
    }
    if (fn.type === "field_expression") {
      const target = field(fn, "value");
      const nameNode = field(fn, "field");
      if (target && nameNode) {
        const name = identifierText(this.cx.text, nameNode);
        if (name === "asInstanceOf") {
          const type = named(field(n, "type_arguments") ?? n)[0];
          return {
            k: "cast",
            start: n.startIndex,
            end: n.endIndex,
            type: type ? typeName(this.cx.text, type) : "",
            expr: this.expr(target),
          };
        }
        return this.callOn(n, target, nameNode, {}, {});
      }
    }
    if (fn.type === "identifier") return this.applyName(n, fn, { args: [], kwargs: [] }, undefined);
    return { k: "other", start: n.startIndex, end: n.endIndex, parts: [this.expr(fn)] };
  }

  private call(n: Node): Expr {
    let fn = field(n, "function");
    const argsNode = field(n, "arguments");
    if (!fn) return { k: "other", start: n.startIndex, end: n.endIndex, parts: this.parts(n) };
    if (fn.type === "generic_function") fn = field(fn, "function") ?? fn;
    if (fn.type === "identifier" || fn.type === "operator_identifier") {
      return this.applyName(n, fn, this.args(argsNode), argsNode);
    }
    if (fn.type === "field_expression") {
      const target = field(fn, "value");
      const nameNode = field(fn, "field");
      if (target && nameNode) return this.applyMember(n, target, nameNode, argsNode);
    }
    // `f(a)(b)`, `(expr)(x)`: the parts are evaluated, the call is not modelled.
    const a = this.args(argsNode);
    return {
      k: "other",
      start: n.startIndex,
      end: n.endIndex,
      parts: [this.expr(fn), ...a.args, ...a.kwargs.map((k) => k.value)],
    };
  }

  /** `name(args)`: a constructor, a collection, a conversion, or a call of a function. */
  private applyName(n: Node, fn: Node, a: Args, argsNode: Node | null | undefined): Expr {
    const name = identifierText(this.cx.text, fn);
    const span = { start: n.startIndex, end: n.endIndex };
    if (argsNode && MAP_NAMES.has(name) && !this.cx.importsFromJavaUtil(name)) {
      const map = this.mapLiteral(n, argsNode);
      if (map) return map;
    }
    if (argsNode && LIST_NAMES.has(name) && !this.cx.importsFromJavaUtil(name) && a.kwargs.length === 0) {
      return { k: "array", ...span, items: a.args };
    }
    if (CONVERSION_FUNCTIONS.test(name) && a.args.length === 1)
      return { k: "cast", ...span, type: "", expr: a.args[0] };
    if (/^[A-Z]/.test(name) && !this.cx.isLocal(name)) {
      return {
        k: "new",
        ...span,
        type: name,
        typeStart: fn.startIndex,
        typeEnd: fn.endIndex,
        args: a.args,
        ...(a.kwargs.length > 0 ? { kwargs: a.kwargs } : {}),
        ...(a.argsEnd !== undefined ? { argsEnd: a.argsEnd } : {}),
      };
    }
    if (!this.cx.isLocal(name)) this.cx.called.add(name);
    return {
      k: "call",
      ...span,
      name,
      nameStart: fn.startIndex,
      nameEnd: fn.endIndex,
      args: a.args,
      ...(a.kwargs.length > 0 ? { kwargs: a.kwargs } : {}),
      ...(a.argsEnd !== undefined ? { argsEnd: a.argsEnd } : {}),
    };
  }

  /** `target.name(args)`. */
  private applyMember(n: Node, target: Node, nameNode: Node, argsNode: Node | null | undefined): Expr {
    const name = identifierText(this.cx.text, nameNode);
    const owner = dotted(this.cx.text, target);
    const span = { start: n.startIndex, end: n.endIndex };
    const packageOwner = owner !== undefined && isPackagePath(owner) && !this.cx.isLocal(owner.split(".")[0]);
    if (packageOwner && !owner.startsWith("java.") && argsNode) {
      if (MAP_NAMES.has(name)) {
        const map = this.mapLiteral(n, argsNode);
        if (map) return map;
      }
      if (LIST_NAMES.has(name)) return { k: "array", ...span, items: this.args(argsNode).args };
    }
    const a = this.args(argsNode);
    if (packageOwner && /^[A-Z]/.test(name)) {
      return {
        k: "new",
        ...span,
        type: `${owner}.${name}`,
        typeStart: nameNode.startIndex,
        typeEnd: nameNode.endIndex,
        args: a.args,
        ...(a.kwargs.length > 0 ? { kwargs: a.kwargs } : {}),
        ...(a.argsEnd !== undefined ? { argsEnd: a.argsEnd } : {}),
      };
    }
    if (CONVERSION_FUNCTIONS.test(name) && a.args.length === 1 && owner && /^[A-Z]/.test(owner)) {
      return { k: "cast", ...span, type: "", expr: a.args[0] };
    }
    if (owner === "this" || (owner !== undefined && this.cx.ownTypes.has(owner.slice(owner.lastIndexOf(".") + 1))))
      this.cx.called.add(name);
    return this.callOn(n, target, nameNode, a, {});
  }

  /** The arguments of a call: positional, named (`name = value`), or one block / function literal. */
  protected args(n: Node | null | undefined): Args {
    if (!n) return { args: [], kwargs: [] };
    if (n.type === "block" || n.type === "case_block") {
      const only = named(n);
      const arg: Expr =
        only.length === 1 && only[0].type === "lambda_expression"
          ? this.expr(only[0])
          : { k: "lambda", start: n.startIndex, end: n.endIndex, params: [], body: this.blockStatements(n, true) };
      return { args: [arg], kwargs: [] };
    }
    const args: Expr[] = [];
    const kwargs: KwArg[] = [];
    const list = named(n);
    for (const c of list) {
      const left = c.type === "assignment_expression" ? field(c, "left") : undefined;
      const right = c.type === "assignment_expression" ? field(c, "right") : undefined;
      if (left?.type === "identifier" && right) {
        kwargs.push({
          start: c.startIndex,
          end: c.endIndex,
          name: identifierText(this.cx.text, left),
          nameStart: left.startIndex,
          value: this.argument(right),
        });
      } else {
        args.push(this.argument(c));
      }
    }
    const open = n.children[0];
    const last = list[list.length - 1];
    const argsEnd = last ? last.endIndex : open?.type === "(" ? open.endIndex : undefined;
    return { args, kwargs, ...(argsEnd !== undefined ? { argsEnd } : {}) };
  }

  /** An argument; one with a placeholder (`_.split(" ")`, `_ + 1`) is a function literal. */
  private argument(n: Node): Expr {
    const e = this.expr(n);
    if (!hasPlaceholder(n)) return e;
    return { k: "lambda", start: n.startIndex, end: n.endIndex, params: ["_"], body: e };
  }

  // ---- literals of collections

  /** `Map("k" -> v, ("k2", v2))`; undefined when an argument is not a pair (`Map(entries: _*)`). */
  private mapLiteral(n: Node, argsNode: Node): Expr | undefined {
    if (argsNode.type !== "arguments") return undefined;
    const entries: MapLitEntry[] = [];
    for (const c of named(argsNode)) {
      const pair = pairOf(this.cx.text, c);
      if (!pair) return undefined;
      entries.push({
        start: pair[0].start,
        end: pair[1].end,
        key: this.operation(pair[0]),
        value: this.operation(pair[1]),
      });
    }
    const open = argsNode.children[0];
    const close = argsNode.children[argsNode.children.length - 1];
    return {
      k: "mapLit",
      start: n.startIndex,
      end: n.endIndex,
      form: "arrow",
      entries,
      openEnd: open?.type === "(" ? open.endIndex : argsNode.startIndex,
      closeStart: close?.type === ")" ? close.startIndex : argsNode.endIndex,
    };
  }

  // ---- operators

  /**
   * An operator expression. tree-sitter-scala nests every infix chain to the left (`a + b * c` as `(a + b) * c`),
   * so the chain is regrouped by Scala's precedence first.
   */
  private infix(n: Node): Expr {
    const tree = infixTree(this.cx.text, n);
    if (!tree) {
      this.cx.tooDeep(n);
      return this.empty(n);
    }
    return this.operation(tree);
  }

  private operation(t: Infix): Expr {
    if (t.k === "leaf") return this.expr(t.node);
    if (!this.cx.enter(t.op)) return { k: "other", start: t.start, end: t.end, parts: [] };
    try {
      return this.operationInner(t);
    } finally {
      this.cx.leave();
    }
  }

  private operationInner(t: Infix & { k: "op" }): Expr {
    const { left, op, right } = t;
    const span = { start: t.start, end: t.end };
    const operator = identifierText(this.cx.text, op);
    if (op.type === "identifier") {
      // `stream map f`, `a foo (b, c)`: a method call written without the dot.
      const args =
        right.k === "leaf" && right.node.type === "tuple_expression"
          ? named(right.node).map((c) => this.argument(c))
          : right.k === "leaf"
            ? [this.argument(right.node)]
            : [this.operation(right)];
      return {
        k: "call",
        ...span,
        target: this.operation(left),
        name: operator,
        nameStart: op.startIndex,
        nameEnd: op.endIndex,
        args,
      };
    }
    if (operator === "+=" || operator === "++=") {
      const pair = operator === "+=" ? pairOfTree(this.cx.text, right) : undefined;
      if (pair || operator === "++=") {
        return {
          k: "call",
          ...span,
          target: this.operation(left),
          name: pair ? "put" : "putAll",
          nameStart: op.startIndex,
          nameEnd: op.endIndex,
          args: pair ? [this.operation(pair[0]), this.operation(pair[1])] : [this.operation(right)],
        };
      }
    }
    if (isAssignmentOperator(operator)) {
      return { k: "assign", ...span, op: operator, target: this.operation(left), value: this.operation(right) };
    }
    if (SYMBOLIC_BINARY.has(operator))
      return { k: "binary", ...span, op: operator, left: this.operation(left), right: this.operation(right) };
    // `->` outside a map, `::`, `++`, `|>`: both sides are evaluated, the result is not modelled.
    return { k: "other", ...span, parts: [this.operation(left), this.operation(right)] };
  }

  /** `a = b`; `m("k") = v` (an update) puts an entry. */
  private assignment(n: Node): Expr {
    const left = field(n, "left");
    const right = field(n, "right");
    if (!left || !right) return { k: "other", start: n.startIndex, end: n.endIndex, parts: this.parts(n) };
    const span = { start: n.startIndex, end: n.endIndex };
    if (left.type === "call_expression") {
      const fn = field(left, "function");
      const a = this.args(field(left, "arguments"));
      if (fn && (fn.type === "identifier" || fn.type === "field_expression") && a.args.length === 1) {
        return {
          k: "call",
          ...span,
          target: this.expr(fn),
          name: "put",
          nameStart: fn.startIndex,
          nameEnd: fn.endIndex,
          args: [a.args[0], this.expr(right)],
        };
      }
    }
    return { k: "assign", ...span, op: "=", target: this.expr(left), value: this.expr(right) };
  }

  // ---- functions and blocks

  private lambda(n: Node): Expr {
    const paramsNode = field(n, "parameters");
    const params: string[] = [];
    if (paramsNode) {
      if (paramsNode.type === "identifier") params.push(identifierText(this.cx.text, paramsNode));
      else if (paramsNode.type === "wildcard") params.push("_");
      else {
        for (const b of named(paramsNode)) {
          const name = b.type === "binding" ? field(b, "name") : b.type === "identifier" ? b : undefined;
          if (name) params.push(identifierText(this.cx.text, name));
        }
      }
    }
    const kids = named(n);
    const bodyNode = kids[kids.length - 1];
    this.cx.pushScope(params);
    try {
      const body: Expr | Stmt[] =
        !bodyNode || bodyNode === paramsNode
          ? []
          : bodyNode.type === "block" || bodyNode.type === "indented_block"
            ? this.blockStatements(bodyNode, true)
            : this.expr(bodyNode);
      return { k: "lambda", start: n.startIndex, end: n.endIndex, params, body };
    } finally {
      this.cx.popScope();
    }
  }

  /** A block where a value is expected: its one expression, else its parts (statement context hoists blocks). */
  private blockExpression(n: Node): Expr {
    const kids = named(n);
    if (kids.length === 1 && kids[0].type !== "val_definition" && kids[0].type !== "var_definition")
      return this.expr(kids[0]);
    const parts: Expr[] = [];
    for (const s of this.blockStatements(n, false)) {
      if (s.k === "local" && s.init) parts.push(s.init);
      else if ((s.k === "expr" || s.k === "return") && s.expr) parts.push(s.expr);
    }
    return { k: "other", start: n.startIndex, end: n.endIndex, parts };
  }

  // ---- new

  private instance(n: Node): Expr {
    const kids = named(n);
    const typeNode = kids.find((c) => c.type !== "arguments" && c.type !== "template_body");
    const argsNode = kids.find((c) => c.type === "arguments");
    const body = kids.find((c) => c.type === "template_body");
    const a = this.args(argsNode);
    const last = typeNode ? lastTypeIdentifier(typeNode) : undefined;
    return {
      k: "new",
      start: n.startIndex,
      end: n.endIndex,
      type: typeNode ? typeName(this.cx.text, typeNode) : "",
      typeStart: last?.startIndex ?? n.startIndex,
      typeEnd: last?.endIndex ?? n.startIndex,
      args: a.args,
      ...(a.kwargs.length > 0 ? { kwargs: a.kwargs } : {}),
      ...(a.argsEnd !== undefined ? { argsEnd: a.argsEnd } : {}),
      ...(body ? { body: this.anonymousBody(body) } : {}),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers on nodes

/** Offset of the `.` before a member name. */
function dotOf(selection: Node, nameNode: Node): number | undefined {
  for (let i = selection.children.length - 1; i >= 0; i--) {
    const c = selection.children[i];
    if (c.type === "." && c.endIndex <= nameNode.startIndex) return c.startIndex;
  }
  return undefined;
}

/** `a.b.c` for identifiers and selections (without recursion), else undefined. */
export function dotted(text: string, n: Node): string | undefined {
  const names: string[] = [];
  let cur: Node | null = n;
  while (cur) {
    if (cur.type === "identifier") {
      names.unshift(identifierText(text, cur));
      return names.join(".");
    }
    if (cur.type !== "field_expression") return undefined;
    const f = field(cur, "field");
    if (!f) return undefined;
    names.unshift(identifierText(text, f));
    cur = field(cur, "value") ?? null;
  }
  return undefined;
}

/** `java.util`, `mutable`, `scala.collection.mutable`: a package path (every segment lower case). */
function isPackagePath(owner: string): boolean {
  return owner !== "this" && /^[a-z][^.]*(\.[a-z][^.]*)*$/.test(owner);
}

/** `k -> v`, `(k -> v)`, `(k, v)`: the two sides of a pair. */
function pairOf(text: string, n: Node): [Infix, Infix] | undefined {
  let cur = n;
  for (let inner = named(cur); cur.type === "parenthesized_expression" && inner.length === 1; inner = named(cur))
    cur = inner[0];
  if (cur.type === "infix_expression") {
    const tree = infixTree(text, cur);
    return tree ? pairOfTree(text, tree) : undefined;
  }
  if (cur.type === "tuple_expression") {
    const items = named(cur);
    if (items.length === 2) return [leaf(items[0]), leaf(items[1])];
  }
  return undefined;
}

function pairOfTree(text: string, t: Infix): [Infix, Infix] | undefined {
  if (t.k === "leaf") return pairOf(text, t.node);
  const o = text.slice(t.op.startIndex, t.op.endIndex);
  return o === "->" || o === "\u2192" ? [t.left, t.right] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Operator precedence

/** An operator expression regrouped by precedence: leaves are the operands as tree-sitter parsed them. */
type Infix =
  | { k: "leaf"; node: Node; start: number; end: number }
  | { k: "op"; left: Infix; op: Node; right: Infix; start: number; end: number };

function leaf(node: Node): Infix {
  return { k: "leaf", node, start: node.startIndex, end: node.endIndex };
}

function isAssignmentOperator(op: string): boolean {
  return op.endsWith("=") && !NOT_ASSIGNMENT.has(op) && !/^[<>!=]/.test(op);
}

/** Scala's precedence, from the operator's first character; assignment operators lowest. */
function precedence(op: string): number {
  if (isAssignmentOperator(op)) return 0;
  const c = op[0];
  if (/[\p{L}_$]/u.test(c)) return 1;
  const order = ["|", "^", "&", "=!", "<>", ":", "+-", "*/%"];
  const i = order.findIndex((chars) => chars.includes(c));
  return i === -1 ? 10 : i + 2;
}

/**
 * The chain of operators under `n` (tree-sitter nests it to the left) regrouped by precedence, without recursion;
 * undefined when the chain is longer than the lowering goes deep.
 */
function infixTree(text: string, n: Node): Infix | undefined {
  const operands: Node[] = [];
  const ops: Node[] = [];
  let cur: Node = n;
  while (cur.type === "infix_expression") {
    const l = field(cur, "left");
    const o = field(cur, "operator");
    const r = field(cur, "right");
    if (!l || !o || !r) break;
    ops.push(o);
    operands.push(r);
    cur = l;
    if (ops.length > MAX_DEPTH) return undefined;
  }
  operands.push(cur);
  operands.reverse();
  ops.reverse();
  const out: Infix[] = [leaf(operands[0])];
  const stack: { op: Node; prec: number }[] = [];
  const reduce = () => {
    const right = out.pop() as Infix;
    const left = out.pop() as Infix;
    const { op } = stack.pop() as { op: Node; prec: number };
    out.push({ k: "op", left, op, right, start: left.start, end: right.end });
  };
  ops.forEach((op, i) => {
    const o = text.slice(op.startIndex, op.endIndex);
    const prec = precedence(o);
    const rightAssociative = o.endsWith(":");
    while (stack.length > 0) {
      const top = stack[stack.length - 1].prec;
      if (top > prec || (top === prec && !rightAssociative)) reduce();
      else break;
    }
    stack.push({ op, prec });
    out.push(leaf(operands[i + 1]));
  });
  while (stack.length > 0) reduce();
  return out[0];
}

/**
 * Whether an argument is a placeholder function (`_.split(" ")`, `_ + 1`, `f(_)`): a `_` on the expression's
 * spine (receivers, operands, arguments of the outer call), looked for a few levels deep.
 */
function hasPlaceholder(n: Node): boolean {
  const queue: { node: Node; depth: number }[] = [{ node: n, depth: 0 }];
  while (queue.length > 0) {
    const { node, depth } = queue.pop() as { node: Node; depth: number };
    if (node.type === "wildcard") return true;
    if (depth >= 6) continue;
    const next: (Node | undefined)[] = [];
    switch (node.type) {
      case "field_expression":
        next.push(field(node, "value"));
        break;
      case "call_expression":
        next.push(field(node, "function"));
        if (depth === 0 || node === n) {
          const a = field(node, "arguments");
          if (a?.type === "arguments") pushAll(next, named(a));
        }
        break;
      case "generic_function":
        next.push(field(node, "function"));
        break;
      case "infix_expression":
        next.push(field(node, "left"), field(node, "right"));
        break;
      case "prefix_expression":
      case "parenthesized_expression":
      case "tuple_expression":
        pushAll(next, named(node));
        break;
    }
    for (const c of next) if (c) queue.push({ node: c, depth: depth + 1 });
  }
  return false;
}

/** The identifier that names a type (`FlinkKafkaConsumer` in `FlinkKafkaConsumer[String]`). */
function lastTypeIdentifier(n: Node): Node | undefined {
  let cur: Node | undefined = n;
  for (let i = 0; cur && i < 20; i++) {
    if (cur.type === "type_identifier") return cur;
    if (cur.type === "generic_type") cur = field(cur, "type");
    else if (cur.type === "stable_type_identifier" || cur.type === "compound_type") {
      const kids = named(cur);
      cur = cur.type === "compound_type" ? kids[0] : kids[kids.length - 1];
    } else return undefined;
  }
  return undefined;
}

/** A type as the extractor reads it: `Map[String, AnyRef]` is `Map`, `java.util.Properties` stays qualified. */
export function typeName(text: string, n: Node): string {
  let cur: Node = n;
  for (let i = 0; i < 20; i++) {
    if (cur.type === "generic_type") {
      const base = field(cur, "type");
      if (!base) break;
      cur = base;
    } else if (cur.type === "compound_type" || cur.type === "annotated_type") {
      const first = named(cur)[0];
      if (!first) break;
      cur = first;
    } else if (cur.type === "repeated_parameter_type" || cur.type === "lazy_parameter_type") {
      const inner = field(cur, "type") ?? named(cur)[0];
      if (!inner) break;
      cur = inner;
    } else break;
  }
  return text.slice(cur.startIndex, cur.endIndex).replace(/\s+/g, "");
}
