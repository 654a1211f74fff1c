/**
 * A tolerant TOML reader for what version catalogs use: tables, dotted keys, strings, inline tables, arrays,
 * comments. It flattens the document to key paths with the offsets of every key and string, which is what exact
 * ranges need. Numbers, booleans and dates are kept as raw text. A broken line is reported and skipped.
 */

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

class TomlReader {
  readonly entries: TomlEntry[] = [];
  readonly problems: TomlProblem[] = [];
  private i = 0;
  private nesting = 0;

  constructor(private readonly text: string) {}

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
    if (v) this.entries.push({ keys, value: v });
  }

  private inlineTable(keys: TomlKey[]): void {
    this.nesting++;
    try {
      this.inlineTableBody(keys);
    } finally {
      this.nesting--;
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
