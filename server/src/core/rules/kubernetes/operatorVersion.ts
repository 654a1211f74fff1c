/**
 * The Flink Kubernetes Operator version as the operator rules (BFL201, BFL205, BFL206) use it: the project's
 * resolved operator version (project configuration, operator image tags, Helm charts), and related information that
 * says which version a finding assumed and where it is named.
 */
import type { Location, RelatedLocation } from "../../findings";
import type { ProjectModel } from "../../workspace/project";

const SOURCE: Record<string, string> = {
  projectConfig: "operatorVersion in the project configuration",
  image: "the operator image",
  helmChart: "the operator's Helm chart",
};

/** The operator release the project deploys with, when a file names it. */
export function operatorVersionOf(project: ProjectModel): string | undefined {
  return project.operatorVersion?.version;
}

/**
 * `message` plus the operator version it applies to, at the place that names the version; without a known version,
 * at `fallback`, saying how to name it.
 */
export function operatorRelated(project: ProjectModel, message: string, fallback: Location): RelatedLocation {
  const resolved = project.operatorVersion;
  if (resolved?.evidence.location) {
    return {
      ...resolved.evidence.location,
      message: `${message} The project deploys with operator ${resolved.version} (${SOURCE[resolved.evidence.source]}).`,
    };
  }
  if (resolved) return { ...fallback, message: `${message} The project deploys with operator ${resolved.version}.` };
  return {
    ...fallback,
    message: `${message} No operator version is known: set operatorVersion in .beam-flink-lint.yaml, or deploy the operator from this project.`,
  };
}
