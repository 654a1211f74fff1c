/**
 * The facts readers extract from files, and the merged facts of a project that rules read.
 * Every fact carries the file and range it came from.
 */
import type { BuildFacts } from "./documents/build/facts";
import type { SqlScriptFacts } from "./documents/sql/facts";
import type { Location, Severity } from "./findings";
import type { BeamArg, JobCode } from "./jobcode/facts";
import type { Range, TextEdit } from "./text";

/** A value read from a file, with where it stands. `raw` is the source text of the value. */
export interface Located<T> {
  value: T;
  raw: string;
  file: string;
  range: Range;
}

// ---------------------------------------------------------------------------------------------
// Flink configuration

/**
 * `legacy`: Flink's line reader for flink-conf.yaml, and SQL `SET` statements (plain string values, a key set again
 * replaces the earlier value). `yaml`: standard YAML 1.2 (config.yaml, manifests).
 */
export type ConfigDialect = "legacy" | "yaml";

/** What holds a Flink configuration. */
export type ConfigHost =
  | "file" // a flink-conf.yaml / config.yaml on disk
  | "configmap" // a ConfigMap data entry named flink-conf.yaml / config.yaml
  | "flinkDeployment" // FlinkDeployment spec.flinkConfiguration
  | "flinkSessionJob" // FlinkSessionJob spec.flinkConfiguration
  | "flinkApplication" // Confluent Platform FlinkApplication spec.flinkConfiguration (CMF or CFK)
  | "flinkEnvironment" // Confluent Platform FlinkEnvironment spec.flinkApplicationDefaults.spec.flinkConfiguration
  | "computePool" // Confluent Platform ComputePool spec.clusterSpec.flinkConfiguration
  | "helmValues" // a Helm values file (flinkConfiguration: or an embedded flink-conf.yaml: |)
  | "envProperties" // FLINK_PROPERTIES environment variable of a container
  | "commandLine" // `-Dkey=value` arguments of a Flink start command (container args, compose command, Dockerfile CMD)
  | "submission" // `-Dkey=value` of a client command in a script or Makefile: `flink run`, `run-application`, a YARN session
  | "image" // lines a Dockerfile writes into the image's configuration (`RUN echo "k: v" >> …/flink-conf.yaml`)
  | "sql"; // SET statements of a Flink SQL script (a .sql file or SQL strings in job code)

export interface ConfigEntry {
  /** The flattened key (`a: {b: v}` is `a.b`). */
  key: string;
  /** The value as written (quotes removed for quoted scalars, block scalars as their content). */
  value: string;
  keyRange: Range;
  valueRange: Range;
  /** What deleting this entry removes (normally its whole line or lines). */
  deleteRange: Range;
  /** Written as a nested mapping (some part of the key path is a parent mapping). */
  nested: boolean;
  /** `${…}` placeholders or Helm `{{ … }}` templates: not known until deploy time. */
  templated: boolean;
  /** The value node is a mapping or a sequence, not a scalar (only possible in the YAML dialect). */
  valueKind: "scalar" | "mapping" | "sequence" | "null";
}

/** A line Flink's legacy reader skips (BFL100). */
export interface IgnoredLine {
  range: Range;
  reason: "no-separator" | "empty-key" | "empty-value";
  text: string;
}

