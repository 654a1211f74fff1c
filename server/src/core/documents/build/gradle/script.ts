/**
 * Reads a Gradle build script (Groovy or Kotlin DSL) without running it: variables and extra properties written
 * as literals, and the dependencies declared in `dependencies { }` blocks in string, map, 3-argument, platform,
 * catalog-accessor and variable notation. Anything computed stays a computed part, never a guess.
 */
import { emptyFacts, type FileFacts, type SyntaxProblem } from "../../../model";
import { LineIndex } from "../../../text";
import type { PluginUse, RawDependency, SymbolDefinition, ValueExpr, ValuePart } from "../facts";
import { exprOf } from "../values";
import { type Arg, ExpressionReader, literalOf, type Parsed, stringValue, toValue } from "./expressions";
import { type Dsl, type Token, tokenize } from "./tokenizer";

/** Blocks whose body may or may not run, or runs many times. */
const CONDITIONAL_BLOCKS = new Set([
  "if",
  "else",
  "for",
  "while",
  "when",
  "try",
  "catch",
  "finally",
  "each",
  "forEach",
]);
/** Statement heads in a `dependencies` block that are not configurations. */
const KEYWORDS = new Set([
  "if",
  "else",
  "for",
  "while",
  "when",
  "switch",
  "return",
  "try",
  "def",
  "val",
  "var",
  "println",
]);
const PLATFORM_CALLS = new Set(["platform", "enforcedPlatform"]);

interface Frame {
  label: string;
  conditional: boolean;
  parens: number;
}

export function readGradleScript(file: string, text: string): FileFacts {
  const dsl: Dsl = file.endsWith(".kts") ? "kotlin" : "groovy";
  const facts = emptyFacts(file, "gradle", text);
  const { tokens, problems } = tokenize(text, dsl);
  const index = new LineIndex(text);
  const reader = new ScriptReader(tokens, index, dsl);
  reader.read();
  facts.build = {
    kind: "gradle",
    dsl,
    definitions: reader.definitions,
    dependencies: reader.dependencies,
    plugins: reader.plugins,
  };
  const pluginId = precompiledPluginId(file);
  if (pluginId) facts.build.pluginId = pluginId;
  // Only what is certain (an unterminated string or comment) is reported, and as a warning: a script is a program
  // that this reader approximates, so an unbalanced brace may be the reader's confusion rather than the user's.
  facts.syntaxErrors = problems.map(
    (p): SyntaxProblem => ({ range: index.rangeOf(p.start, p.end), message: p.message, severity: "warning" }),
  );
  return facts;
}

/**
 * The plugin id of a precompiled script plugin: `buildSrc/src/main/kotlin/my.beam-conventions.gradle.kts` (or a
 * Groovy `….gradle` under `src/main/groovy`, in buildSrc or an included build) is applied as
 * `id("my.beam-conventions")`. Undefined for ordinary build scripts.
 */
export function precompiledPluginId(file: string): string | undefined {
  const m = /\/src\/main\/(?:kotlin|groovy)\/(?:.*\/)?([^/]+)\.gradle(?:\.kts)?$/.exec(file);
  return m && m[1] !== "build" && m[1] !== "settings" ? m[1] : undefined;
}

class ScriptReader extends ExpressionReader {
  readonly definitions: SymbolDefinition[] = [];
  readonly dependencies: RawDependency[] = [];
  readonly plugins: PluginUse[] = [];
  private readonly stack: Frame[] = [{ label: "", conditional: false, parens: 0 }];
  /** How many frames of the stack carry each label: `inBlock` in constant time however deep blocks nest. */
  private readonly labels = new Map<string, number>([["", 1]]);

  private get frame(): Frame {
    return this.stack[this.stack.length - 1];
  }

  read(): void {
    const { tokens } = this;
    let atStart = true;
    let i = 0;
    while (i < tokens.length) {
      const t = tokens[i];
      if (t.kind === "newline" || t.text === ";") {
        if (this.frame.parens === 0) atStart = true;
        i++;
        continue;
      }
      if (t.kind === "punct" && t.text === "{") {
        const parent = this.frame;
        const label = this.labelBefore(i);
        this.stack.push({ label, conditional: parent.conditional || CONDITIONAL_BLOCKS.has(label), parens: 0 });
        this.labels.set(label, (this.labels.get(label) ?? 0) + 1);
        atStart = true;
        i++;
        continue;
      }
      if (t.kind === "punct" && t.text === "}") {
        if (this.stack.length > 1) {
          const { label } = this.stack.pop() as Frame;
          this.labels.set(label, (this.labels.get(label) ?? 1) - 1);
        }
        atStart = true;
        i++;
        continue;
      }
      if (atStart && this.frame.parens === 0) {
        atStart = false;
        const next = this.statement(i);
        if (next > i) {
          i = next;
          continue;
        }
      }
      if (t.text === "(" || t.text === "[") this.frame.parens++;
      if ((t.text === ")" || t.text === "]") && this.frame.parens > 0) this.frame.parens--;
      i++;
    }
  }

