/**
 * Finds the files to analyse under the paths a user gives (CLI arguments, editor workspace folders).
 *
 * Besides the files under those paths, it collects the other files of the projects they belong to (up to the
 * nearest build root or project config above them, never above the Git repository), so that a project config and
 * cross-file facts apply the same whether a user lints the whole repository or one folder of it. Those context
 * files are read but not reported on.
 *
 * Only regular files are read, and only inside the folders being analysed: a symbolic link that leads out of them
 * is not followed, and FIFOs, sockets and devices are skipped; each case, and a folder that cannot be listed, is
 * named in a note.
 */
import { type Dirent, existsSync, lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import ignore, { type Ignore } from "ignore";
import { defaultProjectConfig, type ProjectConfig } from "../core/config";
import { isCandidateFile } from "../core/documents/index";
import { PROJECT_CONFIG_NAMES, readProjectConfig } from "../core/documents/projectConfig";
import { matchesAny } from "../core/glob";
import { basename, dirname, ROOT_MARKERS, relativeTo } from "../core/workspace/workspace";
import { describeType, formatBytes, isInside, readDiskFile, realPathOf, toPosixPath } from "./files";
import { type TrackedPaths, trackedPaths } from "./gitIndex";

/** Folders never entered unless given explicitly: dependencies, version control, build output. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  "target",
  "build",
  "out",
  "dist",
  ".gradle",
]);

export const DEFAULT_MAX_FILES = 10_000;
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;

export interface CollectOptions {
  /** Relative paths are resolved against this folder (default: the process's working directory). */
  cwd?: string;
  /** Stop after this many files (default 10,000). */
  maxFiles?: number;
  /** Files larger than this are not read (default 5 MB). */
  maxFileBytes?: number;
  /** A project configuration that replaces the projects' own files (CLI `--config`). */
  projectConfig?: ProjectConfig;
}

/** Bytes of a `.gitignore` or project configuration that are read at most. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Something the user should know about the walk: a file too large to read, not a regular file or behind a link
 * that leads out of the workspace, a folder that cannot be listed, the file limit reached.
 */
export interface WalkNote {
  path: string;
  message: string;
}

export interface CollectedFiles {
  /** Files under the given paths, sorted: what is reported on. */
  files: string[];
  /** Other files of the same projects, above the given paths: read for cross-file facts, not reported on. */
  context: string[];
  /** The given folders, and the working directory when files were given: the workspace roots. */
  roots: string[];
  notes: WalkNote[];
  /** Given paths that do not exist. */
  missing: string[];
  /**
   * Real paths (links resolved) of what was walked: the given folders and files, and the projects they belong to.
   * Reads and writes stay inside them.
   */
  within: string[];
}

interface Gitignore {
  dir: string;
  rules: Ignore;
}

/** The project whose configuration applies to a folder: the nearest root marker above it. */
interface Scope {
  root: string;
  config: ProjectConfig;
}

type Mode = "target" | "context";

