/**
 * A small syntax tree for the parts of Java the reader needs, built from java-parser's concrete syntax tree, which
 * is an order of magnitude larger: each parse unit (a class member, a statement) is parsed, converted and its CST
 * dropped at once, so memory stays bounded on long files.
 *
 * Offsets are absolute in the file (the unit's start is added), `end` is exclusive. Statements come as a flat list
 * in source order; those that only run on some paths (if/else, loops, switch, catch, lambda bodies) are marked
 * `conditional`.
 */
import { pushAll } from "../../arrays";
import { dottedName, type Expr, type Member, type Param, type Span, type Stmt } from "../../jobcode/ir";

type JavaParser = typeof import("java-parser", { with: { "resolution-mode": "import" }});

/** The parts of java-parser's CST this file reads (its own typings are too narrow to walk generically). */
interface CstNode {
  name: string;
  children: Record<string, CstElement[] | undefined>;
  location: { startOffset: number; endOffset: number };
}

interface IToken {
  image: string;
  startOffset: number;
  endOffset: number;
  tokenType: { name: string };
}

type CstElement = CstNode | IToken;

let loaded: JavaParser | undefined;

/** java-parser builds its grammar on load (about half a second): only files that need it pay for it. */
function javaParser(): JavaParser {
  loaded ??= require("java-parser") as JavaParser;
  return loaded;
}

export type ParseRule = "classBodyDeclaration" | "recordBodyDeclaration" | "blockStatements" | "expression";

export type ParseResult =
  | { ok: true; members: Member[]; stmts: Stmt[]; expr?: Expr }
  /** `tooDeep`: the parser (or the conversion) ran out of stack, not a syntax error. */
  | { ok: false; message: string; line?: number; column?: number; tooDeep?: true };

function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

const TOO_DEEP = { ok: false, message: "nested too deeply for the Java parser", tooDeep: true } as const;

