/**
 * Finds the files to analyse under the paths a user gives (CLI arguments, editor workspace folders).
 *
 * Besides the files under those paths, it collects the other files of the projects they belong to (up to the
 * nearest build root or project config above them, never above the Git repository), so that a project config and
 * cross-file facts apply the same whether a user lints the whole repository or one folder of it. Those context
 * files are read but not reported on.
 */
import { type Dirent, existsSync, readdirSync, readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { defaultProjectConfig, type ProjectConfig } from "../core/config";
import { isCandidateFile } from "../core/documents/index";
import { PROJECT_CONFIG_NAMES, readProjectConfig } from "../core/documents/projectConfig";
import { basename, dirname, ROOT_MARKERS, relativeTo } from "../core/workspace/workspace";
import { toPosixPath } from "./files";

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

/** Something the user should know about the walk: a file too large to read, the file limit reached. */
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

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function readGitignore(dir: string): Gitignore | undefined {
  const file = child(dir, ".gitignore");
  try {
    return { dir, rules: ignore().add(readFileSync(file, "utf8")) };
  } catch {
    return undefined;
  }
}

/** Git's precedence: the deepest .gitignore that says anything about a path decides. */
function isGitignored(ignores: readonly Gitignore[], path: string, isDir: boolean): boolean {
  for (let i = ignores.length - 1; i >= 0; i--) {
    const { dir, rules } = ignores[i];
    if (!isUnder(path, dir) || path === dir) continue;
    const rel = relativeTo(dir, path);
    const result = rules.test(isDir ? `${rel}/` : rel);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

function formatBytes(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

class Walker {
  readonly files = new Set<string>();
  readonly context = new Set<string>();
  readonly notes: WalkNote[] = [];
  private readonly visited = new Set<string>();
  private readonly maxFiles: number;
  private readonly maxFileBytes: number;
  private capped = false;

  constructor(private readonly options: CollectOptions) {
    this.maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  /** The project config of a root-marker folder, given the files found there. */
  configAt(dir: string, present: (file: string) => boolean): ProjectConfig {
    if (this.options.projectConfig) return this.options.projectConfig;
    for (const name of PROJECT_CONFIG_NAMES) {
      const file = child(dir, name);
      if (!present(file)) continue;
      try {
        return readProjectConfig(file, readFileSync(file, "utf8")).config;
      } catch {
        break;
      }
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
    if (exclude.length > 0 && picomatch.isMatch(rel, exclude, { dot: true })) return "excluded";
    if (include.length > 0 && !picomatch.isMatch(rel, include, { dot: true })) return "excluded";
    if (isCandidateFile(file)) return undefined;
    return flinkConfigFiles.length > 0 && picomatch.isMatch(rel, flinkConfigFiles, { dot: true })
      ? undefined
      : "unknown";
  }

  add(file: string, mode: Mode): void {
    if (this.capped || this.files.has(file) || this.context.has(file)) return;
    const stat = statOrUndefined(file);
    if (!stat?.isFile()) return;
    if (stat.size > this.maxFileBytes) {
      this.notes.push({
        path: file,
        message: `not read: ${formatBytes(stat.size)} is more than the ${formatBytes(this.maxFileBytes)} limit`,
      });
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
    let real: string;
    let entries: Dirent[];
    try {
      real = realpathSync(dir);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (this.visited.has(real)) return;
    this.visited.add(real);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    if (entries.some((e) => e.name === ".gitignore")) {
      const own = readGitignore(dir);
      if (own) ignores = [...ignores, own];
    }
    const files: string[] = [];
    const dirs: string[] = [];
    for (const e of entries) {
      const path = child(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        const target = statOrUndefined(path);
        isDir = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
      }
      if (!isDir && !isFile) continue;
      if (isGitignored(ignores, path, isDir)) continue;
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
      if (exclude.length > 0 && picomatch.isMatch(relativeTo(scope.root, d), exclude, { dot: true })) continue;
      this.walk(d, ignores, scope, mode, contextRoot);
    }
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
  for (const marker of ROOT_MARKERS) if (existsSync(child(dir, marker))) return true;
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
  const roots = new Set<string>();
  const missing: string[] = [];
  const contextRoots = new Map<string, readonly Gitignore[]>();

  const gitignoresAbove = (dir: string, boundary: string): Gitignore[] =>
    chain(dir, boundary)
      .slice(0, -1)
      .map(readGitignore)
      .filter((g): g is Gitignore => g !== undefined);

  for (const given of paths.length > 0 ? paths : ["."]) {
    const abs = toPosixPath(given, cwd);
    const stat = statOrUndefined(abs);
    if (!stat) {
      missing.push(given);
      continue;
    }
    const isDir = stat.isDirectory();
    const dir = isDir ? abs : dirname(abs);
    roots.add(isDir ? abs : cwd);
    const boundary = searchBoundary(dir, cwd);
    const projectRoot = chain(dir, boundary).reverse().find(hasRootMarker);
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
      else walker.notes.push({ path: abs, message: REJECTIONS[rejection] });
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
  const projectRoot = [...dirs].reverse().find(hasRootMarker);
  const scope =
    projectRoot !== undefined
      ? { root: projectRoot, config: walker.configAt(projectRoot, existsSync) }
      : walker.defaultScope(root);
  const exclude = scope.config.exclude;
  let ignores: Gitignore[] = [];
  for (const dir of dirs) {
    if (isUnder(dir, root) && dir !== root) {
      if (SKIPPED_FOLDERS.has(basename(dir)) || isGitignored(ignores, dir, true)) return false;
      const rel = isUnder(dir, scope.root) && dir !== scope.root ? relativeTo(scope.root, dir) : undefined;
      if (rel !== undefined && exclude.length > 0 && picomatch.isMatch(rel, exclude, { dot: true })) return false;
    }
    const own = readGitignore(dir);
    if (own) ignores = [...ignores, own];
  }
  if (isGitignored(ignores, path, false) || walker.rejection(path, scope) !== undefined) return false;
  const stat = statOrUndefined(path);
  return stat?.isFile() === true && stat.size <= (options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
}
