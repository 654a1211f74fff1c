import type { RelatedLocation } from "../../findings";
import { LAST_STATE_HA_CHECKS, lastStateHaCheck } from "../../knowledge/operator";
import { clustersOf, haOf, isSet, upgradeModeOf } from "../../project/clusters";
import { haTypeKey, insertFix, PLACEHOLDER } from "../clusterFixes";
import type { Rule } from "../types";
import { operatorRelated, operatorVersionOf } from "./operatorVersion";

const MANIFEST = (ha: string) => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_18
  flinkConfiguration:
    execution.checkpointing.dir: s3://flink-state/orders/checkpoints
${ha}  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
    upgradeMode: last-state
`;

const OPERATOR = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: flink-kubernetes-operator
spec:
  template:
    spec:
      containers:
        - name: flink-kubernetes-operator
          image: ghcr.io/apache/flink-kubernetes-operator:1.9.0
`;

const last = LAST_STATE_HA_CHECKS[LAST_STATE_HA_CHECKS.length - 1];

/** The release line before a version: 1.10.0 → 1.9.x. */
function lineBefore(version: string): string {
  const [major, minor] = version.split(".").map(Number);
  return `${major}.${minor - 1}.x`;
}

export const rule: Rule = {
  meta: {
    code: "BFL205",
    name: "last-state-without-ha",
    family: "kubernetes",
    severity: "error",
    description:
      "A FlinkDeployment with `upgradeMode: last-state` and no high availability, which operator releases up to 1.9 reject.",
    fix: "unsafe",
    docs: {
      whatItDoes: `Reports \`job.upgradeMode: last-state\` in a FlinkDeployment whose configuration (including the operator's default configuration in the project's Helm values) turns no high availability on, when the operator release is one whose validator requires it: 1.0.0 up to 1.3.x need Kubernetes HA, 1.4.0 up to 1.9.x accept Kubernetes or ZooKeeper HA, and from ${last.removedIn} the check is gone. The operator version comes from \`operatorVersion\` in the project configuration, an operator image tag or the operator's Helm chart; with none known the finding is information only.`,
      whyItMatters:
        'A last-state upgrade restarts the job from the checkpoint the HA metadata points at, so older operators insist on HA and refuse the resource ("Job could not be upgraded with last-state while HA disabled"; before 1.4: "… while Kubernetes HA disabled"). The FlinkDeployment is then never deployed or upgraded, and only its status says why. Operator 1.10 reworked last-state upgrades (FLINK-35414) and no longer needs HA for them.',
      bad: { "flink-deployment.yaml": MANIFEST(""), "operator.yaml": OPERATOR },
      good: {
        "flink-deployment.yaml": MANIFEST(
          "    high-availability.type: kubernetes\n    high-availability.storageDir: s3://flink-state/orders/ha\n",
        ),
        "operator.yaml": OPERATOR,
      },
      whenNotToFire:
        "Confluent Platform FlinkApplications: Confluent's operator has release numbers of its own, which the Apache releases this rule knows do not describe. Operator 1.10.0 and later; other upgrade modes; HA set under any of its keys, also as a template or in the operator's default configuration; ZooKeeper HA under operator 1.4.0 and later. Before 1.4.0 only Kubernetes HA counts, so ZooKeeper HA is reported there. The fix inserts Kubernetes HA with a placeholder storage location that must be replaced; where another HA type is set, there is no fix.",
      references: [
        "apache/flink-kubernetes-operator DefaultValidator.validateJobSpec at release-1.0.0 … release-1.9.0 (FlinkUtils.isKubernetesHAActivated up to 1.3.x, HighAvailabilityMode.isHighAvailabilityModeActivated from 1.4.0, FLINK-27273)",
        "FLINK-35414 (operator 1.10.0: last-state upgrades without HA; commit d1827a4d)",
      ],
    },
  },
  check(ctx) {
    const version = operatorVersionOf(ctx.project);
    for (const cluster of clustersOf(ctx.project)) {
      const at = cluster.deployment?.upgradeMode;
      if (!at || cluster.incomplete || upgradeModeOf(cluster) !== "last-state") continue;
      // Confluent's operator is released under its own version numbers, which these releases do not describe.
      if (cluster.deployment?.kind === "FlinkApplication") continue;
      const ha = haOf(cluster, true).kind;
      if (ha === "unknown" || ha === "kubernetes") continue;
      const check = version === undefined ? undefined : lastStateHaCheck(version);
      if (version !== undefined && !check) continue;
      // Known version: its own check. Unknown: the releases that have one, as information.
      const needsKubernetes = check?.ha === "kubernetes";
      if (ha !== "none" && !needsKubernetes) continue;
      const what = needsKubernetes ? "Kubernetes HA" : "high availability";
      const found = ha === "none" ? "none is on" : `this one uses ${ha === "zookeeper" ? "ZooKeeper" : "another"} HA`;
      const related: RelatedLocation[] = [
        operatorRelated(
          ctx.project,
          check
            ? `Operators ${check.since} to ${lineBefore(check.removedIn)} reject it: "${check.message}".`
            : `Operator releases up to 1.9 reject it ("Job could not be upgraded with last-state while HA disabled"); from ${last.removedIn} the check is gone.`,
          at,
        ),
      ];
      const haKey = haTypeKey(cluster);
      const entries: [string, string][] = [[haKey, "kubernetes"]];
      if (!isSet(cluster, "high-availability.storageDir", true)) {
        entries.push(["high-availability.storageDir", PLACEHOLDER.haStorage]);
      }
      // With another HA type set, switching it is a choice for a person, not an insertion.
      const fix =
        ha === "none"
          ? insertFix(cluster.config, `Add Kubernetes HA (${entries.map(([k]) => k).join(", ")})`, entries)
          : undefined;
      ctx.report({
        file: at.file,
        range: at.range,
        severity: check ? "error" : "info",
        message: check
          ? `The operator rejects this FlinkDeployment: upgradeMode last-state needs ${what}, and ${found}.`
          : "Operators up to 1.9 reject upgradeMode last-state without high availability, and none is on here.",
        related,
        fixes: fix ? [fix] : [],
      });
    }
  },
};
