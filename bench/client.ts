/**
 * The benchmark's language client: starts a server over stdio, answers what servers ask of an editor
 * (configuration, registrations, progress), and timestamps every publishDiagnostics on arrival so that an edit's
 * latency is the time from sending didChange to receiving the diagnostics of that version.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  type ClientCapabilities,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
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
  WorkDoneProgressCreateRequest,
} from "vscode-languageserver-protocol/node";

export const CAPABILITIES: ClientCapabilities = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: true },
  },
  window: { workDoneProgress: true },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: true },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, dataSupport: true },
  },
};

export interface Publication {
  at: number;
  params: PublishDiagnosticsParams;
}

export interface ServerSpec {
  /** Shown in errors. */
  name: string;
  /** Arguments to `node` (the script first). */
  args: string[];
  /** What workspace/configuration answers, per section. */
  settings: Record<string, unknown>;
  initializationOptions?: unknown;
  env?: NodeJS.ProcessEnv;
}

const WAIT_MS = 120_000;
const COMMAND_WAIT_MS = 600_000;

export class BenchClient {
  readonly publications: Publication[] = [];
  private waiters: (() => void)[] = [];
  private progressEnded = 0;

  private constructor(
    readonly spec: ServerSpec,
    readonly proc: ChildProcess,
    readonly conn: ProtocolConnection,
  ) {}

  static start(spec: ServerSpec): BenchClient {
    // BFL_BENCH_CPU_PROF=<folder>: every server started writes a CPU profile there when it exits.
    const profile = process.env.BFL_BENCH_CPU_PROF;
    const flags = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
    const proc = spawn(process.execPath, [...flags, ...spec.args, "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: spec.env ?? process.env,
    });
    proc.stderr?.on("data", () => undefined);
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    const client = new BenchClient(spec, proc, conn);
    conn.onNotification(PublishDiagnosticsNotification.type, (params) => {
      client.publications.push({ at: performance.now(), params });
      client.poke();
    });
    conn.onUnhandledNotification(() => undefined);
    conn.onRequest(ConfigurationRequest.type, (p) =>
      p.items.map((item) => (item.section !== undefined ? (spec.settings[item.section] ?? null) : null)),
    );
    conn.onRequest(RegistrationRequest.type, () => undefined);
    conn.onRequest("client/registerCapability", () => undefined);
    conn.onRequest(WorkDoneProgressCreateRequest.type, (p) => {
      conn.onProgress(WorkDoneProgress.type, p.token, (value) => {
        if (value.kind === "end") {
          client.progressEnded++;
          client.poke();
        }
      });
    });
    conn.listen();
    return client;
  }

  /** Each folder is a workspace folder, so that every input is a project of its own. */
  async initialize(folders: string[]): Promise<void> {
    const uris = folders.map((f) => pathToFileURL(f).href);
    await this.timed(
      "initialize",
      this.conn.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: uris[0] ?? null,
        capabilities: CAPABILITIES,
        initializationOptions: this.spec.initializationOptions,
        workspaceFolders: uris.map((uri, i) => ({ uri, name: `folder${i}` })),
      }),
    );
    await this.conn.sendNotification(InitializedNotification.type, {});
    await this.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: this.spec.settings });
  }

  private poke(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves when `test` holds (checked now and after every message that may change it). */
  until<T>(what: string, test: () => T | undefined): Promise<T> {
    return this.timed(
      what,
      new Promise<T>((resolve) => {
        const check = () => {
          const v = test();
          if (v !== undefined) resolve(v);
          else this.waiters.push(check);
        };
        check();
      }),
    );
  }

  private timed<T>(what: string, p: Promise<T>, ms = WAIT_MS): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.spec.name}: timed out waiting for ${what}`)), ms);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  }

  /** Waits for `count` work-done progress ends (the workspace load). */
  progressEnds(count: number): Promise<number> {
    return this.until("the workspace load", () => (this.progressEnded >= count ? this.progressEnded : undefined));
  }

  /**
   * The first publication for `uri` after index `from` (of `publications`); with `version`, the first one that
   * carries that version (servers that do not send versions publish once per analysed change).
   */
  published(uri: string, from: number, version?: number): Promise<Publication> {
    return this.until(`diagnostics for ${uri}${version === undefined ? "" : ` v${version}`}`, () => {
      for (let i = from; i < this.publications.length; i++) {
        const p = this.publications[i];
        if (p.params.uri !== uri) continue;
        if (version === undefined || p.params.version === undefined || p.params.version === version) return p;
      }
      return undefined;
    });
  }

  open(uri: string, languageId: string, text: string, version = 1): Promise<void> {
    return this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version, text },
    });
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    return this.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
  }

  close(uri: string): Promise<void> {
    return this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Runs a server command; analysing a large workspace on a loaded machine takes minutes. */
  command(command: string): Promise<unknown> {
    return this.timed(
      command,
      this.conn.sendRequest(ExecuteCommandRequest.type, { command, arguments: [] }),
      COMMAND_WAIT_MS,
    );
  }

  /** Resident memory of the server process now and at its peak, in MB (Linux /proc). */
  memory(): { rssMB: number; peakMB: number } {
    const status = readFileSync(`/proc/${this.proc.pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
    return { rssMB: kb("VmRSS") / 1024, peakMB: kb("VmHWM") / 1024 };
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (this.proc.exitCode !== null) resolve();
      else this.proc.on("exit", () => resolve());
    });
    try {
      await this.timed("shutdown", this.conn.sendRequest(ShutdownRequest.type));
      await this.conn.sendNotification(ExitNotification.type);
      await this.timed("exit", exited);
    } finally {
      this.conn.dispose();
      if (this.proc.exitCode === null) this.proc.kill();
    }
  }
}
