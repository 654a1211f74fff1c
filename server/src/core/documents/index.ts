/**
 * Reads one file into facts. Picks the reader by file name and content; never throws: a reader that fails
 * leaves a syntax problem on the file instead, and the rest of the project is still analysed.
 */
import { type FileFacts, type FileKind, emptyFacts } from "../model";
import { LineIndex } from "../text";
import { readFlinkConfigFile } from "./flinkConfig/file";
import { PROJECT_CONFIG_NAMES, readProjectConfig } from "./projectConfig";

export interface ReadHints {
  /** The project config lists this file as a Flink configuration. */
  forcedFlinkConfig?: boolean;
}

function base(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}

/** The kind of a file from its name alone; YAML files that need a look at their content return undefined. */
export function kindFromName(file: string): FileKind | undefined {
  const name = base(file);
  const lower = name.toLowerCase();
  if (PROJECT_CONFIG_NAMES.includes(name)) return "projectConfig";
  if (name === "flink-conf.yaml" || name === "flink-conf.yml") return "flinkConfig";
  if (lower === "dockerfile" || lower.startsWith("dockerfile.") || lower.endsWith(".dockerfile")) return "dockerfile";
  if (name === "build.gradle" || name === "build.gradle.kts" || name === "settings.gradle" || name === "settings.gradle.kts")
    return "gradle";
  if (name === "gradle.properties") return "gradleProperties";
  if (lower.endsWith(".versions.toml")) return "versionCatalog";
  if (name === "pom.xml") return "maven";
  if (lower.endsWith(".java")) return "java";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return undefined;
  return "other";
}

/** Whether a path can hold anything the product reads (for file walkers and editor activation). */
export function isCandidateFile(file: string): boolean {
  return kindFromName(file) !== "other";
}

export function readDocument(file: string, text: string, hints: ReadHints = {}): FileFacts {
  try {
    return readUnguarded(file, text, hints);
  } catch (e) {
    const facts = emptyFacts(file, "other", text);
    facts.syntaxErrors.push({
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      message: `This file could not be read (internal error: ${e instanceof Error ? e.message : String(e)}).`,
    });
    return facts;
  }
}

function readUnguarded(file: string, text: string, hints: ReadHints): FileFacts {
  const kind = kindFromName(file);
  if (hints.forcedFlinkConfig) return readFlinkConfigFile(file, text);
  switch (kind) {
    case "flinkConfig":
      return readFlinkConfigFile(file, text);
    case "projectConfig": {
      const facts = emptyFacts(file, "projectConfig", text);
      facts.syntaxErrors.push(...readProjectConfig(file, text).problems);
      return facts;
    }
    case undefined:
      return readYamlFile(file, text);
    default:
      return emptyFacts(file, kind, text);
  }
}

/** YAML files other than flink-conf.yaml: config.yaml, Kubernetes manifests, Helm values, compose files. */
function readYamlFile(file: string, text: string): FileFacts {
  const name = base(file);
  if (name === "config.yaml" || name === "config.yml") {
    if (looksLikeFlinkConfig(text)) return readFlinkConfigFile(file, text);
  }
  return emptyFacts(file, "other", text);
}

/** A config.yaml is Flink's when its keys are Flink's; other tools' config.yaml files are left alone. */
export function looksLikeFlinkConfig(text: string): boolean {
  const index = new LineIndex(text);
  let flinkish = 0;
  for (let i = 0; i < Math.min(index.lineCount, 400); i++) {
    const line = index.lineText(i);
    if (/^(apiVersion|kind):\s/.test(line)) return false;
    if (
      /^\s*(jobmanager|taskmanager|parallelism|execution|state|high-availability|restart-strategy|rest|blob|pipeline|kubernetes|metrics|env\.java|security|pekko|akka|web|io\.tmp|classloader|heartbeat|cluster|fs|s3)[.:]/.test(
        line,
      )
    )
      flinkish++;
  }
  return flinkish > 0;
}

export { LineIndex };
