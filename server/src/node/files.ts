/** Paths and file texts as the core wants them: absolute `/`-separated paths, text without a byte order mark. */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve, sep } from "node:path";

const BOM = "\uFEFF";

/** An absolute path with `/` separators (the core's file identity), resolved against `cwd`. */
export function toPosixPath(path: string, cwd = process.cwd()): string {
  const abs = resolve(cwd, path);
  return sep === "/" ? abs : abs.split(sep).join("/");
}

export interface TextFile {
  text: string;
  /** The file started with a byte order mark; editors hide it, so ranges are computed without it. */
  bom: boolean;
}

export function readTextFile(path: string): TextFile {
  const raw = readFileSync(path, "utf8");
  return raw.startsWith(BOM) ? { text: raw.slice(1), bom: true } : { text: raw, bom: false };
}

export function writeTextFile(path: string, file: TextFile): void {
  writeFileSync(path, file.bom ? BOM + file.text : file.text, "utf8");
}
