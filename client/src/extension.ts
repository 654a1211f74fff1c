/**
 * The VS Code extension: starts the language server (dist/server.js) over Node IPC, shows the project's Flink
 * version in the status bar, and registers the commands. Everything else happens in the server.
 */
import { existsSync, readdirSync } from "node:fs";
import * as vscode from "vscode";
import {
  type DocumentSelector,
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { ruleDocsUrl } from "../../server/src/core/rules/docsUrl";
import { Commands, STATUS_NOTIFICATION, type StatusParams } from "../../server/src/lsp/protocol";

const NAME = "Beam & Flink Lint";

/** The files the server reads. Patterns as well as languages: build files have no built-in language in VS Code. */
const DOCUMENT_SELECTOR: DocumentSelector = [
  { scheme: "file", language: "flink-conf" },
  { scheme: "file", language: "yaml" },
  { scheme: "file", language: "java" },
  { scheme: "file", language: "scala" },
  { scheme: "file", language: "kotlin" },
  { scheme: "file", language: "python" },
  { scheme: "file", language: "dockerfile" },
  { scheme: "file", language: "sql" },
  {
    scheme: "file",
    pattern:
      "**/{*.yaml,*.yml,build.gradle,build.gradle.kts,settings.gradle,settings.gradle.kts,*.sbt,MODULE.bazel,WORKSPACE,WORKSPACE.bazel,*.bzl,gradle.properties,pom.xml,*.versions.toml,Dockerfile,Dockerfile.*,*.dockerfile,Containerfile,Containerfile.*,*.containerfile,*.sh,Makefile,makefile,*.mk,.vscode/launch.json,*.scala,*.sc,*.kt,*.py,*.sql}",
  },
];

/** The status bar item: what the server detected for the project of the active editor. */
class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  private readonly byUri = new Map<string, StatusParams>();

  constructor() {
    this.item.name = NAME;
    this.item.command = Commands.showOutput;
  }

  update(status: StatusParams): void {
    this.byUri.set(status.uri, status);
    this.refresh();
  }

  forget(uri: vscode.Uri): void {
    this.byUri.delete(uri.toString());
  }

  clear(): void {
    this.byUri.clear();
    this.refresh();
  }

  refresh(): void {
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    const status = uri ? this.byUri.get(uri) : undefined;
    if (!status) {
      this.item.hide();
      return;
    }
    const files = `${status.files} ${status.files === 1 ? "file" : "files"}`;
    if (status.off) {
      // Settings turned the analysis (or every rule) off: say so, never a check mark.
      this.item.text = `$(circle-slash) Beam & Flink Lint off · ${files}`;
      this.item.tooltip = `${NAME}: the settings turn the analysis off for this project (beamFlinkLint.enable, beamFlinkLint.rules.customizations)`;
      this.item.show();
      return;
    }
    const c = status.counts;
    const problems = c ? c.error + c.warning + c.info + c.hint : 0;
    const counts = c ? ` · $(error) ${c.error} $(warning) ${c.warning} $(info) ${c.info}` : "";
    if (status.flinkVersion) {
      this.item.text = `${problems > 0 ? "$(warning)" : "$(check)"} Flink ${status.flinkVersion}${counts} · ${files}`;
      this.item.tooltip = `${NAME}: ${status.versionSource ?? `Flink ${status.flinkVersion}`}`;
    } else {
      this.item.text = `$(question) Flink ?${counts} · ${files}`;
      this.item.tooltip = `${NAME}: no Flink version found in this project; set beamFlinkLint.flinkVersion or flinkVersion in .beam-flink-lint.yaml`;
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

let client: LanguageClient | undefined;

/** The codes of the rule pages shipped in docs/rules, for picking one from the command palette. */
function bundledRuleCodes(context: vscode.ExtensionContext): string[] {
  try {
    return readdirSync(context.asAbsolutePath("docs/rules"))
      .filter((f) => /^BFL\d+\.md$/.test(f))
      .map((f) => f.slice(0, -3))
      .sort();
  } catch {
    return [];
  }
}

/** Opens a rule's page in the Markdown preview (from the package), or on the web when it is not bundled. */
async function showRuleDocs(context: vscode.ExtensionContext, code: unknown): Promise<void> {
  const picked =
    typeof code === "string" ? code : await vscode.window.showQuickPick(bundledRuleCodes(context), { title: "Rule" });
  if (!picked || !/^[A-Za-z0-9-]+$/.test(picked)) return;
  const bundled = context.asAbsolutePath(`docs/rules/${picked}.md`);
  if (existsSync(bundled)) {
    await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(bundled));
  } else {
    await vscode.env.openExternal(vscode.Uri.parse(ruleDocsUrl(picked)));
  }
}

const TRACE_SETTING = "beamFlinkLint.trace.server";

function traceOn(): boolean {
  return vscode.workspace.getConfiguration().get<string>(TRACE_SETTING, "off") !== "off";
}

/**
 * The channel the language client traces to: the extension's own log channel, except that while
 * `beamFlinkLint.trace.server` is on it reports the trace log level and writes trace lines at info level. The
 * client traces only when its channel's level is Trace, which a log channel is not by default, so without this the
 * setting would show nothing until the user also raised the channel's level.
 */
function traceChannel(output: vscode.LogOutputChannel, subscriptions: vscode.Disposable[]): vscode.LogOutputChannel {
  const changed = new vscode.EventEmitter<vscode.LogLevel>();
  const level = () => (traceOn() ? vscode.LogLevel.Trace : output.logLevel);
  subscriptions.push(
    changed,
    output.onDidChangeLogLevel(() => changed.fire(level())),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(TRACE_SETTING)) changed.fire(level());
    }),
  );
  const trace = (message: string, ...args: unknown[]) =>
    traceOn() ? output.info(message, ...args) : output.trace(message, ...args);
  return new Proxy(output, {
    get(target, property) {
      if (property === "logLevel") return level();
      if (property === "onDidChangeLogLevel") return changed.event;
      if (property === "trace") return trace;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(NAME, { log: true });
  const serverModule = context.asAbsolutePath("dist/server.js");
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ["--nolazy", "--inspect=6019"] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    traceOutputChannel: traceChannel(output, context.subscriptions),
    diagnosticCollectionName: "beam-flink-lint",
  };
  const lsp = new LanguageClient("beamFlinkLint", NAME, serverOptions, clientOptions);
  client = lsp;
  const status = new StatusBar();

  context.subscriptions.push(
    output,
    status,
    vscode.window.onDidChangeActiveTextEditor(() => status.refresh()),
    vscode.workspace.onDidCloseTextDocument((doc) => status.forget(doc.uri)),
    lsp.onNotification(STATUS_NOTIFICATION, (p: StatusParams) => status.update(p)),
    vscode.commands.registerCommand(Commands.showOutput, () => output.show(true)),
    vscode.commands.registerCommand(Commands.restartServer, async () => {
      status.clear();
      await lsp.restart();
    }),
    vscode.commands.registerCommand(Commands.lintWorkspace, () =>
      lsp.sendRequest(ExecuteCommandRequest.type, { command: Commands.serverLintWorkspace, arguments: [] }),
    ),
    vscode.commands.registerCommand(Commands.showRuleDocs, (code: unknown) => showRuleDocs(context, code)),
  );
  await lsp.start();
}

export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}
