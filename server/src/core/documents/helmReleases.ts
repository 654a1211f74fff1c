/**
 * Helm releases installed with values files outside the chart's folder: an Argo CD Application's
 * `spec.source(s).helm.valueFiles`, a helmfile's `releases[].values`, and `helm install|upgrade|template … -f x.yaml`
 * in scripts and Makefiles. workspace/helmCharts.ts adds those values files to the chart's own.
 */
import type { HelmRelease, Located } from "../model";
import { LineIndex } from "../text";
import { shellSplit, type Word } from "./commandLine";
import { folderOf } from "./paths";
import { getIn, getValue, seqItems, type YamlDocument, YamlSource } from "./yaml/ast";

/** An Argo CD Application (`argoproj.io`): each Helm source with values files. */
export function argoHelmReleases(src: YamlSource, root: unknown): HelmRelease[] {
  const sources = [getIn(root, ["spec", "source"]), ...seqItems(getIn(root, ["spec", "sources"]))];
  const out: HelmRelease[] = [];
  for (const source of sources) {
    const chart = src.locatedString(getValue(source, "path"));
    const values = located(src, seqItems(getIn(source, ["helm", "valueFiles"])));
    if (chart && chart.value.trim() !== "" && values.length > 0) out.push({ chart, values, from: "repository" });
  }
  return out;
}

export function isHelmfileName(name: string): boolean {
  return /^helmfile\.ya?ml$/i.test(name);
}

/** A helmfile's releases with a local chart (`./charts/flink`, not `repo/chart`) and values files. */
export function helmfileReleases(file: string, text: string, docs: YamlDocument[]): HelmRelease[] {
  const src = new YamlSource(file, text);
  const folder = folderOf(file);
  const out: HelmRelease[] = [];
  for (const doc of docs) {
    for (const release of seqItems(getValue(doc.contents, "releases"))) {
      const chart = src.locatedString(getValue(release, "chart"));
      if (!chart || !/^\.{1,2}\//.test(chart.value.trim())) continue;
      const values = located(src, seqItems(getValue(release, "values")));
      if (values.length > 0) out.push({ chart, values, from: { folder } });
    }
  }
  return out;
}

function located(src: YamlSource, nodes: unknown[]): Located<string>[] {
  return nodes
    .map((n) => src.locatedString(n))
    .filter((v): v is Located<string> => v !== undefined && v.value.trim() !== "" && !v.value.includes("{{"));
}

/** Options of `helm install|upgrade|template` that take a value (the next word unless written `--opt=value`). */
const VALUED = new Set([
  "-n",
  "--namespace",
  "--set",
  "--set-string",
  "--set-file",
  "--set-json",
  "--set-literal",
  "--version",
  "--repo",
  "--kube-context",
  "--kubeconfig",
  "--timeout",
  "-o",
  "--output",
  "--post-renderer",
  "--post-renderer-args",
  "--description",
  "--name-template",
  "--username",
  "--password",
  "--ca-file",
  "--cert-file",
  "--key-file",
  "--keyring",
  "--history-max",
  "--api-versions",
  "-a",
  "--kube-version",
  "--output-dir",
  "--show-only",
  "-s",
  "--release-name",
  "--label",
  "-l",
]);

/** `helm install NAME CHART`, `helm upgrade [--install] NAME CHART`, `helm template [NAME] CHART`, with `-f` files. */
export function scriptHelmReleases(file: string, text: string): HelmRelease[] {
  if (!/\bhelm\b/.test(text)) return [];
  const index = new LineIndex(text);
  const at = Array.from({ length: text.length }, (_, i) => i);
  const folder = folderOf(file);
  const out: HelmRelease[] = [];
  for (const argv of shellSplit({ value: text, at })) {
    // The command's program: after variable assignments and `sudo`, `exec`, `time` (not `echo helm …`).
    let j = 0;
    while (j < argv.length && (/^\w+=/.test(argv[j].text) || LEADS.has(argv[j].text))) j++;
    if (!/(^|\/)helm$/.test((argv[j]?.text ?? "").replace(/^[@-]+/, "")) || !SUBCOMMANDS.has(argv[j + 1]?.text ?? ""))
      continue;
    const sub = argv[j + 1].text;
    const positionals: Word[] = [];
    const values: Word[] = [];
    let generateName = false;
    const args = argv.slice(j + 2);
    for (let i = 0; i < args.length; i++) {
      const w = args[i].text;
      if (w === "-f" || w === "--values") {
        if (args[i + 1]) values.push(args[++i]);
      } else if (w.startsWith("--values=")) values.push(slice(args[i], "--values=".length));
      else if (w.startsWith("-f") && w.length > 2 && !w.startsWith("-f=")) values.push(slice(args[i], 2));
      else if (w === "--generate-name" || w === "-g") generateName = true;
      else if (w.startsWith("-")) {
        if (VALUED.has(w)) i++;
      } else positionals.push(args[i]);
    }
    const chart =
      sub === "template" || generateName ? positionals[positionals.length - 1] : (positionals[1] ?? undefined);
    if (!chart || values.length === 0 || !/^[./\w]/.test(chart.text) || chart.text.includes("$")) continue;
    const locate = (w: Word): Located<string> | undefined =>
      w.start === undefined || w.end === undefined || w.text.includes("$")
        ? undefined
        : { value: w.text, raw: text.slice(w.start, w.end), file, range: index.rangeOf(w.start, w.end) };
    const chartAt = locate(chart);
    const valuesAt = values.map(locate).filter((v): v is Located<string> => v !== undefined);
    if (chartAt && valuesAt.length > 0) out.push({ chart: chartAt, values: valuesAt, from: { folder } });
  }
  return out;
}

const SUBCOMMANDS = new Set(["install", "upgrade", "template"]);
const LEADS = new Set(["sudo", "exec", "time", "command"]);

/** The word without its first `n` characters (`--values=prod.yaml` → `prod.yaml`). */
function slice(w: Word, n: number): Word {
  const at = w.at.slice(n);
  const first = at[0];
  return { ...w, text: w.text.slice(n), at, start: first ?? w.start };
}