  /** The name a `{` block belongs to: `dependencies {`, `ext {`, `project(':a') {`, `if (…) {`, `extra.apply {`. */
  private labelBefore(i: number): string {
    let j = i - 1;
    const tokens = this.tokens;
    if (tokens[j]?.text === ")") {
      let depth = 0;
      for (; j >= 0; j--) {
        if (tokens[j].text === ")") depth++;
        else if (tokens[j].text === "(" && --depth === 0) break;
      }
      j--;
    }
    if (tokens[j]?.kind !== "ident") return "";
    const names = [tokens[j].text];
    while (tokens[j - 1]?.text === "." && tokens[j - 2]?.kind === "ident") {
      names.unshift(tokens[j - 2].text);
      j -= 2;
    }
    return names.join(".");
  }

  private inBlock(label: string): boolean {
    return (this.labels.get(label) ?? 0) > 0;
  }

  /** Reads one statement at `i` if it is a definition or a dependency; returns the index after it, or `i`. */
  private statement(i: number): number {
    const label = this.frame.label;
    if (/^((project|rootProject)\.)?(ext|extra)(\.apply)?$/.test(label)) {
      const next = this.extBlockStatement(i);
      if (next > i) return next;
    }
    if (label === "plugins" && this.stack.length === 2) return this.pluginStatement(i);
    if (!this.inBlock("buildscript")) {
      const parentLabel = this.stack[this.stack.length - 2]?.label;
      if (label === "dependencies") return this.dependencyStatement(i, this.inBlock("dependencyManagement"));
      if (label === "constraints" && parentLabel === "dependencies") return this.dependencyStatement(i, true);
      if (label === "imports" && parentLabel === "dependencyManagement") return this.mavenBomStatement(i);
    }
    return this.definitionStatement(i);
  }

  /**
   * Applies a plugin: `id("x")`, `id 'x'`, `` `x` `` (Kotlin backticks), `id("x") version "1" apply false` (not
   * applied), and `apply plugin: 'x'` / `apply(plugin = "x")` outside the block.
   */
  private pluginStatement(i: number): number {
    const t = this.tokens;
    if (t[i]?.kind !== "ident" || t[i].text !== "id") return i;
    const paren = t[i + 1]?.text === "(";
    const name = t[paren ? i + 2 : i + 1];
    if (name?.kind !== "string") return i;
    let k = paren ? (t[i + 3]?.text === ")" ? i + 4 : i + 3) : i + 2;
    let applied = true;
    for (; k < t.length && t[k].kind !== "newline" && t[k].text !== ";" && t[k].text !== "}"; k++) {
      if (t[k].kind === "ident" && t[k].text === "apply" && t[k + 1]?.text === "false") applied = false;
    }
    if (applied) this.plugins.push({ id: stringValue(name), range: this.range(name.start, name.end) });
    return k;
  }

  /** `apply plugin: 'x'`, `apply(plugin = "x")` at the top level of a script. */
  private applyStatement(i: number): number {
    const t = this.tokens;
    if (t[i]?.kind !== "ident" || t[i].text !== "apply") return i;
    let k = i + 1;
    if (t[k]?.text === "(") k++;
    if (t[k]?.kind !== "ident" || t[k].text !== "plugin" || (t[k + 1]?.text !== ":" && t[k + 1]?.text !== "="))
      return i;
    const name = t[k + 2];
    if (name?.kind !== "string") return i;
    this.plugins.push({ id: stringValue(name), range: this.range(name.start, name.end) });
    return t[k + 3]?.text === ")" ? k + 4 : k + 3;
  }

  // -------------------------------------------------------------------------------------------
  // Definitions

