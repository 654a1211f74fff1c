/**
 * Glob matching in time linear in the path for a given pattern: a pattern is compiled to a nondeterministic
 * automaton and simulated over the path one character at a time (no backtracking), so `*a*a*a*a*a*a*a*c` against a
 * long folder name costs what `*c` costs. Patterns come from repositories (`.beam-flink-lint.yaml`) and editor
 * settings, which anyone can write.
 *
 * The syntax is the one picomatch reads with `dot: true`: `*` and `?` within a path segment (dot files included),
 * `**` as a whole segment for any number of segments, `[abc]`, `[a-z]`, `[^…]`/`[!…]`, `{a,b}` alternatives (with a
 * comma; `{a}` is literal), the extglobs `@(a|b)`, `?(…)`, `+(…)`, `*(…)`, `\` escapes, and a leading `!` that
 * negates the whole pattern. `!(…)` is not supported: `globProblem` says so.
 */

/** Longer patterns, and deeper nesting of groups, are refused (globProblem) and never match. */
export const MAX_GLOB_LENGTH = 4096;
const MAX_NESTING = 32;

type Node =
  | { k: "char"; c: string }
  | { k: "any" } // one character but `/`
  | { k: "star" } // any characters but `/`
  | { k: "all" } // any characters, `/` included (the body of `**`)
  | { k: "class"; negated: boolean; items: (string | [string, string])[] }
  | { k: "seq"; items: Node[] }
  | { k: "alt"; options: Node[] }
  | { k: "repeat"; body: Node; min: 0 | 1; max: 1 | typeof Number.POSITIVE_INFINITY; endsSegment?: true };

class GlobSyntaxError extends Error {}

