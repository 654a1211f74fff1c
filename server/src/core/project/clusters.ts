import { addTo, pushAll } from "../arrays";
import { imageEvidence } from "../documents/images";
import { specEvidence } from "../documents/kubernetes/flinkDeployment";
import { objectKey } from "../documents/kubernetes/objects";
import { isAtOrUnder, sharedFolders } from "../documents/paths";
import { parseBoolean, parseDuration, parseInteger } from "../knowledge/values";
import type {
  ConfigEntry,
  ConfluentFlinkSpec,
  FlinkConfig,
  FlinkDeploymentFacts,
  FlinkVersionEvidence,
  FlinkWorkload,
  Located,
} from "../model";
import { type Position, type Range, rangeContains } from "../text";
import { flinkAtLeast, type ProjectModel } from "../workspace/project";
import { findEntry } from "./configEntries";
import { type ConfigVersion, projectWide, versionFrom } from "./versions";

export type Platform = "kubernetes" | "compose" | "unknown";

export interface Cluster {
  /** The configuration the cluster starts with; findings about missing keys point here and fixes edit it. */
  config: FlinkConfig;
  /**
   * Set on top of `config` when the containers start: FLINK_PROPERTIES of the cluster's containers, then the
   * `-Dkey=value` arguments of their start commands (the later ones win). For a Confluent FlinkApplication, the
   * `flinkConfiguration` of its environment's application defaults, which CMF merges over the application's.
   */
  overlays: FlinkConfig[];
  /**
   * Applied under `config` (Helm values: the operator's default configuration or a chart's values; first, the chart
   * values a template writes into this FlinkDeployment's `flinkConfiguration`).
   */
  defaults: FlinkConfig[];
  /** The FlinkDeployment (or Confluent FlinkApplication) whose spec.flinkConfiguration is `config`. */
  deployment?: FlinkDeploymentFacts;
  /** A Confluent FlinkApplication's Flink environment, whose application defaults CMF merges into it. */
  environment?: ClusterEnvironment;
  /** Standalone JobManager / TaskManager Deployments, StatefulSets or compose services running `config`. */
  workloads: FlinkWorkload[];
  platform: Platform;
  /**
   * Part of the configuration is filled in at deploy time (a Helm action that writes entries the chart's values do
   * not give, `{{ include … }}`, `tpl`, a `range`, or a block left empty in a Helm template): a key missing here may
   * be set there, so rules do not report missing keys. A `{{- toYaml .Values.x | nindent 4 }}` whose value the
   * chart's values files set is not: those values are among the `defaults`.
   */
  incomplete: boolean;
  /** The cluster's Flink minor, when known: keys that version does not read are not settings. */
  minor?: string;
  /** Where the cluster's Flink version comes from, and how sure it is (its own deployment, or project-wide). */
  version: ConfigVersion;
}

/**
 * The Flink environment of a Confluent FlinkApplication. CMF merges the environment's application defaults into the
 * application, and the environment's `flinkConfiguration` wins ("Flink configuration at the environment level has
 * precedence"), so a known environment's configuration is the last of the cluster's `overlays`.
 */
export interface ClusterEnvironment {
  /**
   * The environment, when the project says which it is: the FlinkEnvironment of the project the application's
   * `spec.flinkEnvironment` names (Confluent for Kubernetes), or else the project's only FlinkEnvironment.
   */
  defaults?: ConfluentFlinkSpec;
  /** The application names `defaults` (`spec.flinkEnvironment`); otherwise it is the project's only environment. */
  named: boolean;
  /**
   * The project does not show the environment: it holds none, or several and the application names none of them, or
   * the one it names is not in the project. The environment may set what the application's configuration lacks.
   */
  open: boolean;
}

/** A configuration entry and the configuration it stands in. */
export interface Setting {
  entry: ConfigEntry;
  config: FlinkConfig;
}

/** A number read from a file, for messages that show where it comes from. */
export interface Amount {
  value: number;
  /** How the message names it, e.g. `parallelism.default`. */
  label: string;
  file: string;
  range: Range;
}

const cache = new WeakMap<ProjectModel, Cluster[]>();

export function clustersOf(project: ProjectModel): Cluster[] {
  let clusters = cache.get(project);
  if (!clusters) {
    clusters = buildClusters(project);
    cache.set(project, clusters);
  }
  return clusters;
}

function dirOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/"));
}

