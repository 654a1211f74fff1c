/**
 * Where a project's job code turns checkpointing on, in any language and from any launcher: DataStream
 * `enableCheckpointing` / `setCheckpointInterval` / a `Configuration` interval, Beam's `checkpointingInterval`
 * (a setter, a keyword argument, or a `--checkpointingInterval` flag in code, a launch file, a script or a
 * FlinkDeployment's `job.args`), and where it chooses its own checkpoint storage. The cluster-side rules (BFL101,
 * BFL112) ask this once: a cluster whose jobs set these in code is configured by them.
 */
import type { Location } from "../findings";
import type { BeamArg, CheckpointingSetting, CodeExpr, JobCode } from "../jobcode/facts";
import type { ProjectModel } from "../workspace/project";
import { isTestCode, productionCode } from "./jobCode";

/** `60000`, `60s`, `1 min` are on; `0`, `0 ms`, `-1` and empty are off. */
function positiveText(v: string): boolean {
  return v.trim() !== "" && !/^\s*(-|0+(\s*[a-z]*)?\s*$)/i.test(v);
}

/** An interval that is on, or only known at run time (counted: it may well be on). */
function mayBeOn(interval: CodeExpr | undefined): boolean {
  const v = interval?.value;
  return (
    !v || v.kind === "unknown" || (v.kind === "number" && v.value > 0) || (v.kind === "string" && positiveText(v.value))
  );
}

function settingEnables(c: CheckpointingSetting): boolean {
  const isInterval = c.kind === "enableCheckpointing" || c.interval !== undefined;
  return isInterval && mayBeOn(c.interval);
}

/** `--checkpointingInterval=…` flags with a positive (or unknown) value. */
export function beamArgCheckpointing(args: BeamArg[]): Location[] {
  return args
    .filter((a) => a.name === "checkpointingInterval" && a.value !== undefined && positiveText(a.value))
    .map((a) => ({ file: a.file, range: a.range }));
}

function inFile(code: JobCode): Location[] {
  const out: Location[] = [];
  for (const c of code.dataStream.checkpointing)
    if (settingEnables(c)) out.push({ file: c.call.file, range: c.call.range });
  for (const s of code.beamOptions.settings) {
    if (s.option === "checkpointingInterval" && mayBeOn(s.value)) out.push({ file: s.call.file, range: s.call.range });
  }
  return out;
}

const cache = new WeakMap<ProjectModel, Location[]>();

/** The places where the project's job code (tests left out) enables checkpointing, or may. */
export function jobCheckpointing(project: ProjectModel): Location[] {
  let found = cache.get(project);
  if (!found) {
    found = [
      ...productionCode(project).flatMap(inFile),
      ...beamArgCheckpointing(project.code.beamArgs.filter((a) => !isTestCode(project, a.file))),
    ];
    cache.set(project, found);
  }
  return found;
}

/** The places where job code chooses durable checkpoint storage (a state backend with a URI, a storage path). */
export function codeCheckpointStorage(project: ProjectModel): Location[] {
  return productionCode(project).flatMap((c) =>
    c.dataStream.checkpointStorage.map((s) => ({ file: s.call.file, range: s.call.range })),
  );
}
