/**
 * What the VS Code client and the language server agree on: setting names and shapes, command ids, and the
 * custom status notification. Plain data only, so the client bundle does not pull in server code.
 */

/** The configuration section every setting lives under (`beamFlinkLint.enable`, …). */
export const SETTINGS_SECTION = "beamFlinkLint";

export type RunMode = "onType" | "onSave";

/** vscode-eslint's `rules.customizations` shape; `rule` is a code, a name or a glob (`BFL1*`). */
export interface RuleCustomization {
  rule: string;
  severity: string;
}

/** The settings of one resource (folder or file), as the editor sends them. */
export interface Settings {
  enable: boolean;
  run: RunMode;
  rules: { customizations: RuleCustomization[] };
  /** The Flink version to assume when the project does not say, e.g. "1.19"; empty = none. */
  flinkVersion: string;
  debounceMs: number;
  maxFileSizeMB: number;
  /** Analyse every project of the folder in the background once it is read, so files not opened show findings. */
  analyzeWorkspaceOnOpen: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  enable: true,
  run: "onType",
  rules: { customizations: [] },
  flinkVersion: "",
  debounceMs: 200,
  maxFileSizeMB: 5,
  analyzeWorkspaceOnOpen: true,
};

export const Commands = {
  /** Client: opens a rule's documentation page; argument: the rule code. */
  showRuleDocs: "beamFlinkLint.showRuleDocs",
  /** Client: analyses every project of the workspace (forwards to `serverLintWorkspace`). */
  lintWorkspace: "beamFlinkLint.lintWorkspace",
  restartServer: "beamFlinkLint.restartServer",
  showOutput: "beamFlinkLint.showOutput",
  /** Server (workspace/executeCommand): analyses everything and publishes, with work-done progress. */
  serverLintWorkspace: "beamFlinkLint.server.lintWorkspace",
} as const;

/** The code action kind of "fix all safe problems" (for `editor.codeActionsOnSave`). */
export const FIX_ALL_KIND = "source.fixAll.beamFlinkLint";

/** Sent after each analysis for every open document of the analysed project. */
export const STATUS_NOTIFICATION = "beamFlinkLint/status";

export interface StatusParams {
  uri: string;
  /** The project's Flink version (`major.minor`), when known. */
  flinkVersion?: string;
  /** Where the version came from, in words, e.g. "image flink:1.19.1 in k8s/deployment.yaml". */
  versionSource?: string;
  /** How many files the project has. */
  files: number;
  /** Findings shown in the project, by severity (after settings and the baseline). */
  counts?: { error: number; warning: number; info: number; hint: number };
  /** True when the settings turn the analysis off for this project, or every rule off. */
  off?: boolean;
}

export const SERVER_SOURCE = "beam-flink-lint";