function buildClusters(project: ProjectModel): Cluster[] {
  // A chart value a template writes into one flinkConfiguration is that cluster's, not every cluster's default.
  const defaults = project.flinkConfigs.filter(
    (c) => c.host === "helmValues" && project.fileFacts(c.file)?.flinkConfigs.includes(c) !== false,
  );
  // A Confluent FlinkApplication runs on a cluster of its own, from the FlinkDeployment CMF creates from it.
  const deployments = project.flinkDeployments.filter(
    (d) => d.kind === "FlinkDeployment" || d.kind === "FlinkApplication",
  );
  const environments = flinkEnvironments(project);
  const renderedNames = new Set(deployments.map((d) => `flink-config-${d.object.name}`));

  const configMaps = project.flinkConfigs.filter(
    (c) => c.host === "configmap" && !(c.owner?.name && renderedNames.has(c.owner.name)) && !isOperatorConfig(c),
  );
  const files = readFileConfigs(
    project,
    project.flinkConfigs.filter((c) => c.host === "file" && !isOperatorConfig(c)),
  );

  // Workloads run the configurations they mount; without a mount, the nearest configuration is a guess.
  const assigned = new Map<FlinkConfig, { workload: FlinkWorkload; bound: boolean }[]>();
  const assign = (config: FlinkConfig, workload: FlinkWorkload, bound: boolean) =>
    addTo(assigned, config, { workload, bound });
  const unassigned: FlinkWorkload[] = [];
  for (const w of project.workloads) {
    const mounted = mountedConfigs(w, configMaps, files);
    if (mounted.length > 0) for (const c of mounted) assign(c, w, true);
    else {
      const guess = w.configMounts?.length
        ? undefined
        : nearest(
            w.file,
            w.source === "compose" || configMaps.length === 0 ? files.filter((c) => !c.variant) : configMaps,
          );
      if (guess) assign(guess, w, false);
      else unassigned.push(w);
    }
  }

  const envProperties = project.flinkConfigs.filter((c) => c.host === "envProperties");
  const commandLines = project.flinkConfigs.filter((c) => c.host === "commandLine");
  const standalone = [...configMaps, ...files].map((config): Cluster => {
    const runs = assigned.get(config) ?? [];
    const workloads = runs.map((r) => r.workload);
    const workloadFiles = new Set(workloads.map((w) => w.file));
    const onKubernetes = config.host === "configmap" || workloads.some((w) => w.source !== "compose");
    const version =
      workloads.length > 0
        ? versionFrom(
            project,
            workloadEvidence(project, workloads),
            runs.some((r) => r.bound),
          )
        : projectWide(project);
    return {
      config,
      // The start command's -D properties are set over FLINK_PROPERTIES.
      overlays: [
        ...envProperties.filter((c) => workloadFiles.has(c.file)),
        ...commandLines.filter((c) => workloads.some((w) => setsOverlay(w, c))),
      ],
      defaults,
      workloads,
      platform: onKubernetes ? "kubernetes" : workloads.length > 0 ? "compose" : "unknown",
      incomplete: filledAtDeploy(project, config),
      minor: version.minor,
      version,
    };
  });
  const operated = deployments.map((d): Cluster => {
    const environment = d.kind === "FlinkApplication" ? environmentOf(d, environments) : undefined;
    const envSpec = environment?.defaults;
    // A version only the environment's defaults name is the application's when the application names the environment.
    const own = deploymentEvidence(d).length > 0;
    const version = versionFrom(project, applicationEvidence(d, environment), own || environment?.named !== false);
    const written = writtenValues(project, d.config);
    // A kustomize patch's configuration is merged over the patched resource's (and earlier patches').
    const under = d.kustomized?.under ?? [];
    const cluster: Cluster = {
      config: d.config,
      overlays: envSpec ? [envSpec.config] : [],
      defaults: [
        ...under,
        ...(written.length > 0 ? [...written, ...defaults.filter((c) => !written.includes(c))] : defaults),
      ],
      deployment: d,
      workloads: [],
      platform: "kubernetes",
      incomplete:
        filledAtDeploy(project, d.config) ||
        (envSpec !== undefined && filledAtDeploy(project, envSpec.config)) ||
        d.kustomized?.unknown === true ||
        under.some((c) => filledAtDeploy(project, c)),
      minor: version.minor,
      version,
    };
    if (environment) cluster.environment = environment;
    return cluster;
  });
  return [
    ...standalone,
    ...operated,
    ...propertiesOnly(project, unassigned, envProperties, commandLines),
    ...applicationClusters(project),
  ];
}

/** Deployment targets of `flink run` / `run-application` that start a cluster of their own for the job. */
const OWN_CLUSTER_TARGETS = new Set(["kubernetes-application", "yarn-application", "yarn-per-job"]);

