/**
 * Suppression comments as edits: "disable for this line" and "disable for this file", written in the comment
 * syntax of the file's language and understood by core/suppressions.ts.
 */
import { isDockerfileName } from "../core/fileNames";
import { LineIndex, type TextEdit } from "../core/text";

type CommentStyle = "hash" | "slash" | "xml" | "dash";

/** `.vscode/launch.json` is JSON with comments: `//`, like Java and Gradle. */
export function commentStyle(file: string): CommentStyle {
  const lower = file.toLowerCase();
  if (lower.endsWith(".xml")) return "xml";
  if (lower.endsWith(".sql")) return "dash";
  if (/\.(java|gradle|kts|kt|scala|sc|sbt|json)$/.test(lower)) return "slash";
  return "hash";
}

/**
 * A directive with a reason placeholder for the person to fill in. XML comments may not contain `--` (Maven
 * would reject the pom), so there the reason follows a colon.
 */
function comment(style: CommentStyle, directive: string): string {
  if (style === "xml") return `<!-- ${directive}: reason -->`;
  return `${style === "hash" ? "#" : style === "dash" ? "--" : "//"} ${directive} -- reason`;
}

/** Inserts `… beam-flink-lint-disable-next-line CODE` above `line`, indented like that line. */
export function disableLineEdit(file: string, text: string, line: number, code: string): TextEdit {
  const index = new LineIndex(text);
  const indent = /^[ \t]*/.exec(index.lineText(line))?.[0] ?? "";
  const directive = comment(commentStyle(file), `beam-flink-lint-disable-next-line ${code}`);
  const at = { line, character: 0 };
  return { range: { start: at, end: at }, newText: `${indent}${directive}${index.eol}` };
}

/**
 * Lines that must stay first: a shebang, the XML declaration, and Dockerfile parser directives (`# syntax=…`,
 * `# escape=…`), which stop being directives once any other comment precedes them.
 */
function headerLines(file: string, index: LineIndex): number {
  const name = file.slice(file.lastIndexOf("/") + 1).toLowerCase();
  const dockerfile = isDockerfileName(name);
  let line = 0;
  if (index.lineText(0).startsWith("#!")) line = 1;
  else if (index.lineText(0).trimStart().startsWith("<?xml")) {
    while (line < index.lineCount && !index.lineText(line).includes("?>")) line++;
    line++;
  }
  if (dockerfile) while (line < index.lineCount && /^#\s*[a-z]+\s*=/i.test(index.lineText(line))) line++;
  return Math.min(line, index.lineCount);
}

/** Inserts `… beam-flink-lint-disable-file CODE` at the top of the file, after lines that must stay first. */
export function disableFileEdit(file: string, text: string, code: string): TextEdit {
  const index = new LineIndex(text);
  const directive = comment(commentStyle(file), `beam-flink-lint-disable-file ${code}`);
  const line = headerLines(file, index);
  if (line < index.lineCount) {
    const at = { line, character: 0 };
    return { range: { start: at, end: at }, newText: `${directive}${index.eol}` };
  }
  // The header is the whole file and has no final line break.
  const end = index.positionAt(text.length);
  return { range: { start: end, end }, newText: `${index.eol}${directive}${index.eol}` };
}
