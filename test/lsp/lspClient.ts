/**
 * A minimal LSP client for tests: spawns dist/server.js over stdio, answers the server's requests
 * (workspace/configuration from `settings`, capability registration, progress creation), records published
 * diagnostics and notifications, and waits for them with timeouts. The server is killed when the test ends.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { pathToFileURL } from "node:url";
import {
  type ClientCapabilities,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type TextDocumentContentChangeEvent,
  WorkDoneProgress,
  type WorkDoneProgressBegin,
  WorkDoneProgressCreateRequest,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from "vscode-languageserver-protocol/node";
import { distPath, repoPath } from "../harness/fixtures";

export const WAIT_MS = 10_000;

/** Fails after WAIT_MS instead of waiting for ever on a server that does not answer. */
export function timed<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const CAPABILITIES: ClientCapabilities = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    workspaceEdit: { documentChanges: true },
  },
  window: { workDoneProgress: true },
  textDocument: {
    publishDiagnostics: {
      relatedInformation: true,
      versionSupport: true,
      codeDescriptionSupport: true,
      dataSupport: true,
    },
  },
};

export interface StartOptions {
  /** A fixture project under test/fixtures/lsp/, copied to a temporary folder that becomes the workspace folder. */
  fixture?: string;
  initializationOptions?: Record<string, unknown>;
  /** What workspace/configuration answers for the `beamFlinkLint` section; undefined = no configuration support. */
  settings?: Record<string, unknown>;
  /** Changes the copied workspace folder before the server starts (FIFOs, links). */
  prepare?: (folder: string) => void;
  /** Node options for the server process, e.g. a heap limit. */
  execArgv?: string[];
}

type Waiter = { test: () => boolean; resolve: () => void };

export class TestClient {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  readonly notifications: { method: string; params: unknown }[] = [];
  /** Work-done progress values the server reported, in order. */
  readonly progress: (WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd)[] = [];
  /** Every scopeUri the server asked settings for. */
  readonly configurationScopes: string[] = [];
  settings: Record<string, unknown> | undefined;
  private waiters: Waiter[] = [];

  constructor(
    readonly conn: ProtocolConnection,
    readonly proc: ChildProcess,
    readonly folder: string | undefined,
  ) {}

  uri(relative: string): string {
    if (!this.folder) throw new Error("no workspace folder");
    return pathToFileURL(join(this.folder, relative)).href;
  }

  path(relative: string): string {
    if (!this.folder) throw new Error("no workspace folder");
    return join(this.folder, relative);
  }

  /** Called by the connection for every message that may satisfy a waiter. */
  poke(): void {
    const left: Waiter[] = [];
    for (const w of this.waiters) w.test() ? w.resolve() : left.push(w);
    this.waiters = left;
  }

  /** Resolves when `test` holds, now or after a later notification; fails after WAIT_MS with `what`. */
  until(what: string | (() => string), test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`));
      }, WAIT_MS);
      const waiter: Waiter = {
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** The next diagnostics published for `uri` that satisfy `test` (checked on every publication from now on). */
  nextDiagnostics(
    uri: string,
    test: (p: PublishDiagnosticsParams) => boolean = () => true,
  ): Promise<PublishDiagnosticsParams> {
    let found: PublishDiagnosticsParams | undefined;
    const seen = this.published.length;
    return this.until(
      () => `diagnostics for ${uri}; last: ${JSON.stringify(this.diagnostics.get(uri))}`,
      () => {
        found = this.published.slice(seen).find((p) => p.uri === uri && test(p));
        return found !== undefined;
      },
    ).then(() => found as PublishDiagnosticsParams);
  }

  readonly published: PublishDiagnosticsParams[] = [];

  async open(relative: string, text: string, languageId = "yaml", version = 1): Promise<string> {
    const uri = this.uri(relative);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version, text },
    });
    return uri;
  }

  async change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
  }

  /** The answer to a request sent with `conn`, within WAIT_MS. */
  answer<T>(request: Promise<T>): Promise<T> {
    return timed("the answer to a request", request);
  }

  async shutdown(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.proc.on("exit", (code) => resolve(code)));
    await this.answer(this.conn.sendRequest(ShutdownRequest.type));
    await this.conn.sendNotification(ExitNotification.type);
    return timed("the server to exit", exited);
  }
}

/** Copies a fixture project to a fresh temporary folder (real path, so URIs match what the server sees). */
export function copyFixture(t: TestContext, name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bfl-lsp-")));
  cpSync(repoPath("test", "fixtures", "lsp", name), dir, { recursive: true });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function startServer(t: TestContext, options: StartOptions = {}): Promise<TestClient> {
  const folder = options.fixture ? copyFixture(t, options.fixture) : undefined;
  if (folder) options.prepare?.(folder);
  const args = [...(options.execArgv ?? []), distPath("server.js"), "--stdio"];
  const proc = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  // Every wait has its own timer, so the server's handles need not keep the test process alive: a server left
  // behind by a failed test can never hold up the run.
  proc.unref();
  for (const pipe of [proc.stdin, proc.stdout]) (pipe as Socket).unref();
  const reader = new StreamMessageReader(proc.stdout);
  // A server killed while writing leaves half a message behind; the reader's partial-message timer would then
  // re-arm itself for ever (disposing the connection does not stop it) and keep the test process alive.
  reader.partialMessageTimeout = 0;
  const conn = createProtocolConnection(reader, new StreamMessageWriter(proc.stdin));
  const client = new TestClient(conn, proc, folder);
  client.settings = options.settings;
  t.after(() => {
    conn.dispose();
    if (proc.exitCode === null) proc.kill();
  });
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    client.diagnostics.set(p.uri, p);
    client.published.push(p);
    client.poke();
  });
  conn.onUnhandledNotification((n) => {
    client.notifications.push({ method: n.method, params: n.params });
    client.poke();
  });
  conn.onRequest(ConfigurationRequest.type, (p) =>
    p.items.map((item) => {
      if (item.scopeUri) client.configurationScopes.push(item.scopeUri);
      return item.section === "beamFlinkLint" ? (client.settings ?? null) : null;
    }),
  );
  conn.onRequest(RegistrationRequest.type, () => undefined);
  conn.onRequest(WorkDoneProgressCreateRequest.type, (p) => {
    conn.onProgress(WorkDoneProgress.type, p.token, (value) => {
      client.progress.push(value);
      client.poke();
    });
  });
  conn.listen();
  const capabilities: ClientCapabilities = options.settings
    ? CAPABILITIES
    : { ...CAPABILITIES, workspace: { ...CAPABILITIES.workspace, configuration: false } };
  await client.answer(
    conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities,
      initializationOptions: options.initializationOptions,
      workspaceFolders: folder ? [{ uri: pathToFileURL(folder).href, name: "fixture" }] : null,
    }),
  );
  await conn.sendNotification(InitializedNotification.type, {});
  return client;
}

/** Waits until the server reports that it finished reading the workspace folders from disk. */
export function workspaceLoaded(client: TestClient): Promise<void> {
  return client.until("the end of the workspace load", () => client.progress.some((p) => p.kind === "end"));
}
