/**
 * The Flink Kafka connector versions of a project as BFL306 and BFL307 see them: one site per place where a
 * connector version is defined, from the build (a literal, property, variable or catalog entry that feeds
 * `flink-connector-kafka` / `flink-sql-connector-kafka`) or from a jar a Dockerfile puts into an image; and the
 * Flink minor of the cluster the connector runs on.
 */

import { sharedFolders } from "../../documents/paths";
import type { Fix, Location, RelatedLocation } from "../../findings";
import { type ConnectorVersion, isKafkaConnector, parseConnectorVersion } from "../../knowledge/kafkaConnector";
import type { FlinkVersionEvidence, ImageJar, Located, ResolvedDependency } from "../../model";
import type { ProjectModel } from "../../workspace/project";
import { usesAsRelated, versionSites } from "./beamVersions";

export interface ConnectorSite {
  /** The connector artifacts the version feeds, e.g. ["flink-sql-connector-kafka"]. */
  artifacts: string[];
  version: ConnectorVersion;
  /** Where findings point: the version at its definition. */
  at: Location;
  /** Related information at the places that use the version. */
  uses: RelatedLocation[];
  /** Every place the version is declared, to tell the connector's own Flink-version evidence from the cluster's. */
  declarations: Location[];
  /** The Dockerfile that puts the jar into an image: that image's Flink is the one the jar runs on. */
  image?: string;
  /** The edit that writes another version where this one is defined; undefined when there is no safe place. */
  rewrite(version: string): Fix | undefined;
}

function sameStart(a: Location, b: Location): boolean {
  return (
    a.file === b.file &&
    a.range.start.line === b.range.start.line &&
    a.range.start.character === b.range.start.character
  );
}

function rewriteAt(title: string, file: string, ranges: Location["range"][], version: string): Fix {
  return {
    title,
    safety: "unsafe",
    changes: [{ file, edits: ranges.map((range) => ({ range, newText: version })) }],
  };
}

/** Build sites: a definition feeding connector artifacts, rewritten there when it feeds nothing else. */
function buildSites(project: ProjectModel): ConnectorSite[] {
  const out: ConnectorSite[] = [];
  for (const site of versionSites(project)) {
    const deps = site.dependencies.filter((d) => isKafkaConnector(d.group, d.artifact));
    const version = deps.length > 0 ? parseConnectorVersion(site.version) : undefined;
    if (!version) continue;
    const definition: Located<string> | undefined = site.definition;
    const shared = project.dependencies.some(
      (d: ResolvedDependency) =>
        !isKafkaConnector(d.group, d.artifact) &&
        d.versionDefinition !== undefined &&
        definition !== undefined &&
        sameStart(d.versionDefinition, definition),
    );
    out.push({
      artifacts: [...new Set(deps.map((d) => d.artifact))],
      version,
      at: site.at,
      // Where the version comes through a property or variable, each use; an inline version is its own use.
      uses: usesAsRelated(
        deps.filter((d) => d.via.length > 0),
        site.version,
      ).map((r) => ({
        ...r,
        message: r.message.replace(`gets Beam ${site.version}`, `gets ${site.version}`),
      })),
      declarations: [site.at, ...deps.map((d) => d.declaration)],
      rewrite: (next) =>
        definition && definition.value === site.version && !shared
          ? rewriteAt(`Upgrade the Kafka connector to ${next}`, site.at.file, [site.at.range], next)
          : undefined,
    });
  }
  return out;
}

/**
 * Image sites: one per jar reference. The upgrade rewrites the version where it is defined, only for a jar that is
 * downloaded (a local jar would have to be replaced as well) and, for a version from an ARG or ENV, only for an
 * external connector version, which cannot also be Flink's.
 */
function jarSite(jar: ImageJar, version: ConnectorVersion): ConnectorSite {
  const fromArg = jar.versionDefinition.range.start.line !== jar.declaration.range.start.line;
  const canRewrite = jar.downloaded && (!fromArg || !version.bundled);
  return {
    artifacts: [jar.artifact],
    version,
    at: { file: jar.versionDefinition.file, range: jar.versionDefinition.range },
    uses: fromArg ? [{ ...jar.declaration, message: `${jar.artifact} ${jar.version} goes into the image here.` }] : [],
    declarations: [jar.declaration, { file: jar.versionDefinition.file, range: jar.versionDefinition.range }],
    ...(jar.loaded ? {} : { image: jar.declaration.file }),
    rewrite: (next) =>
      canRewrite
        ? rewriteAt(`Upgrade the Kafka connector to ${next}`, jar.versionDefinition.file, jar.versionEdits, next)
        : undefined,
  };
}

