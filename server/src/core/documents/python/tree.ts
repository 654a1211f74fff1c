/**
 * A plain copy of a tree-sitter syntax tree, made in one cursor walk. Every property read of a web-tree-sitter node
 * crosses into WebAssembly and allocates (a node's type, its end, each child); lowering reads each node several
 * times, so it reads this copy instead: one pass over the tree, linear and without recursion, then plain objects.
 */
import type { Language, Node } from "web-tree-sitter";

export class SyntaxNode {
  readonly children: SyntaxNode[] = [];
  /** An ERROR node, a MISSING node, or one with either inside. */
  hasError: boolean;
  private namedList?: SyntaxNode[];

  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    /** The field of the parent this node is in (`left`, `arguments` …). */
    readonly field: string | undefined,
  ) {
    this.hasError = isMissing || type === "ERROR";
  }

  get isError(): boolean {
    return this.type === "ERROR";
  }

  /** The named children, comments left out. */
  get named(): SyntaxNode[] {
    this.namedList ??= this.children.filter((c) => c.isNamed && c.type !== "comment");
    return this.namedList;
  }

  childForFieldName(name: string): SyntaxNode | null {
    for (const c of this.children) if (c.field === name) return c;
    return null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    return this.children.filter((c) => c.field === name);
  }
}

/** Tokens the lowering reads although they have no name and are not in a field. */
const KEPT_TOKENS = new Set(["."]);

/**
 * Copies the tree under `root`; positions are those of the tree (offsets in the text it was parsed from). Only what
 * the lowering reads is copied: named nodes (comments left out), tokens in a field (operators), `.`, MISSING
 * nodes, everything inside an ERROR (where brackets tell what was left open), and strings without their parts
 * (their value is read from their text).
 */
export function copyTree(root: Node, language: Language): SyntaxNode {
  const types = language.types;
  const fields = language.fields;
  const namedType: (boolean | undefined)[] = [];
  const cursor = root.walk();
  const make = (type: string, named: boolean, missing: boolean, field: number) =>
    new SyntaxNode(
      type,
      cursor.startIndex,
      cursor.endIndex,
      named,
      missing,
      field > 0 ? (fields[field] ?? undefined) : undefined,
    );
  const top = make(types[cursor.nodeTypeId] ?? "ERROR", true, cursor.nodeIsMissing, 0);
  const stack: SyntaxNode[] = [top];
  try {
    // Children of the node on top of the stack, one after the other; a kept node with children is entered.
    let entered = cursor.gotoFirstChild();
    while (stack.length > 0) {
      if (!entered) {
        // The node on top of the stack has no more children.
        const done = stack.pop() as SyntaxNode;
        const parent = stack[stack.length - 1];
        if (!parent) break;
        if (done.hasError) parent.hasError = true;
        cursor.gotoParent();
        entered = cursor.gotoNextSibling();
        continue;
      }
      const parent = stack[stack.length - 1];
      const id = cursor.nodeTypeId;
      const type = types[id] ?? "ERROR";
      let named = namedType[id];
      if (named === undefined) {
        named = type === "ERROR" || language.nodeTypeIsNamed(id);
        namedType[id] = named;
      }
      const field = cursor.currentFieldId;
      const missing = cursor.nodeIsMissing;
      const keep =
        parent.type === "ERROR" ||
        missing ||
        (named && type !== "comment" && type !== "line_continuation") ||
        (field > 0 && type !== "line_continuation") ||
        KEPT_TOKENS.has(type);
      if (!keep) {
        entered = cursor.gotoNextSibling();
        continue;
      }
      const node = make(type, named, missing, field);
      parent.children.push(node);
      if (type === "string") {
        // Read from its text; only whether something inside did not parse is needed.
        if (cursor.currentNode.hasError) node.hasError = true;
        if (node.hasError) parent.hasError = true;
        entered = cursor.gotoNextSibling();
        continue;
      }
      if (cursor.gotoFirstChild()) {
        stack.push(node);
        entered = true;
        continue;
      }
      if (node.hasError) parent.hasError = true;
      entered = cursor.gotoNextSibling();
    }
    return top;
  } finally {
    cursor.delete();
  }
}
