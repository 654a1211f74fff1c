/**
 * When to analyse and what to publish. A change schedules its project after the debounce; a newer change to the
 * same project makes the pending run stale, and a stale run stops before it publishes. A run analyses the whole
 * project and publishes every file whose diagnostics changed, so fixing flink-conf.yaml clears a finding in a
 * manifest that is not even open. Open documents are published with the version that was analysed.
 */
import { type Connection, type Diagnostic, DiagnosticSeverity, type TextDocuments } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { analyzeProject, type ProjectAnalysis } from "../core/engine";
import type { Finding } from "../core/findings";
import type { FlinkVersionEvidence } from "../core/model";
import { configVersion } from "../core/project/clusters";
import { describeEvidence, flinkVersionFieldLabel } from "../core/project/versions";
import type { ProjectModel } from "../core/workspace/project";
import { relativeTo } from "../core/workspace/workspace";
import { toDiagnostic } from "./diagnostics";
import { SERVER_SOURCE, type Settings, STATUS_NOTIFICATION, type StatusParams } from "./protocol";
import { engineOptions, maxFileBytes } from "./settings";
import { exceedsBytes, type WorkspaceHost } from "./workspaceHost";

/** One analysis run: its id (carried in diagnostics) and the open documents' versions it saw. */
export interface Snapshot {
  id: number;
  versions: ReadonlyMap<string, number>;
}

/** What was last published for a file. */
export interface FileState {
  root: string | undefined;
  snapshot: Snapshot;
  /** The document version analysed; undefined for files that are not open. */
  version: number | undefined;
  findings: Finding[];
  /** The published diagnostics without their data, to tell whether a new run changed anything. */
  key: string;
}

export type TriggerReason = "open" | "change" | "save" | "files" | "settings";

export interface Trigger {
  reason: TriggerReason;
  /** The document that caused the run; its settings apply to the whole project. */
  uri?: string;
}

const SOURCE_LABEL: Record<FlinkVersionEvidence["source"], string> = {
  flinkDeployment: "the FlinkDeployment's flinkVersion",
  image: "a Flink container image tag",
  dependency: "a Flink dependency version",
  runner: "the Beam Flink runner artifact",
  projectConfig: "flinkVersion in the project configuration",
  setting: "the beamFlinkLint.flinkVersion setting",
};

export function describeVersionSource(project: ProjectModel): string | undefined {
  const v = project.flinkVersion;
  if (!v) return undefined;
  const e = v.evidence;
  const where = e.location ? ` (${relativeTo(project.root, e.location.file)})` : "";
  const label = e.source === "flinkDeployment" ? flinkVersionFieldLabel(e) : SOURCE_LABEL[e.source];
  return `Flink ${e.full ?? v.minor} from ${label}${where}`;
}

/**
 * For a file that holds Flink configurations: the version its (first) configuration runs with when the deployment
 * that uses it decides it (pinned or conflicting), and that evidence in words. Other files show the project's.
 */
export function fileVersion(
  project: ProjectModel,
  path: string,
): Pick<StatusParams, "flinkVersion" | "versionSource"> | undefined {
  const config = project.flinkConfigs.find((c) => c.file === path);
  if (!config) return undefined;
  const version = configVersion(project, config);
  // A version the file's own deployment does not decide is the project's, which the status already shows.
  if (!version.minor || (version.strength !== "pinned" && version.strength !== "conflicting")) return undefined;
  return {
    flinkVersion: version.minor,
    versionSource: describeEvidence(version, (f) => relativeTo(project.root, f)),
  };
}

const OPERATOR_SOURCE_LABEL: Record<string, string> = {
  projectConfig: "operatorVersion in the project configuration",
  image: "an operator image tag",
  helmChart: "the operator's Helm chart",
};

/** The project's versions with their evidence, for the log: "Flink 1.19 from …; operator 1.9.0 from …". */
export function describeVersions(project: ProjectModel): string {
  const parts = [describeVersionSource(project) ?? "Flink version unknown"];
  const conflicting = project.flinkVersion?.others.length ?? 0;
  if (conflicting > 0) parts[0] += ` (${conflicting} other evidence names another version)`;
  const op = project.operatorVersion;
  if (op) {
    const where = op.evidence.location ? ` (${relativeTo(project.root, op.evidence.location.file)})` : "";
    parts.push(
      `Kubernetes Operator ${op.version} from ${OPERATOR_SOURCE_LABEL[op.evidence.source] ?? op.evidence.source}${where}`,
    );
  }
  return parts.join("; ");
}

