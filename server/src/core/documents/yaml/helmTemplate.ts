/**
 * Helm chart templates are not YAML until rendered. To read what they hold, every `{{ … }}` action is masked
 * before parsing, keeping every offset, so every range stays exact:
 *
 * - an action that writes YAML structure is blanked: on a line that holds nothing but actions (`{{- if … }}`,
 *   `{{- end }}`, `{{- toYaml … | nindent 4 }}`, the lines of a `{{/* … *\/}}` comment, a YAML comment may
 *   follow), or as the whole value of a key whose next lines are more indented
 *   (`labels: {{- include "c.labels" . | nindent 4 }}` followed by `    app: x`), since it writes the first entries of
 *   that block;
 * - any other action keeps its length: its braces become look-alike characters and, between them, the characters
 *   YAML would read (quotes, backslashes, `:`, `#`, flow indicators) become private-use stand-ins, so
 *   `name: {{ .Release.Name }}-jm` parses as one string and so does
 *   `"--bootstrap={{ include "c.fullname" . }}-kafka:9092"`, whose inner quotes would otherwise end the string.
 *
 * The end of an action is found as Go's template lexer finds it: `}}` inside a string literal of the action
 * (`"…"`, `` `…` ``, `'…'`) or inside a comment does not end it. scalarText turns masked text back into the
 * template's own (`unmaskTemplates`).
 */

import type { ConfigEntry, TemplateFill } from "../../model";

export const MASKED_OPEN = "\u2983\u2983";
export const MASKED_CLOSE = "\u2984\u2984";

/** Characters of an action that YAML would read, each replaced by U+E000 plus its code while parsing. */
const SIGNIFICANT = "\"'\\:#,[]{}";
const STAND_IN_BASE = 0xe000;
const STAND_INS = new RegExp(
  `[${[...SIGNIFICANT].map((c) => `\\u${(STAND_IN_BASE + c.charCodeAt(0)).toString(16)}`).join("")}]`,
  "g",
);

export interface TemplateAction {
  /** Offset of `{{`. */
  start: number;
  /** Offset after `}}`. */
  end: number;
  /** Blank to the parser: it writes YAML structure (a line of its own, or a block's first entries). */
  blanked: boolean;
}

export interface MaskedTemplate {
  /** The text to parse: as long as the template, line for line. */
  text: string;
  /** The template's actions in order (up to the first one that is never closed). */
  actions: TemplateAction[];
}

export function isHelmTemplate(file: string, text: string): boolean {
  return /(^|\/)templates\//.test(file) && text.includes("{{");
}

export function maskTemplate(text: string): MaskedTemplate {
  const { actions, unclosed } = findActions(text);
  const lines = lineStarts(text);
  const blankLines = actionOnlyLines(text, lines, actions);
  blockValueActions(text, lines, actions, blankLines);
  const out: string[] = [];
  let at = 0;
  let line = 0;
  for (const a of actions) {
    const before = text.slice(at, a.start);
    out.push(before);
    line += countLineBreaks(before);
    const first = line;
    let own = true;
    for (let p = a.start; p < a.end; p++) {
      const c = text[p];
      if (c === "\n") {
        line++;
        out.push(c);
      } else if (a.blanked || blankLines.has(line)) out.push(c === "\r" ? c : " ");
      else if (p < a.start + 2) out.push("\u2983");
      else if (p >= a.end - 2) out.push("\u2984");
      else if (SIGNIFICANT.includes(c)) out.push(String.fromCharCode(STAND_IN_BASE + c.charCodeAt(0)));
      else out.push(c);
    }
    for (let l = first; l <= line && own; l++) own = blankLines.has(l);
    a.blanked ||= own;
    at = a.end;
  }
  // After an action that is never closed (Helm cannot render the file), only the braces are masked.
  const rest = text.slice(at);
  out.push(unclosed === undefined ? rest : rest.replace(/\{\{/g, MASKED_OPEN).replace(/\}\}/g, MASKED_CLOSE));
  return { text: out.join(""), actions };
}

export function unmaskTemplates(text: string): string {
  if (!text.includes("\u2983") && !text.includes("\u2984")) return text;
  return text
    .split(MASKED_OPEN)
    .join("{{")
    .split(MASKED_CLOSE)
    .join("}}")
    .replace(STAND_INS, (c) => String.fromCharCode(c.charCodeAt(0) - STAND_IN_BASE));
}

/** The actions of a template, each scanned once: linear in the text. */
function findActions(text: string): { actions: TemplateAction[]; unclosed?: number } {
  const actions: TemplateAction[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf("{{", from);
    if (start < 0) return { actions };
    const end = actionEnd(text, start);
    if (end < 0) return { actions, unclosed: start };
    actions.push({ start, end, blanked: false });
    from = end;
  }
}

