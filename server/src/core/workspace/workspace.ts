/**
 * The workspace model: every known file, grouped into projects, with cached facts per file.
 * Changing one file re-reads only that file; the rules of its project then run again over cached facts,
 * so findings in the project's other files follow (a fix in flink-conf.yaml clears a warning elsewhere).
 */
import { pushAll } from "../arrays";
import { defaultProjectConfig, type EngineOptions, type ProjectConfig } from "../config";
import { BAZEL_ROOT_FILES } from "../documents/build/bazel";
import { isComposeName } from "../documents/compose";
import { readDocument } from "../documents/index";
import { PROJECT_CONFIG_NAMES, readProjectConfig } from "../documents/projectConfig";
import { isPythonDependencyFile } from "../documents/python/requirements";
import type { EncodingProblem } from "../encoding";
import { analyzeProject, type ProjectAnalysis } from "../engine";
import { matchesAny } from "../glob";
import { projectJavaFacts } from "../jobcode/project";
import type { FileFacts, FlinkVersionEvidence, OperatorVersionEvidence } from "../model";
import { includedBuilds, includedProjects, pomModules, topBuildOf } from "./build/layout";
import { resolveBuild } from "./buildModel";
import { chartValues } from "./helmCharts";
import { kustomizedDeployments } from "./kustomize";
import { type ProjectModel, resolveFlinkVersion, resolveOperatorVersion } from "./project";

/** File names that make their folder a project root (a build root or a project config). */
export const ROOT_MARKERS = new Set([
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "build.sbt",
  "pom.xml",
  ...BAZEL_ROOT_FILES,
  ...PROJECT_CONFIG_NAMES,
]);

/** A file whose arrival or removal can change which project a folder's files belong to. */
function isLayoutMarker(file: string): boolean {
  return ROOT_MARKERS.has(basename(file)) || isPythonDependencyFile(file) || isComposeName(basename(file));
}

function sameEncoding(a: EncodingProblem | undefined, b: EncodingProblem | undefined): boolean {
  return a?.encoding === b?.encoding && a?.at.line === b?.at.line && a?.at.character === b?.at.character;
}

export function dirname(file: string): string {
  const i = file.lastIndexOf("/");
  return i <= 0 ? "/" : file.slice(0, i);
}

export function basename(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}

export function relativeTo(root: string, file: string): string {
  if (root === "/") return file.slice(1);
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}

interface Entry {
  text: string;
  /** Set when the file on disk is not UTF-8. */
  encoding?: EncodingProblem;
  facts?: FileFacts;
}

export interface WorkspaceOptions extends EngineOptions {
  /** Workspace folders (absolute, `/`-separated). Files outside every marker-rooted folder group by these. */
  roots?: string[];
  /** A project configuration used for every project in place of the projects' own files (CLI `--config`). */
  projectConfig?: ProjectConfig;
}

export class Workspace {
  private readonly files = new Map<string, Entry>();
  private readonly configCache = new Map<string, ProjectConfig>();
  /** Project root per folder; cleared when a root marker appears, disappears or a pom's modules change. */
  private readonly rootCache = new Map<string, string>();
  /** Files per project root; dropped when files come or go or roots move, rebuilt on the next lookup. */
  private byRoot: Map<string, string[]> | undefined;
  /** The files of each folder and the folders in it, to find what lies under a folder without a scan of all. */
  private readonly folderFiles = new Map<string, Set<string>>();
  private readonly subfolders = new Map<string, Set<string>>();

  constructor(public options: WorkspaceOptions = {}) {}

  has(file: string): boolean {
    return this.files.has(file);
  }

  text(file: string): string | undefined {
    return this.files.get(file)?.text;
  }

  allFiles(): string[] {
    return [...this.files.keys()];
  }

