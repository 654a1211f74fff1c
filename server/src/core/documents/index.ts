/**
 * Reads one file into facts. Picks the reader by file name and content; never throws: a reader that fails
 * leaves a syntax problem on the file instead, and the rest of the project is still analysed.
 */

import { pushAll } from "../arrays";
import type { CommentSyntax } from "../comments";
import { type EncodingProblem, encodingMessage } from "../encoding";
import { isDockerfileName } from "../fileNames";
import type { BeamArg } from "../jobcode/facts";
import { emptyFacts, type FileFacts, type FileKind, markNotAnalysed } from "../model";
import { commentSyntaxFor } from "../suppressions";
import { LineIndex } from "../text";
import { isBazelBuildFile, readBazelBuild } from "./build/bazel";
import { precompiledPluginId, readGradleScript } from "./build/gradle/script";
import { readGradleProperties } from "./build/gradleProperties";
import { readPom } from "./build/pom";
import { isSbtMetaBuildSource, readSbtBuild } from "./build/sbt";
import { readVersionCatalog } from "./build/versionCatalog";
import { readTreeSitterCode } from "./code/treeSitterReader";
import { hasComposeServices, isComposeName, readCompose } from "./compose";
import { readDockerfile } from "./dockerfile";
import { isConfigYamlName, isFlinkConfName, looksLikeFlinkConfig, readFlinkConfigFile } from "./flinkConfig/file";
import { helmfileReleases, isHelmfileName, scriptHelmReleases } from "./helmReleases";
import { isValuesName, readHelmValues } from "./helmValues";
import { dockerfileJars, loadedJars } from "./imageJars";
import { readJavaFile } from "./java/reader";
import { kotlinReader } from "./kotlin/reader";
import { isKustomizationName, readKustomization } from "./kubernetes/kustomization";
import { readManifests } from "./kubernetes/manifests";
import { isK8sDocument } from "./kubernetes/objects";
import { dockerfileArgs, gradleArgs, isLaunchFile, launchJsonArgs, shellArgs, submissionConfigs } from "./launchArgs";
import { operatorChartVersions, operatorImageVersions } from "./operatorVersion";
import { PROJECT_CONFIG_NAMES, readProjectConfig } from "./projectConfig";
import { pythonKafkaReads } from "./python/kafkaRead";
import { pythonReader } from "./python/reader";
import { isPythonDependencyFile, readPythonDependencies } from "./python/requirements";
import { scalaReader } from "./scala/reader";
import { descriptorTables } from "./sql/descriptors";
import { jvmSqlPieces, pythonSqlPieces, tableApiUses } from "./sql/embedded";
import { readSqlFile, readSqlPieces, type SqlPiece } from "./sql/reader";
import { parseYamlDocuments, type YamlDocument, YamlSource } from "./yaml/ast";
import { isHelmTemplate, isMaskingArtefact, type MaskedTemplate, maskTemplate } from "./yaml/helmTemplate";

export interface ReadHints {
  /** The project config lists this file as a Flink configuration. */
  forcedFlinkConfig?: boolean;
  /** The file on disk is not UTF-8 (the text is what decoding it gave). */
  encoding?: EncodingProblem;
}

function base(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}

/** The kind of a file from its name alone; YAML files that need a look at their content return undefined. */
export function kindFromName(file: string): FileKind | undefined {
  const name = base(file);
  const lower = name.toLowerCase();
  if (PROJECT_CONFIG_NAMES.includes(name)) return "projectConfig";
  if (isFlinkConfName(name)) return "flinkConfig";
  if (isDockerfileName(name)) return "dockerfile";
  if (
    name === "build.gradle" ||
    name === "build.gradle.kts" ||
    name === "settings.gradle" ||
    name === "settings.gradle.kts" ||
    precompiledPluginId(file) !== undefined
  )
    return "gradle";
  if (lower.endsWith(".sbt") || isSbtMetaBuildSource(file)) return "sbt";
  if (isBazelBuildFile(file)) return "bazel";
  if (name === "gradle.properties") return "gradleProperties";
  if (lower.endsWith(".versions.toml")) return "versionCatalog";
  if (isPythonDependencyFile(file)) return "pythonDeps";
  if (lower.endsWith(".py")) return "python";
  if (name === "pom.xml") return "maven";
  if (lower.endsWith(".java")) return "java";
  if (lower.endsWith(".scala") || lower.endsWith(".sc")) return "scala";
  // Kotlin sources and scripts; `*.gradle.kts` files other than the build scripts are Gradle plugins, not job code.
  if (lower.endsWith(".kt") || (lower.endsWith(".kts") && !lower.endsWith(".gradle.kts"))) return "kotlin";
  if (lower.endsWith(".sql")) return "sql";
  if (isLaunchFile(file)) return "launch";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return undefined;
  return "other";
}

