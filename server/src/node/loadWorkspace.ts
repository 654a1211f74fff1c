/** Reads the files a walk found into a core Workspace. */
import { Workspace, type WorkspaceOptions } from "../core/workspace/workspace";
import { type DiskFile, readDiskFile } from "./files";
import { type CollectOptions, collectFiles, DEFAULT_MAX_FILE_BYTES, type WalkNote } from "./walk";

/** Workspace options (the roots come from the paths) and walk limits. */
export interface LoadOptions extends Omit<WorkspaceOptions, "roots">, Omit<CollectOptions, "projectConfig"> {
  /** Keep what was read from disk for the files under the given paths (their bytes), to write fixes back. */
  keepBytes?: boolean;
}

export interface LoadedWorkspace {
  workspace: Workspace;
  /** Files under the given paths that were read, sorted: what to report on. */
  files: string[];
  notes: WalkNote[];
  /** Given paths that do not exist. */
  missing: string[];
  /** With `keepBytes`: the files under the given paths as read from disk (bytes, byte order mark, encoding, mode). */
  disk: Map<string, DiskFile>;
  /** Real paths of the folders the walk may reach (see CollectedFiles.within). */
  within: string[];
}

export function loadWorkspace(paths: readonly string[], options: LoadOptions = {}): LoadedWorkspace {
  const { cwd, maxFiles, maxFileBytes, keepBytes, ...workspaceOptions } = options;
  const collected = collectFiles(paths, { cwd, maxFiles, maxFileBytes, projectConfig: options.projectConfig });
  const workspace = new Workspace({ ...workspaceOptions, roots: collected.roots });
  const notes = [...collected.notes];
  const disk = new Map<string, DiskFile>();
  const read = new Set<string>();
  const targets = new Set(collected.files);
  for (const file of [...collected.files, ...collected.context]) {
    // Read again with every check: the file may have changed (or become a link, or a FIFO) since the walk.
    const r = readDiskFile(file, { maxBytes: maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, within: collected.within });
    if (!r.ok) {
      if (r.reason !== "missing") notes.push({ path: file, message: r.message });
      continue;
    }
    workspace.setFile(file, r.file.text, r.file.problem);
    if (keepBytes && targets.has(file)) disk.set(file, r.file);
    read.add(file);
  }
  return {
    workspace,
    files: collected.files.filter((f) => read.has(f)),
    notes,
    missing: collected.missing,
    disk,
    within: collected.within,
  };
}
