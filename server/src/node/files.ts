/**
 * Reading and writing files on disk, for the command line and the language server alike. Only regular files are
 * read (a FIFO named `.gitignore` would block a read for ever), never more than the size limit, and, where the
 * caller says which folders the workspace is, never through a symbolic link that leads out of them. Writes replace
 * a file atomically (a temporary file in the same folder, renamed over it) with its mode kept.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import { open as openAsync, realpath as realpathAsync } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { type DecodedText, decodeText } from "../core/encoding";

/** An absolute path with `/` separators (the core's file identity), resolved against `cwd`. */
export function toPosixPath(path: string, cwd = process.cwd()): string {
  const abs = resolve(cwd, path);
  return sep === "/" ? abs : abs.split(sep).join("/");
}

/** Whether `path` is `dir` or below it (both absolute, `/`-separated). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/** The real path (links resolved) of an existing path, `/`-separated; undefined when it does not resolve. */
export function realPathOf(path: string): string | undefined {
  try {
    return toPosixPath(realpathSync(path));
  } catch {
    return undefined;
  }
}

/** What a non-regular file is, in words: "a FIFO", "a socket", "a device", "a folder". */
export function describeType(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isDirectory()) return "a folder";
  return "not a regular file";
}

export function formatBytes(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** A file as read from disk: its bytes, the decoded text, and what writing it back needs. */
export interface DiskFile extends DecodedText {
  path: string;
  realPath: string;
  bytes: Buffer;
  mode: number;
  uid: number;
  gid: number;
}

export type ReadRefusal = "missing" | "not-regular" | "too-large" | "outside" | "unreadable";

export type ReadResult = { ok: true; file: DiskFile } | { ok: false; reason: ReadRefusal; message: string };

export interface ReadOptions {
  /** Files larger than this are not read. */
  maxBytes: number;
  /** Real paths of the folders (or files) the read may reach through symbolic links; undefined: anywhere. */
  within?: readonly string[];
}

function errorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === "EACCES" || err?.code === "EPERM") return `permission denied (${err.code})`;
  return err?.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, "").replace(/, \w+ '.*'$/, "")}` : String(e);
}

function refusal(reason: ReadRefusal, message: string): ReadResult {
  return { ok: false, reason, message };
}

/** Checks the opened file's type and size; a refusal, or undefined when it may be read. */
function check(stats: Stats, maxBytes: number): ReadResult | undefined {
  if (!stats.isFile()) return refusal("not-regular", `not read: ${describeType(stats)}, not a regular file`);
  if (stats.size > maxBytes) {
    return refusal("too-large", `not read: ${formatBytes(stats.size)} is more than the ${formatBytes(maxBytes)} limit`);
  }
  return undefined;
}

function outside(real: string, within: readonly string[] | undefined): boolean {
  return within !== undefined && !within.some((root) => isInside(real, root));
}

/** Opening with O_NONBLOCK never waits for a FIFO's writer; the type is checked on the open descriptor. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Reads a regular file within the limits; never blocks, never throws. */
export function readDiskFile(path: string, options: ReadOptions): ReadResult {
  let real: string;
  try {
    real = toPosixPath(realpathSync(path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR"
      ? refusal("missing", "not read: it no longer exists")
      : refusal("unreadable", `not read: ${errorText(e)}`);
  }
  if (outside(real, options.within)) {
    return refusal("outside", `not read: a symbolic link to ${real}, outside the folders being analysed`);
  }
  let fd: number;
  try {
    fd = openSync(real, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENXIO") return refusal("not-regular", "not read: a socket, not a regular file");
    return refusal("unreadable", `not read: ${errorText(e)}`);
  }
  try {
    const stats = fstatSync(fd);
    const refused = check(stats, options.maxBytes);
    if (refused) return refused;
    // Read at most one byte past the limit: a file that grows while it is read is still refused.
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, options.maxBytes) + 1);
    let total = 0;
    while (total < buffer.length) {
      const n = readSync(fd, buffer, total, buffer.length - total, null);
      if (n === 0) break;
      total += n;
    }
    if (total > options.maxBytes) {
      return refusal("too-large", `not read: more than the ${formatBytes(options.maxBytes)} limit`);
    }
    return { ok: true, file: diskFile(path, real, Buffer.from(buffer.subarray(0, total)), stats) };
  } catch (e) {
    return refusal("unreadable", `not read: ${errorText(e)}`);
  } finally {
    closeSync(fd);
  }
}

/** readDiskFile for the language server, which must not block its event loop on a large file. */
export async function readDiskFileAsync(path: string, options: ReadOptions): Promise<ReadResult> {
  let real: string;
  try {
    real = toPosixPath(await realpathAsync(path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR"
      ? refusal("missing", "not read: it no longer exists")
      : refusal("unreadable", `not read: ${errorText(e)}`);
  }
  if (outside(real, options.within)) {
    return refusal("outside", `not read: a symbolic link to ${real}, outside the folders being analysed`);
  }
  let handle: Awaited<ReturnType<typeof openAsync>>;
  try {
    handle = await openAsync(real, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENXIO") return refusal("not-regular", "not read: a socket, not a regular file");
    return refusal("unreadable", `not read: ${errorText(e)}`);
  }
  try {
    const stats = await handle.stat();
    const refused = check(stats, options.maxBytes);
    if (refused) return refused;
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, options.maxBytes) + 1);
    let total = 0;
    while (total < buffer.length) {
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > options.maxBytes) {
      return refusal("too-large", `not read: more than the ${formatBytes(options.maxBytes)} limit`);
    }
    return { ok: true, file: diskFile(path, real, Buffer.from(buffer.subarray(0, total)), stats) };
  } catch (e) {
    return refusal("unreadable", `not read: ${errorText(e)}`);
  } finally {
    await handle.close();
  }
}

function diskFile(path: string, realPath: string, bytes: Buffer, stats: Stats): DiskFile {
  return { path, realPath, bytes, mode: stats.mode, uid: stats.uid, gid: stats.gid, ...decodeText(bytes) };
}

/** A text file's contents for configuration read by the product itself (`--config`, `.gitignore`), or a refusal. */
export function readSmallTextFile(path: string, maxBytes: number): { text: string } | { error: string } {
  const r = readDiskFile(path, { maxBytes });
  return r.ok ? { text: r.file.text } : { error: r.message.replace(/^not read: /, "") };
}

export class WriteError extends Error {}

/**
 * Replaces a file that was read with new bytes: written to a temporary file in the same folder (mode and owner
 * kept) and renamed over the real file, so a reader never sees half a file and a symbolic link stays a link.
 * Refuses when the file changed on disk since it was read.
 */
export function writeFileAtomic(file: DiskFile, bytes: Buffer): void {
  // Still the same file at the same place: not replaced by a link (to elsewhere) or moved since it was read.
  let link: Stats | undefined;
  try {
    link = lstatSync(file.realPath);
  } catch {
    link = undefined;
  }
  if (!link?.isFile() || realPathOf(file.path) !== file.realPath) {
    throw new WriteError("it was moved, removed or replaced by a link after it was read");
  }
  const current = readDiskFile(file.realPath, { maxBytes: Math.max(file.bytes.length, 1) });
  if (!current.ok || !current.file.bytes.equals(file.bytes)) {
    throw new WriteError("it changed on disk after it was read");
  }
  const dir = dirname(file.realPath);
  const temp = join(dir, `.${basename(file.realPath)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number | undefined;
  let created = false;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, file.mode & 0o600);
    created = true;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    if (process.getuid?.() === 0) {
      try {
        fchownSync(fd, file.uid, file.gid);
      } catch {
        // Keeping the owner is best effort (a file system without owners).
      }
    }
    fchmodSync(fd, file.mode & 0o7777);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file.realPath);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    if (created) {
      try {
        unlinkSync(temp);
      } catch {
        // Gone already.
      }
    }
    const code = (e as NodeJS.ErrnoException).code;
    throw new WriteError(
      !created && (code === "EACCES" || code === "EPERM")
        ? `its folder is not writable (${code}), which replacing the file safely needs`
        : errorText(e),
    );
  }
}
