/**
 * The paths a Git repository tracks, read from its index file (`.git/index`) as bytes, without running git.
 *
 * Git applies .gitignore only to untracked files: a file that is committed stays part of the repository even when
 * a pattern matches it (`git add -f`, or a pattern added after the commit). The walk asks this module about a path
 * only when a .gitignore pattern matches it, so a repository without such files never has its index read.
 *
 * Index versions 2, 3 and 4 are read (entries with extended flags, prefix-compressed paths, the directory entries
 * of a sparse index), with SHA-1 or SHA-256 object names. Anything else (an unknown version, a truncated or
 * oversized file, a split index whose entries live in a shared file) gives no tracked paths, so the walk falls
 * back to the .gitignore patterns alone.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { readSmallTextFile } from "./files";

/** An index larger than this is not read (about half a million entries). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** What one repository tracks, relative to its work tree, `/`-separated. */
export interface TrackedPaths {
  /** Tracked files. */
  files: ReadonlySet<string>;
  /** Folders that hold at least one tracked file (at any depth), and sparse-index directory entries. */
  folders: ReadonlySet<string>;
}

const NOTHING: TrackedPaths = { files: new Set(), folders: new Set() };

/** Reads up to `max` bytes of a regular file; undefined for anything else (a FIFO would block a read). */
function readBinary(path: string, max: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > max) return undefined;
    const buf = Buffer.alloc(stat.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === buf.length ? buf : buf.subarray(0, at);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The repository's git folder: `<work tree>/.git`, or where a `.git` file (`gitdir: …`, worktrees, submodules) points. */
function gitDirOf(workTree: string): string | undefined {
  const dotGit = `${workTree}/.git`;
  const asFile = readSmallTextFile(dotGit, 4096);
  if ("error" in asFile) return dotGit;
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(asFile.text);
  if (!m) return undefined;
  const target = m[1];
  return target.startsWith("/") || /^[A-Za-z]:[\\/]/.test(target) ? target : `${workTree}/${target}`;
}

function hashLength(gitDir: string): number {
  const config = readSmallTextFile(`${gitDir}/config`, 1024 * 1024);
  if ("error" in config) return 20;
  return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config.text) ? 32 : 20;
}

/**
 * Parses index bytes. Returns undefined when they are not an index this reader understands. Exported for tests;
 * `trackedPaths` is the entry point.
 */
export function parseGitIndex(buf: Buffer, hashBytes = 20): { files: string[]; sparseFolders: string[] } | undefined {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const files: string[] = [];
  const sparseFolders: string[] = [];
  const fixed = 40 + hashBytes; // ctime, mtime, dev, ino, mode, uid, gid, size; then the object name
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + fixed + 2 > buf.length) return undefined;
    const mode = buf.readUInt32BE(at + 24);
    const flags = buf.readUInt16BE(at + fixed);
    at += fixed + 2;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      at += 2;
    }
    let path: Buffer;
    if (version === 4) {
      // How many bytes to drop from the end of the previous path, as git's offset varint; then the new suffix.
      if (at >= buf.length) return undefined;
      let byte = buf[at++];
      let drop = byte & 0x7f;
      while (byte & 0x80) {
        if (at >= buf.length || drop > previous.length) return undefined;
        byte = buf[at++];
        drop = ((drop + 1) << 7) | (byte & 0x7f);
      }
      if (drop > previous.length) return undefined;
      const end = buf.indexOf(0, at);
      if (end < 0) return undefined;
      path = Buffer.concat([previous.subarray(0, previous.length - drop), buf.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end < 0) return undefined;
      path = buf.subarray(at, end);
      // Entries are padded with one to eight NULs to a multiple of eight bytes.
      at = start + Math.ceil((end - start + 1) / 8) * 8;
      if (at > buf.length) return undefined;
    }
    previous = path;
    const name = path.toString("utf8");
    if ((mode & 0o170000) === 0o040000) sparseFolders.push(name.replace(/\/$/, ""));
    else files.push(name);
  }
  // A split index keeps most entries in a shared file ("link" extension): what is here is not the whole list.
  if (version >= 2 && hasExtension(buf, at, hashBytes, "link")) return undefined;
  return { files, sparseFolders };
}

function hasExtension(buf: Buffer, at: number, hashBytes: number, signature: string): boolean {
  while (at + 8 <= buf.length - hashBytes) {
    if (buf.toString("latin1", at, at + 4) === signature) return true;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return false;
}

const cache = new Map<string, { key: string; tracked: TrackedPaths }>();

/**
 * What the repository whose work tree is `workTree` tracks. Read once per index file state (size and modification
 * time), so a server sees commits and `git add` between walks.
 */
export function trackedPaths(workTree: string): TrackedPaths {
  const gitDir = gitDirOf(workTree);
  if (gitDir === undefined) return NOTHING;
  const indexFile = `${gitDir}/index`;
  let key: string;
  try {
    const stat = statSync(indexFile);
    if (!stat.isFile()) return NOTHING;
    key = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return NOTHING;
  }
  const kept = cache.get(workTree);
  if (kept && kept.key === key) return kept.tracked;
  const buf = readBinary(indexFile, MAX_INDEX_BYTES);
  const parsed = buf ? parseGitIndex(buf, hashLength(gitDir)) : undefined;
  let tracked = NOTHING;
  if (parsed) {
    const folders = new Set<string>();
    for (const f of [...parsed.files, ...parsed.sparseFolders]) {
      for (let slash = f.lastIndexOf("/"); slash > 0; slash = f.lastIndexOf("/", slash - 1)) {
        const folder = f.slice(0, slash);
        if (folders.has(folder)) break; // its parents are in already
        folders.add(folder);
      }
    }
    for (const f of parsed.sparseFolders) folders.add(f);
    tracked = { files: new Set(parsed.files), folders };
  }
  cache.set(workTree, { key, tracked });
  return tracked;
}
