/**
 * The Flink Kubernetes Operator version a file names:
 *
 * - an operator image with a release tag anywhere in a manifest, compose file, Helm values file or Dockerfile:
 *   `apache/flink-kubernetes-operator:1.9.0`, `ghcr.io/apache/flink-kubernetes-operator:1.10.0`;
 * - a Helm values map `{repository: ghcr.io/apache/flink-kubernetes-operator, tag: "1.9.0"}` (the operator chart's
 *   own values);
 * - a Helm `Chart.yaml` that depends on the `flink-kubernetes-operator` chart at a version, or is that chart.
 *
 * Only release versions count (`1.9.0`); a tag naming a commit or `latest` says nothing.
 */
import { isMap, isSeq } from "yaml";
import type { OperatorVersionEvidence } from "../model";
import { LineIndex } from "../text";
import { within } from "./images";
import { getValue, scalarText, seqItems, type YamlDocument, YamlSource } from "./yaml/ast";

const CHART = "flink-kubernetes-operator";
const RELEASE = /^(\d+)\.(\d+)\.(\d+)$/;
/** `[registry[:port]/][org/]flink-kubernetes-operator:<tag>`, not inside a longer name. */
const IMAGE = /(?<![\w.\-/])((?:[\w.-]+(?::\d+)?\/)*flink-kubernetes-operator):(\d+\.\d+\.\d+)(?![\w.-])/g;

/** Operator images with a release tag in the lines of a text; text after `#` (a comment) is skipped. */
export function operatorImageVersions(file: string, text: string): OperatorVersionEvidence[] {
  const out: OperatorVersionEvidence[] = [];
  const index = new LineIndex(text);
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    if (!lineText.includes(CHART)) continue;
    const comment = commentStart(lineText);
    for (const m of lineText.matchAll(IMAGE)) {
      const at = (m.index ?? 0) + m[1].length + 1;
      if (comment >= 0 && (m.index ?? 0) > comment) continue;
      out.push({
        version: m[2],
        source: "image",
        location: { file, range: { start: { line, character: at }, end: { line, character: at + m[2].length } } },
      });
    }
  }
  return out;
}

/** Where a `#` comment starts (a `#` at the start or after a space), or -1. */
function commentStart(line: string): number {
  const m = /(^|\s)#/.exec(line);
  return m ? m.index + m[1].length : -1;
}

function basename(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}

/** Versions from Helm: the operator chart's values (`repository` + `tag`) and Chart.yaml dependencies. */
export function operatorChartVersions(file: string, text: string, docs: YamlDocument[]): OperatorVersionEvidence[] {
  const src = new YamlSource(file, text);
  const out: OperatorVersionEvidence[] = [];
  const add = (source: OperatorVersionEvidence["source"], node: unknown) => {
    const loc = src.locatedString(node);
    const v = loc?.value.trim().replace(/^v/, "");
    if (!loc || !v || !RELEASE.test(v)) return;
    const offset = loc.value.indexOf(v);
    out.push({ version: v, source, location: { file, range: within(loc, Math.max(0, offset), v.length) } });
  };
  const isChart = /^Chart\.ya?ml$/.test(basename(file));
  for (const doc of docs) {
    const root = doc.contents;
    if (isChart && isMap(root)) {
      // The operator chart itself (vendored): its appVersion is the operator release.
      if (scalarText(getValue(root, "name")) === CHART)
        add("helmChart", getValue(root, "appVersion") ?? getValue(root, "version"));
      for (const dep of seqItems(getValue(root, "dependencies"))) {
        if (scalarText(getValue(dep, "name")) === CHART) add("helmChart", getValue(dep, "version"));
      }
      continue;
    }
    walk(root, 0, (map) => {
      const repository = scalarText(getValue(map, "repository"));
      if (repository !== undefined && /(^|\/)flink-kubernetes-operator$/.test(repository.trim())) {
        add("image", getValue(map, "tag"));
      }
    });
  }
  return out;
}

function walk(node: unknown, depth: number, visit: (map: unknown) => void): void {
  if (depth > 32) return;
  if (isSeq(node)) for (const item of node.items) walk(item, depth + 1, visit);
  if (!isMap(node)) return;
  visit(node);
  for (const pair of node.items) walk(pair.value, depth + 1, visit);
}