function child(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

const isUnder = isInside;

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function isRegularFile(path: string): boolean {
  return statOrUndefined(path)?.isFile() === true;
}

/** A folder's .gitignore; a note (through `note`) when there is one that cannot be read. */
function readGitignore(dir: string, note?: (path: string, message: string) => void): Gitignore | undefined {
  const file = child(dir, ".gitignore");
  if (!existsSync(file)) return undefined;
  const r = readDiskFile(file, { maxBytes: MAX_CONFIG_BYTES });
  if (!r.ok) {
    if (r.reason !== "missing") note?.(file, r.message);
    return undefined;
  }
  return { dir, rules: ignore().add(r.file.text) };
}

/**
 * What git tracks, for paths a .gitignore pattern matches: git ignores untracked files only, so a committed file
 * is read even when a pattern matches it, and a matched folder is entered when it holds committed files.
 */
class Tracked {
  private readonly workTrees = new Map<string, string | undefined>();
  private readonly byWorkTree = new Map<string, TrackedPaths>();

  /** The work tree a folder belongs to: the nearest folder above it (or itself) that holds `.git`. */
  private workTreeOf(dir: string): string | undefined {
    if (this.workTrees.has(dir)) return this.workTrees.get(dir);
    const parent = dirname(dir);
    const found = existsSync(child(dir, ".git")) ? dir : parent === dir ? undefined : this.workTreeOf(parent);
    this.workTrees.set(dir, found);
    return found;
  }

  has(path: string, isDir: boolean): boolean {
    const root = this.workTreeOf(dirname(path));
    if (root === undefined) return false;
    let tracked = this.byWorkTree.get(root);
    if (tracked === undefined) {
      tracked = trackedPaths(root);
      this.byWorkTree.set(root, tracked);
    }
    const rel = relativeTo(root, path);
    return isDir ? tracked.folders.has(rel) : tracked.files.has(rel);
  }
}

/** Git's precedence: the deepest .gitignore that says anything about a path decides; tracked paths are never ignored. */
function isGitignored(ignores: readonly Gitignore[], path: string, isDir: boolean, tracked: Tracked): boolean {
  for (let i = ignores.length - 1; i >= 0; i--) {
    const { dir, rules } = ignores[i];
    if (!isUnder(path, dir) || path === dir) continue;
    const rel = relativeTo(dir, path);
    const result = rules.test(isDir ? `${rel}/` : rel);
    if (result.ignored) return !tracked.has(path, isDir);
    if (result.unignored) return false;
  }
  return false;
}

class Walker {
  readonly files = new Set<string>();
  readonly context = new Set<string>();
  readonly notes: WalkNote[] = [];
  /** Real paths the walk may reach; see CollectedFiles.within. */
  readonly within: string[] = [];
  private readonly noted = new Set<string>();
  private readonly visited = new Set<string>();
  readonly tracked = new Tracked();
  private readonly maxFiles: number;
  private readonly maxFileBytes: number;
  private capped = false;

  constructor(private readonly options: CollectOptions) {
    this.maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  note(path: string, message: string): void {
    if (this.noted.has(path)) return;
    this.noted.add(path);
    this.notes.push({ path, message });
  }

  allow(path: string): void {
    const real = realPathOf(path);
    if (real !== undefined && !this.within.includes(real)) this.within.push(real);
  }

  /** The real path of a link, when it leads inside what is walked; undefined (and a note) when it leads out. */
  private linkTarget(path: string): string | undefined {
    const real = realPathOf(path);
    if (real === undefined) return undefined;
    if (this.within.some((root) => isInside(real, root))) return real;
    this.note(path, `not followed: a symbolic link to ${real}, outside the folders being analysed`);
    return undefined;
  }

  /** The project config of a root-marker folder, given the files found there. */
  configAt(dir: string, present: (file: string) => boolean): ProjectConfig {
    if (this.options.projectConfig) return this.options.projectConfig;
    for (const name of PROJECT_CONFIG_NAMES) {
      const file = child(dir, name);
      if (!present(file)) continue;
      const r = readDiskFile(file, { maxBytes: MAX_CONFIG_BYTES, within: this.within });
      if (!r.ok) {
        this.note(file, r.message);
        break;
      }
      return readProjectConfig(file, r.file.text).config;
    }
    return defaultProjectConfig();
  }

  defaultScope(root: string): Scope {
    return { root, config: this.options.projectConfig ?? defaultProjectConfig() };
  }

  /** Why a file is not read: the project config leaves it out, or it is no kind of file the product reads. */
  rejection(file: string, scope: Scope): "excluded" | "unknown" | undefined {
    if (ROOT_MARKERS.has(basename(file))) return undefined;
    const rel = relativeTo(scope.root, file);
    const { include, exclude, flinkConfigFiles } = scope.config;
    if (exclude.length > 0 && matchesAny(rel, exclude)) return "excluded";
    if (include.length > 0 && !matchesAny(rel, include)) return "excluded";
    if (isCandidateFile(file)) return undefined;
    return flinkConfigFiles.length > 0 && matchesAny(rel, flinkConfigFiles) ? undefined : "unknown";
  }

  add(file: string, mode: Mode): void {
    if (this.capped || this.files.has(file) || this.context.has(file)) return;
    const link = lstatOrUndefined(file);
    if (link?.isSymbolicLink() && this.linkTarget(file) === undefined) return;
    const stat = statOrUndefined(file);
    if (!stat) return;
    if (!stat.isFile()) {
      this.note(file, `not read: ${describeType(stat)}, not a regular file`);
      return;
    }
    if (stat.size > this.maxFileBytes) {
      this.note(file, `not read: ${formatBytes(stat.size)} is more than the ${formatBytes(this.maxFileBytes)} limit`);
      return;
    }
    if (this.files.size + this.context.size >= this.maxFiles) {
      this.capped = true;
      this.notes.push({
        path: file,
        message: `stopped after ${this.maxFiles} files; give fewer paths or exclude folders in .beam-flink-lint.yaml`,
      });
      return;
    }
    (mode === "target" ? this.files : this.context).add(file);
  }

  /**
   * Walks a folder. In context mode (`contextRoot` set) a folder below the context root that holds its own root
   * marker is another project and is left out.
   */
  walk(dir: string, ignores: readonly Gitignore[], scope: Scope, mode: Mode, contextRoot?: string): void {
    if (this.capped) return;
    const real = realPathOf(dir);
    if (real === undefined || this.visited.has(real)) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") {
        const why = code === "EACCES" || code === "EPERM" ? `permission denied (${code})` : String(code ?? e);
        this.note(dir, `not read: this folder cannot be listed: ${why}`);
      }
      return;
    }
    this.visited.add(real);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    if (entries.some((e) => e.name === ".gitignore")) {
      const own = readGitignore(dir, (path, message) => this.note(path, message));
      if (own) ignores = [...ignores, own];
    }
    const files: string[] = [];
    const dirs: string[] = [];
    for (const e of entries) {
      const path = child(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      let other = !isDir && !isFile && !e.isSymbolicLink();
      if (e.isSymbolicLink()) {
        const target = statOrUndefined(path);
        isDir = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
        other = target !== undefined && !isDir && !isFile;
        // A link out of the workspace is named when it stands for something the walk would have entered or read.
        if (
          (isDir || isFile || other) &&
          this.wanted(e.name, isDir) &&
          !isGitignored(ignores, path, isDir, this.tracked)
        ) {
          if (this.linkTarget(path) === undefined) continue;
        }
      }
      if (other) {
        if (this.wanted(e.name, false) && !isGitignored(ignores, path, false, this.tracked)) {
          const stat = statOrUndefined(path);
          this.note(path, `not read: ${stat ? describeType(stat) : "not a regular file"}, not a regular file`);
        }
        continue;
      }
      if (!isDir && !isFile) continue;
      if (isGitignored(ignores, path, isDir, this.tracked)) continue;
      if (isDir) {
        if (!SKIPPED_FOLDERS.has(e.name)) dirs.push(path);
      } else files.push(path);
    }

    if (files.some((f) => ROOT_MARKERS.has(basename(f)))) {
      if (contextRoot !== undefined && dir !== contextRoot) return;
      const present = new Set(files);
      scope = { root: dir, config: this.configAt(dir, (f) => present.has(f)) };
    }
    for (const f of files) if (this.rejection(f, scope) === undefined) this.add(f, mode);
    const exclude = scope.config.exclude;
    for (const d of dirs) {
      if (exclude.length > 0 && matchesAny(relativeTo(scope.root, d), exclude)) continue;
      this.walk(d, ignores, scope, mode, contextRoot);
    }
  }

  /** Whether a name is one the walk enters or reads (for notes about what it cannot). */
  private wanted(name: string, isDir: boolean): boolean {
    if (isDir) return !SKIPPED_FOLDERS.has(name);
    return name === ".gitignore" || ROOT_MARKERS.has(name) || isCandidateFile(name);
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

const REJECTIONS = {
  excluded: "not read: the project configuration (include/exclude in .beam-flink-lint.yaml) leaves it out",
  unknown:
    "not read: not a kind of file beam-flink-lint reads (list it under flinkConfigFiles in .beam-flink-lint.yaml to read it as a Flink configuration)",
};

/** The folder up to which a path's project and .gitignore files are looked for: the Git repository, else `cwd`. */
function searchBoundary(dir: string, cwd: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(child(d, ".git"))) return d;
    if (dirname(d) === d) break;
  }
  return isUnder(dir, cwd) ? cwd : dir;
}

/** Folders from `boundary` down to `dir`, both included. */
function chain(dir: string, boundary: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    out.unshift(d);
    if (d === boundary || dirname(d) === d) break;
  }
  return out;
}

