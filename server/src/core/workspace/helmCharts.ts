/**
 * What a Helm chart's templates take from its values files: a template's `{{- toYaml .Values.flink.config |
 * nindent 4 }}` inside a `flinkConfiguration:` writes the mapping the chart's values files set at `flink.config`.
 * The values files are those of the chart's own folder (the one that holds `templates/`): `values.yaml`, which
 * Helm always reads, first, then the others (`values-prod.yaml`), which an install may give on top.
 */
import { isValuesName, valuesConfigAt } from "../documents/helmValues";
import { resolvePath } from "../documents/paths";
import type { FileFacts, FlinkConfig, TemplateFill } from "../model";

export interface ChartValues {
  /** The values configurations fills write that the values files' own reading did not give. */
  configs: FlinkConfig[];
  /** Per fill, the configurations of the chart's values files at its path (none: the values say nothing). */
  byFill: Map<TemplateFill, FlinkConfig[]>;
}

function dirOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/"));
}

/** The chart folder of a template: the folder that holds its `templates/`. */
function chartDir(file: string): string | undefined {
  const at = file.lastIndexOf("/templates/");
  return at < 0 ? undefined : file.slice(0, at);
}

export function chartValues(files: readonly FileFacts[]): ChartValues {
  const byFill = new Map<TemplateFill, FlinkConfig[]>();
  const configs: FlinkConfig[] = [];
  const added = new Set<FlinkConfig>();
  let valuesByDir: Map<string, FileFacts[]> | undefined;
  for (const facts of files) {
    for (const config of facts.flinkConfigs) {
      for (const fill of config.templateFills ?? []) {
        const dir = fill.valuesPath && chartDir(facts.file);
        if (!fill.valuesPath || dir === undefined) continue;
        valuesByDir ??= valuesFiles(files);
        const found: FlinkConfig[] = [];
        for (const values of valuesByDir.get(dir) ?? []) {
          const c = valuesConfigAt(values, fill.valuesPath);
          if (!c) continue;
          found.push(c);
          if (!added.has(c) && !values.flinkConfigs.includes(c)) {
            added.add(c);
            configs.push(c);
          }
        }
        byFill.set(fill, found);
      }
    }
  }
  return { configs, byFill };
}

/**
 * The values files of each chart folder: the folder's own, `values.yaml` first, then those that releases of the
 * project give the chart from elsewhere (an Argo CD Application's `valueFiles`, a helmfile's or a script's `-f`), in
 * the order they are given.
 */
function valuesFiles(files: readonly FileFacts[]): Map<string, FileFacts[]> {
  const out = new Map<string, FileFacts[]>();
  for (const f of files) {
    const name = f.file.slice(f.file.lastIndexOf("/") + 1);
    if (!isValuesName(name)) continue;
    const dir = dirOf(f.file);
    const list = out.get(dir);
    if (list) list.push(f);
    else out.set(dir, [f]);
  }
  for (const list of out.values()) list.sort((a, b) => rank(a.file) - rank(b.file) || a.file.localeCompare(b.file));
  for (const [dir, given] of releaseValues(files)) {
    const list = out.get(dir) ?? [];
    for (const f of given) if (!list.includes(f)) list.push(f);
    out.set(dir, list);
  }
  return out;
}

/** The chart folders of the project: those holding a `Chart.yaml`, or the `templates/` of a chart. */
function chartFolders(files: readonly FileFacts[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    const name = f.file.slice(f.file.lastIndexOf("/") + 1);
    if (name === "Chart.yaml" || name === "Chart.yml") out.add(dirOf(f.file));
    const dir = chartDir(f.file);
    if (dir !== undefined) out.add(dir);
  }
  return out;
}

/** Per chart folder, the values files the project's releases give it, in order. */
function releaseValues(files: readonly FileFacts[]): Map<string, FileFacts[]> {
  const out = new Map<string, FileFacts[]>();
  const releases = files.flatMap((f) => f.helmReleases ?? []);
  if (releases.length === 0) return out;
  const charts = chartFolders(files);
  const byFile = new Map(files.map((f) => [f.file, f]));
  for (const r of releases) {
    let chart: string | undefined;
    let base: string | undefined;
    if (r.from === "repository") {
      chart = byTail([...charts], r.chart.value);
      base = chart;
    } else {
      // A script may be run from any folder above it; the first from which the chart is a chart folder is taken.
      for (let dir: string | undefined = r.from.folder; dir !== undefined; dir = parentOf(dir)) {
        if (charts.has(resolvePath(dir, r.chart.value.trim()))) {
          chart = resolvePath(dir, r.chart.value.trim());
          base = dir;
          break;
        }
      }
    }
    if (chart === undefined || base === undefined) continue;
    const list = out.get(chart) ?? [];
    for (const v of r.values) {
      const written = v.value.trim();
      // Argo CD's `$ref/path` names a file of another source of the Application: its repository path.
      const ref = /^\$[\w-]+\/(.*)$/.exec(written)?.[1];
      const path = ref === undefined ? resolvePath(base, written) : undefined;
      const found = path !== undefined ? byFile.get(path) : undefined;
      const file =
        found ?? (r.from === "repository" ? byFile.get(byTail([...byFile.keys()], ref ?? written) ?? "") : undefined);
      if (file && !list.includes(file)) list.push(file);
    }
    out.set(chart, list);
  }
  return out;
}

function parentOf(dir: string): string | undefined {
  if (dir === "" || dir === "/") return undefined;
  const i = dir.lastIndexOf("/");
  return i <= 0 ? "/" : dir.slice(0, i);
}

/** The one path whose last segments are all of `written`'s (a repository path: `charts/flink`, `../envs/prod.yaml`). */
function byTail(paths: string[], written: string): string | undefined {
  const wanted = written.split("/").filter((p) => p !== "" && p !== "." && p !== "..");
  if (wanted.length === 0) return undefined;
  const tail = `/${wanted.join("/")}`;
  const hits = paths.filter((p) => p.endsWith(tail));
  return hits.length === 1 ? hits[0] : undefined;
}

function rank(file: string): number {
  return /\/values\.ya?ml$/.test(file) ? 0 : 1;
}
