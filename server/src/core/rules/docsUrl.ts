/** Where the product and each rule's documentation page are published; diagnostics link there (codeDescription.href). */
export const REPOSITORY_URL = "https://github.com/beam-flink-lint/beam-flink-lint";

export const RULE_DOCS_BASE = `${REPOSITORY_URL}/blob/main/docs/rules/`;

export function ruleDocsUrl(code: string): string {
  return `${RULE_DOCS_BASE}${code}.md`;
}