/** Reads a pattern into a tree; throws GlobSyntaxError for what is not supported. */
class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly p: string) {}

  parse(): Node {
    return this.sequence(() => false);
  }

  /** Items up to the end or to where `stop` says (a `,` or `}` of a brace, a `|` or `)` of an extglob). */
  private sequence(stop: (at: number) => boolean): Node {
    const items: Node[] = [];
    const p = this.p;
    const segmentStart = () => {
      const prev = items[items.length - 1];
      return prev === undefined || (prev.k === "char" && prev.c === "/") || (prev.k === "repeat" && prev.endsSegment);
    };
    // Whether the segment before the last slash ends with a star: "a/**" matches "a", but "a*/**" does not match "ab".
    const starBeforeSlash = () => items[items.length - 2]?.k === "star";
    while (this.i < p.length && !stop(this.i)) {
      const c = p[this.i];
      if (c === "\\" && this.i + 1 < p.length) {
        items.push({ k: "char", c: p[this.i + 1] });
        this.i += 2;
      } else if (c === "*" && p[this.i + 1] === "*") {
        const atStart = segmentStart();
        let j = this.i + 2;
        const atEnd = j >= p.length || p[j] === "/" || stop(j);
        if (atStart && atEnd && p[j] !== "(") {
          this.i = j;
          const prev = items[items.length - 1];
          if (p[j] === "/") {
            // `**/`: nothing, or any segments followed by `/`.
            this.i++;
            const body: Node = { k: "seq", items: [{ k: "all" }, { k: "char", c: "/" }] };
            items.push({ k: "repeat", body, min: 0, max: 1, endsSegment: true });
          } else if (prev?.k === "char" && !starBeforeSlash()) {
            // `a/**`: `a` itself, or `a/` and anything below it.
            items.pop();
            items.push({ k: "repeat", body: { k: "seq", items: [prev, { k: "all" }] }, min: 0, max: 1 });
          } else items.push({ k: "all" });
        } else {
          // `a**b` and `***` are `a*b` and `*`.
          while (p[j] === "*") j++;
          this.i = j;
          if (p[j] === "(") items.push(this.extglob("*"));
          else items.push({ k: "star" });
        }
      } else if ((c === "*" || c === "?" || c === "@" || c === "+") && p[this.i + 1] === "(") {
        this.i++;
        items.push(this.extglob(c));
      } else if (c === "!" && p[this.i + 1] === "(") {
        throw new GlobSyntaxError("uses `!(…)`, which is not supported");
      } else if (c === "*") {
        this.i++;
        items.push({ k: "star" });
      } else if (c === "?") {
        this.i++;
        items.push({ k: "any" });
      } else if (c === "[") {
        items.push(this.bracket() ?? { k: "char", c: "[" });
      } else if (c === "{") {
        items.push(this.brace() ?? { k: "char", c: "{" });
      } else {
        items.push({ k: "char", c });
        this.i++;
      }
    }
    return items.length === 1 ? items[0] : { k: "seq", items };
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING) throw new GlobSyntaxError(`nests groups more than ${MAX_NESTING} deep`);
  }

  /** `@(a|b)` and friends, with the `(` at `this.i`. */
  private extglob(kind: string): Node {
    this.enter();
    this.i++;
    const options: Node[] = [];
    for (;;) {
      options.push(this.sequence((at) => this.p[at] === "|" || this.p[at] === ")"));
      if (this.i >= this.p.length) throw new GlobSyntaxError(`does not close its \`${kind}(\``);
      if (this.p[this.i++] === ")") break;
    }
    this.depth--;
    const body: Node = options.length === 1 ? options[0] : { k: "alt", options };
    if (kind === "@") return body;
    if (kind === "?") return { k: "repeat", body, min: 0, max: 1 };
    if (kind === "+") return { k: "repeat", body, min: 1, max: Number.POSITIVE_INFINITY };
    return { k: "repeat", body, min: 0, max: Number.POSITIVE_INFINITY };
  }

  /** `{a,b}` with the `{` at `this.i`; undefined (a literal `{`) when it has no top-level comma or no `}`. */
  private brace(): Node | undefined {
    const start = this.i;
    if (!hasTopLevelComma(this.p, start)) return undefined;
    this.enter();
    this.i++;
    const options: Node[] = [];
    for (;;) {
      options.push(this.sequence((at) => this.p[at] === "," || this.p[at] === "}"));
      if (this.i >= this.p.length) {
        this.i = start;
        this.depth--;
        return undefined;
      }
      if (this.p[this.i++] === "}") break;
    }
    this.depth--;
    return { k: "alt", options };
  }

  /** `[…]` with the `[` at `this.i`; undefined (a literal `[`) when it is not closed. */
  private bracket(): Node | undefined {
    const p = this.p;
    let j = this.i + 1;
    let negated = false;
    if (p[j] === "!" || p[j] === "^") {
      negated = true;
      j++;
    }
    const items: (string | [string, string])[] = [];
    let first = true;
    while (j < p.length && (p[j] !== "]" || first)) {
      first = false;
      let c = p[j];
      if (c === "\\" && j + 1 < p.length) c = p[++j];
      if (p[j + 1] === "-" && j + 2 < p.length && p[j + 2] !== "]") {
        let to = p[j + 2];
        let skip = 3;
        if (to === "\\" && j + 3 < p.length) {
          to = p[j + 3];
          skip = 4;
        }
        items.push([c, to]);
        j += skip;
      } else {
        items.push(c);
        j++;
      }
    }
    if (j >= p.length) return undefined;
    this.i = j + 1;
    return { k: "class", negated, items };
  }
}