  private definitionStatement(i: number): number {
    const t = this.tokens;
    if (this.stack.length === 1) {
      const applied = this.applyStatement(i);
      if (applied > i) return applied;
    }
    let j = i;
    while (t[j]?.kind === "ident" && ["final", "private", "const", "static"].includes(t[j].text)) j++;
    const keyword = t[j]?.text;
    if (t[j]?.kind === "ident" && (keyword === "def" || keyword === "val" || keyword === "var")) {
      j++;
      // Groovy `def String x = …`
      if (keyword === "def" && t[j]?.kind === "ident" && t[j + 1]?.kind === "ident") j++;
      return this.declaration(j);
    }
    // Groovy typed local: `String beamVersion = '2.56.0'`
    if (this.dsl === "groovy" && t[j]?.kind === "ident" && /^[A-Z]/.test(t[j].text) && t[j + 1]?.kind === "ident") {
      if (t[j + 2]?.text === "=") return this.declaration(j + 1);
    }
    const chain = this.identChain(i);
    if (chain) {
      const names = chain.names;
      const scoped = names[0] === "project" || names[0] === "rootProject" ? names.slice(1) : names;
      const isExtra = scoped[0] === "ext" || scoped[0] === "extra";
      // ext.x = …, project.ext.x = …
      if (isExtra && scoped.length >= 2 && t[chain.end]?.text === "=") {
        return this.define(scoped.slice(1).join("."), t[chain.end - 1], chain.end + 1, false);
      }
      // ext["x"] = …, extra["x"] = …
      if (isExtra && scoped.length === 1 && t[chain.end]?.text === "[" && t[chain.end + 1]?.kind === "string") {
        const key = t[chain.end + 1];
        if (t[chain.end + 2]?.text === "]" && t[chain.end + 3]?.text === "=") {
          return this.define(stringValue(key), key, chain.end + 4, false);
        }
      }
      // ext.set("x", …), extra.set("x", …)
      if (isExtra && scoped.length === 2 && scoped[1] === "set" && t[chain.end]?.text === "(") {
        return this.setCall(chain.end);
      }
      // A plain assignment `x = …` (a Groovy script variable, or a Kotlin `var` declared earlier).
      if (names.length === 1 && t[chain.end]?.text === "=") return this.define(names[0], t[i], chain.end + 1, true);
    }
    return i;
  }

  /** After `def` / `val` / `var`: `name [: Type] = value`, `name: Type by project`, `name by extra(value)`. */
  private declaration(j: number): number {
    const t = this.tokens;
    const name = t[j];
    if (name?.kind !== "ident") return j;
    let k = j + 1;
    if (t[k]?.text === ":") k = this.skipType(k + 1);
    if (t[k]?.text === "=") return this.define(name.text, name, k + 1, true);
    if (t[k]?.kind === "ident" && t[k].text === "by") {
      const delegate = t[k + 1];
      if (delegate?.kind !== "ident") return k;
      if (delegate.text === "extra" && t[k + 2]?.text === "(") {
        const { parsed, next } = this.expression(k + 3);
        this.addDefinition(name.text, name, toValue(parsed, this.index), false);
        return t[next]?.text === ")" ? next + 1 : next;
      }
      if (["project", "rootProject", "extra", "settings"].includes(delegate.text)) {
        // A read of the project property of the same name (gradle.properties, -P, an extra property).
        const ref: ValuePart = { ref: name.text, range: this.range(delegate.start, delegate.end) };
        this.addDefinition(name.text, name, exprOf(this.index, [ref], delegate.start, delegate.end), true);
        return k + 2;
      }
    }
    return k;
  }

  /** `String`, `kotlin.String?`, `Map<String, String>`: the index after the type. */
  private skipType(k: number): number {
    const t = this.tokens;
    if (t[k]?.kind !== "ident") return k;
    k++;
    while (t[k]?.text === "." && t[k + 1]?.kind === "ident") k += 2;
    if (t[k]?.text === "<") {
      let depth = 0;
      for (; k < t.length && t[k].kind !== "newline"; k++) {
        if (t[k].text === "<") depth++;
        else if (t[k].text === ">" && --depth === 0) {
          k++;
          break;
        }
      }
    }
    return t[k]?.text === "?" ? k + 1 : k;
  }

  /** Inside `ext { }` / `extra.apply { }`: `x = value`, `set("x", value)`. */
  private extBlockStatement(i: number): number {
    const t = this.tokens;
    if (t[i]?.kind === "ident" && t[i + 1]?.text === "=") return this.define(t[i].text, t[i], i + 2, false);
    if (t[i]?.kind === "ident" && t[i].text === "set" && t[i + 1]?.text === "(") return this.setCall(i + 1);
    return i;
  }

  /** `set("x", value)` with `open` at the `(`. */
  private setCall(open: number): number {
    const t = this.tokens;
    const key = t[open + 1];
    if (key?.kind !== "string" || t[open + 2]?.text !== ",") return open;
    const { parsed, next } = this.expression(open + 3);
    this.addDefinition(stringValue(key), key, toValue(parsed, this.index), false);
    return t[next]?.text === ")" ? next + 1 : next;
  }

