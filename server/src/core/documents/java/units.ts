/**
 * Splits a Java file into units that are parsed one at a time: the members of every class (methods, fields,
 * initializers, constructors; nested classes are split into their own members), so a member that does not parse
 * (half-typed in the editor) hides nothing in the others. A file without a class is a pasted snippet: a list of
 * statements, one expression, or class members without their class.
 */
import type { ParseRule } from "./syntax";
import type { Token } from "./tokens";

export interface Unit {
  start: number;
  end: number;
  rule: ParseRule;
  /** Why the unit is not handed to the parser (see hazardOf), in words that follow "it". */
  hazard?: string;
  /** Offsets of the member's name (a method's, a field's), or of its first token: where a note about it points. */
  nameStart: number;
  nameEnd: number;
  /** What the unit is, in words: "method" (constructors too), "field", "initializer block", "statement", "member". */
  what: string;
}

const TYPE_KEYWORDS = new Set(["class", "interface", "enum", "record"]);

/** Whether token `i` starts a type declaration (`class X`, `enum X`, `record X(`, `@interface X`). */
function isTypeKeyword(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  if (t.kind !== "identifier" || !TYPE_KEYWORDS.has(t.text)) return false;
  const prev = tokens[i - 1];
  if (prev?.text === "." || prev?.text === ":") return false;
  const name = tokens[i + 1];
  if (name?.kind !== "identifier") return false;
  return t.text !== "record" || tokens[i + 2]?.text === "(" || tokens[i + 2]?.text === "<";
}

/**
 * Index of the token that closes the bracket opened at `open` (or the last token when it is never closed). Braces
 * win over parentheses: a `}` closes its `{` even when a `(` inside was left open, so a half-typed call stays
 * inside its method instead of swallowing the rest of the file.
 *
 * The open brackets are a stack that also keeps, for each height, where the nearest `(`, `[` and `{` at or below it
 * are, so every token costs the same however deep the nesting (100,000 levels are read in linear time).
 */
function closing(tokens: Token[], open: number): number {
  // Per height: where the nearest `(`, `[` and `{` at or below it are (-1: none), in typed arrays that double.
  let paren = new Int32Array(64);
  let square = new Int32Array(64);
  let brace = new Int32Array(64);
  let height = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i].kind !== "punctuation") continue;
    const t = tokens[i].text;
    if (t === "{" || t === "(" || t === "[") {
      if (height === paren.length) {
        paren = grow(paren);
        square = grow(square);
        brace = grow(brace);
      }
      const below = height - 1;
      paren[height] = t === "(" ? height : below >= 0 ? paren[below] : -1;
      square[height] = t === "[" ? height : below >= 0 ? square[below] : -1;
      brace[height] = t === "{" ? height : below >= 0 ? brace[below] : -1;
      height++;
    } else if (height > 0 && t === "}") {
      // Everything above the nearest `{`, and the brace itself, is closed (all of it when there is none).
      height = Math.max(brace[height - 1], 0);
    } else if (height > 0 && (t === ")" || t === "]")) {
      const nearest = (t === ")" ? paren : square)[height - 1];
      if (nearest >= 0 && nearest > brace[height - 1]) height = nearest;
    }
    if (height === 0) return i;
  }
  return tokens.length - 1;
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * Units nesting brackets deeper than this are not parsed: java-parser recurses per level and runs out of stack at a
 * few hundred, and nothing real nests this deep. They are reported as not analysed (BFL003) instead.
 */
export const MAX_PARSE_DEPTH = 100;

/** More parentheses holding a cast or an assignment nested in one another than this, and java-parser slows down. */
const MAX_AMBIGUOUS_NESTING = 4;
/** More `=` at one level of one statement (`a = b = c = …`), or `<` at the start of one (`a < b < …`), than this. */
const MAX_CHAINED = 16;
/** More member accesses or operators at one level of one statement than this make a tree too deep to hand on. */
const MAX_OPERATORS = 900;

const OPERATORS = new Set([".", "+", "-", "*", "/", "%", "&", "|", "^", "?", ":"]);
const COMPARISON_BEFORE = new Set(["=", "!", "<", ">"]);

interface Frame {
  open: string;
  /** Index of the opening token. */
  at: number;
  /** Per statement at this level: assignments, `<`, operators. */
  assignments: number;
  less: number;
  operators: number;
  /** The parentheses hold a cast or an assignment at their own level (java-parser must look far ahead). */
  ambiguous: boolean;
}

