/**
 * Writes the rule documentation from the rules' metadata: docs/rules/<CODE>.md for every rule, the index
 * docs/rules/README.md, and the rule table in README.md between `<!-- rules:start -->` and `<!-- rules:end -->`.
 *
 * The findings shown under each example are computed by running the example through the engine, so a page
 * always shows what the product reports. test/docs.test.ts renders the same pages in memory and fails when the
 * files on disk differ, so `npm run gen:docs` must run after a rule's metadata changes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { formatText } from "../server/src/cli/format/text";
import { compareFindings, type Finding } from "../server/src/core/findings";
import { ALL_RULES } from "../server/src/core/rules/index";
import type { ExampleFiles, Rule } from "../server/src/core/rules/types";
import { Workspace } from "../server/src/core/workspace/workspace";

export const RULES_START = "<!-- rules:start -->";
export const RULES_END = "<!-- rules:end -->";

/** Where example projects are mounted; file names in the pages are relative to it. */
const EXAMPLE_ROOT = "/example";

export function sortedRules(rules: readonly Rule[] = ALL_RULES): Rule[] {
  return [...rules].sort((a, b) => (a.meta.code < b.meta.code ? -1 : a.meta.code > b.meta.code ? 1 : 0));
}

/** The findings of one rule on an example project, in a stable order. */
export function exampleFindings(rule: Rule, files: ExampleFiles): Finding[] {
  const ws = new Workspace({ roots: [EXAMPLE_ROOT] });
  for (const name of Object.keys(files).sort()) ws.setFile(`${EXAMPLE_ROOT}/${name}`, files[name]);
  const out: Finding[] = [];
  for (const root of ws.projectRoots()) {
    const result = ws.analyze(root);
    if (result.failures.length > 0) {
      throw new Error(
        `${rule.meta.code}: rules threw on the example: ${result.failures.map((f) => f.rule).join(", ")}`,
      );
    }
    for (const list of result.byFile.values()) out.push(...list.filter((f) => f.rule === rule.meta.code));
  }
  return out.sort(compareFindings);
}

/** The findings as the CLI's text format prints them, with paths relative to the example's folder. */
export function renderFindings(findings: Finding[], files: ExampleFiles): string {
  return formatText({ cwd: EXAMPLE_ROOT, findings, filesAnalyzed: Object.keys(files).length }, { color: false });
}

const LANGUAGES: [RegExp, string][] = [
  [/\.ya?ml$/, "yaml"],
  [/\.xml$/, "xml"],
  [/\.java$/, "java"],
  [/\.gradle$/, "groovy"],
  [/\.gradle\.kts$/, "kotlin"],
  [/\.toml$/, "toml"],
  [/\.properties$/, "properties"],
  [/(^|\/)dockerfile([^/]*)$|\.dockerfile$/i, "dockerfile"],
  [/\.json$/, "json"],
];

function languageOf(name: string): string {
  return LANGUAGES.find(([re]) => re.test(name))?.[1] ?? "text";
}

/** A fenced block whose fence is longer than any backtick run inside the content. */
function fenced(content: string, language: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const body = content.endsWith("\n") ? content : `${content}\n`;
  return `${fence}${language}\n${body}${fence}`;
}

function renderFiles(files: ExampleFiles): string {
  return Object.keys(files)
    .sort()
    .map((name) => `\`${name}\`:\n\n${fenced(files[name], languageOf(name))}`)
    .join("\n\n");
}

const REFERENCE_LINKS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/\b(FLINK-\d+)\b/g, (m) => `[${m[1]}](https://issues.apache.org/jira/browse/${m[1]})`],
  [/\b(apache\/[\w.-]+) (?:PR )?#(\d+)\b/g, (m) => `[${m[0]}](https://github.com/${m[1]}/issues/${m[2]})`],
];

/** A reference as Markdown: URLs become links, Flink JIRA keys and `apache/<repo> #N` point at their pages. */
export function renderReference(ref: string): string {
  const trimmed = ref.trim();
  if (/^https?:\/\/\S+$/.test(trimmed)) return `<${trimmed}>`;
  let out = trimmed;
  for (const [re, link] of REFERENCE_LINKS)
    out = out.replace(re, (...args) => link(args as unknown as RegExpMatchArray));
  return out;
}

const FIX_SAFETY: Record<Rule["meta"]["fix"], string> = {
  safe: "The fix is **safe**: it removes the problem without changing anything else the job does, so editors offer it as the preferred quick fix and it is part of applying all safe fixes at once.",
  unsafe:
    "The fix is **unsafe**: it changes what the job does or inserts a placeholder that has to be filled in, so it is only applied when you choose it and review the result.",
  none: "This rule has no automatic fix; the message and the sections above say what to change.",
};