  private define(name: string, nameToken: Token, valueAt: number, local: boolean): number {
    const { parsed, next } = this.expression(valueAt);
    if (parsed.kind === "map") {
      // `versions = [beam: '2.56.0']` / `mapOf("beam" to "2.56.0")`: read as `versions.beam`.
      for (const e of parsed.entries) {
        this.addDefinition(
          `${name}.${e.key}`,
          { start: e.keyStart, end: e.keyEnd },
          toValue(e.value, this.index),
          local,
        );
      }
    } else this.addDefinition(name, nameToken, toValue(parsed, this.index), local);
    return next;
  }

  private addDefinition(name: string, at: { start: number; end: number }, value: ValueExpr, local: boolean): void {
    const def: SymbolDefinition = { name, value, nameRange: this.range(at.start, at.end), local };
    if (this.frame.conditional) def.conditional = true;
    this.definitions.push(def);
  }

  // -------------------------------------------------------------------------------------------
  // Dependencies

  /** `conf notation…`, `conf(notation…)`, `"conf"(…)`, `add("conf", …)`, `mavenBom "g:a:v"` (dependency-management plugin). */
  private dependencyStatement(i: number, managed: boolean): number {
    const t = this.tokens;
    const head = t[i];
    if (head?.kind !== "ident" && head?.kind !== "string") return i;
    if (head.kind === "ident" && KEYWORDS.has(head.text)) return this.definitionStatement(i);
    const after = t[i + 1];
    if (!after || after.text === "{" || after.text === "=" || after.text === "." || after.kind === "newline") return i;
    let scope = head.kind === "string" ? stringValue(head) : head.text;
    let args: Arg[];
    let next: number;
    if (after.text === "(") {
      ({ args, next } = this.argumentList(i + 2, ")"));
      if (head.kind === "ident" && head.text === "add") {
        const first = args.shift();
        scope = first ? (literalOf(first.value) ?? "") : "";
      }
    } else {
      if (head.kind !== "ident") return i;
      ({ args, next } = this.argumentList(i + 1, undefined));
    }
    this.addDependencies(args, scope, managed);
    return next;
  }

  private mavenBomStatement(i: number): number {
    const t = this.tokens;
    if (t[i]?.kind !== "ident" || t[i].text !== "mavenBom") return i;
    const paren = t[i + 1]?.text === "(";
    const { args, next } = this.argumentList(paren ? i + 2 : i + 1, paren ? ")" : undefined);
    const first = args[0]?.value;
    if (first?.kind === "value")
      this.push({ notation: first.value, range: first.value.range, platform: true, managed: true });
    return next;
  }

  private addDependencies(args: Arg[], scope: string, managed: boolean): void {
    const named = new Map(args.filter((a) => a.name).map((a) => [a.name as string, a.value]));
    if (named.has("name")) {
      const artifact = toValue(named.get("name") as Parsed, this.index);
      const group = named.get("group");
      const version = named.get("version");
      this.push({
        group: group ? toValue(group, this.index) : undefined,
        artifact,
        version: version ? toValue(version, this.index) : undefined,
        range: artifact.range,
        platform: false,
        managed,
        scope,
      });
      return;
    }
    const positional = args.filter((a) => !a.name).map((a) => a.value);
    // Kotlin's `implementation("g", "a", "v")`; Groovy lists several notations instead.
    if (
      this.dsl === "kotlin" &&
      (positional.length === 2 || positional.length === 3) &&
      positional.every((p) => p.kind === "value" && !literalOf(p)?.includes(":"))
    ) {
      const [group, artifact, version] = positional.map((p) => toValue(p, this.index));
      this.push({ group, artifact, version, range: artifact.range, platform: false, managed, scope });
      return;
    }
    for (const p of positional) this.addNotation(p, scope, managed, false);
  }

  private addNotation(p: Parsed, scope: string, managed: boolean, platform: boolean): void {
    if (p.kind === "call") {
      const last = p.name.slice(p.name.lastIndexOf(".") + 1);
      if (PLATFORM_CALLS.has(last) && p.args[0]) this.addNotation(p.args[0].value, scope, managed, true);
      return;
    }
    if (p.kind !== "value" || p.value.parts.every((part) => "computed" in part)) return;
    this.push({ notation: p.value, range: p.value.range, platform, managed, scope });
  }

  private push(dep: Omit<RawDependency, "managed" | "platform"> & { managed: boolean; platform: boolean }): void {
    if (dep.scope === undefined) delete dep.scope;
    this.dependencies.push(dep);
  }
}
