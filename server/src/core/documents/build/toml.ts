/**
 * A tolerant TOML reader for what version catalogs use: tables, dotted keys, strings, inline tables, arrays,
 * comments. It flattens the document to key paths with the offsets of every key and string, which is what exact
 * ranges need. Numbers, booleans and dates are kept as raw text. A broken line is reported and skipped, and so is
 * what TOML forbids that a parser rejects: a key set twice, a table defined twice, a value that is also a table.
 */
import { LineIndex } from "../../text";

export interface TomlKey {
  name: string;
  start: number;
  end: number;
}

export type TomlValue =
  | { kind: "string"; value: string; start: number; end: number; exact: boolean }
  | { kind: "array"; items: TomlValue[]; start: number; end: number }
  | { kind: "other"; raw: string; start: number; end: number };

/** A scalar or array at a full key path (table headers and inline tables flattened into the path). */
export interface TomlEntry {
  keys: TomlKey[];
  value: TomlValue;
}

export interface TomlProblem {
  start: number;
  end: number;
  message: string;
}

export function readToml(text: string): { entries: TomlEntry[]; problems: TomlProblem[] } {
  const reader = new TomlReader(text);
  reader.document();
  return { entries: reader.entries, problems: reader.problems };
}

const BARE_KEY = /[A-Za-z0-9_-]/;
/** Arrays and inline tables nest a level or two in a catalog; deeper ones are kept as raw text, not descended. */
const MAX_NESTING = 64;
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", '"': '"', "\\": "\\" };

/** What a key path is: set to a value, an inline table, a table header, or a table made by a longer path. */
type Definition = "value" | "inline" | "table" | "implicit";

function pathKey(keys: readonly TomlKey[], length = keys.length): string {
  let out = "";
  for (let k = 0; k < length; k++) out += `${k > 0 ? "\u0000" : ""}${keys[k].name}`;
  return out;
}

function shownPath(keys: readonly TomlKey[], length = keys.length): string {
  return keys
    .slice(0, length)
    .map((k) => (/^[A-Za-z0-9_-]+$/.test(k.name) ? k.name : JSON.stringify(k.name)))
    .join(".");
}

class TomlReader {
  readonly entries: TomlEntry[] = [];
  readonly problems: TomlProblem[] = [];
  private i = 0;
  private nesting = 0;
  /** Every key path defined so far, with what it is and where it was first defined. */
  private readonly defined = new Map<string, { as: Definition; at: number }>();
  /** Inline tables being read: their keys may be set inside them, and only there. */
  private inlineDepth = 0;
  /** Elements of `[[array]]` tables so far, so that each element's keys are its own. */
  private arrayElements = 0;
  private lines?: LineIndex;

  constructor(private readonly text: string) {}

  private lineOf(offset: number): number {
    this.lines ??= new LineIndex(this.text);
    return this.lines.positionAt(offset).line + 1;
  }

  /**
   * Records a definition of `keys` (a value, an inline table or a table header); false, with a problem at the last
   * key, when TOML forbids it.
   */
  private define(keys: TomlKey[], as: Definition): boolean {
    const last = keys[keys.length - 1];
    for (let n = 1; n < keys.length; n++) {
      const prefix = this.defined.get(pathKey(keys, n));
      if (prefix?.as === "value" || (prefix?.as === "inline" && this.inlineDepth === 0)) {
        this.problem(
          last.start,
          last.end,
          `\`${shownPath(keys, n)}\` is already set to a value on line ${this.lineOf(prefix.at)}, so \`${shownPath(keys)}\` cannot be set.`,
        );
        return false;
      }
    }
    const key = pathKey(keys);
    const known = this.defined.get(key);
    if (known && !(as === "table" && known.as === "implicit")) {
      const where = `line ${this.lineOf(known.at)}`;
      const message =
        as === "table" && known.as === "table"
          ? `The table \`[${shownPath(keys)}]\` is defined twice (first on ${where}).`
          : known.as === "table" || known.as === "implicit"
            ? `\`${shownPath(keys)}\` is already a table (${where}), so it cannot be set to a value.`
            : as === "table"
              ? `\`${shownPath(keys)}\` is already set to a value on ${where}, so it cannot be a table.`
              : `\`${shownPath(keys)}\` is set twice (first on ${where}).`;
      this.problem(last.start, last.end, message);
      return false;
    }
    this.defined.set(key, { as, at: last.start });
    for (let n = 1; n < keys.length; n++) {
      const p = pathKey(keys, n);
      if (!this.defined.has(p)) this.defined.set(p, { as: "implicit", at: keys[n - 1].start });
    }
    return true;
  }

