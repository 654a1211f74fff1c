/**
 * The terminal format: one line per finding, `path:line:col  severity  CODE  message`, grouped by file, then a
 * summary with counts and what --fix can do.
 */
import type { Finding, Severity } from "../../core/findings";
import { displayPath, fixSafetyOf, type LintReport } from "../report";

export interface TextStyle {
  color: boolean;
}

const COLORS: Record<Severity | "dim" | "bold", string> = {
  error: "\u001b[31m",
  warning: "\u001b[33m",
  info: "\u001b[36m",
  hint: "\u001b[2m",
  dim: "\u001b[2m",
  bold: "\u001b[1m",
};
const RESET = "\u001b[0m";

/** Named escapes for the control characters a terminal would act on. */
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text from files and file names, made safe for a terminal: control characters (C0, DEL, C1) are written as escapes
 * (`\n`, `\x1b`), so a key or a folder name cannot move the cursor, retitle the window or forge a line of output.
 */
export function escapeControl(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && (c < 0x7f || c > 0x9f)) continue;
    out += text.slice(from, i) + (NAMED[text[i]] ?? `\\x${c.toString(16).padStart(2, "0")}`);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

export function formatText(report: LintReport, style: TextStyle): string {
  const paint = (text: string, color: keyof typeof COLORS) => (style.color ? `${COLORS[color]}${text}${RESET}` : text);
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = groups.get(f.file) ?? [];
    list.push(f);
    groups.set(f.file, list);
  }

  const blocks: string[] = [];
  for (const [file, findings] of groups) {
    const path = escapeControl(displayPath(file, report.cwd));
    const locations = findings.map((f) => `${path}:${f.range.start.line + 1}:${f.range.start.character + 1}`);
    const width = locations.reduce((w, l) => Math.max(w, l.length), 0);
    const lines = findings.map((f, i) =>
      [
        locations[i].padEnd(width),
        paint(f.severity.padEnd(7), f.severity),
        paint(f.rule, "dim"),
        escapeControl(f.message),
      ].join("  "),
    );
    blocks.push(lines.join("\n"));
  }

  const count: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const f of report.findings) count[f.severity]++;
  const analysed = report.filesAnalyzed;
  if (report.findings.length === 0) return `No problems found in ${plural(analysed, "file")}.\n`;

  const parts = [plural(count.error, "error"), plural(count.warning, "warning"), `${count.info} info`];
  if (count.hint > 0) parts.push(plural(count.hint, "hint"));
  const summary = `✖ ${plural(report.findings.length, "problem")} (${parts.join(", ")}) in ${plural(groups.size, "file")} (${analysed} analysed)`;
  const summaryLine = paint(summary, count.error > 0 ? "error" : count.warning > 0 ? "warning" : "bold");

  const safe = report.findings.filter((f) => fixSafetyOf(f) === "safe").length;
  const unsafe = report.findings.filter((f) => fixSafetyOf(f) === "unsafe").length;
  const fixable: string[] = [];
  if (safe > 0) fixable.push(`${plural(safe, "problem")} fixable with --fix`);
  if (unsafe > 0) fixable.push(`${plural(unsafe, "problem")} with unsafe fixes (--fix --fix-type unsafe)`);
  const tail = fixable.length > 0 ? `\n  ${fixable.join("; ")}` : "";
  return `${blocks.join("\n\n")}\n\n${summaryLine}${tail}\n`;
}
