/**
 * Bazel builds that take their JVM dependencies from Maven with rules_jvm_external: `MODULE.bazel`, `WORKSPACE`
 * (`WORKSPACE.bazel`) and the `.bzl` files they load, read as Starlark text and never run. What is read:
 *
 * - Maven coordinates written as strings, `"org.apache.beam:beam-runners-flink-1.18:2.62.0"` (rules_jvm_external's
 *   `group:artifact:version`, also with a packaging and a classifier before the version), wherever they stand
 *   (`maven.install(artifacts = […])`, `maven_install(artifacts = […])`, a list or constant of a `.bzl` file), and
 *   built from constants: `"org.apache.beam:beam-sdks-java-core:" + BEAM_VERSION`,
 *   `"org.apache.beam:beam-sdks-java-core:%s" % BEAM_VERSION`, `"…:{}".format(BEAM_VERSION)`;
 * - `maven.artifact(group = "…", artifact = "…", version = "…")` (keywords or positions);
 * - top-level constants of strings (`BEAM_VERSION = "2.62.0"`), also joined by `+`.
 *
 * Such a build gives the facts of a Gradle script (module IDs and constants), so versions resolve the same way.
 * Anything else (rules, macros, `select()`, loops) is passed over; a version computed by Starlark is unknown.
 */
import { pushAll } from "../../arrays";
import type { FileFacts } from "../../model";
import { LineIndex } from "../../text";
import type { RawDependency, SymbolDefinition, ValueExpr, ValuePart } from "./facts";
import { exprOf, moduleBuildFacts, textPart } from "./values";

/** Whether a file is one of a Bazel build's files that declare Maven dependencies or constants. */
export function isBazelBuildFile(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return name === "MODULE.bazel" || name === "WORKSPACE" || name === "WORKSPACE.bazel" || name.endsWith(".bzl");
}

/** The files that make their folder a Bazel workspace's root. */
export const BAZEL_ROOT_FILES = ["MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel"] as const;

interface Tok {
  kind: "ident" | "string" | "number" | "punct" | "newline";
  text: string;
  start: number;
  end: number;
  /** Strings: the decoded value, where its characters stand, and whether value and source agree. */
  value?: string;
  contentStart?: number;
  contentEnd?: number;
  exact?: boolean;
}

