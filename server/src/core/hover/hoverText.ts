/** What the core hovers return: markdown for the editor and the range of the token it describes. */

import { comparePositions, type Position, type Range } from "../text";
import type { ProjectModel } from "../workspace/project";

export interface HoverText {
  markdown: string;
  range: Range;
}

/** Whether the cursor is on the range, its end included (the editor reports the position after the last character). */
export function touches(range: Range, p: Position): boolean {
  return comparePositions(range.start, p) <= 0 && comparePositions(p, range.end) <= 0;
}

/** A project file as the hovers name it: relative to the project root. */
export function relative(project: ProjectModel, file: string): string {
  return file.startsWith(`${project.root}/`) ? file.slice(project.root.length + 1) : file;
}