export interface FlinkConfig {
  /** Unique within the workspace: file + a discriminator for embedded configurations. */
  id: string;
  file: string;
  host: ConfigHost;
  dialect: ConfigDialect;
  /** The file name Flink will see: flink-conf.yaml or config.yaml (undefined for map-shaped hosts). */
  logicalName?: "flink-conf.yaml" | "config.yaml";
  /**
   * A file kept for one environment under another name (`flink-conf-prod.yaml`): Flink reads it only where a
   * deployment mounts or copies it as its flink-conf.yaml, so it is never the guess for a workload's configuration.
   */
  variant?: boolean;
  /** Entries in source order, duplicates included. */
  entries: ConfigEntry[];
  ignoredLines: IgnoredLine[];
  /** Where to point a finding about the configuration as a whole (e.g. a key that is missing). */
  anchor: Range;
  /**
   * Builds the edit that inserts a new entry in this configuration's own style (flat or nested,
   * indentation, line breaks). Returns undefined where the host cannot take a new line (quoted strings).
   */
  insertEntry(key: string, value: string): TextEdit | undefined;
  /** The Kubernetes object that holds this configuration, if any. */
  owner?: K8sObject;
  /**
   * A submit command's deployment target (`-t kubernetes-application`, `yarn-application`, `yarn-per-job`, …): in
   * application and per-job modes the command starts a cluster of its own, configured by its `-D` properties.
   */
  target?: string;
  /**
   * Set when the entries could not be mapped to their exact source columns (a folded `>` block, a quoted string
   * spanning lines or using escapes): every range then points at the key that holds the text, and fixes must not
   * edit those ranges.
   */
  inexactRanges?: boolean;
  /**
   * Helm template actions on lines of their own inside this configuration (a chart template's
   * `{{- include "flink.conf" . | nindent 4 }}`): they write lines or entries of it when the chart is rendered.
   */
  templateFills?: TemplateFill[];
}

/** A Helm template action that writes part of a configuration when the chart is rendered. */
export interface TemplateFill {
  /** The action as written: `{{- toYaml .Values.flink.config | nindent 4 }}`. */
  text: string;
  range: Range;
  /**
   * `["flink", "config"]` when the action writes the chart value `.Values.flink.config` as YAML entries at the
   * mapping's own indentation (`{{- toYaml .Values.flink.config | nindent 4 }}`): the chart's values files say
   * what it writes.
   */
  valuesPath?: string[];
}

// ---------------------------------------------------------------------------------------------
// Kubernetes and container facts

export interface K8sObject {
  file: string;
  /** 0-based index of the YAML document in a multi-document file. */
  documentIndex: number;
  /** Its index in the `items` of a `List` or the `objects` of an OpenShift `Template`, when the document wraps it. */
  item?: number;
  apiVersion?: string;
  kind: string;
  name?: string;
  /** The whole document (or, for a wrapped object, its own mapping). */
  range: Range;
  /** The `kind:` value, where findings about the object as a whole point. */
  kindRange: Range;
  /** Rule codes listed in the `beam-flink-lint.io/disable` annotation, with the annotation's range. */
  disabledRules?: Located<string[]>;
  /** A PersistentVolumeClaim's `spec.accessModes` (`ReadWriteMany`, `ReadWriteOnce`, …). */
  accessModes?: string[];
}

/**
 * A volume mounted into the Flink container of a FlinkDeployment's pods (`podTemplate`): where, what backs it, and
 * in which pods (the top-level pod template reaches both, `jobManager.podTemplate` / `taskManager.podTemplate` one).
 */
export interface PodVolume {
  containerPath: string;
  /** The pod volume's name. */
  volume: string;
  /**
   * What backs it: a folder of the node (`hostPath`), a claim, the pod's scratch space (`emptyDir`), a network file
   * system every pod reaches (`nfs`, `cephfs`, `glusterfs`, `azureFile`), or something else.
   */
  source: "hostPath" | "persistentVolumeClaim" | "emptyDir" | "network" | "other";
  claimName?: string;
  hostPath?: string;
  pods: FlinkRole | "both";
}

export type FlinkRole = "jobmanager" | "taskmanager";

/**
 * A resource whose spec is the Flink Kubernetes Operator's FlinkDeployment spec: a FlinkDeployment or FlinkSessionJob
 * (flink.apache.org), or a Confluent Platform for Apache Flink FlinkApplication (`cmf.confluent.io/v1`, given to
 * Confluent Manager for Apache Flink, or the Confluent for Kubernetes resource `platform.confluent.io/v1beta1`),
 * from which CMF creates a FlinkDeployment: one application cluster per application.
 */
