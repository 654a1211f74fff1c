/**
 * The core workspace as the editor sees it: the files of the workspace folders as they are on disk, overlaid by
 * the open documents (an open document's text wins over the disk until it is closed). Every method that changes a
 * file returns the project roots whose findings may have changed.
 */
import type { EncodingProblem } from "../core/encoding";
import { Workspace } from "../core/workspace/workspace";
import { type ReadResult, readDiskFileAsync, realPathOf } from "../node/files";
import { collectFiles, DEFAULT_MAX_FILE_BYTES, isCollectable, type WalkNote } from "../node/walk";
import { pathToUri, uriToPath } from "./uris";

function under(path: string, folder: string): boolean {
  return path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/** A file read from disk with every check (regular file, size limit, no link out of `within`), or why not. */
export type DiskRead = { text: string; encoding?: EncodingProblem } | { refused: string; missing: boolean };

function fromResult(r: ReadResult): DiskRead {
  if (r.ok) return r.file.problem ? { text: r.file.text, encoding: r.file.problem } : { text: r.file.text };
  return { refused: r.message, missing: r.reason === "missing" };
}

/**
 * A document's size against a limit without encoding a large text: a text is at least as many bytes as it has
 * UTF-16 units and at most three times as many.
 */
export function exceedsBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text) > limit;
}

export interface LoadProgress {
  report(done: number, total: number): void;
}

export class WorkspaceHost {
  workspace = new Workspace({ roots: [] });
  private folders: string[] = [];
  /** Open documents: path → the URI the editor uses (published diagnostics must use the same spelling). */
  private readonly open = new Map<string, string>();
  /** Files that came from disk (the rest are open documents from elsewhere, dropped when closed). */
  private readonly onDisk = new Set<string>();
  private readonly tooLarge = new Set<string>();
  /** The size limit last read from each folder's settings (for checks that cannot wait for the settings). */
  private readonly limits = new Map<string, number>();
  /** The limit last read from the settings of one document (files outside the folders have their own). */
  private readonly pathLimits = new Map<string, number>();

  pathOf(uri: string): string | undefined {
    return uriToPath(uri);
  }

  uriOf(path: string): string {
    return this.open.get(path) ?? pathToUri(path);
  }

  /** The innermost workspace folder holding `path`. */
  folderOf(path: string): string | undefined {
    return this.folders.filter((f) => under(path, f)).sort((a, b) => b.length - a.length)[0];
  }

  folderPaths(): string[] {
    return [...this.folders];
  }

  isTooLarge(path: string): boolean {
    return this.tooLarge.has(path);
  }

  setLimit(folder: string, maxFileBytes: number): void {
    this.limits.set(folder, maxFileBytes);
  }

  setPathLimit(path: string, maxFileBytes: number): void {
    this.pathLimits.set(path, maxFileBytes);
  }

  /** The size limit for a file: its own or its folder's last known setting, else the default. */
  limitFor(path: string): number {
    const own = this.pathLimits.get(path);
    if (own !== undefined) return own;
    const folder = this.folderOf(path);
    return (folder !== undefined ? this.limits.get(folder) : undefined) ?? DEFAULT_MAX_FILE_BYTES;
  }

  /** Real paths of the workspace folders: what disk reads may reach. */
  private within(): string[] {
    return this.folders.map((f) => realPathOf(f) ?? f);
  }

  private async readDisk(path: string, maxFileBytes: number): Promise<DiskRead> {
    return fromResult(await readDiskFileAsync(path, { maxBytes: maxFileBytes, within: this.within() }));
  }

  /** Marks a document as over the size limit (removed from analysis) or not; true when that changed. */
  setTooLarge(path: string, large: boolean): boolean {
    if (large === this.tooLarge.has(path)) return false;
    if (large) {
      this.tooLarge.add(path);
      this.workspace.removeFile(path);
    } else this.tooLarge.delete(path);
    return true;
  }

  /**
   * Replaces the workspace folders. The project layout depends on them, so the workspace is rebuilt from the
   * texts already known; files of removed folders are dropped (returned as `dropped`).
   */
  setFolders(folders: string[]): { dropped: string[] } {
    this.folders = [...folders];
    const old = this.workspace;
    this.workspace = new Workspace({ roots: this.folders });
    const dropped: string[] = [];
    for (const file of old.allFiles()) {
      const keep = this.open.has(file) || this.folders.some((f) => under(file, f));
      const text = old.text(file);
      if (keep && text !== undefined) this.workspace.setFile(file, text);
      else {
        dropped.push(file);
        this.onDisk.delete(file);
      }
    }
    return { dropped };
  }

