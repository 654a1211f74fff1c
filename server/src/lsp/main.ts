/**
 * The language server's entry point (bundled to dist/server.js). The transport comes from the command line:
 * `--stdio` for editors that spawn it, `--node-ipc` when VS Code starts it as a Node module.
 */
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { LintServer } from "./server";

new LintServer(createConnection(ProposedFeatures.all)).listen();
