/**
 * The floor of a CLI run: walks the same paths with the product's walker, reads every file and parses it with the
 * parser its kind uses, and does nothing else (no facts, no projects, no rules, no report). Prints the number of
 * files parsed.
 */
import { readFileSync } from "node:fs";
import { collectFiles } from "../server/src/node/walk";
import { floorKindOf, javaUnits, loadTreeSitter, parseFloor } from "./floor";

async function main(): Promise<void> {
  // The tree-sitter runtime and its three grammars, before the walk (the CLI compiles a grammar with the first file
  // of its language; this workspace has files of all three).
  await loadTreeSitter();
  const paths = process.argv.slice(2);
  const collected = collectFiles(paths, { cwd: process.cwd() });
  let parsed = 0;
  for (const file of [...collected.files, ...collected.context]) {
    const text = readFileSync(file, "utf8");
    const kind = floorKindOf(file);
    if (kind) parseFloor(kind, file, text, kind === "java" ? javaUnits(text) : undefined);
    parsed++;
  }
  process.stdout.write(`${JSON.stringify({ files: parsed })}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
