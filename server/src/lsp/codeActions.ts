/**
 * Code actions, in the order people reach for them: each finding's fixes (the safe first one preferred), then
 * "disable for this line", "disable for this file", "show documentation"; and the fix-all source action that
 * applies the safe fixes of a file at once (editor.codeActionsOnSave).
 */
import {
  type CodeAction,
  CodeActionKind,
  type CodeActionParams,
  type Diagnostic,
  type TextDocumentEdit,
  type WorkspaceEdit,
} from "vscode-languageserver/node";
import { pushAll } from "../core/arrays";
import type { FileEdits, Finding, Fix } from "../core/findings";
import { comparePositions, EditSet, type TextEdit } from "../core/text";
import type { FileState } from "./analysis";
import { disableFileEdit, disableLineEdit } from "./comments";
import { isDiagnosticData } from "./diagnostics";
import { Commands, FIX_ALL_KIND, SERVER_SOURCE } from "./protocol";

export interface ActionContext {
  path: string;
  uri: string;
  /** The document's current text and version. */
  text: string;
  version: number;
  /** What was last published for the document. */
  state: FileState | undefined;
  uriOf(path: string): string;
  /** The current version of an open document, undefined when it is not open. */
  versionOf(path: string): number | undefined;
  /** The client applies `documentChanges` (versioned edits). */
  documentChanges: boolean;
}

/** Whether an action of `kind` was asked for (kinds are hierarchical: `source` covers `source.fixAll.x`). */
export function wanted(kind: string, only: string[] | undefined): boolean {
  return !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
}

/** The state's findings, when they were computed for the document's current version. */
function currentFindings(ctx: ActionContext): Finding[] | undefined {
  const s = ctx.state;
  return s && s.version === ctx.version ? s.findings : undefined;
}

/**
 * The finding a diagnostic was made from: found by its data when the client returns it, else by code and range
 * among the findings of the current version: for clients that drop `data`, and for a diagnostic of an earlier run
 * on the same text (a run for another file of the project can publish while the client asks).
 */
function findingOf(ctx: ActionContext, diagnostic: Diagnostic): Finding | undefined {
  const findings = currentFindings(ctx);
  if (!findings) return undefined;
  const data = diagnostic.data;
  if (isDiagnosticData(data) && data.analysis === ctx.state?.snapshot.id) {
    const finding = findings[data.index];
    return finding?.rule === data.rule ? finding : undefined;
  }
  if (data !== undefined && !isDiagnosticData(data)) return undefined;
  return findings.find(
    (f) =>
      f.rule === diagnostic.code &&
      comparePositions(f.range.start, diagnostic.range.start) === 0 &&
      comparePositions(f.range.end, diagnostic.range.end) === 0,
  );
}

/**
 * The edit of a fix, or undefined when a file it touches changed since the analysis (its ranges would be off).
 * Versioned edits make the editor refuse the edit if a document changes in between.
 */
function workspaceEdit(ctx: ActionContext, changes: FileEdits[]): WorkspaceEdit | undefined {
  const versions = ctx.state?.snapshot.versions;
  const out: TextDocumentEdit[] = [];
  for (const change of changes) {
    const analysed = versions?.get(change.file);
    const current = ctx.versionOf(change.file);
    if (analysed !== current) return undefined;
    out.push({ textDocument: { uri: ctx.uriOf(change.file), version: current ?? null }, edits: change.edits });
  }
  if (ctx.documentChanges) return { documentChanges: out };
  const map: Record<string, TextEdit[]> = {};
  for (const e of out) map[e.textDocument.uri] = [...(map[e.textDocument.uri] ?? []), ...(e.edits as TextEdit[])];
  return { changes: map };
}

function fixActions(ctx: ActionContext, diagnostics: Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const finding = findingOf(ctx, diagnostic);
    finding?.fixes.forEach((fix, i) => {
      const edit = workspaceEdit(ctx, fix.changes);
      if (!edit) return;
      out.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: i === 0 && fix.safety === "safe",
        edit,
      });
    });
  }
  return out;
}

function singleEdit(ctx: ActionContext, edit: TextEdit): WorkspaceEdit {
  if (ctx.documentChanges)
    return { documentChanges: [{ textDocument: { uri: ctx.uri, version: ctx.version }, edits: [edit] }] };
  return { changes: { [ctx.uri]: [edit] } };
}

function suppressionActions(ctx: ActionContext, diagnostics: Diagnostic[]): CodeAction[] {
  const lines: CodeAction[] = [];
  const files: CodeAction[] = [];
  const docs: CodeAction[] = [];
  const seen = new Set<string>();
  for (const diagnostic of diagnostics) {
    const code = String(diagnostic.code);
    const line = diagnostic.range.start.line;
    if (!seen.has(`${code}@${line}`)) {
      seen.add(`${code}@${line}`);
      lines.push({
        title: `Disable ${code} for this line`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        edit: singleEdit(ctx, disableLineEdit(ctx.path, ctx.text, line, code)),
      });
    }
    if (seen.has(code)) continue;
    seen.add(code);
    files.push({
      title: `Disable ${code} for this file`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      edit: singleEdit(ctx, disableFileEdit(ctx.path, ctx.text, code)),
    });
    docs.push({
      title: `Show documentation for ${code}`,
      kind: CodeActionKind.QuickFix,
      command: { title: `Show documentation for ${code}`, command: Commands.showRuleDocs, arguments: [code] },
    });
  }
  return [...lines, ...files, ...docs];
}

/** The first safe fix of every finding that edits only this file and does not overlap a fix taken before. */
export function safeFixEdits(path: string, findings: readonly Finding[]): TextEdit[] {
  const taken = new EditSet();
  for (const finding of findings) {
    const fix: Fix | undefined = finding.fixes.find((f) => f.safety === "safe");
    if (!fix || fix.changes.some((c) => c.file !== path)) continue;
    const edits = fix.changes.flatMap((c) => c.edits);
    if (edits.some((e) => taken.collides(e))) continue;
    for (const e of edits) taken.add(e);
  }
  return [...taken.all];
}

export function fixAllAction(ctx: ActionContext): CodeAction | undefined {
  const findings = currentFindings(ctx);
  if (!findings) return undefined;
  const edits = safeFixEdits(ctx.path, findings);
  if (edits.length === 0) return undefined;
  const edit: WorkspaceEdit = ctx.documentChanges
    ? { documentChanges: [{ textDocument: { uri: ctx.uri, version: ctx.version }, edits }] }
    : { changes: { [ctx.uri]: edits } };
  return { title: "Fix all safe Beam & Flink Lint problems", kind: FIX_ALL_KIND, edit };
}

export function codeActions(params: CodeActionParams, ctx: ActionContext): CodeAction[] {
  const only = params.context.only;
  const out: CodeAction[] = [];
  if (wanted(CodeActionKind.QuickFix, only)) {
    const ours = params.context.diagnostics.filter((d) => d.source === SERVER_SOURCE && typeof d.code === "string");
    pushAll(out, fixActions(ctx, ours));
    pushAll(out, suppressionActions(ctx, ours));
  }
  if (only && wanted(FIX_ALL_KIND, only)) {
    const all = fixAllAction(ctx);
    if (all) out.push(all);
  }
  return out;
}
