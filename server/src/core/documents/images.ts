/**
 * Flink versions named by container images (`flink:1.19.1-scala_2.12-java17`, `apache/flink:2.0`,
 * `docker.io/library/flink:1.20@sha256:…`) and by the operator's `flinkVersion: v1_19`.
 * Only the images whose tag is the Flink version count: the official image, and Confluent Platform for Apache
 * Flink's `confluentinc/cp-flink` (`1.19.3-cp1`, `1.20.5-cp2-java17`: Flink 1.19.3 and 1.20.5, then Confluent's
 * build number) and `confluentinc/cp-flink-sql` (`1.19-cp11`, `2.3-cmf2.5-cp1`). A custom `my-flink-job:1.0` says
 * nothing about Flink's version.
 */
import type { FlinkVersionEvidence, Located } from "../model";
import type { Range } from "../text";

/** The last path segment of the image repositories whose tag starts with the Flink version they hold. */
const FLINK_REPOSITORIES = new Set(["flink", "cp-flink", "cp-flink-sql"]);

export interface ImageVersion {
  minor: string;
  full?: string;
  /** Where the version starts in the image reference, and its length. */
  offset: number;
  length: number;
}

/** An image of a repository whose tag is the Flink version: its tag ("" when it has none) and where the tag starts. */
function flinkImage(image: string): { tag: string; tagStart: number } | undefined {
  const ref = image.trim();
  const at = ref.indexOf("@");
  const noDigest = at >= 0 ? ref.slice(0, at) : ref;
  const slash = noDigest.lastIndexOf("/");
  const colon = noDigest.lastIndexOf(":");
  const tagged = colon > slash;
  if (!FLINK_REPOSITORIES.has(noDigest.slice(slash + 1, tagged ? colon : undefined))) return undefined;
  return tagged ? { tag: noDigest.slice(colon + 1), tagStart: colon + 1 } : { tag: "", tagStart: noDigest.length };
}

/**
 * The tag of a Flink image (`flink:latest` gives `latest`, `flink` alone ""), undefined for an image of another
 * repository: a tag that is no version (`latest`, `java17`) stands for whatever release is newest when it is pulled.
 */
export function flinkImageTag(image: string): string | undefined {
  return flinkImage(image)?.tag;
}

export function flinkImageVersion(image: string): ImageVersion | undefined {
  const found = flinkImage(image);
  if (!found) return undefined;
  const { tag, tagStart } = found;
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?(?=$|-)/.exec(tag);
  if (!m) return undefined;
  const [, major, minor, patch] = m;
  const lead = image.length - image.trimStart().length;
  return {
    minor: `${major}.${minor}`,
    full: patch === undefined ? undefined : `${major}.${minor}.${patch}`,
    offset: lead + tagStart,
    length: m[0].length,
  };
}

/** Version evidence from an image value, pointing at the version inside it where its columns are known. */
export function imageEvidence(image: Located<string>): FlinkVersionEvidence | undefined {
  const v = flinkImageVersion(image.value);
  if (!v) return undefined;
  return {
    minor: v.minor,
    full: v.full,
    source: "image",
    location: { file: image.file, range: within(image, v.offset, v.length) },
  };
}

/** The range of a part of a located string: exact when the value is written as-is (plain or simply quoted). */
export function within(loc: Located<string>, offset: number, length: number): Range {
  const r = loc.range;
  if (r.start.line !== r.end.line) return r;
  let shift: number;
  if (loc.raw === loc.value) shift = 0;
  else if (loc.raw.length === loc.value.length + 2 && loc.raw.slice(1, -1) === loc.value) shift = 1;
  else return r;
  const start = r.start.character + shift + offset;
  return { start: { line: r.start.line, character: start }, end: { line: r.start.line, character: start + length } };
}

/**
 * `v1_19` → 1.19 (the operator's FlinkVersion enum), in a FlinkDeployment or in the resource `kind` names (a
 * Confluent FlinkApplication, FlinkEnvironment application defaults, a ComputePool's cluster spec).
 */
export function operatorFlinkVersion(
  loc: Located<string>,
  kind?: FlinkVersionEvidence["kind"],
): FlinkVersionEvidence | undefined {
  const m = /^v(\d+)_(\d+)$/.exec(loc.value.trim());
  if (!m) return undefined;
  const evidence: FlinkVersionEvidence = {
    minor: `${m[1]}.${m[2]}`,
    source: "flinkDeployment",
    location: { file: loc.file, range: loc.range },
  };
  if (kind) evidence.kind = kind;
  return evidence;
}