/**
 * The clusters submit commands start in application or per-job mode (`flink run-application -t
 * kubernetes-application -D…`): configured by the command's `-D` properties over the client's configuration folder,
 * taken to be the distribution's own (it sets no checkpointing, storage or HA) unless the file points the client at
 * another one (`FLINK_CONF_DIR`): then a key missing from the command may be set there. The image of
 * `-Dkubernetes.container.image` names its Flink version.
 */
function applicationClusters(project: ProjectModel): Cluster[] {
  return project.flinkConfigs
    .filter((c) => c.host === "submission" && c.target !== undefined && OWN_CLUSTER_TARGETS.has(c.target))
    .map((config): Cluster => {
      const evidence: FlinkVersionEvidence[] = [];
      const image = config.entries.find(
        (e) => e.key === "kubernetes.container.image" || e.key === "kubernetes.container.image.ref",
      );
      if (image && !image.templated) {
        const raw = image.value.trim();
        const found = imageEvidence({ value: raw, raw, file: config.file, range: image.valueRange });
        if (found) evidence.push(found);
      }
      const version = evidence.length > 0 ? versionFrom(project, evidence, true) : projectWide(project);
      return {
        config,
        overlays: [],
        defaults: [],
        workloads: [],
        platform: config.target?.startsWith("kubernetes") ? "kubernetes" : "unknown",
        incomplete: /\bFLINK_CONF_DIR\b/.test(project.fileFacts(config.file)?.text ?? ""),
        minor: version.minor,
        version,
      };
    });
}

/** The project's Confluent FlinkEnvironments. */
export function flinkEnvironments(project: ProjectModel): ConfluentFlinkSpec[] {
  return project.files.flatMap((f) => (f.confluentSpecs ?? []).filter((s) => s.kind === "FlinkEnvironment"));
}

/**
 * Which FlinkEnvironment of the project a FlinkApplication belongs to: the one its `spec.flinkEnvironment` names
 * (Confluent for Kubernetes), else the project's only one. A CMF application's environment is chosen when it is
 * created, so with several environments and no name, or a name the project does not hold, it is not known.
 */
function environmentOf(app: FlinkDeploymentFacts, environments: ConfluentFlinkSpec[]): ClusterEnvironment {
  const name = app.flinkEnvironment?.value.trim();
  const named = name !== undefined;
  const candidates = named ? environments.filter((e) => e.object.name === name) : environments;
  return candidates.length === 1 ? { defaults: candidates[0], named, open: false } : { named, open: true };
}

/** A FlinkApplication's own version evidence, else its environment's application defaults' (`flinkVersion`, `image`). */
function applicationEvidence(d: FlinkDeploymentFacts, environment?: ClusterEnvironment): FlinkVersionEvidence[] {
  const own = deploymentEvidence(d);
  const env = environment?.defaults;
  return own.length > 0 || !env ? own : specEvidence(env, env.kind);
}

/**
 * Whether a key missing from the cluster's configuration may be set where the project does not show it: by a Helm
 * action at deploy time, or by a Confluent application's Flink environment that the project does not hold.
 */
export function mayBeCompleted(cluster: Cluster): boolean {
  return cluster.incomplete || cluster.environment?.open === true;
}

/** The configurations a workload mounts into Flink's configuration folder. */
function mountedConfigs(w: FlinkWorkload, configMaps: FlinkConfig[], files: FlinkConfig[]): FlinkConfig[] {
  const out: FlinkConfig[] = [];
  for (const m of w.configMounts ?? []) {
    if (m.configMap)
      pushAll(
        out,
        configMaps.filter((c) => c.owner?.name === m.configMap),
      );
    const host = m.hostPath;
    if (host)
      pushAll(
        out,
        // A mounted folder gives Flink its flink-conf.yaml; a variant counts only when it is the file mounted.
        files.filter((c) => isAtOrUnder(c.file, host) && (!c.variant || c.file === host)),
      );
  }
  return [...new Set(out)];
}

/**
 * Compose clusters configured only through FLINK_PROPERTIES and start commands' -D properties (no configuration
 * file of the project mounted): the JobManager's are the cluster's configuration, the other services' are set on
 * top for their processes.
 */
function propertiesOnly(
  project: ProjectModel,
  workloads: FlinkWorkload[],
  envProperties: FlinkConfig[],
  commandLines: FlinkConfig[],
): Cluster[] {
  const byFile = new Map<string, FlinkWorkload[]>();
  for (const w of workloads) if (w.source === "compose") addTo(byFile, w.file, w);
  const out: Cluster[] = [];
  for (const [file, all] of byFile) {
    // FLINK_PROPERTIES first: a command line's -D properties are set over them.
    const own = (w: FlinkWorkload) => [
      ...envProperties.filter((c) => c.file === file && setsOverlay(w, c)),
      ...commandLines.filter((c) => setsOverlay(w, c)),
    ];
    for (const services of composeClusters(all, own)) {
      const cluster = propertiesCluster(project, services, own);
      if (cluster) out.push(cluster);
    }
  }
  return out;
}

