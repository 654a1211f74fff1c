import { codeCheckpointStorage } from "../../project/checkpointing";
import {
  checkpointing,
  clustersOf,
  haOf,
  isSet,
  knownValue,
  mayBeCompleted,
  runsBatch,
  type Setting,
  settingOf,
  unreadSetting,
  upgradeModeOf,
} from "../../project/clusters";
import { checkpointDirKey, insertFix, PLACEHOLDER, related } from "../clusterFixes";
import { fitting } from "../messages";
import type { Rule } from "../types";

function every(millis: number): string {
  if (millis % 60_000 === 0) return `${millis / 60_000} min`;
  if (millis % 1_000 === 0) return `${millis / 1_000} s`;
  return `${millis} ms`;
}

export const rule: Rule = {
  meta: {
    code: "BFL112",
    name: "checkpoint-storage-missing",
    family: "flink-config",
    severity: "warning",
    description: "Checkpointing or high availability is on, but no checkpoint directory is configured.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a configuration that enables periodic checkpointing (`execution.checkpointing.interval` > 0) or high availability (`high-availability.type`) without a checkpoint directory (`execution.checkpointing.dir`, before Flink 1.20 `state.checkpoints.dir`).",
      whyItMatters:
        "Without a directory Flink keeps checkpoints in JobManager memory (JobManagerCheckpointStorage). They are lost when the JobManager process goes away, so a JobManager failover or a redeploy starts every job without state, although checkpoints were being taken all along; large state also overloads the JobManager.",
      bad: { "flink-conf.yaml": "execution.checkpointing.interval: 30 s\n" },
      good: {
        "flink-conf.yaml":
          "execution.checkpointing.interval: 30 s\nstate.checkpoints.dir: s3://flink-state/checkpoints\n",
      },
      whenNotToFire:
        "Checkpointing enabled only in job code (the code may configure its own storage), checkpoint storage explicitly set to `jobmanager`, a directory written under any of its keys (`execution.checkpointing.dir`, `state.checkpoints.dir`, `state.backend.fs.checkpointdir`) or as a template, configurations partly filled in by a Helm template (a `{{- toYaml .Values.x | nindent 4 }}` is read from the chart's values files instead, and a directory any of them sets counts; the finding is then at the interval in the values file), batch configurations, and FlinkDeployments with upgradeMode last-state or savepoint (BFL202 reports those as errors: the operator rejects them). When the project's job code sets its own checkpoint storage (in any language: `setStateBackend(new RocksDBStateBackend(uri))`, `getCheckpointConfig().setCheckpointStorage(uri)`, a `Configuration` with `state.checkpoints.dir` given to the environment), the finding is only information, with the code as related information. The fix inserts `state.checkpoints.dir` unless the project's Flink version is known to be 1.20 or newer, since every version reads that key.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/checkpoints/#checkpoint-storage",
        "FLINK-34255 (execution.checkpointing.dir replaces state.checkpoints.dir in 1.20)",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/checkpoints/#retained-checkpoints",
      ],
    },
  },
  check(ctx) {
    // Jobs that choose their checkpoint storage in code (a state backend with a URI, setCheckpointStorage) keep
    // their checkpoints there; the cluster's default only matters for the other jobs.
    const inCode = codeCheckpointStorage(ctx.project);
    const severity = inCode.length > 0 ? ("info" as const) : undefined;
    const codeRelated = inCode.map((l) => ({ ...l, message: "The job code sets its checkpoint storage here." }));
    const codeNote =
      inCode.length > 0
        ? " This project's job code sets its own checkpoint storage (see related information); jobs that do not"
        : "";
    for (const cluster of clustersOf(ctx.project)) {
      const dirKey = checkpointDirKey(cluster);
      if (runsBatch(cluster) || mayBeCompleted(cluster)) continue;
      const mode = upgradeModeOf(cluster);
      if (mode === "last-state" || mode === "savepoint") continue;
      if (isSet(cluster, "execution.checkpointing.dir")) continue;
      if (knownValue(settingOf(cluster, "execution.checkpointing.storage"))?.toLowerCase() === "jobmanager") continue;
      const state = checkpointing(cluster);
      const ha = haOf(cluster);
      let trigger: Setting;
      let reason: string;
      if (state.kind === "on" && state.setting) {
        trigger = state.setting;
        reason = `Checkpoints are taken every ${every(state.millis)}, but no checkpoint directory is set`;
      } else if ((ha.kind === "kubernetes" || ha.kind === "zookeeper" || ha.kind === "custom") && ha.setting) {
        trigger = ha.setting;
        reason = "High availability restarts jobs from their latest checkpoint, but no checkpoint directory is set";
      } else continue;
      const unread = unreadSetting(cluster, "execution.checkpointing.dir");
      const lost =
        "checkpoints are kept in JobManager memory and are lost when the JobManager fails over or is redeployed, so jobs restart without their state";
      if (unread) {
        ctx.report({
          file: trigger.config.file,
          range: trigger.entry.keyRange,
          message: fitting(
            `${reason} that Flink ${cluster.minor} reads, so checkpoints are lost when the JobManager fails over.`,
            `${reason} that Flink ${cluster.minor} reads.`,
          ),
          details: `Flink ${cluster.minor} ignores ${unread.entry.key}, so ${lost}. Write the directory as ${dirKey}.`,
          severity,
          related: [related(unread, `Flink ${cluster.minor} does not read this key.`, "key"), ...codeRelated],
          // A nested key's range is its last segment only; renaming it there would not give the flat key.
          fixes:
            unread.entry.nested || unread.config.inexactRanges
              ? []
              : [
                  {
                    title: `Rename ${unread.entry.key} to ${dirKey}`,
                    safety: "unsafe",
                    changes: [{ file: unread.config.file, edits: [{ range: unread.entry.keyRange, newText: dirKey }] }],
                  },
                ],
        });
        continue;
      }
      const fix = insertFix(cluster.config, `Add ${dirKey} (placeholder location)`, [
        [dirKey, PLACEHOLDER.checkpoints],
      ]);
      ctx.report({
        file: trigger.config.file,
        range: trigger.entry.keyRange,
        message: codeNote
          ? fitting(`${reason} for the jobs whose code does not set its own storage.`, `${reason}.`)
          : fitting(`${reason}: checkpoints are lost when the JobManager fails over.`, `${reason}.`),
        details: codeNote
          ? `${codeNote.trim()} lose their checkpoints when the JobManager fails over. Set ${dirKey} to durable shared storage.`
          : `Without it ${lost}. Set ${dirKey} to durable shared storage (s3://, gs://, hdfs://, abfss://).`,
        severity,
        related: codeRelated,
        fixes: fix ? [fix] : [],
      });
    }
  },
};
