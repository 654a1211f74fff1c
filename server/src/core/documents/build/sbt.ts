/**
 * sbt builds: `build.sbt` (and other `*.sbt` files) and the Scala files of the meta-build under `project/`
 * (`project/Dependencies.scala`, `project/Versions.scala`), read as text and never run. What is read:
 *
 * - module IDs, `"org.apache.flink" % "flink-connector-kafka" % "3.2.0-1.18"` (also `%%` and `%%%`, whose
 *   Scala-version suffix is left out: rules name artifacts without it), with a configuration after a fourth `%`
 *   (`% "provided"`, `% Provided`, `% Test`), wherever they stand (`libraryDependencies += …`, `Seq(…)`, a `val`);
 * - `val` / `lazy val` definitions of strings (`val flinkVersion = "1.18.1"`), named as Scala scopes them: by the
 *   objects around them (`Dependencies.flink.version`), so that `version` inside `object flink` is that object's,
 *   and `Versions.flink` in `build.sbt` is the `val flink` of `object Versions` in `project/`.
 *
 * Anything else (settings, tasks, conditions) is passed over; a version computed at load time is unknown.
 */
import type { FileFacts } from "../../model";
import { LineIndex } from "../../text";
import type { RawDependency, SymbolDefinition, ValueExpr, ValuePart } from "./facts";
import { type Token, tokenize } from "./gradle/tokenizer";
import { exprOf, moduleBuildFacts, textPart } from "./values";

/** The meta-build's Scala sources: `project/*.scala` of a build, not a source folder's `project` package. */
export function isSbtMetaBuildSource(file: string): boolean {
  return /(^|\/)project\/[^/]+\.scala$/.test(file) && !/(^|\/)src\//.test(file);
}

/** The folder of the build an sbt file belongs to: `project/` files configure the build of the folder above. */
export function sbtBuildDir(file: string): string {
  const dir = file.slice(0, Math.max(0, file.lastIndexOf("/")));
  return /(^|\/)project$/.test(dir) ? dir.slice(0, Math.max(0, dir.lastIndexOf("/"))) : dir;
}

export function readSbtBuild(file: string, text: string): FileFacts {
  // Scala strings interpolate only with a prefix (`s"…$v"`); Kotlin's tokenizer reads `$v` in any string, which
  // the reader undoes below for strings without one.
  const { tokens, problems } = tokenize(text, "kotlin");
  const index = new LineIndex(text);
  const reader = new SbtReader(tokens, index, text);
  reader.read();
  return moduleBuildFacts(file, "sbt", text, "sbt", reader, problems, index);
}

/** Configurations written after a module ID's fourth `%`. */
const CONFIGURATIONS: Record<string, string> = {
  Provided: "provided",
  Test: "test",
  Compile: "compile",
  Runtime: "runtime",
  Optional: "optional",
  IntegrationTest: "it",
};

class SbtReader {
  readonly definitions: SymbolDefinition[] = [];
  readonly dependencies: RawDependency[] = [];
  /** Per token, the objects (and classes, traits) it stands in, outermost first. */
  private readonly paths: string[][] = [];
  /** The `val`s of the file by their qualified name (`Dependencies.flink.version`; top-level ones plainly). */
  private readonly declared = new Set<string>();
  /** `import Dependencies._`: the objects whose members the file uses by their simple names. */
  private readonly imported: string[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly index: LineIndex,
    private readonly text: string,
  ) {}

