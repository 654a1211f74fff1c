/** FlinkDeployment / FlinkSessionJob custom resources of the Flink Kubernetes Operator (flink.apache.org/*). */
import type { Node } from "yaml";
import type { FileFacts, FlinkDeploymentFacts, K8sObject, Located } from "../../model";
import { readMapConfig } from "../flinkConfig/mapConfig";
import { imageEvidence, operatorFlinkVersion } from "../images";
import { getIn, getMap, getPair, seqItems, type YamlSource } from "../yaml/ast";

export function isOperatorResource(object: K8sObject): boolean {
  return (
    (object.kind === "FlinkDeployment" || object.kind === "FlinkSessionJob") &&
    (object.apiVersion ?? "").startsWith("flink.apache.org/")
  );
}

export function readFlinkDeployment(src: YamlSource, root: unknown, object: K8sObject, facts: FileFacts): void {
  const kind = object.kind as FlinkDeploymentFacts["kind"];
  const spec = getMap(root, "spec");
  const job = getMap(spec, "job");
  const configPair = getPair(spec, "flinkConfiguration");
  const configKey = keyRange(src, configPair?.key);
  const config = readMapConfig({
    src,
    pair: configPair,
    parent: spec,
    keyName: "flinkConfiguration",
    id: `${src.file}#${object.documentIndex}/spec.flinkConfiguration`,
    host: kind === "FlinkDeployment" ? "flinkDeployment" : "flinkSessionJob",
    anchor: configKey ?? object.kindRange,
    owner: object,
  });
  const deployment: FlinkDeploymentFacts = {
    object,
    kind,
    flinkVersion: src.locatedString(getIn(spec, ["flinkVersion"])),
    image: src.locatedString(getIn(spec, ["image"])),
    mode: src.locatedString(getIn(spec, ["mode"])),
    upgradeMode: src.locatedString(getIn(job, ["upgradeMode"])),
    savepointTriggerNonce: src.locatedString(getIn(job, ["savepointTriggerNonce"])),
    jobParallelism: src.locatedInt(getIn(job, ["parallelism"])),
    jobArgs: seqItems(getIn(job, ["args"]))
      .map((n) => src.locatedString(n))
      .filter((a): a is Located<string> => a !== undefined),
    taskManagerReplicas: src.locatedInt(getIn(spec, ["taskManager", "replicas"])),
    jobManagerReplicas: src.locatedInt(getIn(spec, ["jobManager", "replicas"])),
    flinkConfigurationKey: configKey,
    config,
    jobKey: keyRange(src, getPair(spec, "job")?.key),
    jarURI: src.locatedString(getIn(job, ["jarURI"])),
  };
  facts.flinkDeployments.push(deployment);
  facts.flinkConfigs.push(config);
  const version = deployment.flinkVersion && operatorFlinkVersion(deployment.flinkVersion);
  if (version) facts.flinkVersions.push(version);
  const image = deployment.image && imageEvidence(deployment.image);
  if (image) facts.flinkVersions.push(image);
}

function keyRange(src: YamlSource, key: unknown) {
  const r = (key as Node | null | undefined)?.range;
  return r ? src.range(r[0], r[1]) : undefined;
}