function fixTitles(findings: Finding[]): string[] {
  const titles = new Set<string>();
  for (const f of findings) for (const fix of f.fixes) titles.add(`${fix.title} (${fix.safety})`);
  return [...titles];
}

export function renderRulePage(rule: Rule): string {
  const { meta } = rule;
  const { docs } = meta;
  const findings = exampleFindings(rule, docs.bad);
  const titles = fixTitles(findings);
  const parts = [
    `# ${meta.code}: ${meta.name}`,
    `**Default severity:** ${meta.severity} · **Family:** ${meta.family} · **Fix:** ${meta.fix}`,
    meta.description,
    `## What it does\n\n${docs.whatItDoes}`,
    `## Why it matters at run time\n\n${docs.whyItMatters}`,
    `## Example\n\n❌ The rule reports:\n\n${renderFiles(docs.bad)}\n\nFindings:\n\n${fenced(renderFindings(findings, docs.bad), "text")}`,
    `## Fix\n\n✅ The rule stays silent on:\n\n${renderFiles(docs.good)}`,
    `## Fix safety\n\n${FIX_SAFETY[meta.fix]}${titles.length > 0 ? `\n\nOn the example above the fixes are:\n\n${titles.map((t) => `- ${t}`).join("\n")}` : ""}`,
    `## When it does not fire\n\n${docs.whenNotToFire}`,
    `## References\n\n${docs.references.map((r) => `- ${renderReference(r)}`).join("\n")}`,
  ];
  return `${parts.join("\n\n")}\n`;
}

/** The rule table; `linkPrefix` is the path from the table's file to docs/rules/. */
export function renderRuleTable(rules: readonly Rule[], linkPrefix: string): string {
  const rows = sortedRules(rules).map((r) => {
    const m = r.meta;
    const description = m.description.replace(/\|/g, "\\|");
    return `| [${m.code}](${linkPrefix}${m.code}.md) | ${m.name} | ${m.severity} | ${m.family} | ${m.fix} | ${description} |`;
  });
  return ["| Code | Name | Severity | Family | Fix | What it reports |", "|---|---|---|---|---|---|", ...rows].join(
    "\n",
  );
}

export function renderIndex(rules: readonly Rule[]): string {
  return [
    "# Rules",
    "",
    "Every rule of Beam & Flink Lint, generated from the rules' metadata by `npm run gen:docs`.",
    "Severities are defaults; `.beam-flink-lint.yaml`, the editor settings and the CLI's `--rule` option change them.",
    "",
    renderRuleTable(rules, ""),
    "",
  ].join("\n");
}

/** Replaces the generated rule table of README.md; undefined when the markers are missing. */
export function withRuleTable(readme: string, rules: readonly Rule[]): string | undefined {
  const start = readme.indexOf(RULES_START);
  const end = readme.indexOf(RULES_END);
  if (start < 0 || end < start) return undefined;
  const table = renderRuleTable(rules, "docs/rules/");
  return `${readme.slice(0, start + RULES_START.length)}\n${table}\n${readme.slice(end)}`;
}

/** Every generated file: path relative to the repository → content. README.md only when it has the markers. */
export function renderDocs(readme: string | undefined, rules: readonly Rule[] = ALL_RULES): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of sortedRules(rules)) out.set(`docs/rules/${rule.meta.code}.md`, renderRulePage(rule));
  out.set("docs/rules/README.md", renderIndex(rules));
  const updated = readme === undefined ? undefined : withRuleTable(readme, rules);
  if (updated !== undefined) out.set("README.md", updated);
  return out;
}

export function repositoryRoot(from: string = __dirname): string {
  for (let dir = from, i = 0; i < 8; i++, dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "server", "src"))) return dir;
  }
  return process.cwd();
}

function main(): void {
  const root = repositoryRoot();
  const readmePath = join(root, "README.md");
  const readme = existsSync(readmePath) ? readFileSync(readmePath, "utf8") : undefined;
  const files = renderDocs(readme);
  const rulesDir = join(root, "docs", "rules");
  mkdirSync(rulesDir, { recursive: true });
  // Pages of rules that no longer exist must go, or the docs would describe rules the product does not have.
  for (const name of readdirSync(rulesDir)) {
    if (name.endsWith(".md") && !files.has(`docs/rules/${name}`)) rmSync(join(rulesDir, name));
  }
  let changed = 0;
  for (const [rel, content] of files) {
    const path = join(root, rel);
    if (existsSync(path) && readFileSync(path, "utf8") === content) continue;
    writeFileSync(path, content);
    changed++;
  }
  if (readme !== undefined && !files.has("README.md")) {
    console.warn(`README.md has no ${RULES_START} … ${RULES_END} section; its rule table was not updated.`);
  }
  console.log(`${files.size} documentation files, ${changed} written.`);
}

if (require.main === module) main();
