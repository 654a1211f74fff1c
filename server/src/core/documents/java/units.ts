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
 */
function closing(tokens: Token[], open: number): number {
  const stack: string[] = [];
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i].kind !== "punctuation") continue;
    const t = tokens[i].text;
    if (t === "{" || t === "(" || t === "[") stack.push(t);
    else if (t === "}") {
      while (stack.length > 0 && stack.pop() !== "{");
    } else if (t === ")" || t === "]") {
      const want = t === ")" ? "(" : "[";
      if (stack.includes(want) && stack.lastIndexOf(want) > stack.lastIndexOf("{")) {
        while (stack.length > 0 && stack.pop() !== want);
      }
    }
    if (stack.length === 0) return i;
  }
  return tokens.length - 1;
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
    (a, b) => out.push({ start: tokens[a].start, end: tokens[b].end, rule }),
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
  split(tokens, 0, tokens.length, (a, b) =>
    out.push({ start: tokens[a].start, end: tokens[b].end, rule: "blockStatements" }),
  );
  return out;
}