/**
 * Why java-parser should not be given tokens [first, last], or undefined when it may: brackets nested more than
 * MAX_PARSE_DEPTH deep, or a shape the parser takes exponential or cubic time on (parenthesised casts or
 * assignments nested in one another, long `=` or `<` chains in one statement), or a statement so long at one level
 * that its tree is too deep. One pass over the tokens, whatever they hold.
 */
function hazardOf(tokens: Token[], first: number, last: number): string | undefined {
  const frames: Frame[] = [{ open: "", at: first - 1, assignments: 0, less: 0, operators: 0, ambiguous: false }];
  let ambiguousOpen = 0;
  const mark = (f: Frame) => {
    if (f.open === "(" && !f.ambiguous) {
      f.ambiguous = true;
      ambiguousOpen++;
    }
  };
  for (let i = first; i <= last; i++) {
    const t = tokens[i];
    const top = frames[frames.length - 1];
    if (t.kind !== "punctuation") continue;
    const c = t.text;
    if (c === "(" || c === "[" || c === "{") {
      frames.push({ open: c, at: i, assignments: 0, less: 0, operators: 0, ambiguous: false });
      if (frames.length - 1 > MAX_PARSE_DEPTH) return `it nests brackets more than ${MAX_PARSE_DEPTH} deep`;
    } else if (c === ")" || c === "]" || c === "}") {
      if (frames.length === 1) continue;
      const closed = frames.pop() as Frame;
      if (closed.ambiguous) ambiguousOpen--;
      // `(Type) operand` and `(a.b.C) operand` are casts: the parser must read past them to tell.
      if (closed.open === "(" && c === ")" && isCast(tokens, closed.at, i)) mark(frames[frames.length - 1]);
    } else if (c === ";" || c === ",") {
      top.assignments = 0;
      top.less = 0;
      top.operators = 0;
    } else if (c === "=") {
      const prev = tokens[i - 1]?.text ?? "";
      if (tokens[i + 1]?.text === "=" || COMPARISON_BEFORE.has(prev)) continue;
      mark(top);
      if (++top.assignments > MAX_CHAINED) return "it chains too many assignments in one statement";
    } else if (c === "<" && top.open !== "(" && top.open !== "[") {
      if (++top.less > MAX_CHAINED) return "it chains too many comparisons in one statement";
    } else if (OPERATORS.has(c) && ++top.operators > MAX_OPERATORS) {
      return "one of its statements is too long";
    }
    if (ambiguousOpen > MAX_AMBIGUOUS_NESTING) {
      return "it nests casts or assignments in parentheses too deeply";
    }
  }
  return undefined;
}

/** Whether `(` at `open` and `)` at `close` enclose only a (qualified) type name followed by an operand. */
function isCast(tokens: Token[], open: number, close: number): boolean {
  if (close - open < 2) return false;
  const before = tokens[open - 1];
  if (before && (before.kind === "identifier" || before.text === ")" || before.text === "]")) return false;
  for (let k = open + 1; k < close; k++) {
    const t = tokens[k];
    if (t.kind !== "identifier" && t.text !== ".") return false;
  }
  const next = tokens[close + 1];
  return next !== undefined && (next.kind !== "punctuation" || next.text === "(" || /^[0-9!~]$/.test(next.text));
}

/** A unit of tokens [first, last], with the token that names it and why it is not parsed, if it is not. */
function unitOf(tokens: Token[], first: number, last: number, rule: ParseRule): Unit {
  const hazard = hazardOf(tokens, first, last);
  const unit = (name: Token, what: string): Unit => ({
    start: tokens[first].start,
    end: tokens[last].end,
    rule,
    ...(hazard ? { hazard } : {}),
    nameStart: name.start,
    nameEnd: name.end,
    what,
  });
  let depth = 0;
  for (let i = first; i <= last; i++) {
    const t = tokens[i];
    if (t.kind === "punctuation") {
      if (t.text === "(" || t.text === "[" || t.text === "{") {
        if (depth === 0 && t.text === "{") break;
        depth++;
      } else if ((t.text === ")" || t.text === "]" || t.text === "}") && depth > 0) depth--;
      continue;
    }
    if (depth > 0 || t.kind !== "identifier" || tokens[i - 1]?.text === "@" || tokens[i - 1]?.text === ".") continue;
    const next = tokens[i + 1]?.text;
    if (rule === "blockStatements") return unit(tokens[first], "statement");
    if (next === "(") return unit(t, "method");
    if (next === "=" || next === ";" || next === ",") return unit(t, "field");
  }
  if (rule === "blockStatements") return unit(tokens[first], "statement");
  return unit(
    tokens[first],
    tokens[first].text === "{" || tokens[first].text === "static" ? "initializer block" : "member",
  );
}

