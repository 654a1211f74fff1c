import type { ProjectConfig } from "../config";
import type { Location } from "../findings";
import type { ProjectJobCode } from "../jobcode/facts";
import type {
  FileFacts,
  FlinkConfig,
  FlinkDeploymentFacts,
  FlinkVersionEvidence,
  FlinkWorkload,
  ImageJar,
  JobApiUsage,
  K8sObject,
  OperatorVersionEvidence,
  PythonRequirement,
  ResolvedDependency,
  TemplateFill,
} from "../model";

/** The Flink version a project runs on, and the evidence for it. */
export interface ResolvedFlinkVersion {
  /** `major.minor`, e.g. "1.19". */
  minor: string;
  major: number;
  minorNumber: number;
  evidence: FlinkVersionEvidence;
  /** Other evidence that names a different minor (shown in hovers; BFL303 uses it). */
  others: FlinkVersionEvidence[];
}

/** The merged facts of one project: what rules read. */
export interface ProjectModel {
  root: string;
  files: FileFacts[];
  config: ProjectConfig;
  /** Every Flink configuration read, with the chart values Helm templates write into a `flinkConfiguration`. */
  flinkConfigs: FlinkConfig[];
  /**
   * The chart values a Helm template's action writes into a configuration (`{{- toYaml .Values.flink | nindent 4 }}`),
   * per fill with a `valuesPath`: the configurations of the chart's values files there, none when they set nothing.
   */
  templateValues: Map<TemplateFill, FlinkConfig[]>;
  flinkDeployments: FlinkDeploymentFacts[];
  workloads: FlinkWorkload[];
  k8sObjects: K8sObject[];
  flinkVersion?: ResolvedFlinkVersion;
  /** Dependencies of every module of the project's build, with versions resolved to where they are defined. */
  dependencies: ResolvedDependency[];
  /** Where job code uses Beam APIs whose correctness depends on the Beam version. */
  jobApi: JobApiUsage;
  /** Job code of the project in every language (Beam reads and options, DataStream jobs) and every Beam flag passed to it. */
  code: ProjectJobCode;
  /** The Flink Kubernetes Operator version the project deploys with, when a file names it. */
  operatorVersion?: ResolvedOperatorVersion;
  /** Jars of known Flink artifacts that the project's Dockerfiles put into images. */
  imageJars: ImageJar[];
  /** Requirements on Python packages the product knows (apache-beam) in the project's Python dependency files. */
  pythonRequirements: PythonRequirement[];
  /** Where the project's Python code reads Kafka (`ReadFromKafka`). */
  pythonKafkaReads: Location[];
  /** The facts of one file of this project. */
  fileFacts(file: string): FileFacts | undefined;
}

/** The Flink Kubernetes Operator version of a project, and the evidence for it. */
export interface ResolvedOperatorVersion {
  /** As written, e.g. 1.9.0. */
  version: string;
  /** `major.minor`, e.g. 1.9. */
  minor: string;
  evidence: OperatorVersionEvidence;
  /** Other evidence that names a different version. */
  others: OperatorVersionEvidence[];
}

const OPERATOR_SOURCE_PRIORITY: OperatorVersionEvidence["source"][] = ["projectConfig", "image", "helmChart"];

/** The operator version: the project configuration wins, then operator image tags, then Helm chart versions. */
export function resolveOperatorVersion(evidence: OperatorVersionEvidence[]): ResolvedOperatorVersion | undefined {
  const sorted = [...evidence].sort(
    (a, b) => OPERATOR_SOURCE_PRIORITY.indexOf(a.source) - OPERATOR_SOURCE_PRIORITY.indexOf(b.source),
  );
  for (const e of sorted) {
    const parsed = parseMinor(e.version);
    if (!parsed) continue;
    return {
      version: e.version,
      minor: `${parsed.major}.${parsed.minor}`,
      evidence: e,
      others: sorted.filter((o) => o !== e && o.version !== e.version),
    };
  }
  return undefined;
}

const SOURCE_PRIORITY: FlinkVersionEvidence["source"][] = [
  "projectConfig",
  "flinkDeployment",
  "image",
  "dependency",
  "runner",
  "setting",
];

export function parseMinor(text: string): { major: number; minor: number } | undefined {
  const m = /^v?(\d+)[._](\d+)/.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/**
 * Picks the project's Flink version: a version pinned in the project config wins, then what the
 * deployment says (FlinkDeployment flinkVersion, then image tags), then the build (flink-* dependencies,
 * the runner artifact's Flink minor), then the editor setting / CLI flag.
 */
export function resolveFlinkVersion(evidence: FlinkVersionEvidence[]): ResolvedFlinkVersion | undefined {
  const sorted = [...evidence].sort((a, b) => SOURCE_PRIORITY.indexOf(a.source) - SOURCE_PRIORITY.indexOf(b.source));
  for (const e of sorted) {
    const parsed = parseMinor(e.minor);
    if (!parsed) continue;
    const minor = `${parsed.major}.${parsed.minor}`;
    return {
      minor,
      major: parsed.major,
      minorNumber: parsed.minor,
      evidence: e,
      others: sorted.filter((o) => o !== e && o.minor !== minor),
    };
  }
  return undefined;
}

/** Compares the project's Flink version with `major.minor`; undefined when the version is unknown. */
export function flinkAtLeast(project: ProjectModel, version: string): boolean | undefined {
  const v = project.flinkVersion;
  const want = parseMinor(version);
  if (!v || !want) return undefined;
  return v.major !== want.major ? v.major > want.major : v.minorNumber >= want.minor;
}