/** Starlark's tokens: names, numbers, strings (with `r` / `b` prefixes, triple quotes), punctuation, line breaks. */
function tokenize(text: string): { tokens: Tok[]; problems: { start: number; end: number; message: string }[] } {
  const tokens: Tok[] = [];
  const problems: { start: number; end: number; message: string }[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "#") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (c === "\n") {
      tokens.push({ kind: "newline", text: "\n", start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f") {
      i++;
      continue;
    }
    if (c === "\\" && text[i + 1] === "\n") {
      i += 2;
      continue;
    }
    const prefix = /^(?:[rR][bB]?|[bB][rR]?)(?=["'])/.exec(text.slice(i, i + 3))?.[0] ?? "";
    const q = text[i + prefix.length];
    if (q === '"' || q === "'") {
      const start = i;
      const raw = /r/i.test(prefix);
      const triple = text.startsWith(q.repeat(3), i + prefix.length);
      const quote = triple ? q.repeat(3) : q;
      const contentStart = i + prefix.length + quote.length;
      let j = contentStart;
      let value = "";
      let exact = true;
      let closed = false;
      while (j < n) {
        if (text.startsWith(quote, j)) {
          closed = true;
          break;
        }
        const ch = text[j];
        if (!triple && ch === "\n") break;
        if (ch === "\\" && !raw && j + 1 < n) {
          const next = text[j + 1];
          const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'" };
          value += simple[next] ?? `\\${next}`;
          exact = false;
          j += 2;
          continue;
        }
        if (ch === "\n") exact = false;
        value += ch;
        j++;
      }
      if (!closed) problems.push({ start, end: j, message: "This string is not closed." });
      const end = closed ? j + quote.length : j;
      tokens.push({
        kind: "string",
        text: text.slice(start, end),
        start,
        end,
        value,
        contentStart,
        contentEnd: j,
        exact,
      });
      i = end;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /\w/.test(text[j])) j++;
      tokens.push({ kind: "ident", text: text.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(text[j])) j++;
      tokens.push({ kind: "number", text: text.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    tokens.push({ kind: "punct", text: c, start: i, end: i + 1 });
    i++;
  }
  return { tokens, problems };
}

/** `group:artifact[:packaging[:classifier]]:version`, the group with a dot (`org.apache.beam`). */
const COORDINATES = /^([\w-]+(?:\.[\w-]+)+):([\w.-]+)(?::([\w.-]+)){0,2}:([\w.+-]+)$/;
/** The same before a version written elsewhere: `"org.apache.beam:beam-sdks-java-core:"`. */
const COORDINATES_BEFORE_VERSION = /^([\w-]+(?:\.[\w-]+)+):([\w.-]+)(?::[\w.-]+){0,2}:$/;

export function readBazelBuild(file: string, text: string): FileFacts {
  const { tokens, problems } = tokenize(text);
  const index = new LineIndex(text);
  const reader = new BazelReader(tokens, index);
  reader.read();
  return moduleBuildFacts(file, "bazel", text, "bazel", reader, problems, index);
}

class BazelReader {
  readonly definitions: SymbolDefinition[] = [];
  readonly dependencies: RawDependency[] = [];
  /** String tokens already read as part of a dependency. */
  private readonly used = new Set<number>();

  constructor(
    private readonly tokens: Tok[],
    private readonly index: LineIndex,
  ) {}

  read(): void {
    const t = this.tokens;
    let depth = 0;
    for (let i = 0; i < t.length; i++) {
      const tok = t[i];
      if (tok.kind === "punct" && "([{".includes(tok.text)) depth++;
      else if (tok.kind === "punct" && ")]}".includes(tok.text)) depth = Math.max(0, depth - 1);
      const atStatement = depth === 0 && (i === 0 || t[i - 1].kind === "newline");
      if (atStatement && tok.kind === "ident" && t[i + 1]?.text === "=" && t[i + 2]?.text !== "=") {
        const value = this.value(i + 2);
        if (value && this.ends(value.next))
          this.definitions.push({
            name: tok.text,
            value: value.expr,
            nameRange: this.index.rangeOf(tok.start, tok.end),
          });
      }
      if (tok.kind === "ident" && tok.text === "artifact" && t[i - 1]?.text === "." && t[i + 1]?.text === "(") {
        this.mavenArtifact(i + 1);
        continue;
      }
      if (tok.kind === "string" && !this.used.has(i)) this.coordinates(i);
    }
  }

  /** Whether an expression ends at `t[i]`: a line break, `,`, `)`, `]`, `}` or the end of the file. */
  private ends(i: number): boolean {
    const tok = this.tokens[i];
    return !tok || tok.kind === "newline" || [",", ")", "]", "}", ";"].includes(tok.text);
  }

  /** A coordinate string, or one completed by a constant (`+ V`, `% V`, `.format(V)`), starting at `t[at]`. */
  private coordinates(at: number): void {
    const tok = this.tokens[at];
    const literal = tok.value ?? "";
    const full = COORDINATES.exec(literal);
    if (full && this.ends(at + 1)) {
      this.used.add(at);
      const parts = literal.split(":");
      if (parts.length === 3) {
        this.dependencies.push(this.dependency(this.stringExpr(tok), tok));
        return;
      }
      // With a packaging and a classifier: the version is the last field.
      const from = tok.contentStart ?? tok.start;
      const exact = tok.exact === true;
      const slice = (k: number) => {
        const offset = parts.slice(0, k).join(":").length + (k > 0 ? 1 : 0);
        const part = textPart(this.index, parts[k], from + offset, from + offset + parts[k].length, exact);
        return { parts: [part], range: part.range };
      };
      this.dependencies.push({
        group: slice(0),
        artifact: slice(1),
        version: slice(parts.length - 1),
        range: this.index.rangeOf(from, tok.contentEnd ?? tok.end),
        platform: false,
        managed: false,
      });
      return;
    }
    const value = this.value(at);
    if (!value || value.expr.parts.length < 2 || !this.ends(value.next)) return;
    const first = value.expr.parts[0];
    if (!("text" in first) || !COORDINATES_BEFORE_VERSION.test(first.text)) return;
    if (first.text.split(":").length !== 3) return;
    for (let k = at; k < value.next; k++) if (this.tokens[k].kind === "string") this.used.add(k);
    this.dependencies.push(this.dependency(value.expr, tok));
  }

  private dependency(notation: ValueExpr, tok: Tok): RawDependency {
    return {
      notation,
      range: this.index.rangeOf(tok.contentStart ?? tok.start, tok.contentEnd ?? tok.end),
      platform: false,
      managed: false,
    };
  }

  /** `maven.artifact(group = "g", artifact = "a", version = "v")`, or the three by position. */
  private mavenArtifact(open: number): void {
    const t = this.tokens;
    const named: Record<string, { expr: ValueExpr; tok: Tok }> = {};
    const positional: { expr: ValueExpr; tok: Tok }[] = [];
    let i = open + 1;
    while (i < t.length && t[i].text !== ")") {
      if (t[i].kind === "newline" || t[i].text === ",") {
        i++;
        continue;
      }
      let key: string | undefined;
      if (t[i].kind === "ident" && t[i + 1]?.text === "=") {
        key = t[i].text;
        i += 2;
      }
      while (t[i]?.kind === "newline") i++;
      const value = this.value(i);
      if (!value) {
        // Skip what is not a value this reader knows, up to the next argument.
        let depth = 0;
        while (i < t.length && !(depth === 0 && (t[i].text === "," || t[i].text === ")"))) {
          if ("([{".includes(t[i].text)) depth++;
          else if (")]}".includes(t[i].text)) depth--;
          i++;
        }
        continue;
      }
      const entry = { expr: value.expr, tok: t[i] };
      for (let k = i; k < value.next; k++) if (t[k].kind === "string") this.used.add(k);
      if (key) named[key] = entry;
      else positional.push(entry);
      i = value.next;
    }
    const group = named.group ?? positional[0];
    const artifact = named.artifact ?? positional[1];
    const version = named.version ?? positional[2];
    if (!group || !artifact) return;
    this.dependencies.push({
      group: group.expr,
      artifact: artifact.expr,
      ...(version ? { version: version.expr } : {}),
      range: this.index.rangeOf(
        artifact.tok.contentStart ?? artifact.tok.start,
        artifact.tok.contentEnd ?? artifact.tok.end,
      ),
      platform: false,
      managed: false,
    });
  }

  private stringExpr(tok: Tok): ValueExpr {
    const from = tok.contentStart ?? tok.start;
    const to = tok.contentEnd ?? tok.end;
    return exprOf(
      this.index,
      [textPart(this.index, tok.value ?? "", from, to, tok.exact === true)],
      tok.start,
      tok.end,
    );
  }

  /**
   * Strings and names joined by `+`; a string with one `%s` (or `{}`) filled by `% NAME`, `% (NAME,)` or
   * `.format(NAME)`. Undefined for anything else.
   */
  private value(at: number): { expr: ValueExpr; next: number } | undefined {
    const t = this.tokens;
    const parts: ValuePart[] = [];
    const start = t[at]?.start ?? 0;
    let end = start;
    let i = at;
    for (;;) {
      const tok = t[i];
      if (!tok) return undefined;
      if (tok.kind === "string") {
        const filled = this.filled(i);
        if (filled) {
          pushAll(parts, filled.parts);
          end = filled.end;
          i = filled.next;
        } else {
          const from = tok.contentStart ?? tok.start;
          parts.push(textPart(this.index, tok.value ?? "", from, tok.contentEnd ?? tok.end, tok.exact === true));
          end = tok.end;
          i++;
        }
      } else if (tok.kind === "ident" && !/^(load|def|if|for|in|not|and|or|None|True|False)$/.test(tok.text)) {
        if (t[i + 1]?.text === "(" || t[i + 1]?.text === ".") return undefined;
        parts.push({ ref: tok.text, range: this.index.rangeOf(tok.start, tok.end) });
        end = tok.end;
        i++;
      } else return undefined;
      if (t[i]?.text === "+") {
        i++;
        continue;
      }
      return { expr: exprOf(this.index, parts, start, end), next: i };
    }
  }

  /** `"a:%s" % NAME`, `"a:%s" % (NAME,)`, `"a:{}".format(NAME)` at `t[at]`: the text around and the name. */
  private filled(at: number): { parts: ValuePart[]; end: number; next: number } | undefined {
    const t = this.tokens;
    const tok = t[at];
    const value = tok.value ?? "";
    let name: Tok | undefined;
    let next = at + 1;
    let marker: string | undefined;
    if (t[at + 1]?.text === "%" && value.split("%s").length === 2) {
      marker = "%s";
      if (t[at + 2]?.kind === "ident") {
        name = t[at + 2];
        next = at + 3;
      } else if (t[at + 2]?.text === "(" && t[at + 3]?.kind === "ident" && /^[,)]$/.test(t[at + 4]?.text ?? "")) {
        name = t[at + 3];
        next = at + (t[at + 4].text === "," && t[at + 5]?.text === ")" ? 6 : t[at + 4].text === ")" ? 5 : 0);
      }
    } else if (
      t[at + 1]?.text === "." &&
      t[at + 2]?.text === "format" &&
      t[at + 3]?.text === "(" &&
      t[at + 4]?.kind === "ident" &&
      t[at + 5]?.text === ")" &&
      value.split("{}").length === 2
    ) {
      marker = "{}";
      name = t[at + 4];
      next = at + 6;
    }
    if (!marker || !name || next <= at) return undefined;
    const cut = value.indexOf(marker);
    const from = tok.contentStart ?? tok.start;
    const exact = tok.exact === true;
    const parts: ValuePart[] = [];
    if (cut > 0) parts.push(textPart(this.index, value.slice(0, cut), from, from + cut, exact));
    parts.push({ ref: name.text, range: this.index.rangeOf(name.start, name.end) });
    const rest = value.slice(cut + marker.length);
    if (rest !== "") {
      const restFrom = from + cut + marker.length;
      parts.push(textPart(this.index, rest, restFrom, restFrom + rest.length, exact));
    }
    return { parts, end: t[next - 1].end, next };
  }
}