function hasRootMarker(dir: string): boolean {
  for (const marker of ROOT_MARKERS) if (isRegularFile(child(dir, marker))) return true;
  return false;
}

/**
 * Collects the candidate files under the given files and folders (none = the working directory). Skips
 * dependency and build-output folders, honours .gitignore files and the project configs' include/exclude, follows
 * symbolic links without looping, and never reads more than the configured number or size of files.
 */
export function collectFiles(paths: readonly string[], options: CollectOptions = {}): CollectedFiles {
  const cwd = toPosixPath(options.cwd ?? process.cwd());
  const walker = new Walker(options);
  const note = (path: string, message: string) => walker.note(path, message);
  const roots = new Set<string>();
  const missing: string[] = [];
  const contextRoots = new Map<string, readonly Gitignore[]>();

  const gitignoresAbove = (dir: string, boundary: string): Gitignore[] =>
    chain(dir, boundary)
      .slice(0, -1)
      .map((d) => readGitignore(d, note))
      .filter((g): g is Gitignore => g !== undefined);

  const given: { abs: string; isDir: boolean; dir: string; boundary: string; projectRoot?: string }[] = [];
  for (const path of paths.length > 0 ? paths : ["."]) {
    const abs = toPosixPath(path, cwd);
    const stat = statOrUndefined(abs);
    if (!stat) {
      missing.push(path);
      continue;
    }
    const isDir = stat.isDirectory();
    const dir = isDir ? abs : dirname(abs);
    const boundary = searchBoundary(dir, cwd);
    const projectRoot = chain(dir, boundary).reverse().find(hasRootMarker);
    given.push({ abs, isDir, dir, boundary, projectRoot });
    // What was named, and the project it belongs to, may be reached; links elsewhere are not followed.
    walker.allow(abs);
    if (projectRoot !== undefined) walker.allow(projectRoot);
  }
  for (const { abs, isDir, dir, boundary, projectRoot } of given) {
    roots.add(isDir ? abs : cwd);
    let scope = walker.defaultScope(isDir ? abs : isUnder(abs, cwd) ? cwd : dir);
    // A given folder that is a project root holds its whole project; anything else may be part of a larger one.
    if (projectRoot !== undefined && !(isDir && projectRoot === abs)) {
      scope = { root: projectRoot, config: walker.configAt(projectRoot, existsSync) };
      contextRoots.set(projectRoot, gitignoresAbove(projectRoot, boundary));
    }
    if (isDir) walker.walk(abs, gitignoresAbove(abs, boundary), scope, "target");
    else {
      const rejection = walker.rejection(abs, scope);
      if (rejection === undefined) walker.add(abs, "target");
      else walker.note(abs, REJECTIONS[rejection]);
    }
  }
  for (const [root, ignores] of contextRoots) {
    walker.walk(root, ignores, walker.defaultScope(root), "context", root);
  }
  return {
    files: [...walker.files].sort(),
    context: [...walker.context].sort(),
    roots: [...roots].sort(),
    notes: walker.notes,
    missing,
    within: [...walker.within],
  };
}

