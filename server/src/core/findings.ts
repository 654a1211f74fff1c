import type { Range, TextEdit } from "./text";

export type Severity = "error" | "warning" | "info" | "hint";

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** A place in some file of the project, e.g. the other side of a cross-file finding. */
export interface Location {
  file: string;
  range: Range;
}

export interface RelatedLocation extends Location {
  message: string;
}

/** Edits of one fix, grouped per file: a fix may touch several files (a version defined elsewhere). */
export interface FileEdits {
  file: string;
  edits: TextEdit[];
}

/**
 * A fix is safe when applying it cannot change what the job does other than removing the problem
 * (renaming a deprecated key, making a unit explicit with the same meaning). Everything else is unsafe
 * and is only applied when a person asks for it.
 */
export type FixSafety = "safe" | "unsafe";

export interface Fix {
  title: string;
  safety: FixSafety;
  changes: FileEdits[];
}

import type { ConfigVersion } from "./project/versions";

export type FindingTag = "deprecated" | "unnecessary";

export interface Finding {
  /** Rule code, e.g. BFL101. */
  rule: string;
  /** Rule name, e.g. checkpointing-disabled. */
  name: string;
  severity: Severity;
  /** One sentence: what happens at run time. */
  message: string;
  /** Why, versions, sources, how to fix: front ends show it under the message (LSP: the first related information). */
  details?: string;
  /**
   * The cluster's Flink version a build finding was judged against (BFL303, BFL307) and its evidence; findings in
   * a Flink configuration take their configuration's version instead (project/versionReport.ts).
   */
  versionEvidence?: ConfigVersion;
  /** Absolute path with `/` separators. */
  file: string;
  range: Range;
  related: RelatedLocation[];
  tags: FindingTag[];
  fixes: Fix[];
}

export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  const s = a.range.start;
  const t = b.range.start;
  if (s.line !== t.line) return s.line - t.line;
  if (s.character !== t.character) return s.character - t.character;
  if (a.rule !== b.rule) return a.rule < b.rule ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
