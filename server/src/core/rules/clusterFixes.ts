/**
 * What the cluster-level rules share to report and fix: related information at a setting, inserting entries into a
 * configuration in its own style, placeholder values, and the key names a fix writes for the project's Flink version.
 */
import type { Fix, RelatedLocation } from "../findings";
import type { FlinkConfig } from "../model";
import type { Setting } from "../project/clusters";
import { comparePositions, type Range, type TextEdit } from "../text";
import { flinkAtLeast, type ProjectModel } from "../workspace/project";

export function related(setting: Setting, message: string, at: "key" | "value" = "value"): RelatedLocation {
  return {
    file: setting.config.file,
    range: at === "key" ? setting.entry.keyRange : setting.entry.valueRange,
    message,
  };
}

/** A fix that inserts entries into a configuration in its own style; undefined where the host takes no new line. */
export function insertFix(config: FlinkConfig, title: string, entries: [string, string][]): Fix | undefined {
  const edits: TextEdit[] = [];
  for (const [key, value] of entries) {
    const edit = config.insertEntry(key, value);
    if (!edit) return undefined;
    const same = edits.find((e) => sameRange(e.range, edit.range));
    if (same) same.newText = mergeInsertions(same.newText, edit.newText);
    else edits.push(edit);
  }
  return { title, safety: "unsafe", changes: [{ file: config.file, edits }] };
}

function sameRange(a: Range, b: Range): boolean {
  return comparePositions(a.start, b.start) === 0 && comparePositions(a.end, b.end) === 0;
}

/**
 * insertEntry plans one entry at a time, so two entries inserted at the same point each bring the parent lines
 * they need (`flinkConfiguration:`, `execution:` …). Lines the second insertion starts with like the first are
 * those parents (or the line break before them) and are written once.
 */
function mergeInsertions(first: string, second: string): string {
  const a = first.split(/(?<=\n)/);
  const b = second.split(/(?<=\n)/);
  let shared = 0;
  while (shared < a.length - 1 && shared < b.length - 1 && a[shared] === b[shared]) shared++;
  return first + b.slice(shared).join("");
}

/** Placeholder locations for fixes: invalid URIs on purpose, so a cluster never starts with them unchanged. */
export const PLACEHOLDER = {
  checkpoints: "s3://<bucket>/flink/checkpoints",
  savepoints: "s3://<bucket>/flink/savepoints",
  haStorage: "s3://<bucket>/flink/ha",
  clusterId: "<cluster-id>",
  zookeeperQuorum: "<zookeeper-host>:2181",
};

/**
 * The checkpoint directory key to write: `execution.checkpointing.dir` from Flink 1.20; before that, and when the
 * version is unknown, `state.checkpoints.dir`, which every version reads (as a deprecated alias from 1.20 on).
 */
export function checkpointDirKey(project: ProjectModel): string {
  return flinkAtLeast(project, "1.20") === true ? "execution.checkpointing.dir" : "state.checkpoints.dir";
}

export function savepointDirKey(project: ProjectModel): string {
  return flinkAtLeast(project, "1.20") === true ? "execution.checkpointing.savepoint-dir" : "state.savepoints.dir";
}

/**
 * `high-availability.type` from Flink 1.17, `high-availability` before. Unknown versions get the new key: Flink
 * before 1.17 is out of support, and the old key cannot stand next to `high-availability.storageDir` in config.yaml.
 */
export function haTypeKey(project: ProjectModel): string {
  return flinkAtLeast(project, "1.17") === false ? "high-availability" : "high-availability.type";
}