export interface FlinkDeploymentFacts {
  object: K8sObject;
  kind: "FlinkDeployment" | "FlinkSessionJob" | "FlinkApplication";
  /**
   * A FlinkApplication's `spec.flinkEnvironment` (Confluent for Kubernetes): the FlinkEnvironment it belongs to. A
   * CMF application's environment is given when it is created (CLI or REST), not in its file.
   */
  flinkEnvironment?: Located<string>;
  flinkVersion?: Located<string>;
  image?: Located<string>;
  mode?: Located<string>;
  upgradeMode?: Located<string>;
  /** `spec.job.savepointTriggerNonce`: a manual savepoint is asked for. */
  savepointTriggerNonce?: Located<string>;
  jobParallelism?: Located<number>;
  jobArgs: Located<string>[];
  taskManagerReplicas?: Located<number>;
  jobManagerReplicas?: Located<number>;
  /** The spec.flinkConfiguration key (absent when the spec has none). */
  flinkConfigurationKey?: Range;
  /** The configuration read from spec.flinkConfiguration (always present, possibly empty). */
  config: FlinkConfig;
  /** `spec.job` key range, for findings about the job section. */
  jobKey?: Range;
  /** `spec.job.jarURI`: the jar the job runs. */
  jarURI?: Located<string>;
  /** `spec.job.entryClass`: the class whose `main` starts the job. */
  entryClass?: Located<string>;
  /** Volumes the pod templates mount into the Flink container. */
  volumes?: PodVolume[];
  /**
   * A kustomize patch merged over the resource it patches (workspace/kustomize.ts): the fields are the patch's where
   * it sets them, else the resource's (each value keeps its own file), and `config` is the patch's configuration.
   */
  kustomized?: KustomizedDeployment;
}

export interface KustomizedDeployment {
  /** The kustomization that applies the patch. */
  kustomization: string;
  /** The `flinkConfiguration`s merged under `config`, nearest first: earlier patches, then the patched resource's. */
  under: FlinkConfig[];
  /** The patched resource is not in the project, or a patch whose content is not read applies to it. */
  unknown: boolean;
}

/**
 * Flink settings a Confluent Platform for Apache Flink resource gives the clusters Confluent Manager for Apache Flink
 * creates: a FlinkEnvironment's `spec.flinkApplicationDefaults.spec` (merged into every application of the
 * environment, its `flinkConfiguration` winning over the application's), or a ComputePool's `spec.clusterSpec` (the
 * clusters its SQL statements run on).
 */
export interface ConfluentFlinkSpec {
  object: K8sObject;
  kind: "FlinkEnvironment" | "ComputePool";
  /** The `flinkConfiguration` of that spec (always present, possibly empty). */
  config: FlinkConfig;
  flinkVersion?: Located<string>;
  image?: Located<string>;
}

/** A Deployment, StatefulSet, Job or docker-compose service that runs a Flink JobManager or TaskManager. */
export interface FlinkWorkload {
  file: string;
  source: "deployment" | "statefulset" | "job" | "compose";
  name?: string;
  role?: FlinkRole;
  /** A JobManager's command: `standalone-job` (one application) or `jobmanager` (a session cluster). */
  mode?: "session" | "application";
  /** The job class an application JobManager's command names (`--job-classname`). */
  jobClass?: string;
  /** Where the role was read from (container args, component label, compose command). */
  replicas?: Located<number>;
  images: Located<string>[];
  /** Where findings about this workload point (kind or service name). */
  anchor: Range;
  object?: K8sObject;
  /**
   * Where the containers get files into Flink's configuration folder (`/opt/flink/conf`): a host path bind-mounted
   * by a compose service (absolute, `/`-separated), or a ConfigMap mounted by a Kubernetes pod.
   */
  configMounts?: ConfigMount[];
  /**
   * Every volume a compose service mounts: a named volume (`volume` is `volume:<name>`) or a host folder
   * (`host:<absolute path>`), and where in the container. Services mounting the same one share its files.
   */
  volumes?: { volume: string; containerPath: string }[];
  /** A compose service's `build:`: the image is built from this folder's Dockerfile. */
  build?: { context: string; dockerfile: string; location: Location };
  /** A compose service's own `command` or `entrypoint`, which replaces the `CMD` of its image. */
  setsCommand?: boolean;
}

