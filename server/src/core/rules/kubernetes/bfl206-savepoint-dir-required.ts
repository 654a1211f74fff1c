import type { Location, RelatedLocation } from "../../findings";
import { hasSavepointDirCheck, SAVEPOINT_DIR_CHECKS, type SavepointDirCheck } from "../../knowledge/operator";
import { type Cluster, clustersOf, isSet, mayBeCompleted, settingOf, upgradeModeOf } from "../../project/clusters";
import { insertFix, PLACEHOLDER, savepointDirKey } from "../clusterFixes";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { operatorRelated, operatorVersionOf } from "./operatorVersion";

const MANIFEST = (extra: string) => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  flinkVersion: v1_20
  flinkConfiguration:
    execution.checkpointing.dir: s3://flink-state/orders/checkpoints
    kubernetes.operator.periodic.savepoint.interval: 6h
${extra}  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
    upgradeMode: last-state
`;

/** Where a check's trigger is set for the cluster: the nonce in spec.job, or an operator key in its configuration. */
function triggerOf(cluster: Cluster, check: SavepointDirCheck): Location | undefined {
  if (check.trigger === "savepointTriggerNonce") {
    const nonce = cluster.deployment?.savepointTriggerNonce;
    return nonce && nonce.value.trim() !== "" && nonce.value.trim() !== "null" ? nonce : undefined;
  }
  const setting = settingOf(cluster, check.trigger, true);
  return setting ? { file: setting.config.file, range: setting.entry.keyRange } : undefined;
}

/** What asks for savepoints, with its verb: "periodic savepoints need". */
function whatFor(check: SavepointDirCheck): string {
  if (check.trigger === "savepointTriggerNonce") return "a manual savepoint (savepointTriggerNonce) needs";
  if (check.trigger.endsWith("periodic.savepoint.interval")) return "periodic savepoints need";
  return "the last-state checkpoint age limit needs";
}

export const rule: Rule = {
  meta: {
    code: "BFL206",
    name: "savepoint-dir-required",
    family: "kubernetes",
    severity: "error",
    description:
      "A FlinkDeployment that asks the operator for savepoints (trigger nonce, periodic savepoints, checkpoint age limit) without a savepoint directory.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a FlinkDeployment (or Confluent FlinkApplication) that sets `job.savepointTriggerNonce` (operator 1.0.0 and later), `kubernetes.operator.periodic.savepoint.interval` (1.1.0 and later) or `kubernetes.operator.job.upgrade.last-state.max.allowed.checkpoint.age` (1.5.0 and later) in its configuration or the operator's default configuration, while no savepoint directory (`execution.checkpointing.savepoint-dir`, before Flink 1.20 `state.savepoints.dir`) is set. The finding points at the first of them in the order the validator checks them; the others are related information.",
      whyItMatters:
        'All of these make the operator take savepoints, which need a place to go. Its validator refuses the resource ("Savepoint could not be manually triggered for the running job while config key[…] is not set", "Periodic savepoints cannot be enabled when config key[…] is not set", "In order to use max-checkpoint age functionality config key[…] must be set to allow triggering savepoint upgrades."), so the FlinkDeployment is not deployed or upgraded. Operator 1.15 still checks all three.',
      bad: { "flink-deployment.yaml": MANIFEST("") },
      good: {
        "flink-deployment.yaml": MANIFEST(
          "    execution.checkpointing.savepoint-dir: s3://flink-state/orders/savepoints\n",
        ),
      },
      whenNotToFire:
        "A savepoint directory set under any of its keys, as a template, or in the operator's default configuration found in the project's Helm values (for a Confluent FlinkApplication, also in its Flink environment's application defaults; one whose environment the project does not show is not reported); `upgradeMode: savepoint` without a directory (BFL202 reports that, and the same key fixes both); a key the project's operator release does not know yet (periodic savepoints before 1.1.0, the checkpoint age limit before 1.5.0). The fix inserts a placeholder location that must be replaced.",
      references: [
        "apache/flink-kubernetes-operator DefaultValidator.validateJobSpec at release-1.0.0 … release-1.15.0 and main",
        "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/custom-resource/job-management/",
      ],
    },
  },
  check(ctx) {
    const version = operatorVersionOf(ctx.project);
    for (const cluster of clustersOf(ctx.project)) {
      if (!cluster.deployment || mayBeCompleted(cluster)) continue;
      // The validator reports upgradeMode savepoint first; BFL202 has it.
      if (upgradeModeOf(cluster) === "savepoint") continue;
      if (isSet(cluster, "execution.checkpointing.savepoint-dir", true)) continue;
      const triggers = SAVEPOINT_DIR_CHECKS.filter((c) => hasSavepointDirCheck(c, version)).flatMap((check) => {
        const at = triggerOf(cluster, check);
        return at ? [{ check, at }] : [];
      });
      if (triggers.length === 0) continue;
      const [first, ...others] = triggers;
      const key = savepointDirKey(cluster);
      const related: RelatedLocation[] = [
        operatorRelated(
          ctx.project,
          `The validator says: "${first.check.message}" (operator ${first.check.since} and later).`,
          first.at,
        ),
        ...others.map((t) => ({ ...t.at, message: `${sentenceCase(whatFor(t.check))} it too.` })),
      ];
      const fix = insertFix(cluster.config, `Add ${key} (placeholder location)`, [[key, PLACEHOLDER.savepoints]]);
      ctx.report({
        file: first.at.file,
        range: first.at.range,
        message: fitting(
          `The operator rejects this ${cluster.deployment.kind}: ${whatFor(first.check)} a savepoint directory, and none is set.`,
          `The operator rejects this ${cluster.deployment.kind}: it needs a savepoint directory, and none is set.`,
        ),
        related,
        fixes: fix ? [fix] : [],
      });
    }
  },
};

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
