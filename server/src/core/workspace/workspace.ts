/**
 * The workspace model: every known file, grouped into projects, with cached facts per file.
 * Changing one file re-reads only that file; the rules of its project then run again over cached facts,
 * so findings in the project's other files follow (a fix in flink-conf.yaml clears a warning elsewhere).
 */
import picomatch from "picomatch";
import { type EngineOptions, type ProjectConfig, defaultProjectConfig } from "../config";
import { readDocument } from "../documents/index";
import { PROJECT_CONFIG_NAMES, readProjectConfig } from "../documents/projectConfig";
import { type ProjectAnalysis, analyzeProject } from "../engine";
import type { FileFacts, FlinkVersionEvidence } from "../model";
import { type ProjectModel, resolveFlinkVersion } from "./project";

/** File names that make their folder a project root (a build root or a project config). */
export const ROOT_MARKERS = new Set([
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "pom.xml",
  ...PROJECT_CONFIG_NAMES,
]);

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
  facts?: FileFacts;
}

export interface WorkspaceOptions extends EngineOptions {
  /** Workspace folders (absolute, `/`-separated). Files outside every marker-rooted folder group by these. */
  roots?: string[];
}

export class Workspace {
  private readonly files = new Map<string, Entry>();
  private readonly configCache = new Map<string, ProjectConfig>();

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
   * Adds or replaces a file. Returns the project roots whose findings may change: the file's project, and its
   * previous project when a new root marker moved it.
   */
  setFile(file: string, text: string): string[] {
    const before = this.files.has(file) ? this.projectRootOf(file) : undefined;
    const old = this.files.get(file);
    if (old && old.text === text) return [this.projectRootOf(file)];
    const markerChange = ROOT_MARKERS.has(basename(file)) && !old;
    this.files.set(file, { text });
    if (PROJECT_CONFIG_NAMES.includes(basename(file))) this.invalidateProject(dirname(file));
    if (markerChange) this.configCache.clear();
    const after = this.projectRootOf(file);
    return before && before !== after ? [before, after] : [after];
  }

  removeFile(file: string): string[] {
    if (!this.files.has(file)) return [];
    const root = this.projectRootOf(file);
    this.files.delete(file);
    if (PROJECT_CONFIG_NAMES.includes(basename(file))) this.invalidateProject(dirname(file));
    return [root];
  }

  private invalidateProject(root: string): void {
    this.configCache.delete(root);
    for (const [file, entry] of this.files) if (this.projectRootOf(file) === root) entry.facts = undefined;
  }

  /** The nearest folder holding a root marker; else the workspace folder holding the file; else its folder. */
  projectRootOf(file: string): string {
    let dir = dirname(file);
    for (;;) {
      for (const marker of ROOT_MARKERS) if (this.files.has(dir === "/" ? `/${marker}` : `${dir}/${marker}`)) return dir;
      if (dir === "/") break;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    const roots = (this.options.roots ?? []).filter((r) => file.startsWith(r === "/" ? "/" : `${r}/`));
    if (roots.length > 0) return roots.sort((a, b) => b.length - a.length)[0];
    return dirname(file);
  }

  projectConfig(root: string): ProjectConfig {
    let config = this.configCache.get(root);
    if (!config) {
      config = defaultProjectConfig();
      for (const name of PROJECT_CONFIG_NAMES) {
        const file = root === "/" ? `/${name}` : `${root}/${name}`;
        const entry = this.files.get(file);
        if (entry) {
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
    if (config.exclude.length > 0 && picomatch.isMatch(rel, config.exclude, { dot: true })) return false;
    if (config.include.length > 0 && !picomatch.isMatch(rel, config.include, { dot: true })) {
      return PROJECT_CONFIG_NAMES.includes(basename(file));
    }
    return true;
  }

  facts(file: string): FileFacts | undefined {
    const entry = this.files.get(file);
    if (!entry) return undefined;
    if (!entry.facts) {
      const root = this.projectRootOf(file);
      const config = this.projectConfig(root);
      const rel = relativeTo(root, file);
      const forcedFlinkConfig =
        config.flinkConfigFiles.length > 0 && picomatch.isMatch(rel, config.flinkConfigFiles, { dot: true });
      entry.facts = readDocument(file, entry.text, { forcedFlinkConfig });
    }
    return entry.facts;
  }

  projectRoots(): string[] {
    const roots = new Set<string>();
    for (const file of this.files.keys()) roots.add(this.projectRootOf(file));
    return [...roots].sort();
  }

  projectFiles(root: string): string[] {
    return [...this.files.keys()].filter((f) => this.projectRootOf(f) === root && this.isIncluded(f, root)).sort();
  }

  project(root: string): ProjectModel {
    const config = this.projectConfig(root);
    const files = this.projectFiles(root)
      .map((f) => this.facts(f))
      .filter((f): f is FileFacts => f !== undefined);
    const evidence: FlinkVersionEvidence[] = files.flatMap((f) => f.flinkVersions);
    if (config.flinkVersion) {
      evidence.push({
        minor: config.flinkVersion,
        source: "projectConfig",
        location: config.file ? { file: config.file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } } : undefined,
      });
    }
    if (this.options.assumedFlinkVersion) {
      evidence.push({ minor: this.options.assumedFlinkVersion, source: "setting" });
    }
    const byFile = new Map(files.map((f) => [f.file, f]));
    return {
      root,
      files,
      config,
      flinkConfigs: files.flatMap((f) => f.flinkConfigs),
      flinkDeployments: files.flatMap((f) => f.flinkDeployments),
      workloads: files.flatMap((f) => f.workloads),
      k8sObjects: files.flatMap((f) => f.k8sObjects),
      flinkVersion: resolveFlinkVersion(evidence),
      jobCheckpointing: files.flatMap((f) => f.jobCode?.checkpointing ?? []),
      fileFacts: (file) => byFile.get(file),
    };
  }

  analyze(root: string): ProjectAnalysis {
    return analyzeProject(this.project(root), this.options);
  }
}