export interface ConfigMount {
  /** A compose bind mount's host path, resolved against the compose file's folder. */
  hostPath?: string;
  /** A Kubernetes ConfigMap mounted into the pod. */
  configMap?: string;
  /** Where it is mounted in the container. */
  containerPath: string;
  location: Location;
}

// ---------------------------------------------------------------------------------------------
// Versions

export type VersionSource =
  | "flinkDeployment" // spec.flinkVersion v1_19 of a FlinkDeployment, or of the resource `kind` names
  | "image" // flink:1.19.1 in a manifest, Dockerfile or compose file
  | "dependency" // org.apache.flink:flink-* dependency version
  | "runner" // beam-runners-flink-1.17
  | "projectConfig"
  | "setting";

export interface FlinkVersionEvidence {
  /** `major.minor`, e.g. 1.19. */
  minor: string;
  /** The full version where known, e.g. 1.19.1. */
  full?: string;
  source: VersionSource;
  location?: Location;
  /**
   * For a `flinkDeployment` source, the resource whose `flinkVersion` it is when that is not a FlinkDeployment: a
   * Confluent FlinkApplication, a FlinkEnvironment's application defaults or a ComputePool's cluster spec.
   */
  kind?: "FlinkApplication" | "FlinkEnvironment" | "ComputePool";
  /**
   * For a `dependency` source: a core Flink artifact has this version (`flink-streaming-java`, `flink-clients`,
   * `flink-table-api-java`…), the Flink the job is built and run with, rather than a format or a connector.
   */
  core?: true;
}

// ---------------------------------------------------------------------------------------------
// Files

export type FileKind =
  | "flinkConfig" // flink-conf.yaml / config.yaml
  | "kubernetes" // manifests with apiVersion/kind
  | "helmValues"
  | "compose"
  | "dockerfile"
  | "projectConfig"
  | "gradle"
  | "sbt" // build.sbt, *.sbt and the meta-build's project/*.scala: module IDs and string vals, as Gradle's facts
  | "bazel" // MODULE.bazel, WORKSPACE, *.bzl: Maven coordinates (rules_jvm_external) and constants, as Gradle's facts
  | "gradleProperties"
  | "versionCatalog"
  | "maven"
  | "java"
  | "scala"
  | "kotlin"
  | "python"
  | "launch" // .vscode/launch.json and shell scripts: only the Beam flags they pass are read
  | "python" // *.py job code: only where it reads Kafka (ReadFromKafka)
  | "sql" // *.sql: Flink SQL scripts (SET statements, CREATE TABLE … WITH options)
  | "pythonDeps" // requirements*.txt, pyproject.toml, setup.py, setup.cfg: the Python packages a project requires
  | "other";

/** A problem that stops a file from being read the way Flink/Kubernetes/Maven would read it (BFL002). */
export interface SyntaxProblem {
  range: Range;
  message: string;
  /** What the parser said, and how to correct it: the finding's details. */
  details?: string;
  /** Defaults to error; a legacy flink-conf.yaml, which Flink reads line by line whatever it holds, warns. */
  severity?: Severity;
}

/**
 * A part of a file the product recognises but could not analyse (a member nested too deeply for the parser, a
 * file that is not UTF-8): reported as BFL003 at the part's name, so that its absence of findings is not mistaken
 * for a clean bill. Any reader can add one with `markNotAnalysed`.
 */
export interface NotAnalysed {
  range: Range;
  message: string;
  /** Why, and what to do: the finding's details. */
  details?: string;
}

