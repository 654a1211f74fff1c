/**
 * Kubernetes manifests: every document of a file on its own (a broken document does not hide the others),
 * every object as a K8sObject, and the Flink parts: ConfigMap data entries holding flink-conf.yaml or Flink's
 * config.yaml, FlinkDeployment / FlinkSessionJob resources, JobManager / TaskManager Deployments and StatefulSets.
 */
import type { Node } from "yaml";
import { pushAll } from "../../arrays";
import { emptyFacts, type FileFacts, type K8sObject } from "../../model";
import { readEmbeddedConfig } from "../flinkConfig/embedded";
import { looksLikeFlinkConfig } from "../flinkConfig/file";
import { getMap, keyText, mapPairs, type YamlDocument, YamlSource } from "../yaml/ast";
import { type ScalarLines, scalarLines } from "../yaml/scalarLines";
import { containerBeamArgs } from "./containerArgs";
import { isOperatorResource, readFlinkDeployment } from "./flinkDeployment";
import { readK8sObject } from "./objects";
import { readWorkload } from "./workload";

export interface ManifestOptions {
  /**
   * A Helm chart template: `{{ … }}` directives make parts of it invalid YAML until rendered, so documents that
   * do not parse are skipped and parse errors are not reported.
   */
  template: boolean;
}

const CONFIG_DATA_KEYS = new Set(["flink-conf.yaml", "config.yaml"]);

export function readManifests(
  file: string,
  text: string,
  docs: YamlDocument[],
  options: ManifestOptions,
  src = new YamlSource(file, text),
): FileFacts {
  const facts = emptyFacts(file, "kubernetes", text);
  docs.forEach((doc, documentIndex) => {
    if (options.template && doc.errors.length > 0) return;
    const object = readK8sObject(src, doc, documentIndex);
    if (!object) return;
    facts.k8sObjects.push(object);
    const root = doc.contents;
    if (object.kind === "ConfigMap") readConfigMap(src, root, object, facts);
    else if (isOperatorResource(object)) readFlinkDeployment(src, root, object, facts);
    else if (object.kind === "Deployment" || object.kind === "StatefulSet") readWorkload(src, root, object, facts);
    const args = containerBeamArgs(src, root, object);
    if (args.length > 0) facts.beamArgs = [...(facts.beamArgs ?? []), ...args];
  });
  const hasFlink = facts.flinkConfigs.length > 0 || facts.workloads.length > 0 || facts.flinkDeployments.length > 0;
  if (options.template) facts.syntaxErrors = [];
  else if (hasFlink) {
    const problems = docs.flatMap((d) =>
      src.problems(d, "Kubernetes cannot read this manifest, so `kubectl apply` fails on it."),
    );
    facts.syntaxErrors = [...problems, ...facts.syntaxErrors];
  }
  return facts;
}

function readConfigMap(src: YamlSource, root: unknown, object: K8sObject, facts: FileFacts) {
  const holder = object.name ? `ConfigMap ${object.name}` : "this ConfigMap";
  const data = getMap(root, "data");
  for (const pair of mapPairs(data)) {
    const name = keyText(pair);
    const keyNode = pair.key as Node | null;
    if (name === undefined || !CONFIG_DATA_KEYS.has(name) || !keyNode?.range) continue;
    const lines = scalarLines(src, pair.value);
    if (!lines) continue;
    if (name === "config.yaml" && !flinkConfigMap(object, data) && !looksLikeFlinkConfig(linesText(lines))) continue;
    const logicalName = name as "flink-conf.yaml" | "config.yaml";
    const { config, problems } = readEmbeddedConfig({
      src,
      text: lines,
      id: `${src.file}#${object.documentIndex}/data/${name}`,
      host: "configmap",
      logicalName,
      anchor: src.range(keyNode.range[0], keyNode.range[1]),
      owner: object,
      yamlErrorMessage: `Flink cannot load the config.yaml of ${holder} and the cluster does not start.`,
    });
    facts.flinkConfigs.push(config);
    pushAll(facts.syntaxErrors, problems);
  }
}

/**
 * A ConfigMap that holds Flink's configuration folder: `flink-conf.yaml` or Flink's log4j files beside its
 * `config.yaml`, or a name that says so. Any other ConfigMap's `config.yaml` is Flink's only when its keys are
 * (many tools name their configuration config.yaml).
 */
function flinkConfigMap(object: K8sObject, data: unknown): boolean {
  if (/flink/i.test(object.name ?? "")) return true;
  return mapPairs(data).some((p) => {
    const key = keyText(p);
    return key === "flink-conf.yaml" || key === "log4j-console.properties" || key === "log4j.properties";
  });
}

function linesText(lines: ScalarLines): string {
  return lines.lines.map((l) => l.text).join("\n");
}