  document(): void {
    let table: TomlKey[] = [];
    while (this.i < this.text.length) {
      this.skipBlank();
      if (this.i >= this.text.length) break;
      const c = this.text[this.i];
      const lineStart = this.i;
      if (c === "[") {
        const double = this.text[this.i + 1] === "[";
        this.i += double ? 2 : 1;
        const keys = this.keyPath();
        this.skipSpaces();
        if (keys && this.text.startsWith(double ? "]]" : "]", this.i)) {
          this.i += double ? 2 : 1;
          table = keys;
          if (double) {
            // Each `[[x]]` opens a new element: its keys are told apart from the other elements' by a hidden key.
            this.defined.set(pathKey(keys), { as: "implicit", at: keys[keys.length - 1].start });
            table = [...keys, { name: `\u0001${this.arrayElements++}`, start: keys[0].start, end: keys[0].start }];
          } else this.define(keys, "table");
        } else this.problem(lineStart, this.lineEnd(), "This table header is not closed with `]`.");
      } else {
        const keys = this.keyPath();
        this.skipSpaces();
        if (!keys || this.text[this.i] !== "=") {
          this.problem(lineStart, this.lineEnd(), "Expected `key = value` on this line.");
          this.i = this.lineEnd();
          continue;
        }
        this.i++;
        this.value([...table, ...keys]);
      }
      this.skipSpaces();
      if (this.text[this.i] === "#") this.i = this.lineEnd();
      else if (this.i < this.text.length && this.text[this.i] !== "\n" && this.text[this.i] !== "\r") {
        this.problem(this.i, this.lineEnd(), "Unexpected text after the value.");
        this.i = this.lineEnd();
      }
    }
  }

  /** A value at `keys`: inline tables add their entries under `keys`. */
  private value(keys: TomlKey[]): void {
    this.skipSpaces();
    if (this.text[this.i] === "{") {
      if (this.nesting >= MAX_NESTING) this.entries.push({ keys, value: this.rawNested() });
      else this.inlineTable(keys);
      return;
    }
    const v = this.scalarOrArray();
    // A key set twice is reported; the first value stays the one read.
    if (v && this.define(keys, "value")) this.entries.push({ keys, value: v });
  }

  private inlineTable(keys: TomlKey[]): void {
    const fresh = this.define(keys, "inline");
    this.nesting++;
    if (fresh) this.inlineDepth++;
    try {
      this.inlineTableBody(keys);
    } finally {
      this.nesting--;
      if (fresh) this.inlineDepth--;
    }
  }

  private inlineTableBody(keys: TomlKey[]): void {
    const open = this.i++;
    for (;;) {
      this.skipSpaces();
      if (this.text[this.i] === "}") {
        this.i++;
        return;
      }
      const inner = this.keyPath();
      this.skipSpaces();
      if (!inner || this.text[this.i] !== "=") break;
      this.i++;
      this.value([...keys, ...inner]);
      this.skipSpaces();
      if (this.text[this.i] === ",") this.i++;
      else if (this.text[this.i] !== "}") break;
    }
    this.problem(open, this.lineEnd(), "This inline table is not closed with `}`.");
    this.i = this.lineEnd();
  }

