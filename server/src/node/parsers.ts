/**
 * Starts the tree-sitter runtime with the grammar files on disk: next to the bundle (`dist/*.wasm`, as the VSIX and
 * the CLI package ship them) or, when running from the compiled sources, in the grammar packages.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GRAMMAR_FILES, initTreeSitter, type TreeSitterLanguage } from "../core/jobcode/treeSitter";

const RUNTIME_FILE = "web-tree-sitter.wasm";

/** How each file resolves in its npm package, for runs from the compiled sources (tests). */
const PACKAGED: Record<string, string> = {
  [RUNTIME_FILE]: "web-tree-sitter/web-tree-sitter.wasm",
  [GRAMMAR_FILES.scala]: "tree-sitter-scala/tree-sitter-scala.wasm",
  [GRAMMAR_FILES.kotlin]: "@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm",
  [GRAMMAR_FILES.python]: "tree-sitter-python/tree-sitter-python.wasm",
};

/** Where a `.wasm` file is: beside this bundle, else in its package; undefined when neither has it. */
export function wasmPath(name: string): string | undefined {
  const beside = join(__dirname, name);
  if (existsSync(beside)) return beside;
  try {
    // Resolved at run time (not by the bundler): only runs from the compiled sources get here.
    const resolve = require.resolve as (id: string) => string;
    const inPackage = PACKAGED[name] && resolve(PACKAGED[name]);
    return inPackage && existsSync(inPackage) ? inPackage : undefined;
  } catch {
    return undefined;
  }
}

function bytes(path: string | undefined): Uint8Array | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

let started: Promise<boolean> | undefined;

/**
 * Starts the parsers once (about 20 ms; grammars are compiled later, when a file of their language is first read).
 * Resolves to false when the runtime is missing: Scala, Kotlin and Python files are then reported as not analysed.
 */
export function prepareParsers(): Promise<boolean> {
  started ??= (async () => {
    const runtime = bytes(wasmPath(RUNTIME_FILE));
    if (!runtime) return false;
    try {
      await initTreeSitter(runtime, (language: TreeSitterLanguage) => bytes(wasmPath(GRAMMAR_FILES[language])));
      return true;
    } catch {
      return false;
    }
  })();
  return started;
}