/** Whether a path can hold anything the product reads (for file walkers and editor activation). */
export function isCandidateFile(file: string): boolean {
  return kindFromName(file) !== "other";
}

export function readDocument(file: string, text: string, hints: ReadHints = {}): FileFacts {
  const encoding = hints.encoding;
  if (encoding && encoding.encoding !== "not UTF-8") {
    // Read as UTF-8, a UTF-16 file is one error per character; read as UTF-16, it is not what its consumers read.
    const facts = emptyFacts(file, kindFromName(file) ?? "other", text);
    markNotAnalysed(facts, { start: encoding.at, end: encoding.at }, encodingMessage(encoding));
    return facts;
  }
  let facts: FileFacts;
  try {
    facts = readUnguarded(file, text, hints);
    const syntax = jarSyntax(facts.kind, file);
    if (syntax && !facts.imageJars) {
      const jars = loadedJars(file, text, syntax);
      if (jars.length > 0) facts.imageJars = jars;
    }
  } catch (e) {
    facts = emptyFacts(file, "other", text);
    facts.syntaxErrors.push({
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      message: `This file could not be read (internal error: ${e instanceof Error ? e.message : String(e)}).`,
    });
  }
  if (encoding) markNotAnalysed(facts, { start: encoding.at, end: encoding.at }, encodingMessage(encoding));
  return facts;
}

/** The comment syntax in which a file of this kind may name jars it loads (loadedJars); undefined for the others. */
function jarSyntax(kind: FileKind, file: string): CommentSyntax | undefined {
  switch (kind) {
    case "python":
      return "shell";
    case "sql":
      return "sql";
    case "launch":
      return file.endsWith(".json") ? undefined : "shell";
    case "compose":
    case "kubernetes":
    case "helmValues":
    case "flinkConfig":
      return commentSyntaxFor(file);
    default:
      return undefined;
  }
}

/** Imports of Flink's or Beam's job APIs: a `project/*.scala` file with them is job code, not sbt's build. */
const JOB_API_IMPORT = /^[ \t]*import[ \t]+(?:_root_\.)?org\.apache\.(?:flink|beam)\./m;

function readUnguarded(file: string, text: string, hints: ReadHints): FileFacts {
  const named = kindFromName(file);
  // A workspace that is itself a folder named `project` holds job code there, not an sbt meta-build.
  const kind = named === "sbt" && !/\.sbt$/i.test(file) && JOB_API_IMPORT.test(text) ? "scala" : named;
  if (hints.forcedFlinkConfig) return readFlinkConfigFile(file, text);
  switch (kind) {
    case "flinkConfig":
      return readFlinkConfigFile(file, text);
    case "projectConfig": {
      const facts = emptyFacts(file, "projectConfig", text);
      pushAll(facts.syntaxErrors, readProjectConfig(file, text).problems);
      return facts;
    }
    case "dockerfile": {
      const facts = withOperatorVersions(
        withBeamArgs(readDockerfile(file, text), dockerfileArgs(file, text)),
        operatorImageVersions(file, text),
      );
      const jars = dockerfileJars(file, text);
      if (jars.length > 0) facts.imageJars = jars;
      return facts;
    }
    case "sql": {
      const facts = emptyFacts(file, "sql", text);
      const read = readSqlFile(file, text);
      // A ksqlDB script is read as nothing: it has no Flink options, tables or jobs.
      if (!read.script) return facts;
      facts.sql = read.script;
      facts.flinkConfigs.push(read.script.config);
      pushAll(facts.syntaxErrors, read.problems);
      return facts;
    }
    case "java":
      return withEmbeddedSql(readJavaFile(file, text), jvmSqlPieces(text, "java"));
    case "scala":
    case "kotlin": {
      const facts = readTreeSitterCode(file, text, kind === "scala" ? scalaReader : kotlinReader);
      return withEmbeddedSql(facts, jvmSqlPieces(text, kind));
    }
    case "gradle":
      return withBeamArgs(readGradleScript(file, text), gradleArgs(file, text));
    case "launch": {
      if (file.endsWith(".json")) return withBeamArgs(emptyFacts(file, "launch", text), launchJsonArgs(file, text));
      const facts = withBeamArgs(emptyFacts(file, "launch", text), shellArgs(file, text));
      pushAll(facts.flinkConfigs, submissionConfigs(file, text));
      const releases = scriptHelmReleases(file, text);
      if (releases.length > 0) facts.helmReleases = releases;
      return facts;
    }
    case "sbt":
      return readSbtBuild(file, text);
    case "bazel":
      return readBazelBuild(file, text);
    case "gradleProperties":
      return readGradleProperties(file, text);
    case "versionCatalog":
      return readVersionCatalog(file, text);
    case "maven":
      return readPom(file, text);
    case "pythonDeps":
      return readPythonDependencies(file, text);
    case "python": {
      const facts = readTreeSitterCode(file, text, pythonReader);
      const reads = pythonKafkaReads(file, text);
      if (reads.length > 0) facts.pythonKafkaReads = reads;
      return withEmbeddedSql(facts, pythonSqlPieces(text));
    }
    case undefined:
      return readYamlFile(file, text);
    default:
      return emptyFacts(file, kind, text);
  }
}

