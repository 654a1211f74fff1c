/**
 * JUnit XML, for CI systems that show test reports (GitLab's `junit` artifact, Jenkins, Azure Pipelines): one
 * `<testsuite>` per analysed file, one `<testcase>` per finding with a `<failure>` (its message, its severity as
 * the type), and one passing testcase for a file without findings, so that every analysed file is counted.
 *
 *   <testsuites name="beam-flink-lint" tests="2" failures="1" errors="0">
 *     <testsuite name="conf/flink-conf.yaml" tests="1" failures="1" errors="0" skipped="0">
 *       <testcase name="BFL100 config-line-ignored at 3:1" classname="conf/flink-conf.yaml">
 *         <failure message="Flink ignores this line…" type="warning">conf/flink-conf.yaml:3:1 …</failure>
 */
import { addTo } from "../../core/arrays";
import type { Finding } from "../../core/findings";
import { ruleDocsUrl } from "../../core/rules/docsUrl";
import { displayPath, type LintReport } from "../report";

/**
 * The text with the characters XML 1.0 does not allow at all (controls other than tab and line breaks, lone
 * surrogates, U+FFFE and U+FFFF) replaced by U+FFFD, and markup characters escaped.
 */
export function xmlText(text: string): string {
  let clean = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      clean += text.slice(i, i + 2);
      i++;
      continue;
    }
    const forbidden = (c < 0x20 && c !== 9 && c !== 10 && c !== 13) || (c >= 0xd800 && c <= 0xdfff) || c >= 0xfffe;
    clean += forbidden ? "\ufffd" : text[i];
  }
  return clean.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** An attribute value: line breaks and tabs as character references, so that parsers keep them. */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlAttribute(String(v))}"`)
    .join("");
}

function testcase(f: Finding, path: string): string {
  const at = `${f.range.start.line + 1}:${f.range.start.character + 1}`;
  const details = f.details ? `\n${f.details}` : "";
  const body = `${path}:${at} ${f.severity} ${f.rule} ${f.message}${details}\n${ruleDocsUrl(f.rule)}`;
  return [
    `    <testcase${attrs({ name: `${f.rule} ${f.name} at ${at}`, classname: path, time: 0 })}>`,
    `      <failure${attrs({ message: f.message, type: f.severity })}>${xmlText(body)}</failure>`,
    "    </testcase>",
  ].join("\n");
}

export function formatJunit(report: LintReport): string {
  const byFile = new Map<string, Finding[]>();
  for (const file of report.analysedFiles ?? []) byFile.set(file, []);
  for (const f of report.findings) addTo(byFile, f.file, f);
  const files = [...byFile.keys()].sort();
  let tests = 0;
  const suites = files.map((file) => {
    const findings = byFile.get(file) ?? [];
    const path = displayPath(file, report.cwd);
    const cases =
      findings.length > 0
        ? findings.map((f) => testcase(f, path))
        : [`    <testcase${attrs({ name: "no problems", classname: path, time: 0 })}/>`];
    tests += cases.length;
    const head = attrs({ name: path, tests: cases.length, failures: findings.length, errors: 0, skipped: 0, time: 0 });
    return [`  <testsuite${head}>`, ...cases, "  </testsuite>"].join("\n");
  });
  const head = attrs({ name: "beam-flink-lint", tests, failures: report.findings.length, errors: 0, time: 0 });
  const body = suites.length > 0 ? `\n${suites.join("\n")}\n` : "\n";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${head}>${body}</testsuites>\n`;
}
