/**
 * FlinkDeployment / FlinkSessionJob custom resources of the Flink Kubernetes Operator (flink.apache.org/*), and the
 * resources of Confluent Platform for Apache Flink built on them: a FlinkApplication (Confluent Manager for Apache
 * Flink's `cmf.confluent.io/v1` file, or the Confluent for Kubernetes resource `platform.confluent.io/v1beta1`),
 * whose spec is a FlinkDeployment's spec, and the FlinkEnvironment application defaults and ComputePool cluster specs
 * that give the clusters CMF creates their settings.
 */
import { isMap, type Node } from "yaml";
import { pushAll } from "../../arrays";
import type {
  ConfigHost,
  ConfluentFlinkSpec,
  FileFacts,
  FlinkDeploymentFacts,
  FlinkVersionEvidence,
  K8sObject,
  Located,
  PodVolume,
} from "../../model";
import { readMapConfig } from "../flinkConfig/mapConfig";
import { imageEvidence, operatorFlinkVersion } from "../images";
import { getIn, getMap, getPair, getValue, mapPairs, scalarText, seqItems, type YamlSource } from "../yaml/ast";
import { objectKey } from "./objects";

export function isOperatorResource(object: K8sObject): boolean {
  return (
    (object.kind === "FlinkDeployment" || object.kind === "FlinkSessionJob") &&
    (object.apiVersion ?? "").startsWith("flink.apache.org/")
  );
}

/** The API groups of Confluent Platform for Apache Flink: CMF's REST API and files, and CFK's custom resources. */
const CONFLUENT_API = /^(cmf|platform)\.confluent\.io\//;

/** A Confluent Platform FlinkApplication: read as the FlinkDeployment CMF creates from it. */
export function isConfluentApplication(object: K8sObject): boolean {
  return object.kind === "FlinkApplication" && CONFLUENT_API.test(object.apiVersion ?? "");
}

/** A Confluent Platform FlinkEnvironment or ComputePool. */
export function isConfluentSpec(object: K8sObject): boolean {
  return (
    (object.kind === "FlinkEnvironment" || object.kind === "ComputePool") && CONFLUENT_API.test(object.apiVersion ?? "")
  );
}

const HOSTS: Record<FlinkDeploymentFacts["kind"], ConfigHost> = {
  FlinkDeployment: "flinkDeployment",
  FlinkSessionJob: "flinkSessionJob",
  FlinkApplication: "flinkApplication",
};

