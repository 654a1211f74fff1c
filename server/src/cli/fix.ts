/**
 * `--fix`: applies the wanted fixes in passes, like ESLint. Each pass takes, per finding, its first fix of the wanted
 * safety whose edits do not collide with a fix already taken; the project is analysed again after each pass
 * (a fix can reveal or clear other findings) until nothing changes or after 10 passes.
 */
import { addTo } from "../core/arrays";
import type { Finding, Fix, FixSafety } from "../core/findings";
import { applyEdits, EditSet, editSpans, type TextEdit } from "../core/text";
import type { Workspace } from "../core/workspace/workspace";
import type { FixType } from "./args";

export const MAX_FIX_PASSES = 10;

export interface FixOutcome {
  /** Files whose text changed. */
  changed: Set<string>;
  /** Fixes applied over all passes. */
  applied: number;
  /** The edits applied to each changed file, pass by pass (each pass's edits are relative to the text before it). */
  history: Map<string, TextEdit[][]>;
  /** Files left alone (see `refused`) that a wanted fix would have edited. */
  refusedWanted: Set<string>;
}

function wanted(safety: FixSafety, type: FixType): boolean {
  return type === "all" || type === safety;
}

/**
 * Applies fixes to the workspace's texts (not to disk). Only fixes whose every edit is in `editable` are taken, so
 * files the user did not ask to lint are never changed. `refused` are files that must not be edited for a reason the
 * user is told about (not UTF-8): the outcome says which of them a wanted fix would have edited.
 */
export function fixWorkspace(
  workspace: Workspace,
  editable: ReadonlySet<string>,
  type: FixType,
  analyse: () => Finding[],
  refused: ReadonlySet<string> = new Set(),
): FixOutcome {
  const changed = new Set<string>();
  const history = new Map<string, TextEdit[][]>();
  const refusedWanted = new Set<string>();
  let applied = 0;
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const taken = new Map<string, EditSet>();
    const fits = (fix: Fix) =>
      fix.changes.every((c) => editable.has(c.file) && c.edits.every((e) => !taken.get(c.file)?.collides(e)));
    let count = 0;
    for (const finding of analyse()) {
      const fix = finding.fixes.find((f) => wanted(f.safety, type));
      if (fix) for (const c of fix.changes) if (refused.has(c.file)) refusedWanted.add(c.file);
      if (!fix || !fits(fix)) continue;
      for (const c of fix.changes) {
        const set = taken.get(c.file) ?? new EditSet();
        taken.set(c.file, set);
        for (const e of c.edits) set.add(e);
      }
      count++;
    }
    if (count === 0) break;
    let textChanged = false;
    for (const [file, set] of taken) {
      const edits = [...set.all];
      const before = workspace.text(file) ?? "";
      const after = applyEdits(before, edits);
      if (after === before) continue;
      workspace.setFile(file, after);
      changed.add(file);
      addTo(history, file, edits);
      textChanged = true;
    }
    applied += count;
    if (!textChanged) break;
  }
  return { changed, applied, history, refusedWanted };
}

/**
 * A file's bytes after edits made to its text: the bytes outside the edited ranges are copied as they are (a byte
 * order mark, line breaks, characters the edits do not touch). `prefix` bytes (a byte order mark) come before the
 * text. Only for files whose bytes are the UTF-8 encoding of `text`.
 */
export function editBytes(bytes: Buffer, prefix: number, text: string, edits: readonly TextEdit[]): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, prefix)];
  let charCursor = 0;
  let byteCursor = prefix;
  for (const span of editSpans(text, edits)) {
    const byteStart = byteCursor + Buffer.byteLength(text.slice(charCursor, span.start));
    const byteEnd = byteStart + Buffer.byteLength(text.slice(span.start, span.end));
    parts.push(bytes.subarray(byteCursor, byteStart), Buffer.from(span.text, "utf8"));
    byteCursor = byteEnd;
    charCursor = span.end;
  }
  parts.push(bytes.subarray(byteCursor));
  return Buffer.concat(parts);
}

/** The bytes to write for a fixed file: its edits, pass by pass, applied to the bytes read from disk. */
export function fixedBytes(
  bytes: Buffer,
  bom: boolean,
  text: string,
  passes: readonly (readonly TextEdit[])[],
): Buffer {
  let out = bytes;
  let current = text;
  for (const edits of passes) {
    out = editBytes(out, bom ? 3 : 0, current, edits);
    current = applyEdits(current, edits);
  }
  return out;
}
