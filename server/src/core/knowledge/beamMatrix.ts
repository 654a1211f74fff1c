/**
 * The Beam ↔ Flink matrix: which `beam-runners-flink-<minor>` artifacts exist for which Beam release, and the
 * Flink minor each runner needs (the one in its name). The data is beam-flink-matrix.json.
 */
import matrix from "./beam-flink-matrix.json";
import { inVersionRange } from "./mavenVersion";

export const BEAM_GROUP = "org.apache.beam";

export interface RunnerAvailability {
  flinkMinor: string;
  /** First Beam release that publishes the runner. */
  since: string;
  /** First Beam release that no longer does; absent while it is still published. */
  removedIn?: string;
}

const RUNNERS: readonly RunnerAvailability[] = matrix.runners;

const RUNNER_ARTIFACT = /^beam-runners-flink-(\d+\.\d+)$/;

/**
 * Whether a coordinate is a Java Flink runner (the classic runner that job code links against). The
 * `-job-server` artifacts run Python, Go and other portable pipelines and are not runners in this sense.
 */
export function isFlinkRunner(group: string, artifact: string): boolean {
  if (group !== BEAM_GROUP) return false;
  if (LEGACY_RUNNER.test(artifact)) return true;
  return artifact.startsWith("beam-runners-flink-") && !artifact.endsWith("-job-server");
}

/**
 * The runner artifacts of Beam releases before the Flink minor moved into the name: `beam-runners-flink_2.11`
 * (and `_2.10`, `_2.12`), suffixed with the Scala version Flink was built with. Each Beam release built it against
 * one Flink version, which the name does not say.
 */
const LEGACY_RUNNER = /^beam-runners-flink_2\.1\d$/;

export function isLegacyFlinkRunner(artifact: string): boolean {
  return LEGACY_RUNNER.test(artifact);
}

/** The Flink minor a runner artifact is built for: `beam-runners-flink-1.17` needs a Flink 1.17.x cluster. */
export function runnerFlinkMinor(artifact: string): string | undefined {
  return RUNNER_ARTIFACT.exec(artifact)?.[1];
}

/** Whether the matrix describes this Beam release (outside its span nothing can be said about missing runners). */
function matrixCovers(beamVersion: string): boolean {
  return inVersionRange(beamVersion, { introduced: matrix.coverage.from, fixed: matrix.coverage.before });
}

export function runnerAvailability(flinkMinor: string): RunnerAvailability | undefined {
  return RUNNERS.find((r) => r.flinkMinor === flinkMinor);
}

function published(r: RunnerAvailability, beamVersion: string): boolean {
  return inVersionRange(beamVersion, { introduced: r.since, fixed: r.removedIn });
}

/** The Flink minors with a runner in this Beam release, oldest first; undefined outside the matrix's span. */
export function flinkMinorsFor(beamVersion: string): string[] | undefined {
  if (!matrixCovers(beamVersion)) return undefined;
  return RUNNERS.filter((r) => published(r, beamVersion)).map((r) => r.flinkMinor);
}

/**
 * Whether Beam publishes the runner for `flinkMinor` in this release; undefined when the matrix cannot tell (a
 * minor it does not list, on a release outside its span: a newer Beam may have added it).
 */
export function isRunnerPublished(beamVersion: string, flinkMinor: string): boolean | undefined {
  const r = runnerAvailability(flinkMinor);
  if (r) return published(r, beamVersion);
  return matrixCovers(beamVersion) ? false : undefined;
}

/** Upgrade notes of the matrix that apply to a Beam release. */
export function matrixNotes(beamVersion: string): string[] {
  return matrix.notes
    .filter((n) => inVersionRange(beamVersion, { introduced: n.from, fixed: "before" in n ? n.before : undefined }))
    .map((n) => n.text);
}
