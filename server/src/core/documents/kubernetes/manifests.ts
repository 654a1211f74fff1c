/**
 * Kubernetes manifests: every document of a file on its own (a broken document does not hide the others),
 * every object as a K8sObject, and the Flink parts: ConfigMap data entries holding flink-conf.yaml or Flink's
 * config.yaml, FlinkDeployment / FlinkSessionJob resources, Confluent Platform FlinkApplications,
 * FlinkEnvironments and ComputePools, JobManager / TaskManager Deployments, StatefulSets and Jobs.
 */
import type { Node } from "yaml";
import { pushAll } from "../../arrays";
import { emptyFacts, type FileFacts, type K8sObject, markNotAnalysed } from "../../model";
import { readEmbeddedConfig } from "../flinkConfig/embedded";
import { looksLikeFlinkConfig } from "../flinkConfig/file";
import { argoHelmReleases } from "../helmReleases";
import { readSqlPieces, type SqlPiece } from "../sql/reader";
import { getIn, getMap, keyText, mapPairs, type YamlDocument, YamlSource } from "../yaml/ast";
import type { MaskedTemplate } from "../yaml/helmTemplate";
import { type ScalarLines, scalarLines } from "../yaml/scalarLines";
import { containerBeamArgs } from "./containerArgs";
import {
  isConfluentApplication,
  isConfluentSpec,
  isOperatorResource,
  readConfluentSpec,
  readFlinkDeployment,
} from "./flinkDeployment";
import { jobArgSqlPieces } from "./jobArgsSql";
import { objectKey, readK8sObject, wrappedObjects } from "./objects";
import { readWorkload } from "./workload";

export interface ManifestOptions {
  /**
   * A Helm chart template, parsed with its `{{ … }}` actions masked (yaml/helmTemplate.ts). A document that still
   * does not parse is not YAML until rendered: it is skipped, its parse errors are not reported, and if it holds a
   * Flink part (a FlinkDeployment, a Flink ConfigMap or workload) that part is reported as not analysed (BFL003).
   */
  template?: MaskedTemplate;
}

const CONFIG_DATA_KEYS = new Set(["flink-conf.yaml", "config.yaml"]);

export function readManifests(
  file: string,
  text: string,
  docs: YamlDocument[],
  options: ManifestOptions,
  src = new YamlSource(file, text, undefined, options.template),
): FileFacts {
  const facts = emptyFacts(file, "kubernetes", text);
  const sqlPieces: SqlPiece[] = [];
  docs.forEach((doc, documentIndex) => {
    if (options.template && doc.errors.length > 0) {
      unreadTemplate(src, doc, documentIndex, facts);
      return;
    }
    const object = readK8sObject(src, doc, documentIndex);
    if (!object) return;
    const objects = [{ object, node: doc.contents as unknown }, ...wrappedObjects(src, doc.contents, object)];
    for (const { object: o, node } of objects) {
      facts.k8sObjects.push(o);
      readObject(src, node, o, facts);
      if (!options.template && o.kind === "FlinkDeployment" && isOperatorResource(o))
        pushAll(sqlPieces, jobArgSqlPieces(src, getIn(node, ["spec"])));
    }
  });
  if (sqlPieces.length > 0) {
    const read = readSqlPieces(file, text, sqlPieces, false, [], "deploymentArgs");
    if (read.script) {
      facts.sql = read.script;
      if (read.script.config.entries.length > 0) facts.flinkConfigs.push(read.script.config);
      pushAll(facts.syntaxErrors, read.problems);
    }
  }
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

function readObject(src: YamlSource, root: unknown, object: K8sObject, facts: FileFacts): void {
  if (object.kind === "ConfigMap") readConfigMap(src, root, object, facts);
  else if (isOperatorResource(object) || isConfluentApplication(object)) readFlinkDeployment(src, root, object, facts);
  else if (isConfluentSpec(object)) readConfluentSpec(src, root, object, facts);
  else if (object.kind === "Deployment" || object.kind === "StatefulSet" || object.kind === "Job")
    readWorkload(src, root, object, facts);
  else if (object.kind === "Application" && (object.apiVersion ?? "").startsWith("argoproj.io/")) {
    const releases = argoHelmReleases(src, root);
    if (releases.length > 0) facts.helmReleases = [...(facts.helmReleases ?? []), ...releases];
  }
  const args = containerBeamArgs(src, root, object);
  if (args.length > 0) facts.beamArgs = [...(facts.beamArgs ?? []), ...args];
}

/**
 * A document of a Helm template that does not parse even with its actions masked: nothing of it is read, since
 * what the parser recovered may not be what Helm renders. When what was recovered is a Flink part, the user is
 * told at its kind that it is not checked; documents of other kinds stay silent (not this product's business).
 */
function unreadTemplate(src: YamlSource, doc: YamlDocument, documentIndex: number, facts: FileFacts): void {
  const object = readK8sObject(src, doc, documentIndex);
  if (!object) return;
  const probe = emptyFacts(src.file, "kubernetes", src.text);
  readObject(src, doc.contents, object, probe);
  for (const w of wrappedObjects(src, doc.contents, object)) readObject(src, w.node, w.object, probe);
  if (probe.flinkConfigs.length + probe.workloads.length + probe.flinkDeployments.length === 0) return;
  const [first] = doc.errors;
  const at = first ? src.position(first.pos[0]) : object.kindRange.start;
  const said = first ? ` The YAML parser says, at line ${at.line + 1}: ${first.message.replace(/\.?$/, ".")}` : "";
  markNotAnalysed(
    facts,
    object.kindRange,
    `This ${object.kind} is not valid YAML even with its Helm template actions set aside, so it is not checked.`,
    `Helm renders a template before Kubernetes reads it; the analysis reads the template itself, with each \`{{ … }}\` action set aside, and this document does not parse that way.${said} Lint the rendered chart (\`helm template\`) to check this ${object.kind}.`,
  );
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
      id: `${src.file}#${objectKey(object)}/data/${name}`,
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
