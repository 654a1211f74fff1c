/**
 * Settings arrive per resource through workspace/configuration. They are read again for every analysis and
 * never kept between requests, so a folder's settings apply to that folder only and edits apply at once.
 */
import type { EngineOptions, SeverityOverride } from "../core/config";
import { DEFAULT_SETTINGS, type RuleCustomization, type Settings } from "./protocol";

type SettingsSource = Partial<Record<keyof Settings, unknown>>;

const SEVERITY_ALIASES: Record<string, SeverityOverride["severity"]> = {
  error: "error",
  warning: "warning",
  warn: "warning",
  info: "info",
  information: "info",
  hint: "hint",
  off: "off",
  downgrade: "downgrade",
  upgrade: "upgrade",
  default: "default",
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function nonNegative(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function customizations(v: unknown): RuleCustomization[] | undefined {
  if (!isRecord(v) || !Array.isArray(v.customizations)) return undefined;
  return v.customizations.filter(
    (c): c is RuleCustomization => isRecord(c) && typeof c.rule === "string" && typeof c.severity === "string",
  );
}

/**
 * Merges what the editor sent over the initialization options over the defaults, one setting at a time, and
 * ignores values of the wrong type (a hand-edited settings.json must not stop the server).
 */
export function resolveSettings(fromEditor: unknown, fromInit: unknown): Settings {
  const layers = [fromEditor, fromInit].filter(isRecord) as SettingsSource[];
  const pick = <T>(read: (s: SettingsSource) => T | undefined, fallback: T): T => {
    for (const layer of layers) {
      const v = read(layer);
      if (v !== undefined) return v;
    }
    return fallback;
  };
  return {
    enable: pick((s) => (typeof s.enable === "boolean" ? s.enable : undefined), DEFAULT_SETTINGS.enable),
    run: pick((s) => (s.run === "onType" || s.run === "onSave" ? s.run : undefined), DEFAULT_SETTINGS.run),
    rules: { customizations: pick((s) => customizations(s.rules), DEFAULT_SETTINGS.rules.customizations) },
    flinkVersion: pick(
      (s) => (typeof s.flinkVersion === "string" ? s.flinkVersion.trim() : undefined),
      DEFAULT_SETTINGS.flinkVersion,
    ),
    debounceMs: pick((s) => nonNegative(s.debounceMs), DEFAULT_SETTINGS.debounceMs),
    maxFileSizeMB: pick((s) => nonNegative(s.maxFileSizeMB), DEFAULT_SETTINGS.maxFileSizeMB),
    analyzeWorkspaceOnOpen: pick(
      (s) => (typeof s.analyzeWorkspaceOnOpen === "boolean" ? s.analyzeWorkspaceOnOpen : undefined),
      DEFAULT_SETTINGS.analyzeWorkspaceOnOpen,
    ),
  };
}

export function engineOptions(settings: Settings): EngineOptions {
  const severityOverrides: SeverityOverride[] = [];
  for (const c of settings.rules.customizations) {
    const severity = SEVERITY_ALIASES[c.severity.toLowerCase()];
    if (severity) severityOverrides.push({ rule: c.rule, severity });
  }
  return {
    assumedFlinkVersion: settings.flinkVersion || undefined,
    severityOverrides,
  };
}

/** 0 turns the limit off. */
export function maxFileBytes(settings: Settings): number {
  return settings.maxFileSizeMB > 0 ? settings.maxFileSizeMB * 1024 * 1024 : Number.POSITIVE_INFINITY;
}