  /**
   * Where each token stands: `object X {` opens X (also a class, trait or case class), any other brace an
   * unnamed block, whose vals are its own. Records the qualified names of the file's vals and its wildcard imports.
   */
  private scopes(): void {
    const t = this.tokens;
    const stack: string[] = [];
    let pending: string | undefined;
    for (let i = 0; i < t.length; i++) {
      const tok = t[i];
      this.paths.push(stack.filter((x) => x !== ""));
      if (tok.kind === "ident" && /^(object|class|trait)$/.test(tok.text) && t[i + 1]?.kind === "ident")
        pending = t[i + 1].text;
      else if (tok.text === "{") {
        stack.push(pending ?? "");
        pending = undefined;
      } else if (tok.text === "}") stack.pop();
      else if (tok.kind === "newline" && pending && t[i + 1]?.text !== "{") {
        // An object without a body (`object Versions extends Base` on its own line) opens nothing.
        if (!/^(extends|with)$/.test(t[i + 1]?.text ?? "")) pending = undefined;
      }
      if (tok.kind === "ident" && tok.text === "val" && t[i + 1]?.kind === "ident")
        this.declared.add(
          this.qualified(
            stack.filter((x) => x !== ""),
            t[i + 1].text,
          ),
        );
      if (tok.kind === "ident" && tok.text === "import") {
        let j = i + 1;
        const parts: string[] = [];
        while (t[j]?.kind === "ident" && t[j + 1]?.text === ".") {
          parts.push(t[j].text);
          j += 2;
        }
        if (t[j]?.text === "_" && parts.length > 0 && /^[A-Z]/.test(parts[parts.length - 1]))
          this.imported.push(parts.join("."));
      }
    }
  }

  private qualified(path: string[], name: string): string {
    return [...path, name].join(".");
  }

  /**
   * The definition a name written at token `at` means, as Scala scopes it: `version` inside `object flink` is
   * `Dependencies.flink.version` when that object declares it, else the nearest enclosing object's; a name of
   * another file is kept as written (`Versions.beam`), or qualified by the one object the file imports wholesale.
   */
  private resolveName(written: string, at: number): string {
    const path = this.paths[at] ?? [];
    for (let k = path.length; k >= 0; k--) {
      const q = this.qualified(path.slice(0, k), written);
      if (this.declared.has(q)) return q;
    }
    if (!written.includes(".") && this.imported.length === 1) return `${this.imported[0]}.${written}`;
    return written;
  }

  read(): void {
    this.scopes();
    const t = this.tokens;
    for (let i = 0; i < t.length; i++) {
      const tok = t[i];
      if (tok.kind === "ident" && tok.text === "val") {
        this.definition(i);
        continue;
      }
      if (this.startsModule(i)) {
        const next = this.moduleId(i);
        if (next > i) i = next - 1;
      }
    }
  }

  /** `val name[: Type] = value`, the value a string, a name, or strings and names joined by `+`. */
  private definition(at: number): void {
    const t = this.tokens;
    const name = t[at + 1];
    if (name?.kind !== "ident") return;
    let j = at + 2;
    if (t[j]?.text === ":") {
      j++;
      while (t[j] && (t[j].kind === "ident" || t[j].text === "." || t[j].text === "[" || t[j].text === "]")) j++;
    }
    if (t[j]?.text !== "=") return;
    const value = this.value(j + 1);
    if (!value || !this.ends(value.next)) return;
    this.definitions.push({
      name: this.qualified(this.paths[at] ?? [], name.text),
      value: value.expr,
      nameRange: this.index.rangeOf(name.start, name.end),
    });
  }

  /** Whether the expression ends at `t[i]`: a line break, `;`, `}`, `)` or `,` (or the end of the file). */
  private ends(i: number): boolean {
    const tok = this.tokens[i];
    return !tok || tok.kind === "newline" || [";", "}", ")", ","].includes(tok.text);
  }

  /** Where `%`, `%%` or `%%%` (adjacent `%` tokens) stands at `t[i]`: the index after it, else -1. */
  private percent(i: number): number {
    const t = this.tokens;
    if (t[i]?.text !== "%") return -1;
    let j = i + 1;
    while (j < i + 3 && t[j]?.text === "%" && t[j].start === t[j - 1].end) j++;
    return j;
  }

  private startsModule(i: number): boolean {
    const t = this.tokens;
    if (t[i].kind !== "string") return false;
    const prev = t[i - 1];
    if (prev?.text === "%") return false;
    const op = this.percent(i + 1);
    return op > 0 && t[op]?.kind === "string";
  }

