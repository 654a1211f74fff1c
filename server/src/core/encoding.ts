/**
 * Bytes of a file → the text the readers see, and whether the file is UTF-8 at all. The readers, like most of the
 * tools these files are written for, read UTF-8: a file in another encoding gets one note (BFL003) instead of
 * findings made from misread text (a UTF-16 file is not analysed at all), and `--fix` leaves it alone, since writing
 * it back would change bytes it did not mean to change.
 */
import type { Position } from "./text";

export type TextEncoding = "UTF-8" | "UTF-16LE" | "UTF-16BE";

/** Why a file is not plain UTF-8, and where that shows first in the decoded text. */
export interface EncodingProblem {
  /** UTF-16 (by byte order mark or by its zero bytes), or UTF-8 with bytes that are not UTF-8 (Latin-1, binary). */
  encoding: "UTF-16LE" | "UTF-16BE" | "not UTF-8";
  /** The first byte that is not UTF-8 (for "not UTF-8"). */
  byte?: number;
  /** Where that byte stands in the decoded text (line and UTF-16 column). */
  at: Position;
}

export interface DecodedText {
  /** The text without a byte order mark; bytes that are not UTF-8 read as U+FFFD. */
  text: string;
  /** The bytes start with a UTF-8 byte order mark (EF BB BF). */
  bom: boolean;
  /** Set when the file is not valid UTF-8. */
  problem?: EncodingProblem;
}

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * UTF-16 without a byte order mark: ASCII text in UTF-16 has a zero byte in every other position. Looks at the
 * first 4 KB: at least a quarter of the even (BE) or odd (LE) bytes are zero and no zero byte is on the other side.
 */
function utf16Without(bytes: Uint8Array): "UTF-16LE" | "UTF-16BE" | undefined {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const pairs = n / 2;
  if (odd >= pairs / 4 && even === 0) return "UTF-16LE";
  if (even >= pairs / 4 && odd === 0) return "UTF-16BE";
  return undefined;
}

/** Offset of the first byte that does not belong to a valid UTF-8 sequence. */
function firstInvalidByte(b: Uint8Array): number {
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) [need, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [need, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= n) return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return n;
}

function positionIn(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

/** Decodes a file's bytes as the tools that read it do (UTF-8), and says when it is not UTF-8. */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      text: new TextDecoder("utf-16le").decode(bytes.subarray(2)),
      bom: false,
      problem: { encoding: "UTF-16LE", at: { line: 0, character: 0 } },
    };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      text: new TextDecoder("utf-16be").decode(bytes.subarray(2)),
      bom: false,
      problem: { encoding: "UTF-16BE", at: { line: 0, character: 0 } },
    };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const utf16 = utf16Without(body);
  if (utf16) {
    return {
      text: new TextDecoder(utf16 === "UTF-16LE" ? "utf-16le" : "utf-16be").decode(body),
      bom: false,
      problem: { encoding: utf16, at: { line: 0, character: 0 } },
    };
  }
  try {
    return { text: fatal.decode(body), bom };
  } catch {
    const invalid = firstInvalidByte(body);
    const before = lenient.decode(body.subarray(0, invalid));
    return {
      text: lenient.decode(body),
      bom,
      problem: { encoding: "not UTF-8", byte: body[invalid], at: positionIn(before, before.length) },
    };
  }
}

/** The one-line note for a file that is not UTF-8 (BFL003). */
export function encodingMessage(problem: EncodingProblem): string {
  if (problem.encoding !== "not UTF-8") {
    const order = problem.encoding === "UTF-16LE" ? "little-endian" : "big-endian";
    return `This file is UTF-16 (${order}), not UTF-8, so it is not analysed. Save it as UTF-8 to have it checked.`;
  }
  const byte =
    problem.byte === undefined ? "" : ` (byte 0x${problem.byte.toString(16).toUpperCase().padStart(2, "0")})`;
  return `This file is not valid UTF-8 from here${byte}: such bytes are read as \uFFFD, and --fix leaves the file alone.`;
}
