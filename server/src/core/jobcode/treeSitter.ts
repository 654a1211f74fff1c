/**
 * tree-sitter for the job-code languages that have no parser of their own here (Scala, Kotlin, Python): one runtime,
 * one grammar per language, compiled the first time a file of that language is read, and one syntax tree kept per
 * file so that a keystroke re-parses only what changed.
 *
 * The runtime needs one asynchronous step before anything parses ({@link initTreeSitter}, done by the CLI and the
 * language server at start-up, about 20 ms); everything after it is synchronous. The core reads no files: the front
 * end hands over the runtime's bytes and a function that returns a grammar's bytes.
 */
import type * as TreeSitter from "web-tree-sitter";

export type TreeSitterLanguage = "scala" | "kotlin" | "python";

export const TREE_SITTER_LANGUAGES: readonly TreeSitterLanguage[] = ["scala", "kotlin", "python"];

/** The grammar file of each language, as its npm package ships it. */
export const GRAMMAR_FILES: Record<TreeSitterLanguage, string> = {
  scala: "tree-sitter-scala.wasm",
  kotlin: "tree-sitter-kotlin.wasm",
  python: "tree-sitter-python.wasm",
};

type Runtime = typeof TreeSitter;

/** Node's WebAssembly global (not in the ES library typings this project compiles against). */
const wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => never } }).WebAssembly;

let runtime: Runtime | undefined;
let grammarBytes: ((language: TreeSitterLanguage) => Uint8Array | undefined) | undefined;
const grammars = new Map<TreeSitterLanguage, TreeSitter.Language | null>();
const parsers = new Map<TreeSitterLanguage, TreeSitter.Parser>();
let initializing: Promise<void> | undefined;

/**
 * Starts the runtime from its `.wasm` bytes; `grammar` returns a language's `.wasm` bytes (undefined when it is not
 * installed: that language is then read as "not analysed"). Calling it again returns the first call's promise.
 */
export function initTreeSitter(
  runtimeWasm: Uint8Array,
  grammar: (language: TreeSitterLanguage) => Uint8Array | undefined,
): Promise<void> {
  grammarBytes = grammar;
  initializing ??= (async () => {
    const module = require("web-tree-sitter") as Runtime;
    await module.Parser.init({ wasmBinary: runtimeWasm });
    runtime = module;
  })();
  return initializing;
}

export function treeSitterReady(): boolean {
  return runtime !== undefined;
}

/** Why a language cannot be parsed now, or undefined when it can. */
export function unavailable(language: TreeSitterLanguage): string | undefined {
  if (!runtime) return "the tree-sitter runtime is not started";
  return grammar(language) ? undefined : `the ${language} grammar (${GRAMMAR_FILES[language]}) is not installed`;
}

function grammar(language: TreeSitterLanguage): TreeSitter.Language | undefined {
  if (!runtime) return undefined;
  let g = grammars.get(language);
  if (g === undefined) {
    g = null;
    const bytes = grammarBytes?.(language);
    if (bytes) {
      try {
        g = runtime.Language.loadSync(new wasm.Module(bytes));
      } catch {
        g = null;
      }
    }
    grammars.set(language, g);
  }
  return g ?? undefined;
}

function parserFor(language: TreeSitterLanguage): TreeSitter.Parser | undefined {
  let parser = parsers.get(language);
  if (!parser) {
    const g = grammar(language);
    if (!runtime || !g) return undefined;
    parser = new runtime.Parser();
    parser.setLanguage(g);
    parsers.set(language, parser);
  }
  return parser;
}

// ---------------------------------------------------------------------------------------------
// One tree per file, re-parsed incrementally

interface KeptTree {
  language: TreeSitterLanguage;
  text: string;
  tree: TreeSitter.Tree;
}

/** Characters handed to the parser per read. */
const CHUNK = 4096;

/**
 * A parse that runs longer than this is given up (some grammars take super-linear time on pathological nesting);
 * the file is then reported as not analysed instead of blocking the editor or CI.
 */
const PARSE_BUDGET_MS = 10_000;

/**
 * Bracket nesting beyond which a file is not parsed at all: no job code nests this deep, and tree-sitter-scala's
 * time grows faster than the depth (10,000 nested blocks take seconds). The other grammars stay linear.
 */
export const MAX_NESTING: Partial<Record<TreeSitterLanguage, number>> = { scala: 3000 };

/** The deepest bracket nesting of a text (strings and comments not told apart: a bound, not a measure). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      depth++;
      if (depth > max) max = depth;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  return max;
}

/** Files whose trees are kept: the files being edited, a few at a time. Older trees are freed. */
const MAX_TREES = 24;
const kept = new Map<string, KeptTree>();

/**
 * The syntax tree of `text`, parsed incrementally from the file's previous tree when there is one (the changed
 * region is found by comparing the texts). The tree stays owned by this cache: use it before the next parse of the
 * same file, and do not keep nodes.
 */
export function parseTree(file: string, language: TreeSitterLanguage, text: string): TreeSitter.Tree | undefined {
  const parser = parserFor(language);
  if (!parser) return undefined;
  const old = kept.get(file);
  if (old && old.language === language && old.text === text) {
    touch(file, old);
    return old.tree;
  }
  let tree: TreeSitter.Tree | null = null;
  // The text in chunks: given the whole string, the runtime copies the rest of the file at every read.
  const input = (index: number) => (index < text.length ? text.slice(index, index + CHUNK) : undefined);
  const deadline = Date.now() + PARSE_BUDGET_MS;
  const options: TreeSitter.ParseOptions = { progressCallback: () => Date.now() > deadline };
  if (old && old.language === language) {
    old.tree.edit(editBetween(old.text, text));
    tree = parser.parse(input, old.tree, options);
  } else {
    tree = parser.parse(input, null, options);
  }
  if (!tree) parser.reset();
  if (old) {
    old.tree.delete();
    kept.delete(file);
  }
  if (!tree) return undefined;
  touch(file, { language, text, tree });
  return tree;
}

/** Forgets a file's tree (the file was closed or deleted). */
export function dropTree(file: string): void {
  const old = kept.get(file);
  if (old) {
    old.tree.delete();
    kept.delete(file);
  }
}

function touch(file: string, entry: KeptTree): void {
  kept.delete(file);
  kept.set(file, entry);
  while (kept.size > MAX_TREES) {
    const [oldest, value] = kept.entries().next().value as [string, KeptTree];
    value.tree.delete();
    kept.delete(oldest);
  }
}

/** The one edit that turns `before` into `after`: the common prefix and suffix are kept. */
export function editBetween(before: string, after: string): TreeSitter.Edit {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (
    tail < max - start &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  )
    tail++;
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  } as TreeSitter.Edit;
}

function pointAt(text: string, offset: number): TreeSitter.Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}