/** Every place the project defines a Kafka connector version, builds first. */
export function connectorSites(project: ProjectModel): ConnectorSite[] {
  // A jar a job loads that a Dockerfile of the project also bakes into an image is that jar: reported there.
  const baked = new Set(project.imageJars.filter((j) => !j.loaded).map((j) => `${j.artifact} ${j.version}`));
  const jars = project.imageJars.flatMap((jar) => {
    if (!isKafkaConnector(jar.group, jar.artifact)) return [];
    if (jar.loaded && baked.has(`${jar.artifact} ${jar.version}`)) return [];
    const version = parseConnectorVersion(jar.version);
    return version ? [jarSite(jar, version)] : [];
  });
  return [...buildSites(project), ...jars];
}

/** Evidence that says what the cluster runs; the connector's own version suffix, runners and settings do not. */
const CLUSTER_SOURCES: Partial<Record<FlinkVersionEvidence["source"], string>> = {
  projectConfig: "flinkVersion in the project configuration",
  flinkDeployment: "FlinkDeployment flinkVersion",
  image: "the Flink image tag",
  dependency: "the Flink dependencies of the build",
};

/**
 * Of the cluster evidence, the project configuration's when it names a version; else the evidence closest to the
 * connector (most folders in common with its file), the project's order breaking ties: in a repository of several
 * examples, the deployment next to a build is the one its job runs on.
 */
function nearestEvidence(
  candidates: FlinkVersionEvidence[],
  file: string | undefined,
): FlinkVersionEvidence | undefined {
  const pinned = candidates.find((e) => e.source === "projectConfig");
  if (pinned || file === undefined) return pinned ?? candidates[0];
  const shared = (e: FlinkVersionEvidence) => (e.location ? sharedFolders(file, e.location.file) : 0);
  let best: FlinkVersionEvidence | undefined;
  let most = -1;
  for (const e of candidates) {
    const n = shared(e);
    if (n > most) {
      best = e;
      most = n;
    }
  }
  return best;
}

/**
 * What the stage a Dockerfile line belongs to is built from (its last `FROM` above the line): an official Flink image
 * with a version (`flink`), one without (`floating`: `flink:latest`, `flink:java17`, no tag), or something else.
 */
function stageBase(project: ProjectModel, dockerfile: string, line: number): "flink" | "floating" | "other" {
  let base: "flink" | "floating" | "other" = "other";
  for (const stage of project.fileFacts(dockerfile)?.dockerStages ?? []) if (stage.line <= line) base = stage.base;
  return base;
}

export interface ClusterMinor {
  minor: string;
  /** The version as named, e.g. 1.19.1. */
  shown: string;
  label: string;
  location?: Location;
  /** The evidence itself, for reports. */
  evidence: FlinkVersionEvidence;
}

/**
 * The Flink minor of the cluster the connectors run on: for a jar baked into an image, the Flink of that image when its
 * Dockerfile names one (`FROM flink:2.2.0`); otherwise the project's resolved Flink version, unless the evidence for it
 * is a connector's own version. A repository of several examples names many Flink versions: the image a jar goes
 * into is the one it runs with.
 */
export function clusterMinorFor(
  project: ProjectModel,
  sites: ConnectorSite[],
  site?: ConnectorSite,
): ClusterMinor | undefined {
  const resolved = project.flinkVersion;
  if (!resolved) return undefined;
  const own = (e: FlinkVersionEvidence) =>
    e.location !== undefined && sites.some((s) => s.declarations.some((d) => sameStart(d, e.location as Location)));
  const all = [resolved.evidence, ...resolved.others];
  let evidence: FlinkVersionEvidence | undefined;
  if (site?.image) {
    const line = site.declarations[0]?.range.start.line ?? 0;
    const stage = stageBase(project, site.image, line);
    // `FROM flink:java17`, `flink:latest`: whatever Flink is newest when the image is built; nobody knows which.
    if (stage === "floating") return undefined;
    if (stage === "flink")
      evidence = all
        .filter(
          (e) => e.source === "image" && e.location?.file === site.image && (e.location?.range.start.line ?? 0) <= line,
        )
        .filter((e) => !own(e))
        .at(-1);
  }
  evidence ??= nearestEvidence(
    all.filter((e) => CLUSTER_SOURCES[e.source] && !own(e)),
    site?.at.file,
  );
  // Known from the build alone, the Flink of its core artifacts is the job's, also where they share the version
  // property of the connector (`${flink.version}` for flink-streaming-java and flink-connector-kafka 1.16.1 alike).
  if (evidence?.source === "dependency") {
    const core = nearestEvidence(
      all.filter((e) => e.source === "dependency" && e.core),
      site?.at.file,
    );
    if (core) evidence = core;
  }
  if (!evidence) return undefined;
  const m = /^(\d+)\.(\d+)/.exec(evidence.minor);
  if (!m) return undefined;
  return {
    minor: `${m[1]}.${m[2]}`,
    shown: evidence.full ?? `${m[1]}.${m[2]}`,
    label: evidence.kind ? `${evidence.kind} flinkVersion` : (CLUSTER_SOURCES[evidence.source] as string),
    location: evidence.location,
    evidence,
  };
}
