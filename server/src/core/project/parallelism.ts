/**
 * Where a project's job code sets the default parallelism of its jobs itself: the DataStream environment's
 * `setParallelism(n)` (Kotlin `env.parallelism = n`, PyFlink `set_parallelism(n)`) and Beam's `parallelism`
 * option (a setter, a keyword argument, or a `--parallelism=n` flag written in the code). Either wins over the
 * cluster's `parallelism.default` for every operator that does not set its own, so a deployment-side parallelism
 * (FlinkDeployment `taskManager.replicas` × slots, `parallelism.default`) is not what such a job runs with.
 */
import type { Location } from "../findings";
import { callText, type JobCode } from "../jobcode/facts";
import type { ProjectModel } from "../workspace/project";
import { namesFile, productionCode } from "./jobCode";
import { numberOf } from "./streams";

export interface CodeParallelism extends Location {
  /** The parallelism, when the code gives it as a literal or a constant. */
  value?: number;
  /** How messages quote it, as written: `env.setParallelism(4)`, `env.parallelism = 4`, `--parallelism=4`. */
  label: string;
}

export interface JobsParallelism {
  /** Every place production code sets it (unconditionally), in source order per file. */
  settings: CodeParallelism[];
  /**
   * Every job of the project sets it: each production file that creates a stream environment or a Beam pipeline
   * sets it itself, or takes it from a helper file it names (one that is no job of its own).
   */
  everyJob: boolean;
}

/** Known values that leave the choice to the cluster (`-1`, Flink's and Beam's "not set") are no setting. */
function sets(value: number | undefined): boolean {
  return value === undefined || value > 0;
}

function inFile(code: JobCode): CodeParallelism[] {
  const out: CodeParallelism[] = [];
  for (const p of code.dataStream.environmentParallelism) {
    if (p.method !== "setParallelism" || p.call.conditional) continue;
    const value = p.value.value.kind === "unknown" ? undefined : numberOf(p.value.value);
    if (p.value.value.kind !== "unknown" && value === undefined) continue;
    if (!sets(value)) continue;
    out.push({ file: p.call.file, range: p.call.callRange, value, label: callText(p.call, p.environment) });
  }
  for (const s of code.beamOptions.settings) {
    if (s.option !== "parallelism" || s.call.conditional) continue;
    const v = s.value.value;
    const value = v.kind === "unknown" ? undefined : numberOf(v);
    if ((v.kind !== "unknown" && value === undefined) || !sets(value)) continue;
    out.push({ file: s.call.file, range: s.call.callRange, value, label: callText(s.call, s.target) });
  }
  for (const a of code.beamOptions.args) {
    if (a.name !== "parallelism" || a.value === undefined) continue;
    const value = /^\d+$/.test(a.value) ? Number(a.value) : undefined;
    if (!sets(value)) continue;
    out.push({ file: a.file, range: a.range, value, label: `--parallelism=${a.value}` });
  }
  return out;
}

const cache = new WeakMap<ProjectModel, JobsParallelism>();

/** Where the project's production job code sets its jobs' default parallelism, and whether every job does. */
export function codeParallelism(project: ProjectModel): JobsParallelism {
  let found = cache.get(project);
  if (!found) {
    found = findCodeParallelism(project);
    cache.set(project, found);
  }
  return found;
}

function findCodeParallelism(project: ProjectModel): JobsParallelism {
  const code = productionCode(project);
  const settings = code.flatMap(inFile);
  const isJob = (c: JobCode) => c.dataStream.environments.length > 0 || c.beamOptions.pipelines.length > 0;
  const jobs = code.filter(isJob);
  const setIn = new Set(settings.map((s) => s.file));
  const helpers = code.filter((c) => !isJob(c) && setIn.has(c.file));
  const covered = (job: JobCode) => {
    if (setIn.has(job.file)) return true;
    const text = project.fileFacts(job.file)?.text ?? "";
    return helpers.some((h) => namesFile(project, h.file, project.fileFacts(h.file)?.text ?? "", text));
  };
  return { settings, everyJob: jobs.length > 0 && settings.length > 0 && jobs.every(covered) };
}
