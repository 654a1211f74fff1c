/**
 * What the DataStream rules (BFL5xx) share beyond the derived project facts (project/streams.ts): the fix that turns
 * checkpointing on, written in the job's language, and the names fixes give new ids.
 */

import type { Fix, Location, RelatedLocation } from "../../findings";
import type { JobCode, StreamEnvironment } from "../../jobcode/facts";
import { enableCheckpointingText as callText, enableCheckpointingEdit } from "../../jobcode/intents";
import type { ProjectModel } from "../../workspace/project";

/** `env.enableCheckpointing(60_000)` in the job's language with the project's fix interval, for messages. */
export function enableCheckpointingText(
  project: ProjectModel,
  code: JobCode | undefined,
  env: StreamEnvironment | undefined,
): string {
  return callText(code?.language ?? "java", env?.variable ?? "env", project.config.checkpointIntervalMillis);
}

/**
 * `env.enableCheckpointing(<interval>)` right after the statement creating the environment, in the job's language,
 * with the project's configured fix interval (one minute unless `.beam-flink-lint.yaml` says otherwise).
 */
export function enableCheckpointingFix(project: ProjectModel, env: StreamEnvironment | undefined): Fix | undefined {
  const insert = env && enableCheckpointingEdit(env, project.config.checkpointIntervalMillis);
  if (!env || !insert) return undefined;
  return {
    title: `Checkpoint every ${project.config.checkpointInterval}: ${insert.text}`,
    safety: "unsafe",
    changes: [{ file: env.file, edits: [insert.edit] }],
  };
}

/** A name for the job in ids the fixes insert (group id, transactional id prefix): `OrdersJob.java` → `orders-job`. */
export function jobName(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1).replace(/\.(java|scala|sc|kt|py)$/, "");
  const kebab = base
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
  return kebab || "flink-job";
}

export function relatedAll(locations: Location[], message: string): RelatedLocation[] {
  return locations.map((l) => ({ ...l, message }));
}