  /**
   * Adds or replaces a file. Returns the project roots whose findings may change: the file's project, its
   * previous project when a new root marker moved it, and the projects of the folder's files when it changed which
   * build they belong to. `encoding` says that the file on disk is not UTF-8 (`text` is what decoding it gave).
   */
  setFile(file: string, text: string, encoding?: EncodingProblem): string[] {
    const before = this.files.has(file) ? this.projectRootOf(file) : undefined;
    const old = this.files.get(file);
    if (old && old.text === text && sameEncoding(old.encoding, encoding)) return [this.projectRootOf(file)];
    const markerChange = isLayoutMarker(file) && !old;
    const layoutChange =
      markerChange ||
      (basename(file) === "pom.xml" && `${pomModules(old?.text)}` !== `${pomModules(text)}`) ||
      (/^settings\.gradle(\.kts)?$/.test(basename(file)) &&
        (`${includedBuilds(old?.text)}` !== `${includedBuilds(text)}` ||
          `${includedProjects(old?.text)}` !== `${includedProjects(text)}`));
    const moved = layoutChange ? this.rootsUnder(dirname(file)) : new Set<string>();
    this.files.set(file, encoding ? { text, encoding } : { text });
    if (!old) this.indexFolder(file);
    if (!old || layoutChange) this.byRoot = undefined;
    if (layoutChange) this.rootCache.clear();
    if (PROJECT_CONFIG_NAMES.includes(basename(file))) this.invalidateProject(dirname(file));
    if (markerChange) this.configCache.clear();
    const after = this.projectRootOf(file);
    if (layoutChange) for (const root of this.rootsUnder(dirname(file))) moved.add(root);
    moved.delete(after);
    if (before && before !== after) moved.add(before);
    return [after, ...moved];
  }

  removeFile(file: string): string[] {
    if (!this.files.has(file)) return [];
    const root = this.projectRootOf(file);
    const marker = isLayoutMarker(file);
    const moved = marker ? this.rootsUnder(dirname(file)) : new Set<string>();
    this.files.delete(file);
    this.folderFiles.get(dirname(file))?.delete(file);
    this.byRoot = undefined;
    if (marker) {
      this.rootCache.clear();
      for (const r of this.rootsUnder(dirname(file))) moved.add(r);
    }
    if (PROJECT_CONFIG_NAMES.includes(basename(file))) this.invalidateProject(dirname(file));
    moved.delete(root);
    return [root, ...moved];
  }

  private indexFolder(file: string): void {
    let folder = dirname(file);
    const files = this.folderFiles.get(folder);
    if (files) {
      files.add(file);
      return;
    }
    this.folderFiles.set(folder, new Set([file]));
    for (;;) {
      const parent = dirname(folder);
      if (parent === folder) return;
      const children = this.subfolders.get(parent);
      if (children) {
        const known = children.has(folder);
        children.add(folder);
        if (known) return;
      } else this.subfolders.set(parent, new Set([folder]));
      folder = parent;
    }
  }

