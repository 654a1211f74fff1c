/**
 * Helm chart templates are not YAML until rendered. To read what they hold, directives are masked before
 * parsing, keeping every offset: lines that hold only directives (`{{- if … }}`, `{{- end }}`,
 * `{{- toYaml … | nindent 4 }}`) become blank, and the braces of inline directives become look-alike characters
 * so `name: {{ .Release.Name }}-jm` parses as one string. scalarText turns them back into `{{ }}`.
 */

export const MASKED_OPEN = "\u2983\u2983";
export const MASKED_CLOSE = "\u2984\u2984";

const DIRECTIVE_LINE = /^[ \t]*(?:\{\{(?:(?!\}\}).)*\}\}[ \t]*)+(?=\r?$)/gm;

export function isHelmTemplate(file: string, text: string): boolean {
  return /(^|\/)templates\//.test(file) && text.includes("{{");
}

export function maskTemplates(text: string): string {
  return text
    .replace(DIRECTIVE_LINE, (line) => " ".repeat(line.length))
    .replace(/\{\{/g, MASKED_OPEN)
    .replace(/\}\}/g, MASKED_CLOSE);
}

export function unmaskTemplates(text: string): string {
  return text.includes("\u2983") || text.includes("\u2984")
    ? text.split(MASKED_OPEN).join("{{").split(MASKED_CLOSE).join("}}")
    : text;
}
