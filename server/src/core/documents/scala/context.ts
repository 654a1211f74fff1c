/**
 * What the Scala lowering knows about the whole file before it lowers any part of it (the classes, objects and
 * traits it declares, its parameterless `def`s, the `val`s of its objects), the local names in scope (a local
 * shadows a parameterless `def`), the nesting depth, and the problems met on the way.
 */
import type { Node } from "web-tree-sitter";
import type { CodeParseProblem } from "../../jobcode/facts";
import type { LineIndex } from "../../text";

/**
 * How deep expressions and statements are lowered. Real job code stays far below; anything deeper (generated
 * code, a fuzzer's input) is cut off there with a problem, so that neither the lowering nor the extractor, which
 * walk the lowered tree recursively, can run out of stack.
 */
export const MAX_DEPTH = 400;

const CLASS_LIKE = new Set(["object_definition", "class_definition", "trait_definition", "enum_definition"]);
const BODY_HOLDERS = new Set(["template_body", "compilation_unit", "enum_body"]);

export class LowerContext {
  /** Classes, objects, traits and enums declared in the file. */
  readonly ownTypes = new Set<string>();
  /** `def name = …` / `def name: T = …` without parameter lists: a reference to the name is a call. */
  readonly parameterless = new Set<string>();
  /** Every `def` of the file. */
  readonly defs = new Set<string>();
  /** `val`s and `var`s declared directly in a class, object or the file (not in a method). */
  readonly memberVals = new Set<string>();
  /** Names the file calls as its own functions. */
  readonly called = new Set<string>();
  readonly problems: CodeParseProblem[] = [];
  private depth = 0;
  private tooDeepReported = false;
  private readonly scopes: Set<string>[] = [];
  private javaImports?: Set<string>;

  constructor(
    readonly text: string,
    readonly index: LineIndex,
  ) {}

  /** Collects the file's declarations without recursion (the tree may be arbitrarily deep). */
  declarations(root: Node): void {
    const cursor = root.walk();
    try {
      let more = true;
      while (more) {
        const n = cursor.currentNode;
        if (CLASS_LIKE.has(n.type)) {
          const name = n.childForFieldName("name");
          if (name) this.ownTypes.add(identifierText(this.text, name));
        } else if (n.type === "function_definition" || n.type === "function_declaration") {
          const name = n.childForFieldName("name");
          if (name) {
            const text = identifierText(this.text, name);
            this.defs.add(text);
            if (!n.childForFieldName("parameters") && text !== "this") this.parameterless.add(text);
          }
        } else if (
          (n.type === "val_definition" || n.type === "var_definition") &&
          BODY_HOLDERS.has(n.parent?.type ?? "")
        ) {
          const pattern = n.childForFieldName("pattern");
          if (pattern?.type === "identifier") this.memberVals.add(identifierText(this.text, pattern));
        }
        if (cursor.gotoFirstChild()) continue;
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) {
            more = false;
            break;
          }
        }
      }
    } finally {
      cursor.delete();
    }
  }

  /** Enters one level of nesting; false (and a problem, once per file) when that is too deep. */
  enter(n: Node): boolean {
    if (this.depth >= MAX_DEPTH) {
      this.tooDeep(n);
      return false;
    }
    this.depth++;
    return true;
  }

  /** Records (once per file) that the code at `n` is nested too deeply to be read. */
  tooDeep(n: Node): void {
    if (this.tooDeepReported) return;
    this.tooDeepReported = true;
    const at = this.index.positionAt(n.startIndex);
    this.problems.push({
      range: this.index.rangeOf(n.startIndex, n.endIndex),
      message: `Scala code at line ${at.line + 1}, column ${at.character + 1} is nested more than ${MAX_DEPTH} levels deep and was not read`,
    });
  }

  leave(): void {
    this.depth--;
  }

  pushScope(names: Iterable<string> = []): void {
    this.scopes.push(new Set(names));
  }

  popScope(): void {
    this.scopes.pop();
  }

  declareLocal(name: string): void {
    this.scopes[this.scopes.length - 1]?.add(name);
  }

  isLocal(name: string): boolean {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i].has(name)) return true;
    return false;
  }

  /** The file imports `name` from `java.util` (`import java.util.HashMap`, `java.util.{Map, HashMap}`, `java.util._`). */
  importsFromJavaUtil(name: string): boolean {
    if (!this.javaImports) {
      this.javaImports = new Set();
      for (const m of this.text.matchAll(/\bimport\s+java\.util\.(\{[^}]*\}|[\w*]+)/g)) {
        const list = m[1].startsWith("{") ? m[1].slice(1, -1).split(",") : [m[1]];
        for (const item of list) {
          const name = item.trim().split(/\s/)[0];
          this.javaImports.add(name === "*" ? "_" : name);
        }
      }
    }
    return this.javaImports.has(name) || this.javaImports.has("_");
  }
}

/** An identifier's text, backquotes removed (`` `type` `` is `type`). */
export function identifierText(text: string, n: Node): string {
  const s = text.slice(n.startIndex, n.endIndex);
  return s.length > 1 && s.startsWith("`") && s.endsWith("`") ? s.slice(1, -1) : s;
}
