/**
 * Resolves the dependencies of one project from the raw facts of all its build files (Gradle scripts,
 * gradle.properties, version catalogs, poms), and the Flink versions the build names. Versions are resolved
 * statically from literals only; anything the build computes stays unknown.
 */
import type { FileFacts, FlinkVersionEvidence, ResolvedDependency } from "../model";
import { GradleBuild } from "./build/gradle";
import { MavenBuild } from "./build/maven";

export interface BuildModel {
  /** Every module's dependencies, then the variants Maven profiles produce (with `profile` set). */
  dependencies: ResolvedDependency[];
  /** Flink versions named by flink-* dependency versions and by the runner artifact, from a plain build. */
  flinkVersions: FlinkVersionEvidence[];
}

/**
 * `files`: the project's files; `otherPoms`: the poms elsewhere in the workspace, where a parent or an imported
 * BOM may live (asked for only when one is not in the project).
 */
export function resolveBuild(root: string, files: FileFacts[], otherPoms: () => FileFacts[] = () => []): BuildModel {
  if (!files.some((f) => f.build)) return { dependencies: [], flinkVersions: [] };
  const maven = new MavenBuild(root, files, otherPoms);
  const { dependencies: pomDependencies, profileVariants } = maven.resolve();
  const plain = [...new GradleBuild(root, files, maven).resolve(), ...pomDependencies];
  return { dependencies: [...plain, ...profileVariants], flinkVersions: flinkEvidence(plain) };
}

const RUNNER = /^beam-runners-flink-(\d+\.\d+)(-.*)?$/;
/** Flink artifacts released on their own version line, which says nothing about the Flink version. */
const OWN_VERSION_LINE = /^flink-(shaded|statefun|ml|kubernetes-operator|cdc|table-store|agents)/;
/** Flink's own modules that every job builds on: their version is the Flink the job runs with. */
const CORE_ARTIFACT =
  /^flink-(core|java|scala|streaming-java|streaming-scala|clients|runtime|table-api-|table-planner|table-runtime|table-common)/;
/** Externalized connectors: `3.2.0-1.18` is connector 3.2.0 for Flink 1.18. */
const CONNECTOR_VERSION = /^\d+\.\d+(\.\d+)?-(\d+\.\d+)$/;

export function flinkEvidence(dependencies: ResolvedDependency[]): FlinkVersionEvidence[] {
  const out: FlinkVersionEvidence[] = [];
  const seen = new Map<string, FlinkVersionEvidence>();
  const add = (e: FlinkVersionEvidence) => {
    const at = e.location
      ? `${e.location.file}:${e.location.range.start.line}:${e.location.range.start.character}`
      : "";
    const key = `${e.source}:${e.minor}:${at}`;
    const known = seen.get(key);
    if (known) {
      // One version property of several artifacts: core when any of them is.
      if (e.core) known.core = true;
      return;
    }
    seen.set(key, e);
    out.push(e);
  };
  for (const d of dependencies) {
    if (d.group === "org.apache.beam") {
      const runner = RUNNER.exec(d.artifact);
      if (runner) add({ minor: runner[1], source: "runner", location: d.declaration });
    } else if (d.group === "org.apache.flink" && d.artifact.startsWith("flink-") && d.version) {
      if (OWN_VERSION_LINE.test(d.artifact)) continue;
      const location = d.versionDefinition
        ? { file: d.versionDefinition.file, range: d.versionDefinition.range }
        : d.declaration;
      const connector = CONNECTOR_VERSION.exec(d.version);
      if (connector) {
        add({ minor: connector[2], source: "dependency", location });
        continue;
      }
      const plain = /^(\d+)\.(\d+)(\.\d+)?/.exec(d.version);
      // A connector without the Flink suffix has its own version unless it still follows Flink's (1.x).
      if (!plain || (d.artifact.includes("connector") && plain[1] !== "1")) continue;
      add({
        minor: `${plain[1]}.${plain[2]}`,
        full: plain[0],
        source: "dependency",
        location,
        ...(CORE_ARTIFACT.test(d.artifact) ? { core: true as const } : {}),
      });
    }
  }
  return out;
}
