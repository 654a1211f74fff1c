/**
 * The language server: wires the protocol to the workspace host, the analyzer and the feature providers.
 * Every handler is guarded, so a failure answers that one request and the server goes on.
 */
import {
  type ClientCapabilities,
  type CodeAction,
  CodeActionKind,
  type CodeActionParams,
  type Connection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type FileEvent,
  type InitializeParams,
  type InitializeResult,
  TextDocumentSyncKind,
  TextDocuments,
  type WorkDoneProgressReporter,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { Analyzer, errorText } from "./analysis";
import { Baselines, isBaselineFile } from "./baseline";
import { type ActionContext, codeActions, wanted } from "./codeActions";
import { completionAt, resolveCompletion } from "./completion";
import { hoverAt } from "./hover";
import { Commands, FIX_ALL_KIND, SETTINGS_SECTION, type Settings } from "./protocol";
import { engineOptions, maxFileBytes, resolveSettings } from "./settings";
import { pathToUri, uriToPath } from "./uris";
import { exceedsBytes, WorkspaceHost } from "./workspaceHost";

/**
 * Files the server reads; watched so that edits outside the editor (git checkout, generators) are seen. Every
 * name `isCandidateFile` accepts matches one of them (shell scripts and launch configurations pass Beam flags).
 */
export const WATCHED_GLOBS = [
  "**/*.{yaml,yml,properties,gradle,kts,sbt,toml,xml,java,scala,sc,kt,py,sh,sql}",
  "**/{Dockerfile,Dockerfile.*,*.dockerfile}",
  "**/{Makefile,makefile,GNUmakefile,*.mk}",
  "**/.vscode/launch.json",
  "**/*.cfg",
  "**/{requirements,constraints}*.txt",
  "**/requirements/*.txt",
  "**/.beam-flink-lint-baseline.json",
];

export class LintServer {
  private readonly documents = new TextDocuments(TextDocument);
  private readonly host = new WorkspaceHost();
  private readonly analyzer: Analyzer;
  private capabilities: ClientCapabilities = {};
  private initOptions: unknown;
  /** Documents whose didOpen was handled; their first content event is the open itself. */
  private readonly justOpened = new Set<string>();

  constructor(private readonly connection: Connection) {
    this.analyzer = new Analyzer(connection, this.documents, this.host, (uri) => this.settingsFor(uri));
    const baselines = new Baselines((message) => connection.console.info(message));
    this.analyzer.filterFindings = (root, byFile) => {
      const shown = baselines.filter(this.host.folderOf(`${root}/`), byFile, (f) => this.host.workspace.text(f));
      if (shown !== byFile) this.baselinedRoots.add(root);
      return shown;
    };
  }

  /** Projects whose findings a baseline hid: they run again when a baseline changes. */
  private readonly baselinedRoots = new Set<string>();

  listen(): void {
    const c = this.connection;
    c.onInitialize((p) => this.initialize(p));
    c.onInitialized(() => this.guard("initialized", () => this.initialized()));
    c.onDidChangeConfiguration(() => this.guard("configuration", () => this.reanalyzePublished()));
    c.onDidChangeWatchedFiles((p) => this.guard("watched files", () => this.filesChanged(p.changes)));
    c.onCodeAction((p) => this.request("codeAction", () => this.codeAction(p), []));
    c.onHover((p) =>
      this.request(
        "hover",
        async () => {
          const target = await this.target(p.textDocument.uri);
          return target && hoverAt(target.facts, p.position, target.project());
        },
        null,
      ),
    );
    c.onCompletion((p) =>
      this.request(
        "completion",
        async () => {
          const target = await this.target(p.textDocument.uri);
          return target && completionAt(target.facts, p.position, target.project()?.flinkVersion?.minor);
        },
        null,
      ),
    );
    c.onCompletionResolve((item) => this.request("completionItem/resolve", async () => resolveCompletion(item), item));
    c.onExecuteCommand((p) =>
      this.request(
        "executeCommand",
        async () => {
          if (p.command === Commands.serverLintWorkspace) await this.lintWorkspace(p.workDoneToken);
          return null;
        },
        null,
      ),
    );
    const d = this.documents;
    d.onDidOpen((e) =>
      this.guard("open", () => {
        const path = uriToPath(e.document.uri);
        if (!path) return;
        this.justOpened.add(e.document.uri);
        const roots = this.host.openDocument(e.document.uri, path, e.document.getText());
        this.analyzer.schedule(roots.length > 0 ? roots : [this.host.workspace.projectRootOf(path)], {
          reason: "open",
          uri: e.document.uri,
        });
      }),
    );
    d.onDidChangeContent((e) =>
      this.guard("change", () => {
        if (this.justOpened.delete(e.document.uri)) return;
        const path = uriToPath(e.document.uri);
        if (!path) return;
        const roots = this.host.change(path, e.document.getText());
        this.analyzer.schedule(roots.length > 0 ? roots : [this.host.workspace.projectRootOf(path)], {
          reason: "change",
          uri: e.document.uri,
        });
      }),
    );
    d.onDidSave((e) =>
      this.guard("save", () => {
        const path = uriToPath(e.document.uri);
        if (path)
          this.analyzer.schedule([this.host.workspace.projectRootOf(path)], { reason: "save", uri: e.document.uri });
      }),
    );
    d.onDidClose((e) =>
      this.guard("close", async () => {
        const path = uriToPath(e.document.uri);
        if (!path) return;
        this.justOpened.delete(e.document.uri);
        const wasTooLarge = this.host.isTooLarge(path);
        const roots = await this.host.closeDocument(path);
        if (wasTooLarge || !this.host.workspace.has(path)) this.analyzer.clearFile(path);
        else this.analyzer.detachVersion(path);
        this.analyzer.schedule(roots, { reason: "files" });
      }),
    );
    d.listen(this.connection);
    this.connection.listen();
  }

  private initialize(params: InitializeParams): InitializeResult {
    this.capabilities = params.capabilities;
    this.initOptions = params.initializationOptions;
    const folders = (params.workspaceFolders ?? [])
      .map((f) => uriToPath(f.uri))
      .filter((p): p is string => p !== undefined);
    if (folders.length === 0 && params.rootUri) {
      const root = uriToPath(params.rootUri);
      if (root) folders.push(root);
    }
    this.host.setFolders(folders);
    return {
      capabilities: {
        textDocumentSync: {
          openClose: true,
          change: TextDocumentSyncKind.Incremental,
          save: { includeText: false },
        },
        codeActionProvider: {
          codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND],
          resolveProvider: false,
        },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ["."], resolveProvider: true },
        executeCommandProvider: { commands: [Commands.serverLintWorkspace] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: "beam-flink-lint" },
    };
  }

  private watchWorkspaceFolders(): void {
    this.connection.workspace.onDidChangeWorkspaceFolders((e) =>
      this.guard("workspace folders", async () => {
        const removed = new Set(e.removed.map((f) => uriToPath(f.uri)));
        const folders = this.host.folderPaths().filter((f) => !removed.has(f));
        const added = e.added.map((f) => uriToPath(f.uri)).filter((p): p is string => p !== undefined);
        for (const path of added) if (!folders.includes(path)) folders.push(path);
        const { dropped } = this.host.setFolders(folders);
        for (const path of dropped) this.analyzer.clearFile(path);
        await this.loadFolders(added);
      }),
    );
  }

  private async initialized(): Promise<void> {
    const dynamic = this.capabilities.workspace;
    // The connection only accepts this handler once the client said it sends folder changes.
    if (dynamic?.workspaceFolders) this.watchWorkspaceFolders();
    // A client that refuses a registration (eglot 1.9 cannot watch brace globs) still gets the workspace read.
    if (dynamic?.didChangeConfiguration?.dynamicRegistration) {
      await this.register("settings changes", () =>
        this.connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION }),
      );
    }
    if (dynamic?.didChangeWatchedFiles?.dynamicRegistration) {
      await this.register("file watching", () =>
        this.connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })),
        }),
      );
    }
    const folders = this.host.folderPaths();
    this.connection.console.info(
      `Beam & Flink Lint server started (Node ${process.version}); workspace folders: ${folders.join(", ") || "none"}`,
    );
    await this.loadFolders(folders);
  }

  private async register(what: string, register: () => Promise<unknown>): Promise<void> {
    try {
      await register();
    } catch (e) {
      this.connection.console.warn(`The editor refused ${what} (${errorText(e)}); going on without it.`);
    }
  }

  /** Reads the folders from disk with progress, then re-analyses the projects that have open documents. */
  private async loadFolders(folders: string[]): Promise<void> {
    if (folders.length === 0) return;
    const progress = await this.connection.window.createWorkDoneProgress();
    progress.begin("Beam & Flink Lint", 0, "Reading workspace files", false);
    try {
      for (const folder of folders) {
        const settings = await this.settingsFor(pathToUri(folder));
        const { notes } = await this.host.loadFolder(folder, maxFileBytes(settings), {
          report: (done, total) =>
            progress.report(Math.round((done / Math.max(total, 1)) * 100), `${done}/${total} files`),
        });
        for (const note of notes) this.connection.console.info(`${note.path}: ${note.message}`);
        const roots = this.host.workspace.projectRoots().filter((r) => this.host.folderOf(`${r}/`) === folder);
        const files = this.host.workspace.allFiles().filter((f) => this.host.folderOf(f) === folder).length;
        this.connection.console.info(
          `Read ${folder}: ${files} ${files === 1 ? "file" : "files"}, ${roots.length} ${roots.length === 1 ? "project" : "projects"} (${roots.join(", ") || "none"}).`,
        );
      }
    } finally {
      progress.done();
    }
    this.reanalyzeOpen();
    await this.analyzeInBackground(folders);
  }

  /**
   * Analysis on open: every project of the folders that were just read (and whose settings keep
   * `analyzeWorkspaceOnOpen` on) is analysed and published, one project at a time with work-done progress,
   * yielding to the event loop between projects so that edits and requests are answered in between. Projects with
   * an open document are left to the runs their documents scheduled.
   */
  private async analyzeInBackground(folders: string[]): Promise<void> {
    const openRoots = () => {
      const open = new Set<string>();
      for (const doc of this.documents.all()) {
        const path = uriToPath(doc.uri);
        if (path) open.add(this.host.workspace.projectRootOf(path));
      }
      return open;
    };
    const wanted = new Set(folders);
    const open = openRoots();
    const roots = this.host.workspace
      .projectRoots()
      .filter((root) => !open.has(root) && wanted.has(this.host.folderOf(`${root}/`) ?? ""));
    if (roots.length === 0) return;
    const started = performance.now();
    let progress: WorkDoneProgressReporter | undefined;
    let done = 0;
    let analysed = 0;
    try {
      for (const root of roots) {
        await new Promise((resolve) => setImmediate(resolve));
        const settings = await this.settingsFor(this.host.uriOf(root));
        done++;
        // A document opened meanwhile scheduled its own run, with its version and settings.
        if (!settings.analyzeWorkspaceOnOpen || !settings.enable || openRoots().has(root)) continue;
        if (!progress) {
          progress = await this.connection.window.createWorkDoneProgress();
          progress.begin("Beam & Flink Lint", 0, `Analysing ${roots.length} projects`, false);
        }
        this.analyzer.analyzeNow(root, settings);
        analysed++;
        progress.report(Math.round((done / roots.length) * 100), `${done}/${roots.length} projects`);
      }
    } finally {
      progress?.done();
    }
    if (analysed > 0) {
      this.connection.console.info(
        `Analysed ${analysed} of ${roots.length} projects in the background in ${(performance.now() - started).toFixed(0)} ms.`,
      );
    }
  }

  /** Files changed on disk (a checkout, a generator): read them again, then run each affected project once. */
  private async filesChanged(changes: FileEvent[]): Promise<void> {
    const limits = new Map<string, number>();
    const roots = new Set<string>();
    let baselineChanged = false;
    for (const change of changes) {
      const path = uriToPath(change.uri);
      if (!path) continue;
      if (isBaselineFile(path)) {
        baselineChanged = true;
        continue;
      }
      const folder = this.host.folderOf(path) ?? path;
      let limit = limits.get(folder);
      if (limit === undefined) {
        limit = maxFileBytes(await this.settingsFor(pathToUri(folder)));
        limits.set(folder, limit);
      }
      const deleted = change.type === FileChangeType.Deleted;
      const result = await this.host.diskChanged(path, deleted, limit);
      for (const root of result.roots) roots.add(root);
      if (deleted) this.analyzer.clearFile(path);
      else if (result.refused) {
        this.connection.console.warn(`${path}: ${result.refused}`);
        this.analyzer.publishNotRead(path, result.refused);
      }
    }
    this.analyzer.schedule(roots, { reason: "files" });
    // A new or edited baseline changes what every project of its folder shows.
    if (baselineChanged) this.reanalyzeOpen([...this.analyzer.publishedRoots(), ...this.baselinedRoots]);
  }

  /** Each project with an open document runs again (with that document's settings), and `alsoRoots`. */
  private reanalyzeOpen(alsoRoots: Iterable<string> = []): void {
    const byRoot = new Map<string, string | undefined>();
    for (const root of alsoRoots) byRoot.set(root, undefined);
    for (const doc of this.documents.all()) {
      const path = uriToPath(doc.uri);
      if (path) byRoot.set(this.host.workspace.projectRootOf(path), doc.uri);
    }
    for (const [root, uri] of byRoot) this.analyzer.schedule([root], { reason: uri ? "open" : "settings", uri });
  }

  /** Settings changed: every project that shows something, or has an open document, runs again. */
  private reanalyzePublished(): void {
    this.reanalyzeOpen(this.analyzer.publishedRoots());
  }

  private async lintWorkspace(token: string | number | undefined): Promise<void> {
    const progress: WorkDoneProgressReporter = token
      ? this.connection.window.attachWorkDoneProgress(token)
      : await this.connection.window.createWorkDoneProgress();
    const roots = this.host.workspace.projectRoots();
    progress.begin("Beam & Flink Lint", 0, `Analysing ${roots.length} projects`, false);
    try {
      let done = 0;
      for (const root of roots) {
        const settings = await this.settingsFor(this.host.uriOf(root));
        if (settings.enable) this.analyzer.analyzeNow(root, settings);
        else this.analyzer.clearRoot(root);
        done++;
        progress.report(Math.round((done / roots.length) * 100), `${done}/${roots.length} projects`);
      }
    } finally {
      progress.done();
    }
  }

  async settingsFor(scopeUri: string): Promise<Settings> {
    if (!this.capabilities.workspace?.configuration) return resolveSettings(undefined, this.initOptions);
    try {
      const fromEditor = await this.connection.workspace.getConfiguration({ scopeUri, section: SETTINGS_SECTION });
      return resolveSettings(fromEditor, this.initOptions);
    } catch (e) {
      this.connection.console.warn(`Could not read settings for ${scopeUri}: ${errorText(e)}`);
      return resolveSettings(undefined, this.initOptions);
    }
  }

  /** The open document's facts and (lazily) its project, for hover and completion. */
  private async target(uri: string) {
    const path = uriToPath(uri);
    const doc = this.documents.get(uri);
    // A document over the size limit is never parsed, not even for a hover.
    if (!path || !doc || this.host.isTooLarge(path) || exceedsBytes(doc.getText(), this.host.limitFor(path))) {
      return undefined;
    }
    const ws = this.host.workspace;
    const facts = ws.facts(path);
    if (!facts) return undefined;
    const settings = await this.settingsFor(uri);
    const root = ws.projectRootOf(path);
    return { facts, project: () => (ws.has(path) ? ws.project(root, engineOptions(settings)) : undefined) };
  }

  private async codeAction(params: CodeActionParams): Promise<CodeAction[]> {
    const uri = params.textDocument.uri;
    const path = uriToPath(uri);
    const doc = this.documents.get(uri);
    if (!path || !doc || this.host.isTooLarge(path) || exceedsBytes(doc.getText(), this.host.limitFor(path))) return [];
    const fixAll = params.context.only !== undefined && wanted(FIX_ALL_KIND, params.context.only);
    const state = this.analyzer.state(path);
    if (fixAll && state?.version !== doc.version && !this.host.isTooLarge(path)) {
      // Fix-on-save comes right after the last keystroke, before the debounced run: analyse now.
      const settings = await this.settingsFor(uri);
      if (settings.enable) this.analyzer.analyzeNow(this.host.workspace.projectRootOf(path), settings);
    }
    const ctx: ActionContext = {
      path,
      uri,
      text: doc.getText(),
      version: doc.version,
      state: this.analyzer.state(path),
      uriOf: (p) => this.host.uriOf(p),
      versionOf: (p) => this.documents.get(this.host.uriOf(p))?.version,
      documentChanges: this.capabilities.workspace?.workspaceEdit?.documentChanges === true,
    };
    return codeActions(params, ctx);
  }

  private guard(what: string, run: () => void | Promise<void>): void {
    try {
      const result = run();
      if (result) result.catch((e) => this.connection.console.error(`${what} failed: ${errorText(e)}`));
    } catch (e) {
      this.connection.console.error(`${what} failed: ${errorText(e)}`);
    }
  }

  private async request<T>(what: string, run: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await run();
    } catch (e) {
      this.connection.console.error(`${what} failed: ${errorText(e)}`);
      return fallback;
    }
  }
}