/** Whether the brace opened at `open` has a comma at its own level before its `}`. */
function hasTopLevelComma(p: string, open: number): boolean {
  let depth = 0;
  for (let j = open; j < p.length; j++) {
    const c = p[j];
    if (c === "\\") j++;
    else if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return false;
    } else if (c === "," && depth === 1) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Automaton

/** A state tests one character and goes to `out`, or is a split to several states (no character), or accepts. */
type State = { k: "test"; test: (c: string) => boolean; out: number } | { k: "split"; outs: number[] } | { k: "match" };

const notSlash = (c: string) => c !== "/";
const anyChar = () => true;

class Builder {
  readonly states: State[] = [];

  private add(s: State): number {
    this.states.push(s);
    return this.states.length - 1;
  }

  /** Compiles `n` so that it continues at `next`; returns its entry state. Built back to front. */
  build(n: Node, next: number): number {
    switch (n.k) {
      case "char":
        return this.add({ k: "test", test: (c) => c === n.c, out: next });
      case "any":
        return this.add({ k: "test", test: notSlash, out: next });
      case "star":
      case "all": {
        const loop = this.add({ k: "split", outs: [] });
        const step = this.add({ k: "test", test: n.k === "star" ? notSlash : anyChar, out: loop });
        (this.states[loop] as { outs: number[] }).outs.push(step, next);
        return loop;
      }
      case "class": {
        const { items, negated } = n;
        const inSet = (c: string) => items.some((it) => (typeof it === "string" ? c === it : c >= it[0] && c <= it[1]));
        return this.add({ k: "test", test: (c) => c !== "/" && inSet(c) !== negated, out: next });
      }
      case "seq": {
        let entry = next;
        for (let i = n.items.length - 1; i >= 0; i--) entry = this.build(n.items[i], entry);
        return entry;
      }
      case "alt":
        return this.add({ k: "split", outs: n.options.map((o) => this.build(o, next)) });
      case "repeat": {
        if (n.max === 1) {
          const body = this.build(n.body, next);
          return n.min === 0 ? this.add({ k: "split", outs: [body, next] }) : body;
        }
        // One or more: body, then back to the loop or on; zero or more: the loop first.
        const loop = this.add({ k: "split", outs: [] });
        const body = this.build(n.body, loop);
        (this.states[loop] as { outs: number[] }).outs.push(body, next);
        return n.min === 0 ? loop : body;
      }
    }
  }
}

interface Compiled {
  states: State[];
  start: number;
  negated: boolean;
  /** Set when the pattern is not supported: it never matches. */
  problem?: string;
}

function compile(pattern: string): Compiled {
  let p = pattern;
  let negated = false;
  while (p.startsWith("!") && !p.startsWith("!(")) {
    negated = !negated;
    p = p.slice(1);
  }
  while (p.startsWith("./")) p = p.slice(2);
  if (pattern.length > MAX_GLOB_LENGTH) {
    return { states: [], start: -1, negated: false, problem: `is longer than ${MAX_GLOB_LENGTH} characters` };
  }
  try {
    const tree = new Parser(p).parse();
    const b = new Builder();
    const match = b.states.push({ k: "match" }) - 1;
    const start = b.build(tree, match);
    return { states: b.states, start, negated };
  } catch (e) {
    if (!(e instanceof GlobSyntaxError)) throw e;
    return { states: [], start: -1, negated: false, problem: e.message };
  }
}

/** Simulates the automaton over `path`: every state reachable so far advances together, once per character. */
function run(c: Compiled, path: string): boolean {
  if (c.start < 0) return false;
  const { states } = c;
  const mark = new Int32Array(states.length).fill(-1);
  let current: number[] = [];
  let nextSet: number[] = [];
  const stack: number[] = [];
  const addClosure = (from: number, into: number[], gen: number) => {
    stack.push(from);
    while (stack.length > 0) {
      const s = stack.pop() as number;
      if (mark[s] === gen) continue;
      mark[s] = gen;
      const st = states[s];
      if (st.k === "split") for (let i = st.outs.length - 1; i >= 0; i--) stack.push(st.outs[i]);
      else into.push(s);
    }
  };
  addClosure(c.start, current, 0);
  for (let i = 0; i < path.length && current.length > 0; i++) {
    const ch = path[i];
    nextSet = [];
    for (const s of current) {
      const st = states[s];
      if (st.k === "test" && st.test(ch)) addClosure(st.out, nextSet, i + 1);
    }
    current = nextSet;
  }
  const matched = current.some((s) => states[s].k === "match");
  return matched !== c.negated;
}

/** Compiled patterns by text, bounded: patterns come from a few configuration files. */
const compiled = new Map<string, Compiled>();

function compiledOf(pattern: string): Compiled {
  let c = compiled.get(pattern);
  if (!c) {
    if (compiled.size >= 2000) compiled.clear();
    c = compile(pattern);
    compiled.set(pattern, c);
  }
  return c;
}

/** Whether `path` matches `pattern` (see the file comment for the syntax). */
export function globMatch(path: string, pattern: string): boolean {
  return run(compiledOf(pattern), path);
}

/** Whether `path` matches at least one of the patterns. */
export function matchesAny(path: string, patterns: readonly string[]): boolean {
  for (const p of patterns) if (globMatch(path, p)) return true;
  return false;
}

/** Why a pattern cannot be used (it then matches nothing), or undefined when it is fine. */
export function globProblem(pattern: string): string | undefined {
  return compiledOf(pattern).problem;
}