  /**
   * Reads a folder's candidate files from disk, leaving open documents alone; returns the affected roots and what
   * could not be read (FIFOs, links out of the folder, files over the limit, folders that cannot be listed).
   */
  async loadFolder(
    folder: string,
    maxFileBytes: number,
    progress?: LoadProgress,
  ): Promise<{ roots: Set<string>; notes: WalkNote[] }> {
    this.setLimit(folder, maxFileBytes);
    const collected = collectFiles([folder], { cwd: folder, maxFileBytes });
    const paths = [...collected.files, ...collected.context];
    const roots = new Set<string>();
    const notes = [...collected.notes];
    let done = 0;
    for (const path of paths) {
      const read = fromResult(await readDiskFileAsync(path, { maxBytes: maxFileBytes, within: collected.within }));
      done++;
      if (done % 50 === 0) progress?.report(done, paths.length);
      if ("refused" in read) {
        if (!read.missing) notes.push({ path, message: read.refused });
        continue;
      }
      if (this.open.has(path) || !this.folders.includes(folder)) continue;
      this.onDisk.add(path);
      for (const root of this.workspace.setFile(path, read.text, read.encoding)) roots.add(root);
    }
    progress?.report(paths.length, paths.length);
    return { roots, notes };
  }

  /**
   * A document the editor opened. Its size is checked before anything reads it: a document over the limit is kept
   * out of the workspace, so no hover, completion or analysis parses it.
   */
  openDocument(uri: string, path: string, text: string): string[] {
    this.open.set(path, uri);
    return this.change(path, text);
  }

  change(path: string, text: string): string[] {
    if (exceedsBytes(text, this.limitFor(path))) {
      const roots = this.workspace.has(path) ? [this.workspace.projectRootOf(path)] : [];
      this.setTooLarge(path, true);
      return roots;
    }
    if (this.tooLarge.has(path)) return [];
    return this.workspace.setFile(path, text);
  }

  /** The document's disk text takes over again, or the file leaves the workspace when it is not a disk file. */
  async closeDocument(path: string): Promise<string[]> {
    this.open.delete(path);
    this.tooLarge.delete(path);
    this.pathLimits.delete(path);
    const read = this.onDisk.has(path) ? await this.readDisk(path, this.limitFor(path)) : undefined;
    if (this.open.has(path)) return [];
    if (read === undefined || "refused" in read) {
      this.onDisk.delete(path);
      return this.workspace.removeFile(path);
    }
    return this.workspace.setFile(path, read.text, read.encoding);
  }

  /** Whether a file created on disk belongs to the workspace (same rules as the initial load, .gitignore too). */
  private admits(path: string, maxFileBytes: number): boolean {
    const folder = this.folderOf(path);
    return folder !== undefined && isCollectable(path, folder, { maxFileBytes });
  }

  /**
   * A watched file was created, changed or deleted on disk. Open documents keep their editor text. A file read
   * before is read again with every check (it may have become a FIFO, a link out of the folder, or too large):
   * when it cannot be read, it leaves the workspace and `refused` says why.
   */
  async diskChanged(
    path: string,
    deleted: boolean,
    maxFileBytes: number,
  ): Promise<{ roots: string[]; refused?: string }> {
    if (this.open.has(path)) return { roots: [] };
    if (deleted) {
      this.onDisk.delete(path);
      return { roots: this.workspace.removeFile(path) };
    }
    const known = this.onDisk.has(path);
    if (!known && !this.admits(path, maxFileBytes)) return { roots: [] };
    const read = await this.readDisk(path, maxFileBytes);
    if (this.open.has(path)) return { roots: [] };
    if ("refused" in read) {
      if (!known) return { roots: [] };
      this.onDisk.delete(path);
      return { roots: this.workspace.removeFile(path), refused: read.missing ? undefined : read.refused };
    }
    this.onDisk.add(path);
    return { roots: this.workspace.setFile(path, read.text, read.encoding) };
  }
}