export interface FileFacts {
  file: string;
  kind: FileKind;
  /** The text the facts were read from. */
  text: string;
  syntaxErrors: SyntaxProblem[];
  flinkConfigs: FlinkConfig[];
  k8sObjects: K8sObject[];
  flinkDeployments: FlinkDeploymentFacts[];
  /** Confluent Platform FlinkEnvironments and ComputePools. */
  confluentSpecs?: ConfluentFlinkSpec[];
  workloads: FlinkWorkload[];
  flinkVersions: FlinkVersionEvidence[];
  /** Java files: uses of APIs whose correctness depends on the Beam version. */
  jobApi?: JobApiUsage;
  /** Declarations and definitions of a build file (Gradle script, gradle.properties, version catalog, pom.xml). */
  build?: BuildFacts;
  /** Job code (Java, Scala, Kotlin, Python): Beam KafkaIO reads and options, DataStream jobs, Kafka sources/sinks. */
  code?: JobCode;
  /**
   * Parts of the file the product recognises but could not analyse (BFL003): a member too deeply nested for the
   * parser, a file that is not UTF-8, a grammar that is not installed. Each is reported once, as information.
   */
  notAnalysed?: NotAnalysed[];
  /** Beam flags (`--checkpointingInterval=…`) passed by launch files: launch.json, shell scripts, Gradle, Dockerfiles. */
  beamArgs?: BeamArg[];
  /** Flink Kubernetes Operator versions named by images, Helm charts (manifests, compose, values, Chart.yaml). */
  operatorVersions?: OperatorVersionEvidence[];
  /** Dockerfiles: jars of known Flink artifacts put into the image (ADD, COPY, curl, wget). */
  imageJars?: ImageJar[];
  /** Dockerfiles: each build stage's `FROM` line and what the stage is built from. */
  dockerStages?: DockerStage[];
  /** Python dependency files: the requirements on packages the product knows (apache-beam). */
  pythonRequirements?: PythonRequirement[];
  /** Python files: where `ReadFromKafka` is used. */
  pythonKafkaReads?: Location[];
  /** A Flink SQL script: a `.sql` file, or the SQL strings job code passes to `executeSql` and friends. */
  sql?: SqlScriptFacts;
  /** A kustomization file (`kustomization.yaml`): what it builds on and the patches it applies. */
  kustomization?: Kustomization;
  /**
   * Helm releases the file installs with values files of its own: an Argo CD Application's `helm.valueFiles`, a
   * helmfile's `releases`, a script's `helm install|upgrade|template … -f values.yaml`.
   */
  helmReleases?: HelmRelease[];
}

/** A Helm release: the chart it renders and the values files Helm merges over the chart's own `values.yaml`. */
export interface HelmRelease {
  /** The chart as written: a local folder, or for an Argo CD Application the chart's path in its repository. */
  chart: Located<string>;
  /** The values files, in the order Helm merges them (later ones win). */
  values: Located<string>[];
  /**
   * How the paths are resolved. `folder`: against that folder (a helmfile's, a script's; for a script, also against
   * the folders above it, where it may be run from). `repository`: the chart by its repository path (the chart folder
   * of the project whose path ends so), the values against the chart folder (Argo CD's `valueFiles`).
   */
  from: { folder: string } | "repository";
}

/**
 * A kustomization: the resources `kustomize build` starts from and the strategic-merge patches it applies to them, in
 * order. Paths are resolved against the kustomization's folder.
 */
export interface Kustomization {
  /** `resources`, the older `bases`, and `components`: files, or folders holding a kustomization. */
  resources: Located<string>[];
  /** Patches read from files: `patches` entries with a `path`, and `patchesStrategicMerge` paths. */
  patches: KustomizePatch[];
  /**
   * Patches whose content is not read: inline `patch:` text, JSON 6902 patches (`patchesJson6902`, or a `patches`
   * file of operations). What they change in the objects they target is not known.
   */
  unreadPatches: { target?: KustomizeTarget; range: Range }[];
}

export interface KustomizePatch {
  path: Located<string>;
  /** The objects the patch applies to; without one, the patch's own kind and name say. */
  target?: KustomizeTarget;
}

export interface KustomizeTarget {
  kind?: string;
  name?: string;
}

/** Records that a part of a file could not be analysed (reported as BFL003 at `range`). */
export function markNotAnalysed(facts: FileFacts, range: Range, message: string, details?: string): void {
  const part: NotAnalysed = details === undefined ? { range, message } : { range, message, details };
  if (facts.notAnalysed) facts.notAnalysed.push(part);
  else facts.notAnalysed = [part];
}