/** The file kinds of a project, counted: "3 files (flinkConfig 1, manifest 2)". */
function describeFiles(project: ProjectModel): string {
  const kinds = new Map<string, number>();
  for (const f of project.files) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
  const list = [...kinds].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`);
  return `${project.files.length} ${project.files.length === 1 ? "file" : "files"} (${list.join(", ")})`;
}

/** The slowest rules of a run, ESLint's TIMING style: "BFL404 3.1 ms, BFL112 0.8 ms". */
export function slowestRules(timings: readonly { rule: string; ms: number }[], count = 3): string {
  return [...timings]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((t) => `${t.rule} ${t.ms.toFixed(1)} ms`)
    .join(", ");
}

/** A run slower than this is logged on every run, not only the project's first. */
const SLOW_RUN_MS = 250;

export class Analyzer {
  private readonly states = new Map<string, FileState>();
  /** What was logged about each project (its description), so a run logs only what changed or was slow. */
  private readonly described = new Map<string, string>();
  private readonly generations = new Map<string, number>();
  private readonly loggedFailures = new Set<string>();
  private nextId = 1;
  /** What of a project's findings is published (the server hides what the workspace's baseline records). */
  filterFindings: (root: string, byFile: ReadonlyMap<string, Finding[]>) => ReadonlyMap<string, Finding[]> = (
    _,
    byFile,
  ) => byFile;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly host: WorkspaceHost,
    private readonly settingsFor: (scopeUri: string) => Promise<Settings>,
  ) {}

  state(path: string): FileState | undefined {
    return this.states.get(path);
  }

  /** Roots that have published something (to re-run when settings change). */
  publishedRoots(): string[] {
    const roots = new Set<string>();
    for (const s of this.states.values()) if (s.root !== undefined) roots.add(s.root);
    return [...roots];
  }

  schedule(roots: Iterable<string>, trigger: Trigger): void {
    for (const root of new Set(roots)) {
      this.run(root, trigger).catch((e) =>
        this.connection.console.error(`Analysis of ${root} failed: ${errorText(e)}`),
      );
    }
  }

  private async run(root: string, trigger: Trigger): Promise<void> {
    const settings = await this.settingsFor(trigger.uri ?? this.host.uriOf(root));
    // In onSave mode typing changes nothing, not even what is pending from the last save.
    if (settings.run === "onSave" && trigger.reason === "change") return;
    const generation = (this.generations.get(root) ?? 0) + 1;
    this.generations.set(root, generation);
    if (trigger.uri) this.checkSize(trigger.uri, settings);
    const delay = trigger.reason === "change" || trigger.reason === "files" ? settings.debounceMs : 0;
    // Without a debounce, yielding once still lets changes already received supersede this run, without a timer.
    await new Promise((resolve) => (delay > 0 ? setTimeout(resolve, delay) : setImmediate(resolve)));
    if (this.generations.get(root) !== generation) return;
    if (!settings.enable) this.clearRoot(root);
    else this.analyzeNow(root, settings);
  }

  /** Takes a document over the size limit out of the workspace and tells why, or puts it back once it fits. */
  private checkSize(uri: string, settings: Settings): void {
    const doc = this.documents.get(uri);
    if (!doc) return;
    const path = this.host.pathOf(uri);
    if (!path) return;
    const limit = maxFileBytes(settings);
    this.host.setPathLimit(path, limit);
    if (exceedsBytes(doc.getText(), limit)) {
      // The host keeps such a document out of the workspace as soon as it arrives; this says why, once per version.
      this.host.setTooLarge(path, true);
      if (this.states.get(path)?.version !== doc.version || this.states.get(path)?.root !== undefined) {
        this.publishTooLarge(path, doc, settings.maxFileSizeMB);
      }
    } else if (this.host.setTooLarge(path, false)) {
      this.host.change(path, doc.getText());
    }
  }

  /** A file on disk that could not be read again (it became a FIFO, too large, unreadable): one information line. */
  publishNotRead(path: string, reason: string): void {
    const diagnostic: Diagnostic = {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: DiagnosticSeverity.Information,
      source: SERVER_SOURCE,
      message: `This file is not analysed: ${reason.replace(/^not read: /, "")}.`,
    };
    this.states.set(path, {
      root: undefined,
      snapshot: { id: this.nextId++, versions: new Map() },
      version: undefined,
      findings: [],
      key: JSON.stringify([diagnostic]),
    });
    this.connection.sendDiagnostics({ uri: this.host.uriOf(path), diagnostics: [diagnostic] });
  }

  private publishTooLarge(path: string, doc: TextDocument, limitMB: number): void {
    const diagnostic: Diagnostic = {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: DiagnosticSeverity.Information,
      source: SERVER_SOURCE,
      message: `This file is larger than ${limitMB} MB, so it is not analysed (setting beamFlinkLint.maxFileSizeMB).`,
    };
    this.states.set(path, {
      root: undefined,
      snapshot: { id: this.nextId++, versions: new Map() },
      version: doc.version,
      findings: [],
      key: JSON.stringify([diagnostic]),
    });
    this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: [diagnostic] });
  }

  /** Analyses a project right away with the given settings and publishes; returns the analysis. */
  analyzeNow(root: string, settings: Settings): ProjectAnalysis | undefined {
    const options = engineOptions(settings);
    const ws = this.host.workspace;
    let project: ProjectModel;
    let result: ProjectAnalysis;
    const started = performance.now();
    let modelled = started;
    try {
      project = ws.project(root, options);
      modelled = performance.now();
      result = analyzeProject(project, options);
    } catch (e) {
      this.connection.console.error(`Analysis of ${root} failed: ${errorText(e)}`);
      return undefined;
    }
    for (const failure of result.failures) {
      if (this.loggedFailures.has(failure.rule)) continue;
      this.loggedFailures.add(failure.rule);
      this.connection.console.error(`Rule ${failure.rule} failed and was skipped: ${failure.error}`);
    }
    const byFile = this.filterFindings(root, result.byFile);
    this.logRun(project, result, byFile, modelled - started, performance.now() - modelled);
    const versions = new Map<string, number>();
    for (const path of byFile.keys()) {
      const doc = this.documents.get(this.host.uriOf(path));
      if (doc) versions.set(path, doc.version);
    }
    const snapshot: Snapshot = { id: this.nextId++, versions };
    for (const [path, state] of [...this.states]) {
      if (state.root === root && !byFile.has(path)) this.publish(path, undefined, [], snapshot);
    }
    for (const [path, findings] of byFile) this.publish(path, root, findings, snapshot);
    const counts = { error: 0, warning: 0, info: 0, hint: 0 };
    for (const list of byFile.values()) for (const f of list) counts[f.severity]++;
    const status: Omit<StatusParams, "uri"> = {
      flinkVersion: project.flinkVersion?.minor,
      versionSource: describeVersionSource(project),
      files: project.files.length,
      counts,
      off: result.rulesRun === 0,
    };
    for (const path of versions.keys()) {
      this.connection.sendNotification(STATUS_NOTIFICATION, {
        uri: this.host.uriOf(path),
        ...status,
        ...fileVersion(project, path),
      });
    }
    return result;
  }

  /**
   * The Output channel's account of a run: the project, its versions with their evidence and its files the first
   * time (and whenever they change), then the time it took and the slowest rules; later runs only when slow.
   */
  private logRun(
    project: ProjectModel,
    result: ProjectAnalysis,
    byFile: ReadonlyMap<string, Finding[]>,
    modelMs: number,
    rulesMs: number,
  ): void {
    const description = `${describeVersions(project)}; ${describeFiles(project)}`;
    const changed = this.described.get(project.root) !== description;
    if (changed) {
      this.described.set(project.root, description);
      this.connection.console.info(`Project ${project.root}: ${description}`);
    }
    if (!changed && modelMs + rulesMs < SLOW_RUN_MS) return;
    let findings = 0;
    for (const list of byFile.values()) findings += list.length;
    const rules = result.rulesRun === 0 ? "every rule is turned off" : `slowest rules: ${slowestRules(result.timings)}`;
    this.connection.console.info(
      `Analysed ${project.root} in ${(modelMs + rulesMs).toFixed(0)} ms (model ${modelMs.toFixed(0)} ms, ${result.rulesRun} rules ${rulesMs.toFixed(0)} ms): ${findings} ${findings === 1 ? "finding" : "findings"}; ${rules}`,
    );
  }

  private publish(path: string, root: string | undefined, findings: Finding[], snapshot: Snapshot): void {
    const uri = this.host.uriOf(path);
    const version = snapshot.versions.get(path);
    const diagnostics = findings.map((f, index) =>
      toDiagnostic(f, { analysis: snapshot.id, index, rule: f.rule }, (file) => this.host.uriOf(file)),
    );
    const key = JSON.stringify(diagnostics.map(({ data: _, ...rest }) => rest));
    const previous = this.states.get(path);
    if (version === undefined && (previous ? previous.key === key : diagnostics.length === 0)) return;
    if (version === undefined && diagnostics.length === 0) this.states.delete(path);
    else this.states.set(path, { root, snapshot, version, findings, key });
    this.connection.sendDiagnostics({ uri, version, diagnostics });
  }

  /** Withdraws every diagnostic of a project (analysis turned off for it). */
  clearRoot(root: string): void {
    const off: Omit<StatusParams, "uri"> = { files: this.host.workspace.project(root).files.length, off: true };
    for (const doc of this.documents.all()) {
      const path = this.host.pathOf(doc.uri);
      if (path && this.host.workspace.projectRootOf(path) === root) {
        this.connection.sendNotification(STATUS_NOTIFICATION, { uri: doc.uri, ...off });
      }
    }
    for (const [path, state] of [...this.states]) {
      if (state.root !== root) continue;
      this.states.delete(path);
      this.connection.sendDiagnostics({ uri: this.host.uriOf(path), diagnostics: [] });
    }
  }

  /** A document was closed: what was published for it no longer matches an editor version. */
  detachVersion(path: string): void {
    const state = this.states.get(path);
    if (state) state.version = undefined;
  }

  /** Withdraws a file's diagnostics (it left the workspace). */
  clearFile(path: string): void {
    if (!this.states.delete(path)) return;
    this.connection.sendDiagnostics({ uri: this.host.uriOf(path), diagnostics: [] });
  }
}

export function errorText(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
