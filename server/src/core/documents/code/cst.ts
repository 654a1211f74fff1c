/**
 * Small helpers the tree-sitter lowerings share: reading a node's text from the file, walking children without
 * allocating cursors, recording syntax errors as parse problems, and the camelCase form of Python names.
 */
import type { Node } from "web-tree-sitter";
import type { CodeParseProblem } from "../../jobcode/facts";
import type { LineIndex } from "../../text";

/** The named children of a node (comments and punctuation left out). */
export function named(n: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < n.namedChildCount; i++) {
    const c = n.namedChild(i);
    if (c && c.type !== "comment" && c.type !== "line_comment" && c.type !== "block_comment") out.push(c);
  }
  return out;
}

/** Every child, punctuation included. */
export function children(n: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (c) out.push(c);
  }
  return out;
}

export function field(n: Node, name: string): Node | undefined {
  return n.childForFieldName(name) ?? undefined;
}

export function text(source: string, n: Node): string {
  return source.slice(n.startIndex, n.endIndex);
}

/** The first named child of one of the given types. */
export function childOfType(n: Node, ...types: string[]): Node | undefined {
  return named(n).find((c) => types.includes(c.type));
}

/**
 * Syntax errors under `n` as parse problems (one per error node, at most `max`): the part of the file they are in
 * contributes what tree-sitter could still read, and the problem says where the rest stopped.
 */
export function syntaxProblems(n: Node, index: LineIndex, language: string, max = 20): CodeParseProblem[] {
  const out: CodeParseProblem[] = [];
  if (!n.hasError) return out;
  const stack: Node[] = [n];
  while (stack.length > 0 && out.length < max) {
    const node = stack.pop() as Node;
    if (node.isError || node.isMissing) {
      const at = index.positionAt(node.startIndex);
      const what = node.isMissing ? `missing ${node.type}` : "unexpected text";
      out.push({
        range: index.rangeOf(node.startIndex, Math.max(node.endIndex, node.startIndex)),
        message: `${language} syntax error at line ${at.line + 1}, column ${at.character + 1}: ${what}`,
      });
      continue;
    }
    if (!node.hasError) continue;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const c = node.child(i);
      if (c) stack.push(c);
    }
  }
  return out;
}

/** `enable_checkpointing` is `enableCheckpointing`; names that are not lower snake_case stay as they are. */
export function camelCase(name: string): string {
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(name)) return name;
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The inverse, for rendering fixes in Python: `setGroupId` is `set_group_id`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
