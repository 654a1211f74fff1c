/**
 * The core workspace as the editor sees it: the files of the workspace folders as they are on disk, overlaid by
 * the open documents (an open document's text wins over the disk until it is closed). Every method that changes a
 * file returns the project roots whose findings may have changed.
 */
import { readFile } from "node:fs/promises";
import { Workspace } from "../core/workspace/workspace";
import { collectFiles, isCollectable } from "../node/walk";
import { pathToUri, uriToPath } from "./uris";

function under(path: string, folder: string): boolean {
  return path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

async function readDiskText(path: string): Promise<string | undefined> {
  try {
    const text = await readFile(path, "utf8");
    return text.startsWith("\uFEFF") ? text.slice(1) : text;
  } catch {
    return undefined;
  }
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

  /** Reads a folder's candidate files from disk, leaving open documents alone; returns the affected roots. */
  async loadFolder(folder: string, maxFileBytes: number, progress?: LoadProgress): Promise<Set<string>> {
    const collected = collectFiles([folder], { cwd: folder, maxFileBytes });
    const paths = [...collected.files, ...collected.context];
    const roots = new Set<string>();
    let done = 0;
    for (const path of paths) {
      const text = await readDiskText(path);
      done++;
      if (done % 50 === 0) progress?.report(done, paths.length);
      if (text === undefined || this.open.has(path) || !this.folders.includes(folder)) continue;
      this.onDisk.add(path);
      for (const root of this.workspace.setFile(path, text)) roots.add(root);
    }
    progress?.report(paths.length, paths.length);
    return roots;
  }

  openDocument(uri: string, path: string, text: string): string[] {
    this.open.set(path, uri);
    if (this.tooLarge.has(path)) return [];
    return this.workspace.setFile(path, text);
  }

  change(path: string, text: string): string[] {
    if (this.tooLarge.has(path)) return [];
    return this.workspace.setFile(path, text);
  }

  /** The document's disk text takes over again, or the file leaves the workspace when it is not a disk file. */
  async closeDocument(path: string): Promise<string[]> {
    this.open.delete(path);
    this.tooLarge.delete(path);
    const text = this.onDisk.has(path) ? await readDiskText(path) : undefined;
    if (this.open.has(path)) return [];
    if (text === undefined) {
      this.onDisk.delete(path);
      return this.workspace.removeFile(path);
    }
    return this.workspace.setFile(path, text);
  }

  /** Whether a file created on disk belongs to the workspace (same rules as the initial load, .gitignore too). */
  private admits(path: string, maxFileBytes: number): boolean {
    const folder = this.folderOf(path);
    return folder !== undefined && isCollectable(path, folder, { maxFileBytes });
  }

  /** A watched file was created, changed or deleted on disk. Open documents keep their editor text. */
  async diskChanged(path: string, deleted: boolean, maxFileBytes: number): Promise<string[]> {
    if (this.open.has(path)) return [];
    if (deleted) {
      this.onDisk.delete(path);
      return this.workspace.removeFile(path);
    }
    if (!this.onDisk.has(path) && !this.admits(path, maxFileBytes)) return [];
    const text = await readDiskText(path);
    if (text === undefined || this.open.has(path)) return [];
    this.onDisk.add(path);
    return this.workspace.setFile(path, text);
  }
}
