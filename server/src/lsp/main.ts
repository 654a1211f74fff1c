/**
 * The language server's entry point (bundled to dist/server.js). The transport comes from the command line:
 * `--stdio` for editors that spawn it, `--node-ipc` when VS Code starts it as a Node module.
 */
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { prepareParsers } from "../node/parsers";
import { LintServer } from "./server";

const server = new LintServer(createConnection(ProposedFeatures.all));
// The Scala, Kotlin and Python parsers start asynchronously (about 20 ms); messages wait in the transport meanwhile.
prepareParsers().then(() => server.listen());
