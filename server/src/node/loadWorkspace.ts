/** Reads the files a walk found into a core Workspace. */
import { Workspace, type WorkspaceOptions } from "../core/workspace/workspace";
import { readTextFile } from "./files";
import { type CollectOptions, collectFiles, type WalkNote } from "./walk";

/** Workspace options (the roots come from the paths) and walk limits. */
export interface LoadOptions extends Omit<WorkspaceOptions, "roots">, Omit<CollectOptions, "projectConfig"> {}

export interface LoadedWorkspace {
  workspace: Workspace;
  /** Files under the given paths that were read, sorted: what to report on. */
  files: string[];
  notes: WalkNote[];
  /** Given paths that do not exist. */
  missing: string[];
  /** Files that start with a byte order mark, so that writing them back keeps it. */
  bom: Set<string>;
}

export function loadWorkspace(paths: readonly string[], options: LoadOptions = {}): LoadedWorkspace {
  const { cwd, maxFiles, maxFileBytes, ...workspaceOptions } = options;
  const collected = collectFiles(paths, { cwd, maxFiles, maxFileBytes, projectConfig: options.projectConfig });
  const workspace = new Workspace({ ...workspaceOptions, roots: collected.roots });
  const notes = [...collected.notes];
  const bom = new Set<string>();
  const read = new Set<string>();
  for (const file of [...collected.files, ...collected.context]) {
    try {
      const content = readTextFile(file);
      workspace.setFile(file, content.text);
      if (content.bom) bom.add(file);
      read.add(file);
    } catch (e) {
      notes.push({ path: file, message: `not read: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  return { workspace, files: collected.files.filter((f) => read.has(f)), notes, missing: collected.missing, bom };
}
