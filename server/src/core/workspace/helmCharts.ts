/**
 * What a Helm chart's templates take from its values files: a template's `{{- toYaml .Values.flink.config |
 * nindent 4 }}` inside a `flinkConfiguration:` writes the mapping the chart's values files set at `flink.config`.
 * The values files are those of the chart's own folder (the one that holds `templates/`): `values.yaml`, which
 * Helm always reads, first, then the others (`values-prod.yaml`), which an install may give on top.
 */
import { isValuesName, valuesConfigAt } from "../documents/helmValues";
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

/** The values files of each folder, `values.yaml` first. */
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
  return out;
}

function rank(file: string): number {
  return /\/values\.ya?ml$/.test(file) ? 0 : 1;
}