/** Parses one unit; never throws. `base` is the unit's offset in the file. */
export function parseUnit(text: string, rule: ParseRule, base: number): ParseResult {
  let cst: CstNode;
  try {
    cst = javaParser().lexAndParse(text, rule).cst as unknown as CstNode;
  } catch (e) {
    if (isStackOverflow(e)) return TOO_DEEP;
    return { ok: false, ...describeError(text, e instanceof Error ? e.message : String(e)) };
  }
  try {
    const c = new Converter(base);
    let result: ParseResult;
    if (rule === "expression") result = { ok: true, members: [], stmts: [], expr: c.expression(cst) };
    else if (rule === "blockStatements") result = { ok: true, members: [], stmts: c.statements(cst, false) };
    else {
      const members = rule === "recordBodyDeclaration" ? c.recordBodyDeclaration(cst) : c.classBodyDeclaration(cst);
      result = { ok: true, members, stmts: [] };
    }
    // What reads the tree walks it recursively: a tree this deep (`a.b().b()…` 20,000 times) is not handed on.
    return treeDepth(result, MAX_TREE_DEPTH) > MAX_TREE_DEPTH ? TOO_DEEP : result;
  } catch (e) {
    if (isStackOverflow(e)) return TOO_DEEP;
    return { ok: false, message: `unsupported syntax (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** Nesting of objects and arrays in a converted tree beyond which it is not handed on (see parseUnit). */
export const MAX_TREE_DEPTH = 1000;

/** How deeply objects and arrays nest in `value`, counted without recursion, up to `limit + 1`. */
function treeDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth > max) {
      max = depth;
      if (max > limit) return max;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return max;
}

/** java-parser's message ("Sad sad panda, parsing errors detected in line: 1, column: 14! …") made short. */
function describeError(text: string, raw: string): { message: string; line?: number; column?: number } {
  const at = /line: (\d+), column: (\d+)/.exec(raw);
  const line = at ? Number(at[1]) : undefined;
  const column = at ? Number(at[2]) : undefined;
  const second = raw.split("\n")[1] ?? "";
  const expecting = /^Expecting --> (.*?) <-- but found --> (.*?) <--/.exec(second);
  const character = /unexpected character: ->(.*)<-/.exec(second);
  let message: string;
  if (expecting) message = `expected ${expecting[1]} but found ${expecting[2] === "" ? "the end" : expecting[2]}`;
  else if (character) message = `unexpected character ${character[1]}`;
  else if (line !== undefined && column !== undefined) {
    const found = /^\s*(\S{1,20})/.exec(text.split(/\r?\n/)[line - 1]?.slice(column - 1) ?? "");
    message = found ? `unexpected '${found[1]}'` : "unexpected end of input";
  } else message = "incomplete code";
  return { message, line, column };
}

// ---------------------------------------------------------------------------------------------
// CST helpers

function isToken(e: CstElement): e is IToken {
  return (e as IToken).image !== undefined;
}

function startOf(e: CstElement): number {
  return isToken(e) ? e.startOffset : e.location.startOffset;
}

function endOf(e: CstElement): number {
  return (isToken(e) ? e.endOffset : e.location.endOffset) + 1;
}

const NO_CHILDREN: CstElement[] = [];

/**
 * Children of a node in source order (read only: a node with one kind of child gives the parser's own list, which
 * is in source order already). Most nodes have one or two kinds, so the sort is skipped when the lists follow each
 * other.
 */
function ordered(n: CstNode): CstElement[] {
  let only: CstElement[] | undefined;
  let kinds = 0;
  for (const key in n.children) {
    const list = n.children[key];
    if (list && list.length > 0) {
      only = list;
      kinds++;
    }
  }
  if (kinds <= 1) return only ?? NO_CHILDREN;
  const all: CstElement[] = [];
  for (const key in n.children) {
    const list = n.children[key];
    if (list) pushAll(all, list);
  }
  for (let i = 1; i < all.length; i++) {
    if (startOf(all[i]) < startOf(all[i - 1])) return all.sort((a, b) => startOf(a) - startOf(b));
  }
  return all;
}

function child(n: CstNode, name: string): CstNode | undefined {
  const c = n.children[name]?.[0];
  return c && !isToken(c) ? c : undefined;
}

function nodes(n: CstNode, name: string): CstNode[] {
  return (n.children[name] ?? []).filter((c): c is CstNode => !isToken(c));
}

function tokens(n: CstNode, name: string): IToken[] {
  return (n.children[name] ?? []).filter(isToken);
}

function* allTokens(e: CstElement): Generator<IToken> {
  if (isToken(e)) {
    yield e;
    return;
  }
  for (const c of ordered(e)) yield* allTokens(c);
}

/** `Map<String, Object>` is `Map`, `KafkaIO.Read<K, V>` is `KafkaIO.Read`, `int[]` is `int`. */
function typeName(n: CstNode | undefined): string {
  if (!n) return "";
  const names: string[] = [];
  const visit = (e: CstElement): void => {
    if (isToken(e)) {
      if (e.tokenType.name !== "Dot" && !/^[[\]@]$/.test(e.image)) names.push(e.image);
      return;
    }
    if (e.name === "typeArguments" || e.name === "annotation" || e.name === "dims") return;
    for (const c of ordered(e)) visit(c);
  };
  visit(n);
  return names.join(".");
}

const PRECEDENCE: Record<string, number> = {
  "||": 1,
  "&&": 2,
  "|": 3,
  "^": 4,
  "&": 5,
  "==": 6,
  "!=": 6,
  "<": 7,
  ">": 7,
  "<=": 7,
  ">=": 7,
  "<<": 8,
  ">>": 8,
  ">>>": 8,
  "+": 9,
  "-": 9,
  "*": 10,
  "/": 10,
  "%": 10,
};

const CONDITIONAL_CONTAINERS = new Set([
  "ifStatement",
  "whileStatement",
  "doStatement",
  "forStatement",
  "switchStatement",
  "catches",
]);

class Converter {
  constructor(private readonly base: number) {}

  private s(e: CstElement): number {
    return startOf(e) + this.base;
  }

  private e(e: CstElement): number {
    return endOf(e) + this.base;
  }

  private span(e: CstElement): Span {
    return { start: this.s(e), end: this.e(e) };
  }

  // ---- class members

  classBodyDeclaration(n: CstNode): Member[] {
    const inner = ordered(n)[0];
    if (!inner || isToken(inner)) return [];
    switch (inner.name) {
      case "classMemberDeclaration": {
        const m = ordered(inner)[0];
        if (!m || isToken(m)) return [];
        if (m.name === "fieldDeclaration") return [this.field(m)];
        if (m.name === "methodDeclaration") return [this.method(m)];
        if (m.name === "classDeclaration" || m.name === "interfaceDeclaration") return [this.typeDeclaration(m)];
        return [];
      }
      case "instanceInitializer":
      case "staticInitializer":
        return [{ k: "init", ...this.span(inner), body: this.statements(inner, false) }];
      case "constructorDeclaration": {
        const declarator = child(inner, "constructorDeclarator");
        return [
          {
            k: "method",
            ...this.span(inner),
            name: "<init>",
            params: this.params(declarator),
            body: this.statements(child(inner, "constructorBody") ?? inner, false),
            returnType: "",
          },
        ];
      }
      default:
        return [];
    }
  }

  /** A record's members, or its compact constructor (`R { … }`). */
  recordBodyDeclaration(n: CstNode): Member[] {
    const compact = child(n, "compactConstructorDeclaration");
    if (!compact) return this.classBodyDeclaration(child(n, "classBodyDeclaration") ?? n);
    const body = child(compact, "constructorBody") ?? compact;
    return [
      {
        k: "method",
        ...this.span(compact),
        name: "<init>",
        params: [],
        body: this.statements(body, false),
        returnType: "",
      },
    ];
  }

  private typeDeclaration(n: CstNode): Member {
    const members: Member[] = [];
    const visit = (e: CstNode): void => {
      for (const c of ordered(e)) {
        if (isToken(c)) continue;
        if (c.name === "classBodyDeclaration") {
          pushAll(members, this.classBodyDeclaration(c));
        } else if (c.name === "recordBodyDeclaration") {
          pushAll(members, this.recordBodyDeclaration(c));
        } else if (c.name === "interfaceMemberDeclaration") {
          const m = ordered(c)[0];
          if (m && !isToken(m) && m.name === "interfaceMethodDeclaration") members.push(this.method(m));
        } else {
          visit(c);
        }
      }
    };
    visit(n);
    return { k: "class", ...this.span(n), members };
  }

  private field(n: CstNode): Member {
    const modifiers = nodes(n, "fieldModifier").flatMap((m) =>
      tokens(m, Object.keys(m.children)[0]).map((t) => t.image),
    );
    return {
      k: "field",
      ...this.span(n),
      modifiers,
      type: typeName(child(n, "unannType")),
      declarators: this.declarators(child(n, "variableDeclaratorList")),
    };
  }

  private declarators(list: CstNode | undefined): { name: string; nameStart: number; init?: Expr }[] {
    if (!list) return [];
    return nodes(list, "variableDeclarator").map((d) => {
      const id = tokens(child(d, "variableDeclaratorId") ?? d, "Identifier")[0];
      const init = child(d, "variableInitializer");
      return {
        name: id?.image ?? "",
        nameStart: id ? this.s(id) : this.s(d),
        init: init ? this.initializer(init) : undefined,
      };
    });
  }

  private initializer(n: CstNode): Expr {
    const inner = child(n, "expression");
    if (inner) return this.expression(inner);
    return this.arrayInitializer(child(n, "arrayInitializer") ?? n);
  }

  private arrayInitializer(n: CstNode): Expr {
    const list = child(n, "variableInitializerList");
    const items = list ? nodes(list, "variableInitializer").map((v) => this.initializer(v)) : [];
    return { k: "array", ...this.span(n), items };
  }

  private method(n: CstNode): Member {
    const header = child(n, "methodHeader") ?? n;
    const declarator = child(header, "methodDeclarator");
    const name = declarator ? (tokens(declarator, "Identifier")[0]?.image ?? "") : "";
    const body = child(n, "methodBody");
    return {
      k: "method",
      ...this.span(n),
      name,
      params: this.params(declarator),
      body: body ? this.statements(body, false) : [],
      returnType: typeName(child(header, "result")),
    };
  }

  private params(declarator: CstNode | undefined): Param[] {
    const list = declarator && child(declarator, "formalParameterList");
    if (!list) return [];
    return nodes(list, "formalParameter").map((p) => {
      const inner = child(p, "variableParaRegularParameter") ?? child(p, "variableArityParameter") ?? p;
      const id = child(inner, "variableDeclaratorId");
      return {
        type: typeName(child(inner, "unannType")),
        name: id ? (tokens(id, "Identifier")[0]?.image ?? "") : (tokens(inner, "Identifier")[0]?.image ?? ""),
      };
    });
  }

  // ---- statements

  /** Every statement under `n`, flattened in source order. */
  statements(n: CstNode, conditional: boolean): Stmt[] {
    const out: Stmt[] = [];
    this.collect(n, conditional, out);
    return out;
  }

  private collect(n: CstNode, conditional: boolean, out: Stmt[]): void {
    switch (n.name) {
      case "localVariableDeclarationStatement":
      case "localVariableDeclaration": {
        const decl = child(n, "localVariableDeclaration") ?? n;
        const type = typeName(child(decl, "localVariableType"));
        for (const d of this.declarators(child(decl, "variableDeclaratorList"))) {
          out.push({ k: "local", ...this.span(n), type, ...d, conditional });
        }
        return;
      }
      case "expressionStatement": {
        const e = child(child(n, "statementExpression") ?? n, "expression");
        if (e) out.push({ k: "expr", ...this.span(n), expr: this.expression(e), conditional });
        return;
      }
      case "returnStatement": {
        const e = child(n, "expression");
        out.push({ k: "return", ...this.span(n), expr: e ? this.expression(e) : undefined, conditional });
        return;
      }
      case "classDeclaration":
      case "interfaceDeclaration":
        out.push({
          k: "class",
          ...this.span(n),
          members: (this.typeDeclaration(n) as { members: Member[] }).members,
          conditional,
        });
        return;
      case "expression":
        out.push({ k: "expr", ...this.span(n), expr: this.expression(n), conditional });
        return;
    }
    const inner = conditional || CONDITIONAL_CONTAINERS.has(n.name);
    for (const c of ordered(n)) {
      if (isToken(c)) continue;
      // The condition of an `if` always runs; only its branches are conditional.
      const cond = n.name === "ifStatement" && c.name === "expression" ? conditional : inner;
      this.collect(c, cond, out);
    }
  }

  // ---- expressions

  expression(n: CstNode): Expr {
    const lambda = child(n, "lambdaExpression");
    if (lambda) return this.lambda(lambda);
    const cond = child(n, "conditionalExpression");
    if (cond) return this.conditional(cond);
    return this.other(n);
  }

  private lambda(n: CstNode): Expr {
    const params = [...allTokens(child(n, "lambdaParameters") ?? n)]
      .filter((t) => t.tokenType.name === "Identifier")
      .map((t) => t.image);
    const body = child(n, "lambdaBody");
    const expr = body && child(body, "expression");
    const block = body && child(body, "block");
    return {
      k: "lambda",
      ...this.span(n),
      params,
      body: expr ? this.expression(expr) : block ? this.statements(block, true) : [],
    };
  }

  private conditional(n: CstNode): Expr {
    const test = this.binary(child(n, "binaryExpression") ?? n);
    const branches = nodes(n, "expression");
    if (branches.length !== 2) return test;
    return {
      k: "cond",
      ...this.span(n),
      test,
      whenTrue: this.expression(branches[0]),
      whenFalse: this.expression(branches[1]),
    };
  }

  private binary(n: CstNode): Expr {
    const operands: Expr[] = [];
    const ops: string[] = [];
    const parts = ordered(n);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (isToken(p)) {
        if (p.tokenType.name === "Instanceof" || p.image === "instanceof") {
          // `x instanceof T`: a boolean the reader never needs; keep the operand's inner expressions.
          const left = operands.pop();
          operands.push({
            k: "other",
            start: left?.start ?? this.s(p),
            end: this.e(parts[i + 1] ?? p),
            parts: left ? [left] : [],
          });
          i++;
        } else if (n.children.AssignmentOperator?.includes(p)) {
          const target = fold(operands, ops);
          const value = parts[i + 1];
          const v = value && !isToken(value) ? this.expression(value) : this.other(n);
          return { k: "assign", start: target.start, end: v.end, op: p.image, target, value: v };
        } else {
          ops.push(p.image);
        }
      } else if (p.name === "unaryExpression") {
        operands.push(this.unary(p));
      } else if (p.name === "shiftOperator") {
        ops.push([...allTokens(p)].map((t) => t.image).join(""));
      }
    }
    return fold(operands, ops);
  }

  private unary(n: CstNode): Expr {
    const primary = child(n, "primary");
    let e = primary ? this.primary(primary) : this.other(n);
    const suffix = tokens(n, "UnarySuffixOperator");
    for (const t of suffix) e = { k: "unary", start: e.start, end: this.e(t), op: t.image, operand: e };
    const prefix = tokens(n, "UnaryPrefixOperator");
    for (let i = prefix.length - 1; i >= 0; i--) {
      e = { k: "unary", start: this.s(prefix[i]), end: e.end, op: prefix[i].image, operand: e };
    }
    return e;
  }

  private primary(n: CstNode): Expr {
    const prefix = child(n, "primaryPrefix");
    let cur = prefix ? this.primaryPrefix(prefix) : this.other(n);
    for (const suffix of nodes(n, "primarySuffix")) cur = this.suffix(cur, suffix);
    return cur;
  }

  private primaryPrefix(n: CstNode): Expr {
    const inner = ordered(n)[0];
    if (!inner) return this.other(n);
    if (isToken(inner)) return { k: "name", ...this.span(inner), name: inner.image };
    switch (inner.name) {
      case "literal":
        return this.literal(inner);
      case "fqnOrRefType":
        return this.qualifiedName(inner);
      case "parenthesisExpression": {
        const e = child(inner, "expression");
        return e ? this.expression(e) : this.other(inner);
      }
      case "castExpression": {
        const c = ordered(inner)[0];
        if (!c || isToken(c)) return this.other(inner);
        const type = typeName(child(c, "primitiveType") ?? child(c, "referenceType"));
        const operand = child(c, "unaryExpression") ?? child(c, "unaryExpressionNotPlusMinus");
        const lambda = child(c, "lambdaExpression");
        const expr = lambda ? this.lambda(lambda) : operand ? this.unary(operand) : this.other(c);
        return { k: "cast", ...this.span(inner), type, expr };
      }
      case "newExpression":
        return this.newExpression(inner);
      case "unannPrimitiveTypeWithOptionalDimsSuffix":
        return { k: "name", ...this.span(inner), name: typeName(inner) };
      default:
        return this.other(inner);
    }
  }

  /** `a.b.c` as nested field accesses on the name `a`; a following call turns the last one into a call. */
  private qualifiedName(n: CstNode): Expr {
    let cur: Expr | undefined;
    let dot = -1;
    for (const part of ordered(n)) {
      if (isToken(part)) {
        if (part.tokenType.name === "Dot") dot = this.s(part);
        continue;
      }
      if (part.name !== "fqnOrRefTypePartFirst" && part.name !== "fqnOrRefTypePartRest") continue;
      const common = child(part, "fqnOrRefTypePartCommon");
      const id = common && (tokens(common, "Identifier")[0] ?? tokens(common, "Super")[0]);
      if (!id) continue;
      cur = cur
        ? { k: "field", start: cur.start, end: this.e(id), target: cur, name: id.image, nameStart: this.s(id), dot }
        : { k: "name", ...this.span(id), name: id.image };
    }
    return cur ?? this.other(n);
  }

  private suffix(cur: Expr, n: CstNode): Expr {
    const inner = ordered(n);
    const head = inner[0];
    if (!head) return cur;
    if (isToken(head) && head.tokenType.name === "Dot") {
      const id = tokens(n, "Identifier")[0];
      if (id)
        return {
          k: "field",
          start: cur.start,
          end: this.e(id),
          target: cur,
          name: id.image,
          nameStart: this.s(id),
          dot: this.s(head),
        };
      const creation = child(n, "unqualifiedClassInstanceCreationExpression");
      const parts = [cur];
      if (creation) parts.push(this.instanceCreation(creation));
      return { k: "other", start: cur.start, end: this.e(n), parts };
    }
    if (isToken(head)) return cur;
    switch (head.name) {
      case "methodInvocationSuffix": {
        const list = child(head, "argumentList");
        const args = list ? nodes(list, "expression").map((a) => this.expression(a)) : [];
        const end = this.e(head);
        if (cur.k === "name") {
          return { k: "call", start: cur.start, end, name: cur.name, nameStart: cur.start, nameEnd: cur.end, args };
        }
        if (cur.k === "field") {
          return {
            k: "call",
            start: cur.start,
            end,
            target: cur.target,
            name: cur.name,
            nameStart: cur.nameStart,
            nameEnd: cur.nameStart + cur.name.length,
            dot: cur.dot,
            args,
          };
        }
        return { k: "other", start: cur.start, end, parts: [cur, ...args] };
      }
      case "classLiteralSuffix":
        return { k: "classLit", start: cur.start, end: this.e(head), type: dottedName(cur) ?? "" };
      case "arrayAccessSuffix": {
        const index = child(head, "expression");
        return {
          k: "other",
          start: cur.start,
          end: this.e(head),
          parts: index ? [cur, this.expression(index)] : [cur],
        };
      }
      default:
        return { k: "other", start: cur.start, end: this.e(head), parts: [cur] };
    }
  }

  private newExpression(n: CstNode): Expr {
    const creation = child(n, "unqualifiedClassInstanceCreationExpression");
    if (creation) return this.instanceCreation(creation);
    const array = child(n, "arrayCreationExpression");
    const withInit = array && child(array, "arrayCreationWithInitializerSuffix");
    const init = withInit && child(withInit, "arrayInitializer");
    if (init) return { ...this.arrayInitializer(init), ...this.span(n) };
    return this.other(n);
  }

  private instanceCreation(n: CstNode): Expr {
    const type = child(n, "classOrInterfaceTypeToInstantiate");
    const ids = type ? tokens(type, "Identifier") : [];
    const list = child(n, "argumentList");
    const body = child(n, "classBody");
    const last = ids[ids.length - 1];
    return {
      k: "new",
      ...this.span(n),
      type: ids.map((t) => t.image).join("."),
      typeStart: last ? this.s(last) : this.s(n),
      typeEnd: last ? this.e(last) : this.s(n),
      args: list ? nodes(list, "expression").map((a) => this.expression(a)) : [],
      body: body ? nodes(body, "classBodyDeclaration").flatMap((d) => this.classBodyDeclaration(d)) : undefined,
    };
  }

  private literal(n: CstNode): Expr {
    const t = allTokens(n).next().value as IToken | undefined;
    if (!t) return this.other(n);
    const name = t.tokenType.name;
    const type =
      name === "StringLiteral"
        ? "string"
        : name === "TextBlock"
          ? "text"
          : name === "CharLiteral"
            ? "char"
            : name === "True" || name === "False"
              ? "bool"
              : name === "Null"
                ? "null"
                : "number";
    return { k: "literal", ...this.span(n), type, image: t.image };
  }

  /** A node the reader does not model: keep the expressions inside it, so calls in them are still seen. */
  private other(n: CstNode): Expr {
    const parts: Expr[] = [];
    const visit = (e: CstNode): void => {
      for (const c of ordered(e)) {
        if (isToken(c)) continue;
        if (c.name === "expression") parts.push(this.expression(c));
        else visit(c);
      }
    };
    visit(n);
    return { k: "other", ...this.span(n), parts };
  }
}

/** Folds operands and binary operators by Java's precedence (all left-associative). */
function fold(operands: Expr[], ops: string[]): Expr {
  const out: Expr[] = [];
  const stack: string[] = [];
  const reduce = () => {
    const right = out.pop() as Expr;
    const left = out.pop() as Expr;
    out.push({ k: "binary", start: left.start, end: right.end, op: stack.pop() as string, left, right });
  };
  operands.forEach((operand, i) => {
    if (i > 0) {
      const op = ops[i - 1] ?? "?";
      while (stack.length > 0 && (PRECEDENCE[stack[stack.length - 1]] ?? 0) >= (PRECEDENCE[op] ?? 0)) reduce();
      stack.push(op);
    }
    out.push(operand);
  });
  while (stack.length > 0 && out.length > 1) reduce();
  return out[0] ?? { k: "other", start: 0, end: 0, parts: [] };
}

/** `a.b.C` for names and field chains; undefined for anything else. */