/**
 * Whether a walk of `folder` would collect `file`: for files that appear after the walk (a file watcher's events).
 * The same rules apply: skipped folders, .gitignore files, the project config, the size limit.
 */
export function isCollectable(file: string, folder: string, options: Omit<CollectOptions, "cwd"> = {}): boolean {
  const path = toPosixPath(file);
  const root = toPosixPath(folder);
  if (path === root || !isUnder(path, root)) return false;
  const dirs = chain(dirname(path), searchBoundary(dirname(path), root));
  const walker = new Walker(options);
  walker.allow(root);
  const real = realPathOf(path);
  if (real === undefined || !walker.within.some((w) => isInside(real, w))) return false;
  const projectRoot = [...dirs].reverse().find(hasRootMarker);
  if (projectRoot !== undefined) walker.allow(projectRoot);
  const scope =
    projectRoot !== undefined
      ? { root: projectRoot, config: walker.configAt(projectRoot, existsSync) }
      : walker.defaultScope(root);
  const exclude = scope.config.exclude;
  let ignores: Gitignore[] = [];
  for (const dir of dirs) {
    if (isUnder(dir, root) && dir !== root) {
      if (SKIPPED_FOLDERS.has(basename(dir)) || isGitignored(ignores, dir, true, walker.tracked)) return false;
      const rel = isUnder(dir, scope.root) && dir !== scope.root ? relativeTo(scope.root, dir) : undefined;
      if (rel !== undefined && exclude.length > 0 && matchesAny(rel, exclude)) return false;
    }
    const own = readGitignore(dir);
    if (own) ignores = [...ignores, own];
  }
  if (isGitignored(ignores, path, false, walker.tracked) || walker.rejection(path, scope) !== undefined) return false;
  const stat = statOrUndefined(path);
  return stat?.isFile() === true && stat.size <= (options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
}