/**
 * SQL strings of a job-code file: one script of every piece, its SET statements a configuration of the file. The
 * tables its code defines with the Table API's `TableDescriptor` are tables of that script.
 */
function withEmbeddedSql(facts: FileFacts, pieces: SqlPiece[]): FileFacts {
  const descriptors = facts.code ? descriptorTables(facts.code) : [];
  if (pieces.length === 0 && descriptors.length === 0) return facts;
  const read = readSqlPieces(facts.file, facts.text, pieces, true, descriptors);
  if (!read.script) return facts;
  // What the Table API writes and reads by name counts as the script's own statements would.
  const uses = tableApiUses(facts.text, facts.kind === "python");
  if (uses.writes.length > 0 || uses.reads.length > 0) {
    const index = new LineIndex(facts.text);
    for (const u of uses.writes)
      read.script.writes.push({
        name: u.name,
        range: index.rangeOf(u.start, u.end),
        ...(u.literal ? { literal: u.literal } : {}),
        ...(u.batch ? { batch: u.batch } : {}),
        ...(u.sources ? { sources: u.sources } : {}),
      });
    for (const u of uses.reads) read.script.reads.push({ name: u.name, range: index.rangeOf(u.start, u.end) });
  }
  facts.sql = read.script;
  if (read.script.config.entries.length > 0) facts.flinkConfigs.push(read.script.config);
  pushAll(facts.syntaxErrors, read.problems);
  return facts;
}

/** Beam flags a launch file passes to the job. */
function withBeamArgs(facts: FileFacts, args: BeamArg[]): FileFacts {
  if (args.length > 0) facts.beamArgs = args;
  return facts;
}

/**
 * YAML files other than flink-conf.yaml, parsed once: a Flink config.yaml, Kubernetes manifests (also Helm
 * templates), docker-compose files, Helm values. Anything else is left alone: no facts and no syntax errors, so a
 * broken YAML file of another tool never shows findings.
 */
function readYamlFile(file: string, text: string): FileFacts {
  const template = isHelmTemplate(file, text);
  const masked = template ? maskTemplate(text) : undefined;
  const docs = parseYamlDocuments(masked ? masked.text : text);
  if (masked) for (const d of docs) d.errors = d.errors.filter((e) => !isMaskingArtefact(text, masked.text, e));
  const facts = readYamlDocuments(file, text, docs, masked);
  // Images and charts of the Flink Kubernetes Operator, wherever YAML names them (also in Helm templates).
  const operator = operatorImageVersions(file, text);
  if (!template) pushAll(operator, operatorChartVersions(file, text, docs));
  return withOperatorVersions(facts, operator);
}

function withOperatorVersions(facts: FileFacts, found: FileFacts["operatorVersions"] & {}): FileFacts {
  if (found.length > 0) facts.operatorVersions = [...(facts.operatorVersions ?? []), ...found];
  return facts;
}

function readYamlDocuments(
  file: string,
  text: string,
  docs: YamlDocument[],
  template: MaskedTemplate | undefined,
): FileFacts {
  const name = base(file);
  if (!template && isConfigYamlName(file) && looksLikeFlinkConfig(text)) return readFlinkConfigFile(file, text, docs);
  if (!template && isKustomizationName(name)) {
    const facts = docs.some(isK8sDocument) ? readManifests(file, text, docs, {}) : emptyFacts(file, "kubernetes", text);
    const kustomization = readKustomization(new YamlSource(file, text), docs);
    if (kustomization) facts.kustomization = kustomization;
    return facts;
  }
  if (!template && isHelmfileName(name)) {
    const facts = emptyFacts(file, "other", text);
    const releases = helmfileReleases(file, text, docs);
    if (releases.length > 0) facts.helmReleases = releases;
    return facts;
  }
  if (docs.some(isK8sDocument)) return readManifests(file, text, docs, { template });
  if (template) return emptyFacts(file, "other", text);
  if (isComposeName(name) || hasComposeServices(docs)) return readCompose(file, text, docs);
  return readHelmValues(file, text, docs, isValuesName(name));
}

export { LineIndex, looksLikeFlinkConfig };
