import { isDockerfileName } from "../../fileNames";
import type { FlinkVersionEvidence } from "../../model";
import { clustersOf, ownEvidence } from "../../project/clusters";
import { flinkVersionFieldLabel } from "../../project/versions";
import { parseMinor } from "../../workspace/project";
import { basename } from "../../workspace/workspace";
import { fitting } from "../messages";
import type { Rule } from "../types";

const MANIFEST = (image: string) => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  image: ${image}
  flinkVersion: v1_19
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
    execution.checkpointing.interval: 1 min
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
    upgradeMode: stateless
`;

/**
 * A deployment's own layers: its FlinkDeployment's (or FlinkApplication's) flinkVersion and its images (manifest,
 * compose, Dockerfile).
 */
function isLayer(e: FlinkVersionEvidence): boolean {
  return e.source === "flinkDeployment" || e.source === "image";
}

/** How a message names a layer of a deployment. */
function layer(e: FlinkVersionEvidence): string {
  if (e.source === "flinkDeployment") return flinkVersionFieldLabel(e);
  return e.location && isDockerfileName(basename(e.location.file)) ? "the Dockerfile's base image" : "the image";
}

function minorOf(e: FlinkVersionEvidence): string | undefined {
  const p = parseMinor(e.minor);
  return p ? `${p.major}.${p.minor}` : undefined;
}

export const rule: Rule = {
  meta: {
    code: "BFL207",
    name: "deployment-layers-disagree",
    family: "kubernetes",
    severity: "error",
    description: "One deployment's layers name different Flink minors (flinkVersion, image, base image).",
    fix: "none",
    docs: {
      whatItDoes:
        "Compares the Flink versions the layers of one deployment name: a FlinkDeployment's (or Confluent FlinkApplication's) `flinkVersion` and the tag of its `image` (the official `flink` image, or Confluent's `confluentinc/cp-flink`, whose tag `1.19.3-cp1` is Flink 1.19.3), the image of the compose services or Kubernetes pods that run a configuration, and the Dockerfile `FROM` a compose service builds its image from. It reports each layer that names another minor than the first, with the first as related information, and cites only that deployment's own files.",
      whyItMatters:
        "The operator configures the cluster for the `flinkVersion` it is told (configuration keys, the way it upgrades and restores jobs), while the JobManager and TaskManagers run the Flink of the image. When they disagree, keys the image's Flink does not read are ignored, savepoints may not restore, and the job can fail at start with class or serializer errors. The same holds for a compose cluster whose services run different Flink images, or a base image that is not the version the deployment claims.",
      bad: { "k8s/orders.yaml": MANIFEST("flink:1.18.1") },
      good: { "k8s/orders.yaml": MANIFEST("flink:1.19.1") },
      whenNotToFire:
        "Custom images whose tag says nothing about Flink (`my-registry/orders:1.4`), deployments with a single version source, and versions named in different deployments of the project (those are separate clusters). A project configuration `flinkVersion` overrides what the files say and silences this rule.",
      references: [
        "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/custom-resource/reference/ (FlinkDeploymentSpec.flinkVersion)",
        "https://hub.docker.com/_/flink (official image tags)",
      ],
    },
  },
  check(ctx) {
    // A layer two clusters share (a compose file's image, a Dockerfile) is reported once.
    const seen = new Set<string>();
    for (const cluster of clustersOf(ctx.project)) {
      const { version } = cluster;
      if (version.strength !== "conflicting") continue;
      // The deployment's own layers only: the build's Flink dependencies and connector suffixes are BFL303 and
      // BFL307's.
      // Only the cluster's own layers: a cluster without versioned layers of its own takes the project's, which
      // are other deployments'.
      // ownEvidence lists a FlinkDeployment's flinkVersion before its image.
      const [first, ...rest] = ownEvidence(ctx.project, cluster).filter(isLayer);
      const firstMinor = first && minorOf(first);
      if (!firstMinor || !first.location) continue;
      for (const e of rest) {
        const minor = minorOf(e);
        if (!minor || minor === firstMinor || !e.location) continue;
        const key = `${e.location.file}:${e.location.range.start.line}:${e.location.range.start.character}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // Two layers of one kind (two services' images) are told apart as this one and the other one.
        const same = layer(e) === layer(first);
        const subject = same
          ? `This ${layer(e).replace(/^the /, "")}`
          : `${layer(e)[0].toUpperCase()}${layer(e).slice(1)}`;
        const other = same ? layer(first).replace(/^the /, "the other ") : layer(first);
        ctx.report({
          file: e.location.file,
          range: e.location.range,
          message: fitting(
            `${subject} is Flink ${minor}, but ${other} is Flink ${firstMinor}: the cluster runs another Flink.`,
            `This says Flink ${minor}, but ${other} is Flink ${firstMinor}: the cluster runs another Flink.`,
          ),
          details:
            "The cluster runs another Flink than it is configured for: make the deployment's layers name one Flink minor.",
          related: [
            {
              ...first.location,
              message: `${layer(first)[0].toUpperCase()}${layer(first).slice(1)} says Flink ${firstMinor} here.`,
            },
          ],
        });
      }
    }
  },
};