export function emptyFacts(file: string, kind: FileKind, text: string): FileFacts {
  return {
    file,
    kind,
    text,
    syntaxErrors: [],
    flinkConfigs: [],
    k8sObjects: [],
    flinkDeployments: [],
    workloads: [],
    flinkVersions: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Build files (Gradle, version catalogs, Maven)

/**
 * A dependency of the project with its version resolved as far as the build files allow. The version is
 * reported and upgraded where it is DEFINED (a literal, a property, a variable, a catalog entry, a BOM version),
 * which is often another place, or another file, than the dependency line.
 */
export interface ResolvedDependency {
  group: string;
  artifact: string;
  /** The resolved version; undefined when the build computes it in a way that cannot be read statically. */
  version?: string;
  /** The token an upgrade edits: the version literal at its definition. */
  versionDefinition?: Located<string>;
  /** Where the dependency is declared (the coordinate string, the <dependency> element, the catalog alias use). */
  declaration: Location;
  /** Module folder relative to the project root ("" for the root module). */
  module: string;
  /** Maven profile the declaration or its version belongs to. */
  profile?: string;
  /** A BOM / platform import rather than a library. */
  platform: boolean;
  /** Human-readable steps from the declaration to the definition, e.g. ["${beam.version}", "parent pom.xml"]. */
  via: string[];
}

/** Where job code uses APIs whose correctness depends on the Beam version (BFL302 escalation and friends). */
export interface JobApiUsage {
  commitOffsetsInFinalize: Location[];
  pubsubRead: Location[];
  useDeprecatedRead: Location[];
}

// ---------------------------------------------------------------------------------------------
// Versions of other software: the Flink Kubernetes Operator, jars baked into images, Python packages

/** A Flink Kubernetes Operator version named by a file. */
export interface OperatorVersionEvidence {
  /** The version as written, e.g. 1.9.0. */
  version: string;
  source:
    | "projectConfig" // operatorVersion in .beam-flink-lint.yaml
    | "image" // apache/flink-kubernetes-operator:1.9.0, ghcr.io/apache/flink-kubernetes-operator:1.9.0
    | "helmChart"; // a Chart.yaml dependency on the flink-kubernetes-operator chart, or that chart's own Chart.yaml
  location?: Location;
}

/** A jar of a known Flink artifact that a Dockerfile puts into the image (`ADD …/flink-sql-connector-kafka-3.1.0-1.18.jar …`). */
export interface ImageJar {
  /** The Maven coordinates the jar's file name stands for. */
  group: string;
  artifact: string;
  version: string;
  /** Where the version is defined: in the jar's name, or at the ARG default it is built from. */
  versionDefinition: Located<string>;
  /** Every range an upgrade rewrites (the version in the file name and in the download path, or the ARG default). */
  versionEdits: Range[];
  /** The jar reference: the URL or path as written. */
  declaration: Location;
  /** Fetched from a URL (ADD, curl, wget) rather than copied from the build context. */
  downloaded: boolean;
  /**
   * Named by a job, script or configuration that loads it (`add_jars`, `pipeline.jars`, `ADD JAR`), not baked into an
   * image by a Dockerfile.
   */
  loaded?: true;
}

/**
 * A Dockerfile build stage: the 0-based line of its `FROM`, and its base image: an official Flink image with a version
 * (`flink`: `flink:1.19.1`), one without (`floating`: `flink:latest`, `flink:java17`, no tag), or anything else
 * (another image, or a tag given by a build argument).
 */
export interface DockerStage {
  line: number;
  base: "flink" | "floating" | "other";
}

/** A requirement on a Python package, as a requirements file, pyproject.toml, setup.py or setup.cfg writes it. */
export interface PythonRequirement {
  /** The package name, normalized (PEP 503): `apache-beam`. */
  name: string;
  /** The version specifier as written: `==2.58.0`, `>=2.58.0,<2.58.1`, `2.58.0` (Poetry), empty when unpinned. */
  specifier: string;
  /** The one version the specifier allows, when it allows exactly one. */
  version?: string;
  /** The version literal an upgrade rewrites (`==` pins and Poetry exact versions). */
  versionDefinition?: Located<string>;
  /** The requirement as written (the whole string or line). */
  declaration: Location;
}