/**
 * The clusters of one compose file: with more than one JobManager, each service joins the JobManager its
 * `jobmanager.rpc.address` names (a service that names none of them joins the first). One JobManager: one cluster.
 */
function composeClusters(services: FlinkWorkload[], own: (w: FlinkWorkload) => FlinkConfig[]): FlinkWorkload[][] {
  const jobManagers = services.filter((w) => w.role === "jobmanager" && own(w).length > 0);
  if (jobManagers.length < 2) return [services];
  const groups = new Map<FlinkWorkload, FlinkWorkload[]>(jobManagers.map((jm) => [jm, [jm]]));
  for (const w of services) {
    if (groups.has(w)) continue;
    const address = own(w)
      .map((c) => findEntry(c, "jobmanager.rpc.address")?.value.trim())
      .find((v) => v !== undefined);
    const jm = jobManagers.find((j) => j.name === address) ?? jobManagers[0];
    groups.get(jm)?.push(w);
  }
  return [...groups.values()];
}

/**
 * One compose cluster: the JobManager's FLINK_PROPERTIES (else its command line's -D properties) as its
 * configuration, the rest on top: FLINK_PROPERTIES first, then the -D properties, which Flink sets over them.
 */
function propertiesCluster(
  project: ProjectModel,
  services: FlinkWorkload[],
  own: (w: FlinkWorkload) => FlinkConfig[],
): Cluster | undefined {
  const main =
    services.find((w) => w.role === "jobmanager" && own(w).length > 0) ?? services.find((w) => own(w).length > 0);
  if (!main) return undefined;
  const [config] = own(main);
  const version = versionFrom(project, workloadEvidence(project, services));
  // FLINK_PROPERTIES are appended to the configuration of the image: what its Dockerfile writes there is under them.
  const dockerfiles = new Set(services.flatMap((w) => (w.build ? [w.build.dockerfile] : [])));
  const rest = [...new Set([main, ...services.filter((w) => w !== main)].flatMap(own))].filter((c) => c !== config);
  return {
    config,
    overlays: [...rest.filter((c) => c.host !== "commandLine"), ...rest.filter((c) => c.host === "commandLine")],
    defaults: project.flinkConfigs.filter((c) => c.host === "image" && dockerfiles.has(c.file)),
    workloads: services,
    platform: "compose",
    incomplete: false,
    minor: version.minor,
    version,
  };
}

/** The version evidence of standalone workloads: their images, and the Dockerfiles compose builds them from. */
function workloadEvidence(project: ProjectModel, workloads: FlinkWorkload[]): FlinkVersionEvidence[] {
  const out: FlinkVersionEvidence[] = [];
  for (const w of workloads) {
    for (const image of w.images) {
      const e = imageEvidence(image);
      if (e) out.push(e);
    }
    if (w.build) pushAll(out, project.fileFacts(w.build.dockerfile)?.flinkVersions ?? []);
  }
  return out;
}

/**
 * The version evidence a cluster's own deployment gives (its FlinkDeployment's `flinkVersion` and image, the
 * images of the workloads that run it and the Dockerfiles they are built from); empty when only project-wide
 * signals say anything about it.
 */
export function ownEvidence(project: ProjectModel, cluster: Cluster): FlinkVersionEvidence[] {
  if (cluster.deployment) return applicationEvidence(cluster.deployment, cluster.environment);
  return workloadEvidence(project, cluster.workloads);
}

/**
 * The files that make up a cluster's deployment: its configuration, its FlinkDeployment, its workloads, a
 * FlinkApplication's environment.
 */
export function clusterFiles(cluster: Cluster): string[] {
  const files = [cluster.config.file, ...cluster.workloads.map((w) => w.file)];
  if (cluster.deployment) files.push(cluster.deployment.config.file);
  if (cluster.environment?.defaults) files.push(cluster.environment.defaults.config.file);
  return [...new Set(files)];
}

/** A FlinkDeployment's (or FlinkApplication's) own version evidence: `spec.flinkVersion` and the tag of `spec.image`. */
export function deploymentEvidence(d: FlinkDeploymentFacts): FlinkVersionEvidence[] {
  return specEvidence(d, d.kind === "FlinkApplication" ? d.kind : undefined);
}

/**
 * The Flink Kubernetes Operator's own configuration (its `flink-operator-config` ConfigMap, or a configuration of
 * operator keys only): defaults the operator applies to what it deploys, not a cluster's configuration.
 */