/** The offset after the `}}` that closes the action opened at `start`, or -1 when none does. */
function actionEnd(text: string, start: number): number {
  let p = start + 2;
  // `{{/* … */}}` and `{{- /* … */ -}}`: a comment runs to its `*/`.
  const trimmed = text.startsWith("- ", p) ? p + 2 : p;
  if (text.startsWith("/*", trimmed)) {
    const close = text.indexOf("*/", trimmed + 2);
    if (close < 0) return -1;
    p = close + 2;
  }
  while (p < text.length) {
    const c = text[p];
    if (c === "}" && text[p + 1] === "}") return p + 2;
    if (c === "`") {
      const close = text.indexOf("`", p + 1);
      if (close < 0) return -1;
      p = close + 1;
    } else if (c === '"' || c === "'") p = quotedEnd(text, p, c);
    else p++;
  }
  return -1;
}

/** The offset after a Go string or character literal; it cannot span lines, so a line break ends it too. */
function quotedEnd(text: string, open: number, quote: string): number {
  let p = open + 1;
  while (p < text.length) {
    const c = text[p];
    if (c === "\\") p += 2;
    else if (c === quote) return p + 1;
    else if (c === "\n") return p;
    else p++;
  }
  return p;
}

function countLineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function lineEnd(text: string, starts: number[], line: number): number {
  return line + 1 < starts.length ? starts[line + 1] - 1 : text.length;
}

function isBlank(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\r";
}

/** The lines that hold only actions and blanks, perhaps followed by a YAML comment: they are blanked. */
function actionOnlyLines(text: string, starts: number[], actions: TemplateAction[]): Set<number> {
  const lines = new Set<number>();
  let k = 0;
  for (let line = 0; line < starts.length && k < actions.length; line++) {
    const le = lineEnd(text, starts, line);
    let p = starts[line];
    let covered = false;
    let only = true;
    while (p < le) {
      while (k < actions.length && actions[k].end <= p) k++;
      const a = actions[k];
      if (a && a.start <= p) {
        covered = true;
        p = Math.min(a.end, le);
      } else if (isBlank(text[p])) p++;
      else if (text[p] === "#" && covered && isBlank(text[p - 1])) break;
      else {
        only = false;
        break;
      }
    }
    if (only && covered) lines.add(line);
  }
  return lines;
}

/**
 * The column of what holds the value when the text before the actions that end a line is `key:`, `- key:` or a
 * sequence item's `-`; undefined for anything else.
 */
function holderColumn(prefix: string): number | undefined {
  const lead = /^[ \t]*(?:-[ \t]+)*/.exec(prefix)?.[0] ?? "";
  const rest = prefix.slice(lead.length).trimEnd();
  if (rest === "" || rest === "-") {
    const dash = prefix.lastIndexOf("-");
    return dash < 0 ? undefined : dash;
  }
  return rest.endsWith(":") && !rest.startsWith("#") && !/[ \t]#/.test(rest) ? lead.length : undefined;
}

/**
 * Marks as blanked the actions that make up the whole value of a key (or of a sequence item) when the next line
 * that holds YAML is more indented than the key: they write the first entries of that block, which the lines
 * below continue (`labels: {{- include "c.labels" . | nindent 4 }}` then `    app: x`). Left as a string, the value
 * would make those lines invalid.
 */
