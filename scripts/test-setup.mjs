// Loaded before every test file (node --import): starts the tree-sitter parsers once, as the CLI and the language
// server do at start-up, so tests can read Scala, Kotlin and Python synchronously like every other file.
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const out = process.env.BFL_OUT_DIR ? resolve(process.env.BFL_OUT_DIR) : join(import.meta.dirname, "..", "out");
const require = createRequire(import.meta.url);
await require(join(out, "server/src/node/parsers.js")).prepareParsers();
