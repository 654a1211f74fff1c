/**
 * What Scala declares in a file before any part of it is lowered (the classes, objects and traits, parameterless
 * `def`s, the `val`s of objects), and Scala's syntax problems.
 */
import type { Node as TreeSitterNode } from "web-tree-sitter";
import type { CodeParseProblem } from "../../jobcode/facts";
import type { LineIndex } from "../../text";
import { type Declarations, identifierText } from "../code/lowering";
import { field, type SyntaxNode } from "../code/syntaxNode";

const CLASS_LIKE = new Set(["object_definition", "class_definition", "trait_definition", "enum_definition"]);
const BODY_HOLDERS = new Set(["template_body", "compilation_unit", "enum_body"]);

/** The declarations under `item`, without recursion (the tree may be arbitrarily deep). */
export function declarationsOf(item: SyntaxNode, text: string): Declarations {
  const d: Declarations = { ownTypes: [], parameterless: [], defs: [], memberVals: [] };
  const stack: SyntaxNode[] = [item];
  while (stack.length > 0) {
    const n = stack.pop() as SyntaxNode;
    if (CLASS_LIKE.has(n.type)) {
      const name = field(n, "name");
      if (name) d.ownTypes.push(identifierText(text, name));
    } else if (n.type === "function_definition" || n.type === "function_declaration") {
      const name = field(n, "name");
      if (name) {
        const s = identifierText(text, name);
        d.defs.push(s);
        if (!field(n, "parameters") && s !== "this") d.parameterless.push(s);
      }
    } else if (n.type === "val_definition" || n.type === "var_definition") {
      const pattern = field(n, "pattern");
      // A val of a class, an object or the file (the item itself is at the top).
      if (pattern?.type === "identifier" && (!n.parent || BODY_HOLDERS.has(n.parent.type))) {
        d.memberVals.push(identifierText(text, pattern));
      }
    }
    for (let i = n.children.length - 1; i >= 0; i--) if (n.children[i].isNamed) stack.push(n.children[i]);
  }
  return d;
}

/**
 * Syntax errors as parse problems, one per error (at most `max`). An error node that spans a large part of the
 * file (tree-sitter wraps what it could not fit, often from the enclosing object on) is reported at the errors
 * inside it, which are where the text went wrong.
 */
export function scalaSyntaxProblems(root: TreeSitterNode, index: LineIndex, max = 20): CodeParseProblem[] {
  const out: CodeParseProblem[] = [];
  if (!root.hasError) return out;
  const stack: TreeSitterNode[] = [root];
  while (stack.length > 0 && out.length < max) {
    const node = stack.pop() as TreeSitterNode;
    const inner = node.isError && hasErrorInside(node);
    if ((node.isError && !inner) || node.isMissing) {
      const at = index.positionAt(node.startIndex);
      const what = node.isMissing ? `missing ${node.type}` : "unexpected text";
      out.push({
        range: index.rangeOf(node.startIndex, Math.max(node.endIndex, node.startIndex)),
        message: `Scala syntax error at line ${at.line + 1}, column ${at.character + 1}: ${what}`,
      });
      continue;
    }
    if (!node.hasError && !node.isError) continue;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const c = node.child(i);
      if (c && (c.hasError || c.isError || c.isMissing)) stack.push(c);
    }
  }
  return out;
}

function hasErrorInside(n: TreeSitterNode): boolean {
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (c && (c.isError || c.isMissing || c.hasError)) return true;
  }
  return false;
}
