/**
 * Helm values files (and other non-Kubernetes YAML) that carry Flink configuration for a chart to render:
 * a `flinkConfiguration:` mapping at any depth (charts that template a FlinkDeployment), or an embedded
 * `flink-conf.yaml: |` / `config.yaml: |` text (the operator chart's `defaultConfiguration`).
 */
import { isMap, isScalar, isSeq, type Node, type Pair } from "yaml";
import { pushAll } from "../arrays";
import { emptyFacts, type FileFacts, type FlinkConfig } from "../model";
import { readEmbeddedConfig } from "./flinkConfig/embedded";
import { readMapConfig } from "./flinkConfig/mapConfig";
import { flinkImageVersion, imageEvidence, operatorFlinkVersion, within } from "./images";
import { getPair, getValue, keyText, parseYamlDocuments, scalarText, type YamlDocument, YamlSource } from "./yaml/ast";
import { scalarLines } from "./yaml/scalarLines";

export function isValuesName(name: string): boolean {
  return /^values([.-][^/]*)?\.ya?ml$/i.test(name);
}

/** Reads the Flink parts of a values file; the kind stays "other" when there are none and the name is not values*. */
export function readHelmValues(file: string, text: string, docs: YamlDocument[], byName: boolean): FileFacts {
  const src = new YamlSource(file, text);
  const facts = emptyFacts(file, "helmValues", text);
  for (const doc of docs) walk(src, doc.contents, "", facts, 0);
  const hasFlink = facts.flinkConfigs.length > 0;
  if (!hasFlink && !byName) return emptyFacts(file, "other", text);
  if (hasFlink) {
    const problems = docs.flatMap((d) =>
      src.problems(d, "Helm cannot read this values file, so the chart does not render."),
    );
    facts.syntaxErrors = [...problems, ...facts.syntaxErrors];
  }
  return facts;
}

const MAX_DEPTH = 32;

function walk(src: YamlSource, node: unknown, path: string, facts: FileFacts, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (isSeq(node)) {
    node.items.forEach((item, i) => {
      walk(src, item, `${path}[${i}]`, facts, depth + 1);
    });
    return;
  }
  if (!isMap(node)) return;
  imageVersion(src, node, facts);
  for (const pair of node.items as Pair[]) {
    const name = keyText(pair);
    const keyNode = pair.key as Node | null;
    if (name === undefined || !keyNode?.range) continue;
    const here = path ? `${path}.${name}` : name;
    const anchor = src.range(keyNode.range[0], keyNode.range[1]);
    if (name === "flinkConfiguration" && (isMap(pair.value) || scalarText(pair.value) === "")) {
      facts.flinkConfigs.push(
        readMapConfig({ src, pair, keyName: name, id: `${src.file}#${here}`, host: "helmValues", anchor }),
      );
      continue;
    }
    if ((name === "flink-conf.yaml" || name === "config.yaml") && isScalar(pair.value)) {
      const lines = scalarLines(src, pair.value);
      if (!lines) continue;
      const { config, problems } = readEmbeddedConfig({
        src,
        text: lines,
        id: `${src.file}#${here}`,
        host: "helmValues",
        logicalName: name,
        anchor,
        yamlErrorMessage: "Flink cannot load the config.yaml this chart deploys.",
      });
      facts.flinkConfigs.push(config);
      pushAll(facts.syntaxErrors, problems);
      continue;
    }
    if (name === "flinkVersion") {
      const loc = src.locatedString(pair.value);
      const evidence = loc && operatorFlinkVersion(loc);
      if (evidence) facts.flinkVersions.push(evidence);
    }
    walk(src, pair.value, here, facts, depth + 1);
  }
}

/** `image: flink:1.19` or `image: {repository: flink, tag: "1.19.1"}`. */
function imageVersion(src: YamlSource, map: unknown, facts: FileFacts): void {
  const image = src.locatedString(getValue(map, "image"));
  const direct = image && imageEvidence(image);
  if (direct) facts.flinkVersions.push(direct);
  const repository = scalarText(getValue(map, "repository"));
  const tag = src.locatedString(getValue(map, "tag"));
  if (repository === undefined || !tag) return;
  const v = flinkImageVersion(`${repository}:${tag.value}`);
  if (!v) return;
  const range = within(tag, v.offset - repository.length - 1, v.length);
  facts.flinkVersions.push({ minor: v.minor, full: v.full, source: "image", location: { file: tag.file, range } });
}

const parsedValues = new WeakMap<FileFacts, { src: YamlSource; root: unknown }>();
const valuesConfigs = new WeakMap<FileFacts, Map<string, FlinkConfig | null>>();

/**
 * The mapping at `path` of a values file (`strategyDiscoveryPipeline.configuration`) read as a Flink configuration,
 * for a chart template that writes it into a `flinkConfiguration` (`{{- toYaml .Values.… | nindent 4 }}`);
 * undefined when the file sets no mapping there. The configuration is the one the file's reading gave when it is
 * a `flinkConfiguration:` of its own, else read once per file version.
 */
export function valuesConfigAt(facts: FileFacts, path: readonly string[]): FlinkConfig | undefined {
  const id = `${facts.file}#${path.join(".")}`;
  const own = facts.flinkConfigs.find((c) => c.id === id);
  if (own) return own;
  let byPath = valuesConfigs.get(facts);
  if (!byPath) {
    byPath = new Map();
    valuesConfigs.set(facts, byPath);
  }
  const known = byPath.get(id);
  if (known !== undefined) return known ?? undefined;
  let parsed = parsedValues.get(facts);
  if (!parsed) {
    const [doc] = parseYamlDocuments(facts.text);
    parsed = { src: new YamlSource(facts.file, facts.text), root: doc?.contents ?? null };
    parsedValues.set(facts, parsed);
  }
  let parent: unknown = parsed.root;
  let pair: Pair | undefined;
  for (const key of path) {
    pair = getPair(parent, key);
    parent = pair?.value;
  }
  const keyNode = pair?.key as Node | null | undefined;
  const config =
    pair && isMap(pair.value) && keyNode?.range
      ? readMapConfig({
          src: parsed.src,
          pair,
          keyName: path[path.length - 1],
          id,
          host: "helmValues",
          anchor: parsed.src.range(keyNode.range[0], keyNode.range[1]),
        })
      : undefined;
  byPath.set(id, config ?? null);
  return config;
}