function blockValueActions(text: string, starts: number[], actions: TemplateAction[], blankLines: Set<number>) {
  if (actions.length === 0) return;
  // The indentation of the next line that holds YAML after each line (-1 at the end), in one backward pass.
  const nextIndent = new Int32Array(starts.length);
  let next = -1;
  for (let line = starts.length - 1; line >= 0; line--) {
    nextIndent[line] = next;
    if (blankLines.has(line)) continue;
    const le = lineEnd(text, starts, line);
    let p = starts[line];
    while (p < le && isBlank(text[p])) p++;
    if (p < le && text[p] !== "#") next = p - starts[line];
  }
  let line = 0;
  for (let i = 0; i < actions.length; ) {
    const a = actions[i];
    while (line + 1 < starts.length && starts[line + 1] <= a.start) line++;
    // The actions that end this line, from `a` on: single-line ones separated by blanks only.
    const le = lineEnd(text, starts, line);
    let j = i;
    while (j + 1 < actions.length && actions[j].end <= le && actions[j + 1].start < le) {
      if (text.slice(actions[j].end, actions[j + 1].start).trim() !== "") break;
      j++;
    }
    if (actions[j].end > le || blankLines.has(line)) {
      i = j + 1;
      continue;
    }
    const after = text.slice(actions[j].end, le);
    const trailing = j + 1 >= actions.length || actions[j + 1].start >= le;
    if (trailing && /^[ \t\r]*(?:[ \t]#.*)?$/.test(after)) {
      const holder = holderColumn(text.slice(starts[line], a.start));
      if (holder !== undefined && nextIndent[line] > holder) for (let k = i; k <= j; k++) actions[k].blanked = true;
    }
    i = j + 1;
  }
}

/**
 * Whether a parse error of a masked template comes from the masking alone: a line of actions left blank in front
 * of a block scalar's first line (`config.yaml: |+` then `  {{- .Files.Get … | nindent 4 }}`) is an empty line more
 * indented than the content, which YAML refuses without an indentation indicator. Helm puts the action's output
 * there, so the template is not wrong, and the parser has read the rest of the document all the same.
 */
export function isMaskingArtefact(
  template: string,
  masked: string,
  error: { code: string; message: string; pos: [number, number] },
): boolean {
  if (error.code !== "MISSING_CHAR" || !error.message.startsWith("Block scalars with more-indented leading empty"))
    return false;
  // The blank lines right above the error's line: one of them must be a line of actions.
  let end = masked.lastIndexOf("\n", error.pos[0] - 1);
  while (end > 0) {
    const start = masked.lastIndexOf("\n", end - 1) + 1;
    if (masked.slice(start, end).trim() !== "") return false;
    if (template.slice(start, end).includes("{{")) return true;
    end = start - 1;
  }
  return false;
}

/** Go template keywords whose actions write nothing themselves. */
const SILENT_ACTIONS = /^(?:if|else|end|range|with|define|break|continue)\b|^\/\*|^\$[\w]*\s*:?=/;

/** Whether an action writes text when rendered: `{{ include … }}`, `{{ toYaml … }}`, not `{{- if … }}` or `{{ end }}`. */
export function writesText(action: string): boolean {
  const inner = action.replace(/^\{\{-?\s*/, "").replace(/\s*-?\}\}$/, "");
  return inner !== "" && !SILENT_ACTIONS.test(inner);
}

/**
 * Entries of a template's configuration whose key is itself an action (`{{ $key }}: {{ $value }}` in a `range`
 * over values) are not settings that can be checked: which option they set is known only when the chart is
 * rendered, so they are fills of the configuration instead.
 */
export function templatedKeysAsFills(entries: ConfigEntry[]): { entries: ConfigEntry[]; fills: TemplateFill[] } {
  if (!entries.some((e) => e.key.includes("{{"))) return { entries, fills: [] };
  return {
    entries: entries.filter((e) => !e.key.includes("{{")),
    fills: entries.filter((e) => e.key.includes("{{")).map((e) => ({ text: e.key, range: e.keyRange })),
  };
}

/** Actions longer than this are not read for what they write (no chart writes such a `toYaml`). */
const MAX_READ_ACTION = 500;

/** The column an action's output starts at: its `nindent N` or `indent N`, else where the action stands. */
export function outputColumn(action: string, column: number): number {
  if (action.length > MAX_READ_ACTION) return column;
  const m = /\|\s*n?indent\s+(\d+)\s*(?:\|\s*\w+\s*)*-?\}\}$/.exec(action);
  return m ? Number(m[1]) : column;
}

const VALUES_PATH = String.raw`\$?\.Values((?:\.[A-Za-z_]\w*)+)`;
const INDENT = String.raw`\|\s*n?indent\s+\d+\s*`;
/** `toYaml .Values.a.b | nindent 4` and `.Values.a.b | toYaml | nindent 4` (`$.Values` too, `| trim` allowed). */
const TO_YAML = new RegExp(
  String.raw`^\{\{-?\s*(?:toYaml\s+${VALUES_PATH}|${VALUES_PATH}\s*\|\s*toYaml)\s*(?:\|\s*trim\s*)?${INDENT}-?\}\}$`,
);

/** The chart value an action writes as YAML (`{{- toYaml .Values.flink.config | nindent 4 }}` → flink, config). */
export function toYamlValuesPath(action: string): string[] | undefined {
  if (action.length > MAX_READ_ACTION) return undefined;
  const m = TO_YAML.exec(action);
  const path = m?.[1] ?? m?.[2];
  return path ? path.slice(1).split(".") : undefined;
}

/** The index of the first action that ends after `offset` (binary search: actions are in order). */
export function firstActionAfter(actions: readonly TemplateAction[], offset: number): number {
  let lo = 0;
  let hi = actions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (actions[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
