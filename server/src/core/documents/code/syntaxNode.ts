/**
 * A plain JavaScript copy of (part of) a tree-sitter tree, made in one pass with a tree cursor. Reading a node
 * through web-tree-sitter's `Node` API allocates and crosses into WebAssembly for every child, field and offset;
 * the lowering looks at most nodes several times, so it reads this copy instead (about four times faster), and only
 * for the items of a file that changed (see cache.ts).
 */
import type { Language, Node } from "web-tree-sitter";

export interface SyntaxNode {
  readonly type: string;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly isError: boolean;
  /** The node is an error or holds one. */
  hasError: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  /** The field this node is in its parent (`function`, `arguments`), if any. */
  readonly field: string | null;
  readonly children: SyntaxNode[];
  readonly parent: SyntaxNode | null;
  /** The named children, once asked for. */
  namedChildren?: SyntaxNode[];
}

/** Nodes whose insides the lowering never reads: their subtrees are not copied. */
const OPAQUE = new Set([
  "import_declaration",
  "export_declaration",
  "package_identifier",
  "comment",
  "block_comment",
  "annotation",
  "string",
  "character_literal",
  "integer_literal",
  "floating_point_literal",
]);

const namedTypes = new WeakMap<Language, Map<number, boolean>>();

/** Whether a node type is named, asked of the grammar once per type. */
function isNamedType(language: Language, id: number): boolean {
  let known = namedTypes.get(language);
  if (!known) {
    known = new Map();
    namedTypes.set(language, known);
  }
  let named = known.get(id);
  if (named === undefined) {
    named = language.nodeTypeIsNamed(id);
    known.set(id, named);
  }
  return named;
}

/**
 * Copies the tree under `node` (without recursion: the tree may be arbitrarily deep). `opaque`: the node types whose
 * subtrees are not copied (Scala's by default; the Kotlin lowering passes its own).
 */
export function copyTree(node: Node, opaque: ReadonlySet<string> = OPAQUE): SyntaxNode {
  const language = node.tree.language;
  const types = language.types;
  const fields = language.fields;
  const cursor = node.walk();
  try {
    const make = (parent: SyntaxNode | null): SyntaxNode => {
      const id = cursor.nodeTypeId;
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      const type = types[id] ?? "ERROR";
      const isError = type === "ERROR";
      const isMissing = start === end && !isError && cursor.nodeIsMissing;
      const fieldId = parent ? cursor.currentFieldId : 0;
      return {
        type,
        isNamed: isError || isNamedType(language, id),
        isMissing,
        isError,
        hasError: isError || isMissing,
        startIndex: start,
        endIndex: end,
        field: fieldId > 0 ? (fields[fieldId] ?? null) : null,
        children: [],
        parent,
      };
    };
    const root = make(null);
    let current = root;
    if (!cursor.gotoFirstChild()) return root;
    for (;;) {
      const n = make(current);
      current.children.push(n);
      if (!opaque.has(n.type) && cursor.gotoFirstChild()) {
        current = n;
        continue;
      }
      // Up until a sibling is found, carrying errors to the parents on the way.
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || !current.parent) {
          propagate(current);
          return root;
        }
        propagate(current);
        current = current.parent;
      }
    }
  } finally {
    cursor.delete();
  }
}

function propagate(n: SyntaxNode): void {
  if (!n.hasError) for (const c of n.children) if (c.hasError) n.hasError = true;
}

// ---------------------------------------------------------------------------------------------
// Reading the copy

const COMMENTS = new Set(["comment", "block_comment", "line_comment"]);

/** The named children (comments left out). */
export function named(n: SyntaxNode): SyntaxNode[] {
  if (n.namedChildren) return n.namedChildren;
  const out: SyntaxNode[] = [];
  for (const c of n.children) if (c.isNamed && !COMMENTS.has(c.type)) out.push(c);
  n.namedChildren = out;
  return out;
}

/** The first child in a field. */
export function field(n: SyntaxNode, name: string): SyntaxNode | undefined {
  for (const c of n.children) if (c.field === name) return c;
  return undefined;
}

/** Whether an anonymous token (`=`, `=>`) is among the children. */
export function hasToken(n: SyntaxNode, token: string): boolean {
  for (const c of n.children) if (!c.isNamed && c.type === token) return true;
  return false;
}