  private scalarOrArray(): TomlValue | undefined {
    const c = this.text[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === "[") return this.array();
    const start = this.i;
    while (this.i < this.text.length && !/[,\]}#\r\n]/.test(this.text[this.i])) this.i++;
    const raw = this.text.slice(start, this.i).trimEnd();
    if (!raw) {
      this.problem(start, this.lineEnd(), "A value is missing here.");
      return undefined;
    }
    return { kind: "other", raw, start, end: start + raw.length };
  }

  private array(): TomlValue {
    if (this.nesting >= MAX_NESTING) return this.rawNested();
    this.nesting++;
    try {
      return this.arrayBody();
    } finally {
      this.nesting--;
    }
  }

  /** Brackets nested too deep to descend: their text up to the matching bracket or the end of the line. */
  private rawNested(): TomlValue {
    const start = this.i;
    let depth = 0;
    let j = start;
    for (; j < this.text.length && this.text[j] !== "\n" && this.text[j] !== "\r"; j++) {
      const c = this.text[j];
      if (c === "[" || c === "{") depth++;
      else if ((c === "]" || c === "}") && --depth === 0) {
        j++;
        break;
      }
    }
    this.i = j;
    return { kind: "other", raw: this.text.slice(start, j), start, end: j };
  }

  private arrayBody(): TomlValue {
    const start = this.i++;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlank();
      if (this.text[this.i] === "]") {
        this.i++;
        return { kind: "array", items, start, end: this.i };
      }
      if (this.i >= this.text.length) break;
      const item = this.scalarOrArray();
      if (!item) break;
      items.push(item);
      this.skipBlank();
      if (this.text[this.i] === ",") this.i++;
      else if (this.text[this.i] !== "]") break;
    }
    this.problem(start, start + 1, "This array is not closed with `]`.");
    return { kind: "array", items, start, end: this.i };
  }

  private string(): TomlValue {
    const { text } = this;
    const quote = text[this.i];
    const triple = text.startsWith(quote.repeat(3), this.i);
    const delimiter = triple ? quote.repeat(3) : quote;
    const start = this.i + delimiter.length;
    let j = start;
    let value = "";
    let exact = true;
    while (j < text.length && !text.startsWith(delimiter, j)) {
      const c = text[j];
      if ((c === "\n" || c === "\r") && !triple) break;
      if (c === "\\" && quote === '"') {
        value += ESCAPES[text[j + 1]] ?? text[j + 1] ?? "";
        exact = false;
        j += 2;
      } else {
        if (c === "\n") exact = false;
        value += c;
        j++;
      }
    }
    if (!text.startsWith(delimiter, j)) {
      this.problem(this.i, j, `This string is never closed (\`${delimiter}\` is missing).`);
      this.i = j;
    } else this.i = j + delimiter.length;
    return { kind: "string", value, start, end: j, exact };
  }

  private keyPath(): TomlKey[] | undefined {
    const keys: TomlKey[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.text[this.i];
      if (c === '"' || c === "'") {
        const s = this.string();
        if (s.kind !== "string") return undefined;
        keys.push({ name: s.value, start: s.start - 1, end: s.end + 1 });
      } else {
        const start = this.i;
        while (this.i < this.text.length && BARE_KEY.test(this.text[this.i])) this.i++;
        if (this.i === start) return undefined;
        keys.push({ name: this.text.slice(start, this.i), start, end: this.i });
      }
      this.skipSpaces();
      if (this.text[this.i] !== ".") return keys;
      this.i++;
    }
  }

  private skipSpaces(): void {
    while (this.text[this.i] === " " || this.text[this.i] === "\t") this.i++;
  }

  /** Spaces, line breaks and comments. */
  private skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      const c = this.text[this.i];
      if (c === "#") this.i = this.lineEnd();
      else if (c === "\n" || c === "\r") this.i++;
      else return;
    }
  }

  private lineEnd(): number {
    let j = this.i;
    while (j < this.text.length && this.text[j] !== "\n" && this.text[j] !== "\r") j++;
    return j;
  }

  private problem(start: number, end: number, message: string): void {
    this.problems.push({ start, end: Math.max(end, start + 1), message });
  }
}