/**
 * Splits tokens [from, to) into members or statements: a unit ends at a `;` outside brackets, or at a `}` that
 * closes a block outside brackets, unless the unit is an initialised declaration (`x = new X() {…};`, `int[] a =
 * {…};`) or the block is followed by `else`, `catch`, `finally` or `while`. Type declarations met on the way are
 * reported through `onType` instead of becoming units.
 */
function split(
  tokens: Token[],
  from: number,
  to: number,
  onUnit: (first: number, last: number) => void,
  onType?: (keyword: number, open: number, close: number) => void,
): void {
  let first = from;
  let assigns = false;
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (
      t.kind === "punctuation" &&
      t.text === "=" &&
      tokens[i + 1]?.text !== "=" &&
      !/[=!<>]/.test(tokens[i - 1]?.text ?? "")
    ) {
      assigns = true;
    }
    if (onType && isTypeKeyword(tokens, i)) {
      let open = i;
      while (open < to && tokens[open].text !== "{" && tokens[open].text !== ";") open++;
      if (open >= to || tokens[open].text === ";") {
        i = open;
        first = open + 1;
        continue;
      }
      const close = Math.min(closing(tokens, open), to - 1);
      onType(i, open, close);
      i = close;
      first = close + 1;
      assigns = false;
      continue;
    }
    if (t.kind !== "punctuation") continue;
    if (t.text === "(" || t.text === "[" || t.text === "{") {
      const close = Math.min(closing(tokens, i), to - 1);
      const endsUnit =
        t.text === "{" && !assigns && !/^(else|catch|finally|while)$/.test(tokens[close + 1]?.text ?? "");
      i = close;
      if (endsUnit) {
        onUnit(first, close);
        first = close + 1;
      }
    } else if (t.text === ";") {
      if (i > first) onUnit(first, i);
      first = i + 1;
      assigns = false;
    }
  }
  if (first < to) onUnit(first, to - 1);
}

/** The members of a class body (tokens strictly between `open` and `close`), nested types split recursively. */
function classBody(tokens: Token[], keyword: number, open: number, close: number, out: Unit[]): void {
  let from = open + 1;
  if (tokens[keyword].text === "enum") {
    // Enum constants come first, up to the first `;` outside brackets.
    let i = from;
    while (i < close && tokens[i].text !== ";") i = /[({[]/.test(tokens[i].text) ? closing(tokens, i) + 1 : i + 1;
    from = i + 1;
  }
  const rule = tokens[keyword].text === "record" ? "recordBodyDeclaration" : "classBodyDeclaration";
  split(
    tokens,
    from,
    close,
    (a, b) => out.push(unitOf(tokens, a, b, rule)),
    (k, o, c) => classBody(tokens, k, o, c, out),
  );
}

export type FileShape = "compilationUnit" | "snippet";

/** The class members of a file with type declarations; undefined for a snippet. */
export function memberUnits(tokens: Token[]): Unit[] | undefined {
  const out: Unit[] = [];
  let types = 0;
  split(
    tokens,
    0,
    tokens.length,
    () => {},
    (k, o, c) => {
      types++;
      classBody(tokens, k, o, c, out);
    },
  );
  return types > 0 ? out : undefined;
}

/** A snippet split into statements (or members pasted without their class), one unit each. */
export function snippetUnits(tokens: Token[]): Unit[] {
  const out: Unit[] = [];
  split(tokens, 0, tokens.length, (a, b) => out.push(unitOf(tokens, a, b, "blockStatements")));
  return out;
}

/** Why a whole snippet should not be handed to the parser at once (see hazardOf). */
export function snippetHazard(tokens: Token[]): string | undefined {
  return tokens.length === 0 ? undefined : hazardOf(tokens, 0, tokens.length - 1);
}