  /** `group % artifact % version [% configuration]` from `t[at]`; returns the index after it. */
  private moduleId(at: number): number {
    const t = this.tokens;
    const group = this.value(at);
    if (!group) return at;
    const op1 = this.percent(group.next);
    const artifactToken = t[op1];
    const artifact = op1 > 0 ? this.value(op1) : undefined;
    if (!artifact || artifactToken?.kind !== "string") return at;
    const op2 = this.percent(artifact.next);
    if (op2 < 0 || op2 - artifact.next !== 1) return artifact.next;
    const version = this.value(op2);
    if (!version) return op2;
    let next = version.next;
    let scope: string | undefined;
    const op3 = this.percent(next);
    if (op3 > 0 && op3 - next === 1) {
      const c = t[op3];
      if (c?.kind === "string") scope = c.segments?.map((s) => (s.kind === "text" ? s.text : "")).join("");
      else if (c?.kind === "ident") scope = CONFIGURATIONS[c.text] ?? c.text.toLowerCase();
      if (c) next = op3 + 1;
    }
    this.dependencies.push({
      group: group.expr,
      artifact: artifact.expr,
      version: version.expr,
      range: this.index.rangeOf(
        artifactToken.contentStart ?? artifactToken.start,
        artifactToken.contentEnd ?? artifactToken.end,
      ),
      platform: false,
      managed: false,
      ...(scope ? { scope } : {}),
    });
    return next;
  }

  /** A string (`"1.18.1"`, `s"$base-1.18"`), a name (`flinkVersion`, `Versions.flink`), joined by `+`. */
  private value(at: number): { expr: ValueExpr; next: number } | undefined {
    const t = this.tokens;
    const parts: ValuePart[] = [];
    let i = at;
    const start = t[at]?.start ?? 0;
    let end = start;
    for (;;) {
      const tok = t[i];
      if (!tok) return undefined;
      // Scala's interpolators are written against the quote: `s"…"`.
      const interpolated = tok.kind === "ident" && /^[sf]$/.test(tok.text) && t[i + 1]?.kind === "string";
      if (interpolated && t[i + 1].start === tok.end) {
        this.stringParts(t[i + 1], i + 1, true, parts);
        end = t[i + 1].end;
        i += 2;
      } else if (tok.kind === "string") {
        this.stringParts(tok, i, false, parts);
        end = tok.end;
        i++;
      } else if (tok.kind === "ident" && !/^(val|var|lazy|def|new)$/.test(tok.text)) {
        let last = i;
        while (t[last + 1]?.text === "." && t[last + 2]?.kind === "ident") last += 2;
        // A call (`sys.env.getOrElse(…)`) is computed when the build loads.
        if (t[last + 1]?.text === "(") {
          parts.push({ computed: true, range: this.index.rangeOf(tok.start, t[last].end) });
          return { expr: exprOf(this.index, parts, start, t[last].end), next: last + 1 };
        }
        const written = this.text.slice(tok.start, t[last].end).replace(/\s+/g, "");
        parts.push({ ref: this.resolveName(written, i), range: this.index.rangeOf(tok.start, t[last].end) });
        end = t[last].end;
        i = last + 1;
      } else return undefined;
      if (t[i]?.text === "+" && t[i + 1]?.kind !== "newline") {
        i++;
        continue;
      }
      return { expr: exprOf(this.index, parts, start, end), next: i };
    }
  }

  /** The parts of a string: its text, and the names `$v` / `${v}` of an interpolated one. */
  private stringParts(tok: Token, at: number, interpolated: boolean, parts: ValuePart[]): void {
    const from = tok.contentStart ?? tok.start;
    const to = tok.contentEnd ?? tok.end;
    if (!interpolated) {
      // Without an interpolator `$` is a character like any other.
      const raw = this.text.slice(from, to);
      const decoded = (tok.segments ?? []).every((s) => s.kind === "text")
        ? (tok.segments ?? []).map((s) => (s.kind === "text" ? s.text : "")).join("")
        : raw;
      parts.push(textPart(this.index, decoded, from, to));
      return;
    }
    for (const s of tok.segments ?? []) {
      if (s.kind === "text") parts.push(textPart(this.index, s.text, s.start, s.end, s.exact));
      else {
        const names = s.tokens.filter((x) => x.kind === "ident");
        const simple = s.tokens.every((x) => x.kind === "ident" || x.text === ".");
        if (simple && names.length > 0) {
          const written = s.tokens.map((x) => x.text).join("");
          parts.push({ ref: this.resolveName(written, at), range: this.index.rangeOf(s.start, s.end) });
        } else parts.push({ computed: true, range: this.index.rangeOf(s.start, s.end) });
      }
    }
  }
}
