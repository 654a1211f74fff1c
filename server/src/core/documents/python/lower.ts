/** Lowers a Python tree-sitter syntax tree to the shared job-code syntax tree (jobcode/ir.ts). */
import type { Node } from "web-tree-sitter";
import type { LineIndex } from "../../text";
import { syntaxProblems } from "../code/cst";
import type { Lowered } from "../code/treeSitterReader";

export function lowerPython(root: Node, _text: string, index: LineIndex): Lowered {
  return { members: [], stmts: [], classNames: [], called: new Set(), problems: syntaxProblems(root, index, "Python") };
}