  /** The project roots of the files in `dir` and below. */
  private rootsUnder(dir: string): Set<string> {
    const roots = new Set<string>();
    const folders = [dir];
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      for (const f of this.folderFiles.get(folder) ?? []) roots.add(this.projectRootOf(f));
      for (const sub of this.subfolders.get(folder) ?? []) folders.push(sub);
    }
    return roots;
  }

  private invalidateProject(root: string): void {
    this.configCache.delete(root);
    // Only facts already read can be stale; while a workspace loads there are none, and no root to look up.
    for (const [file, entry] of this.files)
      if (entry.facts && this.projectRootOf(file) === root) entry.facts = undefined;
  }

  /**
   * The nearest folder holding a root marker, or the top build including it (a Gradle subproject, a Maven module;
   * a folder with its own project config stays a project of its own); else the workspace folder holding the file;
   * else its folder.
   */
  projectRootOf(file: string): string {
    const folder = dirname(file);
    let root = this.rootCache.get(folder);
    if (root === undefined) {
      root = this.computeRoot(folder);
      this.rootCache.set(folder, root);
    }
    return root;
  }

  private computeRoot(folder: string): string {
    let dir = folder;
    let example: string | undefined;
    for (;;) {
      const has = (name: string) => this.files.has(dir === "/" ? `/${name}` : `${dir}/${name}`);
      if (PROJECT_CONFIG_NAMES.some(has)) return dir;
      for (const marker of ROOT_MARKERS) if (has(marker)) return topBuildOf(dir, this);
      example ??= this.isExampleFolder(dir) ? dir : undefined;
      if (dir === "/") break;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    if (example) return example;
    const roots = (this.options.roots ?? []).filter(
      (r) => folder === r || folder.startsWith(r === "/" ? "/" : `${r}/`),
    );
    if (roots.length > 0) return roots.sort((a, b) => b.length - a.length)[0];
    return folder;
  }

  /**
   * A folder that is an example of its own in a repository of examples with no build files: it holds a Python
   * project's dependencies (`requirements.txt`, `pyproject.toml`, `setup.py`) and a Compose file that runs them
   * (`docker-compose.yml`). Its jobs and cluster are judged together, apart from the other examples; a build
   * (Maven, Gradle, sbt) or project configuration above it still makes one project of everything under it.
   */
  private isExampleFolder(dir: string): boolean {
    const files = this.folderFiles.get(dir);
    if (!files) return false;
    let python = false;
    let compose = false;
    for (const f of files) {
      const name = basename(f);
      if (isPythonDependencyFile(f)) python = true;
      else if (isComposeName(name)) compose = true;
      if (python && compose) return true;
    }
    return false;
  }

  projectConfig(root: string): ProjectConfig {
    if (this.options.projectConfig) return this.options.projectConfig;
    let config = this.configCache.get(root);
    if (!config) {
      config = defaultProjectConfig();
      for (const name of PROJECT_CONFIG_NAMES) {
        const file = root === "/" ? `/${name}` : `${root}/${name}`;
        const entry = this.files.get(file);
        // A project configuration in UTF-16 is not analysed (BFL003), so it does not apply either.
        if (entry && (!entry.encoding || entry.encoding.encoding === "not UTF-8")) {
          config = readProjectConfig(file, entry.text).config;
          break;
        }
      }
      this.configCache.set(root, config);
    }
    return config;
  }

  /** False for files the project config excludes (or does not include). */
  isIncluded(file: string, root = this.projectRootOf(file)): boolean {
    const config = this.projectConfig(root);
    const rel = relativeTo(root, file);
    if (config.exclude.length > 0 && matchesAny(rel, config.exclude)) return false;
    if (config.include.length > 0 && !matchesAny(rel, config.include)) {
      return PROJECT_CONFIG_NAMES.includes(basename(file));
    }
    return true;
  }

  /** Set when the file on disk is not UTF-8. */
  encodingOf(file: string): EncodingProblem | undefined {
    return this.files.get(file)?.encoding;
  }

  facts(file: string): FileFacts | undefined {
    const entry = this.files.get(file);
    if (!entry) return undefined;
    if (!entry.facts) {
      const root = this.projectRootOf(file);
      const config = this.projectConfig(root);
      const rel = relativeTo(root, file);
      const forcedFlinkConfig = config.flinkConfigFiles.length > 0 && matchesAny(rel, config.flinkConfigFiles);
      entry.facts = readDocument(file, entry.text, { forcedFlinkConfig, encoding: entry.encoding });
    }
    return entry.facts;
  }

  projectRoots(): string[] {
    const roots = new Set<string>();
    for (const file of this.files.keys()) roots.add(this.projectRootOf(file));
    return [...roots].sort();
  }

  projectFiles(root: string): string[] {
    if (!this.byRoot) {
      // One pass over the workspace for every project's files: a scan per project is quadratic in a monorepo.
      this.byRoot = new Map();
      for (const file of this.files.keys()) {
        const r = this.projectRootOf(file);
        const list = this.byRoot.get(r);
        if (list) list.push(file);
        else this.byRoot.set(r, [file]);
      }
    }
    return (this.byRoot.get(root) ?? []).filter((f) => this.isIncluded(f, root)).sort();
  }

  /** `options` replaces the workspace's own engine options for this call (per-folder editor settings). */
  project(root: string, options: EngineOptions = this.options): ProjectModel {
    const config = this.projectConfig(root);
    const files = this.projectFiles(root)
      .map((f) => this.facts(f))
      .filter((f): f is FileFacts => f !== undefined);
    const build = resolveBuild(root, files, () => this.otherPoms(root));
    const evidence: FlinkVersionEvidence[] = [...files.flatMap((f) => f.flinkVersions), ...build.flinkVersions];
    if (config.flinkVersion) {
      evidence.push({
        minor: config.flinkVersion,
        source: "projectConfig",
        location:
          config.file && config.flinkVersionRange ? { file: config.file, range: config.flinkVersionRange } : undefined,
      });
    }
    if (options.assumedFlinkVersion) {
      evidence.push({ minor: options.assumedFlinkVersion, source: "setting" });
    }
    const operatorEvidence: OperatorVersionEvidence[] = files.flatMap((f) => f.operatorVersions ?? []);
    if (config.operatorVersion) {
      operatorEvidence.push({
        version: config.operatorVersion,
        source: "projectConfig",
        location:
          config.file && config.operatorVersionRange
            ? { file: config.file, range: config.operatorVersionRange }
            : undefined,
      });
    }
    const byFile = new Map(files.map((f) => [f.file, f]));
    const java = projectJavaFacts(files, (file) => relativeTo(root, file));
    const chart = chartValues(files);
    const flinkConfigs = files.flatMap((f) => f.flinkConfigs);
    pushAll(flinkConfigs, chart.configs);
    return {
      root,
      files,
      config,
      flinkConfigs,
      templateValues: chart.byFill,
      flinkDeployments: kustomizedDeployments(files),
      workloads: files.flatMap((f) => f.workloads),
      k8sObjects: files.flatMap((f) => f.k8sObjects),
      flinkVersion: resolveFlinkVersion(evidence),
      dependencies: build.dependencies,
      jobApi: {
        commitOffsetsInFinalize: files.flatMap((f) => f.jobApi?.commitOffsetsInFinalize ?? []),
        pubsubRead: files.flatMap((f) => f.jobApi?.pubsubRead ?? []),
        useDeprecatedRead: files.flatMap((f) => f.jobApi?.useDeprecatedRead ?? []),
      },
      code: java,
      operatorVersion: resolveOperatorVersion(operatorEvidence),
      imageJars: files.flatMap((f) => f.imageJars ?? []),
      pythonRequirements: files.flatMap((f) => f.pythonRequirements ?? []),
      pythonKafkaReads: files.flatMap((f) => f.pythonKafkaReads ?? []),
      fileFacts: (file) => byFile.get(file),
    };
  }

  /**
   * Forgets what was read of a project's files (they are read again if asked for): a run over many projects that
   * reports one project at a time keeps only the project it is on. Poms stay: other projects may take a parent or a
   * BOM from them.
   */
  releaseFacts(root: string): void {
    for (const file of this.projectFiles(root)) {
      const entry = this.files.get(file);
      if (entry && basename(file) !== "pom.xml") entry.facts = undefined;
    }
  }

  /** The poms of other projects, where a parent or an imported BOM may be. */
  private otherPoms(root: string): FileFacts[] {
    return this.allFiles()
      .filter((f) => basename(f) === "pom.xml" && this.projectRootOf(f) !== root)
      .flatMap((f) => this.facts(f) ?? []);
  }

  analyze(root: string, options: EngineOptions = this.options): ProjectAnalysis {
    return analyzeProject(this.project(root, options), options);
  }
}