export function isOperatorConfig(config: FlinkConfig): boolean {
  if (config.owner?.name === "flink-operator-config") return true;
  const operatorKeys = config.entries.filter((e) => e.key.startsWith("kubernetes.operator.")).length;
  return operatorKeys > 0 && operatorKeys * 2 >= config.entries.length;
}

/** The chart values the Helm template of a configuration writes into it (`{{- toYaml .Values.x | nindent 4 }}`). */
export function writtenValues(project: ProjectModel, config: FlinkConfig): FlinkConfig[] {
  return (config.templateFills ?? []).flatMap((f) => project.templateValues.get(f) ?? []);
}

function filledAtDeploy(project: ProjectModel, config: FlinkConfig): boolean {
  const fills = config.templateFills ?? [];
  // What an action writes is known only when it writes chart values that the chart's values files set.
  if (fills.some((f) => (project.templateValues.get(f)?.length ?? 0) === 0)) return true;
  if (config.ignoredLines.some((l) => /\{\{|\$\{/.test(l.text))) return true;
  if (fills.length > 0) return false;
  // An empty block in a Helm chart template (under templates/, or with a rendered name): the chart fills it in.
  const inTemplate = /(^|\/)templates\//.test(config.file) || config.owner?.name?.includes("{{") === true;
  return config.host !== "file" && config.entries.length === 0 && config.ignoredLines.length === 0 && inTemplate;
}

/**
 * Configuration files Flink reads: where flink-conf.yaml and config.yaml share a folder, Flink 2.x reads only
 * config.yaml and older versions prefer flink-conf.yaml (also when the version is unknown, the common case today).
 */
function readFileConfigs(project: ProjectModel, configs: FlinkConfig[]): FlinkConfig[] {
  const modern = flinkAtLeast(project, "2.0") === true;
  return configs.filter((c) => {
    if (c.variant) return true;
    const sibling = configs.find(
      (o) => o !== c && !o.variant && dirOf(o.file) === dirOf(c.file) && o.logicalName !== c.logicalName,
    );
    if (!sibling) return true;
    return modern ? c.logicalName === "config.yaml" : c.logicalName === "flink-conf.yaml";
  });
}

/**
 * The configuration a workload runs with: the only candidate, or the one whose folder is closest to the workload's
 * file. Two equally close candidates leave it unassigned: guessing would pin the workload to the wrong cluster.
 */
/**
 * The configuration a workload that mounts none most likely runs: one in its own folder, a folder above it or below
 * it (a `conf/` next to a compose file, the configuration at a repository's root). A configuration in a sibling
 * folder belongs to another example or service of the repository, never to this workload.
 */
function nearest(file: string, all: FlinkConfig[]): FlinkConfig | undefined {
  const here = dirOf(file);
  const there = (c: FlinkConfig) => dirOf(c.file);
  const candidates = all.filter((c) => isAtOrUnder(there(c), here) || isAtOrUnder(here, there(c)));
  if (candidates.length <= 1) return candidates[0];
  const shared = (c: FlinkConfig) => sharedFolders(file, c.file);
  const best = candidates.reduce((most, c) => Math.max(most, shared(c)), 0);
  const winners = candidates.filter((c) => shared(c) === best);
  return winners.length === 1 ? winners[0] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Versions of configurations

/**
 * The Flink version a configuration runs with: its cluster's (the deployment that mounts or owns it), a Helm
 * chart's values (an environment's values file over the chart's `values.yaml`), else the project-wide version.
 */
export function configVersion(project: ProjectModel, config: FlinkConfig): ConfigVersion {
  if (config.host === "flinkEnvironment" || config.host === "computePool") return confluentSpecVersion(project, config);
  for (const cluster of clustersOf(project)) {
    if (cluster.config === config || cluster.overlays.includes(config)) return cluster.version;
  }
  // A kustomize base's configuration runs with the version of the overlays merged over it.
  const overlaid = clustersOf(project).find((c) => c.deployment?.kustomized?.under.includes(config));
  if (overlaid) return overlaid.version;
  if (config.host === "helmValues") {
    // Chart values a template writes into a FlinkDeployment run with that deployment's version when it names one.
    const rendering = clustersOf(project).find((c) => writtenValues(project, c.config).includes(config));
    if (rendering?.version.strength === "pinned") return rendering.version;
    return helmValuesVersion(project, config);
  }
  const imageCommand = config.host === "commandLine" && project.fileFacts(config.file)?.kind === "dockerfile";
  if (config.host === "image" || imageCommand) {
    // The image the Dockerfile builds: the cluster that runs it, else the Dockerfile's own base image.
    const running = clustersOf(project).find((c) => c.defaults.includes(config));
    if (running) return running.version;
    const own = project.fileFacts(config.file)?.flinkVersions ?? [];
    if (own.length > 0) return versionFrom(project, own, true);
  }
  if (config.host === "sql") {
    const runner = sqlRunnerCluster(project, config.file, config.entries[0]?.keyRange.start);
    if (runner) return runner.version;
  }
  return projectWide(project);
}

/**
 * The version a FlinkEnvironment's application defaults are read with: the applications' they are merged into (when
 * they name different minors, the version conflicts), else what the defaults name themselves. A ComputePool's cluster
 * spec: its own `flinkVersion` and image.
 */
function confluentSpecVersion(project: ProjectModel, config: FlinkConfig): ConfigVersion {
  const spec = project.fileFacts(config.file)?.confluentSpecs?.find((s) => s.config === config);
  const own = spec ? specEvidence(spec, spec.kind) : [];
  if (config.host === "flinkEnvironment") {
    const merged = clustersOf(project).filter((c) => c.overlays.includes(config));
    // Merged in because it is the project's only environment, not because an application names it: a guess.
    const bound = merged.some((c) => c.environment?.named === true);
    const minors = new Set(merged.map((c) => c.version.minor));
    if (merged.length > 0 && minors.size === 1) {
      const [{ version }] = merged;
      return bound || version.strength !== "pinned" ? version : { ...version, strength: "weak" };
    }
    if (merged.length > 0)
      return versionFrom(
        project,
        merged.flatMap((c) => c.version.evidence),
        bound,
      );
  }
  return own.length > 0 ? versionFrom(project, own) : projectWide(project);
}

/** The Flink minor a configuration is read by; undefined when nothing says. */
export function flinkMinorFor(project: ProjectModel, config: FlinkConfig): string | undefined {
  return configVersion(project, config).minor;
}

/**
 * A Helm values file's version: what it says itself (`flinkVersion: v1_17`, an image tag), else what the chart's
 * `values.yaml` beside it says, which Helm merges under an environment's values file (`values-prod.yaml`).
 */
function helmValuesVersion(project: ProjectModel, config: FlinkConfig): ConfigVersion {
  const own = project.fileFacts(config.file)?.flinkVersions ?? [];
  if (own.length > 0) return versionFrom(project, own);
  const dir = dirOf(config.file);
  for (const name of ["values.yaml", "values.yml"]) {
    const base = project.fileFacts(`${dir}/${name}`);
    if (base && base.file !== config.file && base.flinkVersions.length > 0)
      return versionFrom(project, base.flinkVersions);
  }
  return projectWide(project);
}

// ---------------------------------------------------------------------------------------------
// Reading settings

/**
 * The entry that decides `key` (or a deprecated spelling of it) for the cluster: FLINK_PROPERTIES are appended
 * last and win (as a Confluent environment's application defaults do), then the cluster's own configuration, then
 * defaults underneath it. Keys the project's Flink
 * version does not read are skipped, except with `anyVersion`: the operator validates with its own Flink
 * classes, which read every spelling.
 */
export function settingOf(
  cluster: Cluster,
  key: string,
  anyVersion = false,
  overlays: readonly FlinkConfig[] = cluster.overlays,
): Setting | undefined {
  const minor = anyVersion ? undefined : cluster.minor;
  for (const config of [...overlays.slice().reverse(), cluster.config, ...cluster.defaults]) {
    const entry = findEntry(config, key, minor);
    if (entry) return { entry, config };
  }
  return undefined;
}

/**
 * Whether the FLINK_PROPERTIES or command-line `config` is set in a container of workload `w` (the ids of
 * compose.ts and kubernetes/workload.ts: `…#services.<name>.…`, `<file>#<document>/containers/…`), or is the
 * `CMD` of the image a compose service builds and runs.
 */
function setsOverlay(w: FlinkWorkload, config: FlinkConfig): boolean {
  // The image's CMD runs in a compose service built from its Dockerfile that does not set its own command.
  if (config.host === "commandLine" && w.build?.dockerfile === config.file) return !w.setsCommand;
  if (w.file !== config.file) return false;
  if (w.source === "compose") return config.id.includes(`#services.${w.name}.`);
  return w.object !== undefined && config.id.startsWith(`${w.file}#${objectKey(w.object)}/`);
}

/** The overlays the JobManager reads: all but those of TaskManager containers. */
function jobManagerOverlays(cluster: Cluster): FlinkConfig[] {
  return cluster.overlays.filter((c) => cluster.workloads.find((w) => setsOverlay(w, c))?.role !== "taskmanager");
}

/** A setting of `key` that the project's Flink version ignores, e.g. a key introduced in a later version. */
export function unreadSetting(cluster: Cluster, key: string): Setting | undefined {
  return settingOf(cluster, key) ? undefined : settingOf(cluster, key, true);
}

/** A setting whose value is known now: not a template, and written (a scalar with text). */
export function knownValue(s: Setting | undefined): string | undefined {
  if (!s || s.entry.templated || s.entry.valueKind !== "scalar") return undefined;
  return s.entry.value.trim();
}

export function intSetting(cluster: Cluster, key: string): { value: number; setting: Setting } | undefined {
  const setting = settingOf(cluster, key);
  const text = knownValue(setting);
  const value = text === undefined ? undefined : parseInteger(text);
  return setting && value !== undefined ? { value, setting } : undefined;
}

export function isTrue(cluster: Cluster, key: string): boolean {
  const text = knownValue(settingOf(cluster, key));
  return text !== undefined && parseBoolean(text) === true;
}

/** Whether a setting is present in any form, including templates (a template may well set it). */
export function isSet(cluster: Cluster, key: string, anyVersion = false): boolean {
  const s = settingOf(cluster, key, anyVersion);
  return s !== undefined && (s.entry.templated || s.entry.value.trim() !== "");
}

/** Batch jobs do not checkpoint and do not restart the way streaming jobs do. */
export function runsBatch(cluster: Cluster): boolean {
  return knownValue(settingOf(cluster, "execution.runtime-mode"))?.toUpperCase() === "BATCH";
}

export type CheckpointingState =
  | { kind: "on"; millis: number; setting?: Setting }
  /** `taskManagersOnly`: only TaskManager containers set an interval, which no JobManager reads. */
  | { kind: "off"; setting?: Setting; taskManagersOnly?: Setting }
  | { kind: "unknown" };

/**
 * Periodic checkpointing as the cluster configures it. The JobManager triggers checkpoints and reads its own
 * configuration: an interval set only in a TaskManager container's FLINK_PROPERTIES does not count. The operator
 * sets a 5 min interval for last-state FlinkDeployments that set none (FlinkConfigBuilder.applyJobConfig).
 */
export function checkpointing(cluster: Cluster): CheckpointingState {
  const key = "execution.checkpointing.interval";
  const setting = settingOf(cluster, key, false, jobManagerOverlays(cluster));
  if (setting) {
    const text = knownValue(setting);
    const parsed = text === undefined ? undefined : parseDuration(text);
    if (!parsed) return { kind: "unknown" };
    return parsed.millis > 0 ? { kind: "on", millis: parsed.millis, setting } : { kind: "off", setting };
  }
  if (upgradeModeOf(cluster) === "last-state") return { kind: "on", millis: 300_000 };
  const taskManagersOnly = settingOf(cluster, key);
  return taskManagersOnly ? { kind: "off", taskManagersOnly } : { kind: "off" };
}

export function upgradeModeOf(cluster: Cluster): string | undefined {
  return cluster.deployment?.upgradeMode?.value.trim().toLowerCase();
}

export type HaKind = "none" | "zookeeper" | "kubernetes" | "custom" | "unknown";

const KUBERNETES_HA_FACTORY = "org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory";

/** The high-availability services the cluster runs with (`high-availability.type`, older `high-availability`). */
export function haOf(cluster: Cluster, anyVersion = false): { kind: HaKind; setting?: Setting } {
  const setting = settingOf(cluster, "high-availability.type", anyVersion);
  if (!setting) return { kind: "none" };
  const text = knownValue(setting);
  if (text === undefined) return { kind: "unknown", setting };
  const lower = text.toLowerCase();
  if (lower === "none" || lower === "") return { kind: "none", setting };
  if (lower === "zookeeper") return { kind: "zookeeper", setting };
  if (lower === "kubernetes" || text === KUBERNETES_HA_FACTORY) return { kind: "kubernetes", setting };
  return { kind: "custom", setting };
}

/** Task slots per TaskManager: `taskmanager.numberOfTaskSlots`, default 1; undefined when not known. */
export function slotsOf(cluster: Cluster): { value: number; setting?: Setting } | undefined {
  const setting = settingOf(cluster, "taskmanager.numberOfTaskSlots");
  if (!setting) return mayBeCompleted(cluster) ? undefined : { value: 1 };
  const n = intSetting(cluster, "taskmanager.numberOfTaskSlots");
  return n ? { value: n.value, setting } : undefined;
}

/**
 * The number of TaskManagers of a standalone cluster: the sum of its TaskManager workloads' replicas. Undefined
 * when it is not fixed: no TaskManager workload, or one without replicas (scaled from outside, or by
 * `docker compose --scale`).
 */
export function taskManagerReplicas(cluster: Cluster): { count: number; sources: Located<number>[] } | undefined {
  const tms = cluster.workloads.filter((w) => w.role === "taskmanager");
  if (tms.length === 0 || tms.some((w) => w.replicas === undefined)) return undefined;
  const sources = tms.map((w) => w.replicas as Located<number>);
  return { count: sources.reduce((sum, r) => sum + r.value, 0), sources };
}

/** A Beam pipeline option given as `--name=value` in FlinkDeployment job.args. */
export function beamArg(cluster: Cluster, name: string): Amount | undefined {
  const prefix = `--${name}=`;
  const arg = cluster.deployment?.jobArgs.find((a) => a.value.startsWith(prefix));
  const value = arg ? parseInteger(arg.value.slice(prefix.length)) : undefined;
  if (!arg || value === undefined) return undefined;
  return { value, label: `--${name}`, file: arg.file, range: arg.range };
}

export function amountOf(setting: Setting, value: number): Amount {
  return { value, label: setting.entry.key, file: setting.config.file, range: setting.entry.valueRange };
}

// ---------------------------------------------------------------------------------------------
// SQL runner deployments

/*
 * A FlinkDeployment (or FlinkSessionJob) whose job arguments name a `.sql` file of the project
 * (`args: ["/opt/flink/usrlib/sql-scripts/orders.sql"]`, `--sql-file=…`, `-f …`), as the operator's SQL runner
 * example and most SQL-runner jars are set up, runs that script: its `SET` statements are read by that
 * deployment's Flink version, and its checkpointing is that deployment's.
 */

/** A path ending in `.sql` inside an argument (a flag's value included). */
const SQL_PATH = /[^\s=,'"]+\.sql\b/gi;

const sqlRunnerCache = new WeakMap<ProjectModel, Map<string, Cluster>>();

function segments(path: string): string[] {
  return path.split("/").filter((s) => s !== "" && s !== ".");
}

/** How many trailing path segments two paths share. */
function sharedTail(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function bindings(project: ProjectModel): Map<string, Cluster> {
  let bound = sqlRunnerCache.get(project);
  if (bound) return bound;
  bound = new Map();
  // Statements a FlinkDeployment passes as job arguments run on that deployment's cluster (the file's first one
  // here; sqlRunnerCluster picks the one that holds the statements).
  for (const f of project.files) {
    if (f.sql?.runBy !== "deploymentArgs") continue;
    const runner = argumentRunners(project, f.file)[0];
    if (runner) bound.set(f.file, runner);
  }
  const scripts = project.files
    .filter((f) => f.sql !== undefined && !f.sql.embedded)
    .map((f) => ({ file: f.file, parts: segments(f.file.slice(project.root.length)) }));
  if (scripts.length > 0) {
    for (const cluster of clustersOf(project)) {
      for (const arg of cluster.deployment?.jobArgs ?? []) {
        for (const m of arg.value.matchAll(SQL_PATH)) {
          const wanted = segments(m[0]);
          // The script whose path ends the way the argument's does, the longest such ending winning: a container
          // path (`/opt/flink/usrlib/sql/job.sql`) names the project file by its last segments.
          let best = 0;
          let chosen: string[] = [];
          for (const s of scripts) {
            const n = sharedTail(s.parts, wanted);
            if (n > best) {
              best = n;
              chosen = [s.file];
            } else if (n === best && n > 0) chosen.push(s.file);
          }
          for (const file of chosen) if (!bound.has(file)) bound.set(file, cluster);
        }
      }
    }
  }
  sqlRunnerCache.set(project, bound);
  return bound;
}

/** The FlinkDeployments of a manifest file, in the file's order. */
function argumentRunners(project: ProjectModel, file: string): Cluster[] {
  return clustersOf(project).filter(
    (c) => c.deployment?.object.file === file && c.deployment.kind === "FlinkDeployment",
  );
}

/**
 * The deployment that runs a script: whose job arguments name this `.sql` file, or, for statements a manifest's
 * FlinkDeployments pass in their job arguments, the one whose document holds `at` (a manifest of several).
 */
export function sqlRunnerCluster(project: ProjectModel, file: string, at?: Position): Cluster | undefined {
  const bound = bindings(project).get(file);
  if (at === undefined || project.fileFacts(file)?.sql?.runBy !== "deploymentArgs") return bound;
  const point = { start: at, end: at };
  const holding = argumentRunners(project, file).find(
    (c) => c.deployment && rangeContains(c.deployment.object.range, point),
  );
  return holding ?? bound;
}
