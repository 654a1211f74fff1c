/**
 * `--fix`: applies the wanted fixes in passes, like ESLint. Each pass takes, per finding, its first fix of the wanted
 * safety whose edits do not collide with a fix already taken; the project is analysed again after each pass
 * (a fix can reveal or clear other findings) until nothing changes or after 10 passes.
 */
import type { Finding, Fix, FixSafety } from "../core/findings";
import { applyEdits, comparePositions, rangesOverlap, type TextEdit } from "../core/text";
import type { Workspace } from "../core/workspace/workspace";
import type { FixType } from "./args";

export const MAX_FIX_PASSES = 10;

export interface FixOutcome {
  /** Files whose text changed. */
  changed: Set<string>;
  /** Fixes applied over all passes. */
  applied: number;
}

function wanted(safety: FixSafety, type: FixType): boolean {
  return type === "all" || type === safety;
}

function collides(a: TextEdit, b: TextEdit): boolean {
  if (rangesOverlap(a.range, b.range)) return true;
  // Two insertions at the same place would land in an order neither fix chose.
  return comparePositions(a.range.start, b.range.start) === 0 && comparePositions(a.range.end, b.range.end) === 0;
}

/**
 * Applies fixes to the workspace's texts (not to disk). Only fixes whose every edit is in `editable` are taken, so
 * files the user did not ask to lint are never changed.
 */
export function fixWorkspace(
  workspace: Workspace,
  editable: ReadonlySet<string>,
  type: FixType,
  analyse: () => Finding[],
): FixOutcome {
  const changed = new Set<string>();
  let applied = 0;
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const taken = new Map<string, TextEdit[]>();
    const fits = (fix: Fix) =>
      fix.changes.every(
        (c) => editable.has(c.file) && c.edits.every((e) => !(taken.get(c.file) ?? []).some((t) => collides(e, t))),
      );
    let count = 0;
    for (const finding of analyse()) {
      const fix = finding.fixes.find((f) => wanted(f.safety, type));
      if (!fix || !fits(fix)) continue;
      for (const c of fix.changes) taken.set(c.file, [...(taken.get(c.file) ?? []), ...c.edits]);
      count++;
    }
    if (count === 0) break;
    let textChanged = false;
    for (const [file, edits] of taken) {
      const before = workspace.text(file) ?? "";
      const after = applyEdits(before, edits);
      if (after === before) continue;
      workspace.setFile(file, after);
      changed.add(file);
      textChanged = true;
    }
    applied += count;
    if (!textChanged) break;
  }
  return { changed, applied };
}