export function readFlinkDeployment(src: YamlSource, root: unknown, object: K8sObject, facts: FileFacts): void {
  const kind = object.kind as FlinkDeploymentFacts["kind"];
  const versionKind = kind === "FlinkApplication" ? kind : undefined;
  const spec = getMap(root, "spec");
  const job = getMap(spec, "job");
  const configPair = getPair(spec, "flinkConfiguration");
  const configKey = keyRange(src, configPair?.key);
  const config = readMapConfig({
    src,
    pair: configPair,
    parent: spec,
    keyName: "flinkConfiguration",
    id: `${src.file}#${objectKey(object)}/spec.flinkConfiguration`,
    host: HOSTS[kind],
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
    entryClass: src.locatedString(getIn(job, ["entryClass"])),
  };
  // The operator merges a role's pod template over the top-level one: a role's mount may name a top-level volume.
  const shared = getIn(spec, ["podTemplate", "spec"]);
  const volumes = [
    ...podVolumes(src, [shared], "both"),
    ...podVolumes(src, [shared, getIn(spec, ["jobManager", "podTemplate", "spec"])], "jobmanager"),
    ...podVolumes(src, [shared, getIn(spec, ["taskManager", "podTemplate", "spec"])], "taskmanager"),
  ];
  if (volumes.length > 0) deployment.volumes = volumes;
  if (kind === "FlinkApplication") {
    const environment = src.locatedString(getIn(spec, ["flinkEnvironment"]));
    if (environment && environment.value.trim() !== "") deployment.flinkEnvironment = environment;
  }
  facts.flinkDeployments.push(deployment);
  facts.flinkConfigs.push(config);
  pushAll(facts.flinkVersions, specEvidence(deployment, versionKind));
}

/** The version evidence of a spec's `flinkVersion` and `image`. */
export function specEvidence(
  spec: { flinkVersion?: Located<string>; image?: Located<string> },
  kind?: FlinkVersionEvidence["kind"],
): FlinkVersionEvidence[] {
  const out: FlinkVersionEvidence[] = [];
  const declared = spec.flinkVersion && operatorFlinkVersion(spec.flinkVersion, kind);
  if (declared) out.push(declared);
  const image = spec.image && imageEvidence(spec.image);
  if (image) out.push(image);
  return out;
}

/**
 * A FlinkEnvironment's `spec.flinkApplicationDefaults.spec` or a ComputePool's `spec.clusterSpec`: its
 * `flinkConfiguration`, `flinkVersion` and `image`.
 */
export function readConfluentSpec(src: YamlSource, root: unknown, object: K8sObject, facts: FileFacts): void {
  const kind = object.kind as ConfluentFlinkSpec["kind"];
  const path = kind === "FlinkEnvironment" ? ["spec", "flinkApplicationDefaults", "spec"] : ["spec", "clusterSpec"];
  const spec = getIn(root, path);
  const configPair = getPair(spec, "flinkConfiguration");
  const config = readMapConfig({
    src,
    pair: configPair,
    parent: isMap(spec) ? spec : undefined,
    keyName: "flinkConfiguration",
    id: `${src.file}#${objectKey(object)}/${path.join(".")}.flinkConfiguration`,
    host: kind === "FlinkEnvironment" ? "flinkEnvironment" : "computePool",
    anchor: keyRange(src, configPair?.key) ?? object.kindRange,
    owner: object,
  });
  const read: ConfluentFlinkSpec = {
    object,
    kind,
    config,
    flinkVersion: src.locatedString(getIn(spec, ["flinkVersion"])),
    image: src.locatedString(getIn(spec, ["image"])),
  };
  facts.confluentSpecs = [...(facts.confluentSpecs ?? []), read];
  facts.flinkConfigs.push(config);
  pushAll(facts.flinkVersions, specEvidence(read, kind));
}

function keyRange(src: YamlSource, key: unknown) {
  const r = (key as Node | null | undefined)?.range;
  return r ? src.range(r[0], r[1]) : undefined;
}

/** Volume kinds every pod of the cluster reaches over the network, whatever node it runs on. */
const NETWORK_VOLUMES = ["nfs", "cephfs", "glusterfs", "azureFile", "quobyte"];

/**
 * The volumes the last of `specs` (a pod template's spec) mounts into the Flink container (`flink-main-container`,
 * the one the operator runs Flink in; sidecars do not count), with the volumes of every spec before it in reach.
 */
function podVolumes(src: YamlSource, specs: unknown[], pods: PodVolume["pods"]): PodVolume[] {
  const podSpec = specs[specs.length - 1];
  if (!podSpec) return [];
  const backing = new Map<string, Omit<PodVolume, "containerPath" | "pods" | "volume">>();
  for (const v of specs.flatMap((s) => seqItems(getValue(s, "volumes")))) {
    const name = scalarText(getValue(v, "name"));
    if (!name) continue;
    if (getValue(v, "hostPath") !== undefined)
      backing.set(name, { source: "hostPath", hostPath: scalarText(getIn(v, ["hostPath", "path"])) });
    else if (getValue(v, "persistentVolumeClaim") !== undefined)
      backing.set(name, {
        source: "persistentVolumeClaim",
        claimName: scalarText(getIn(v, ["persistentVolumeClaim", "claimName"])),
      });
    else if (getValue(v, "emptyDir") !== undefined) backing.set(name, { source: "emptyDir" });
    else if (NETWORK_VOLUMES.some((k) => getValue(v, k) !== undefined)) backing.set(name, { source: "network" });
    // Kubernetes gives a volume that names no source an emptyDir (its API defaults). In a Helm template the
    // source may be written by an action (`{{- toYaml .Values.storage | nindent 10 }}`) the parser does not see.
    else if (mapPairs(v).length === 1 && !src.template) backing.set(name, { source: "emptyDir" });
    else backing.set(name, { source: "other" });
  }
  const out: PodVolume[] = [];
  for (const c of seqItems(getValue(podSpec, "containers"))) {
    if (scalarText(getValue(c, "name")) !== "flink-main-container") continue;
    for (const m of seqItems(getValue(c, "volumeMounts"))) {
      const volume = scalarText(getValue(m, "name"));
      const containerPath = scalarText(getValue(m, "mountPath"));
      if (!volume || !containerPath) continue;
      out.push({ containerPath, volume, pods, ...(backing.get(volume) ?? { source: "other" }) });
    }
  }
  return out;
}
