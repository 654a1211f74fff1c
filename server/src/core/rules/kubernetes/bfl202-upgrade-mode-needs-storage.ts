import { clustersOf, isSet, mayBeCompleted, upgradeModeOf } from "../../project/clusters";
import { checkpointDirKey, insertFix, PLACEHOLDER, savepointDirKey } from "../clusterFixes";
import { fitting } from "../messages";
import type { Rule } from "../types";

const MANIFEST = (extra: string) => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_20
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
${extra}  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
    upgradeMode: last-state
`;

export const rule: Rule = {
  meta: {
    code: "BFL202",
    name: "upgrade-mode-needs-storage",
    family: "kubernetes",
    severity: "error",
    description:
      "A FlinkDeployment upgrade mode that needs a checkpoint or savepoint directory that is not configured.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports `job.upgradeMode: last-state` or `savepoint` in a FlinkDeployment (or Confluent FlinkApplication) without a checkpoint directory (`execution.checkpointing.dir`, before Flink 1.20 `state.checkpoints.dir`), and `savepoint` without a savepoint directory (`execution.checkpointing.savepoint-dir`, before 1.20 `state.savepoints.dir`).",
      whyItMatters:
        'These upgrade modes carry the job\'s state across upgrades through checkpoints or savepoints, which need a place to live. The operator\'s validator refuses the resource ("Checkpoint directory[execution.checkpointing.dir] must be defined for last-state and savepoint upgrade modes", "Job could not be upgraded with savepoint while config key[…] is not set"), so the job is not deployed or upgraded.',
      bad: { "flink-deployment.yaml": MANIFEST("") },
      good: {
        "flink-deployment.yaml": MANIFEST("    execution.checkpointing.dir: s3://flink-state/orders/checkpoints\n"),
      },
      whenNotToFire:
        "`upgradeMode: stateless` (the default), directories given under any of their keys or as templates (or in a flinkConfiguration partly filled in by a Helm template), and directories set in the operator's default configuration found in the project's Helm values or, for a Confluent FlinkApplication, in its Flink environment's application defaults. A FlinkApplication whose Flink environment the project does not show (no FlinkEnvironment, several and none named, or the named one missing) is not reported: the environment may set what is missing. The other requests for savepoints that need a savepoint directory (a trigger nonce, periodic savepoints, the last-state checkpoint age limit) are BFL206's. The fixes insert placeholder locations that must be replaced.",
      references: [
        "apache/flink-kubernetes-operator DefaultValidator.validateJobSpec",
        "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/custom-resource/job-management/#stateful-and-stateless-application-upgrades",
      ],
    },
  },
  check(ctx) {
    // The operator validates with its own Flink classes, which read every spelling of these keys.
    for (const cluster of clustersOf(ctx.project)) {
      const mode = upgradeModeOf(cluster);
      const at = cluster.deployment?.upgradeMode;
      if (!at || mayBeCompleted(cluster) || (mode !== "last-state" && mode !== "savepoint")) continue;
      const missing: { key: string; value: string; what: string }[] = [];
      if (!isSet(cluster, "execution.checkpointing.dir", true)) {
        missing.push({
          key: checkpointDirKey(cluster),
          value: PLACEHOLDER.checkpoints,
          what: "a checkpoint directory",
        });
      }
      if (mode === "savepoint" && !isSet(cluster, "execution.checkpointing.savepoint-dir", true)) {
        missing.push({
          key: savepointDirKey(cluster),
          value: PLACEHOLDER.savepoints,
          what: "a savepoint directory",
        });
      }
      if (missing.length === 0) continue;
      const keys = missing.map((m) => m.key).join(" and ");
      const needs = missing.map((m) => m.what).join(" and ");
      const fix = insertFix(
        cluster.config,
        `Add ${keys} (placeholder locations)`,
        missing.map((m) => [m.key, m.value]),
      );
      ctx.report({
        file: at.file,
        range: at.range,
        message: fitting(
          `upgradeMode ${at.value} needs ${needs}, but ${missing.length > 1 ? "neither is" : "none is"} set: the operator rejects the deployment.`,
          `upgradeMode ${at.value} needs a storage directory that is not set: the operator rejects the deployment.`,
        ),
        details: `upgradeMode ${at.value} carries the job's state across upgrades, so the job is not deployed or upgraded without it. Set ${keys} in flinkConfiguration to durable shared storage (s3://, gs://, hdfs://).`,
        fixes: fix ? [fix] : [],
      });
    }
  },
};
