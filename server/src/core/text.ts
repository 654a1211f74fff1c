/**
 * Positions, ranges and text edits in LSP's coordinates: 0-based lines and UTF-16 character offsets.
 * Everything in the core speaks these, so findings can go to an editor or a terminal unchanged.
 */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export function pos(line: number, character: number): Position {
  return { line, character };
}

export function range(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } };
}

export function comparePositions(a: Position, b: Position): number {
  return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

export function rangeContains(outer: Range, inner: Range): boolean {
  return comparePositions(outer.start, inner.start) <= 0 && comparePositions(inner.end, outer.end) <= 0;
}

export function rangesOverlap(a: Range, b: Range): boolean {
  return comparePositions(a.start, b.end) < 0 && comparePositions(b.start, a.end) < 0;
}

/** Maps between string offsets and line/character positions of one text. Lines end at \n, \r\n or \r. */
export class LineIndex {
  /** Offset at which each line starts. */
  readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.lineStarts[lo] };
  }

  offsetAt(p: Position): number {
    if (p.line < 0) return 0;
    if (p.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[p.line];
    const end = this.lineEnd(p.line);
    return Math.min(start + Math.max(0, p.character), end);
  }

  rangeOf(startOffset: number, endOffset: number): Range {
    return { start: this.positionAt(startOffset), end: this.positionAt(endOffset) };
  }

  /** Offset of the end of a line's content, before its line break. */
  lineEnd(line: number): number {
    if (line + 1 < this.lineStarts.length) {
      let end = this.lineStarts[line + 1] - 1;
      if (this.text.charCodeAt(end) === 10 && end > 0 && this.text.charCodeAt(end - 1) === 13) end--;
      return end;
    }
    return this.text.length;
  }

  lineText(line: number): string {
    if (line < 0 || line >= this.lineStarts.length) return "";
    return this.text.slice(this.lineStarts[line], this.lineEnd(line));
  }

  /** The range of a whole line including its line break (what deleting the line removes). */
  fullLineRange(line: number): Range {
    if (line + 1 < this.lineStarts.length) return { start: pos(line, 0), end: pos(line + 1, 0) };
    return { start: pos(line, 0), end: pos(line, this.lineEnd(line) - this.lineStarts[line]) };
  }

  private eolFound?: string;

  /** The line break the text uses most (for edits that insert lines). */
  get eol(): string {
    // Looked up once: readers ask for it per edit they build, and the search walks the whole text.
    this.eolFound ??= this.text.includes("\r\n") ? "\r\n" : "\n";
    return this.eolFound;
  }
}

/**
 * Applies non-overlapping edits to a text. Edits are applied from the end so earlier offsets stay valid;
 * overlapping edits are an error of the caller and the later-starting one is dropped.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = "";
  let cursor = 0;
  for (const e of editSpans(text, edits)) {
    out += text.slice(cursor, e.start) + e.text;
    cursor = e.end;
  }
  return out + text.slice(cursor);
}

/** The edits `applyEdits` applies, as string offsets in order: overlapping ones are left out. */
export function editSpans(text: string, edits: readonly TextEdit[]): { start: number; end: number; text: string }[] {
  const index = new LineIndex(text);
  const sorted = edits
    .map((e, i) => ({ start: index.offsetAt(e.range.start), end: index.offsetAt(e.range.end), text: e.newText, i }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  const out: { start: number; end: number; text: string }[] = [];
  let cursor = 0;
  for (const e of sorted) {
    if (e.start < cursor) continue;
    out.push({ start: e.start, end: e.end, text: e.text });
    cursor = e.end;
  }
  return out;
}

/**
 * Edits taken so far for one file, kept sorted, to tell in logarithmic time whether another edit would collide with
 * one of them: overlap, or an insertion at the same place (the two would land in an order neither chose).
 */
export class EditSet {
  private readonly edits: TextEdit[] = [];

  get all(): readonly TextEdit[] {
    return this.edits;
  }

  private static collide(a: TextEdit, b: TextEdit): boolean {
    if (rangesOverlap(a.range, b.range)) return true;
    return comparePositions(a.range.start, b.range.start) === 0 && comparePositions(a.range.end, b.range.end) === 0;
  }

  /** Where `e` goes in the sorted list: after every edit that starts before it. */
  private lowerBound(e: TextEdit): number {
    let lo = 0;
    let hi = this.edits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = comparePositions(this.edits[mid].range.start, e.range.start);
      if (c < 0 || (c === 0 && comparePositions(this.edits[mid].range.end, e.range.end) < 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  collides(e: TextEdit): boolean {
    const i = this.lowerBound(e);
    // The taken edits do not overlap one another, so only the neighbours of `e`'s place can overlap it; a run of
    // insertions at one position is checked to its end.
    for (let j = i - 1; j >= 0; j--) {
      if (EditSet.collide(e, this.edits[j])) return true;
      if (comparePositions(this.edits[j].range.end, e.range.start) < 0) break;
    }
    for (let j = i; j < this.edits.length; j++) {
      if (EditSet.collide(e, this.edits[j])) return true;
      if (comparePositions(this.edits[j].range.start, e.range.end) > 0) break;
    }
    return false;
  }

  add(e: TextEdit): void {
    const i = this.lowerBound(e);
    if (i === this.edits.length) this.edits.push(e);
    else this.edits.splice(i, 0, e);
  }
}
