/**
 * Merges the job-code facts of a project's files (every language), gathers every Beam flag the project passes to
 * its pipelines, and resolves what one file takes from another: a consumer map built in a helper of another class
 * (`withConsumerConfigUpdates(Config.buildKafkaConfig(options))`), a Kotlin `object` or top-level constant, a Scala
 * `object`, a Python module constant (`from config import KAFKA_PROPS`).
 *
 * Files are read one by one and cached; the resolution happens here, per project, on copies: a file's own facts
 * never change because another file did.
 */

import { addTo, pushAll } from "../arrays";
import { flinkDeploymentArgs } from "../documents/launchArgs";
import type { FileFacts } from "../model";
import type {
  BeamArg,
  CodeExport,
  CodeExpr,
  CodeRef,
  JobCode,
  KafkaSetting,
  KafkaSettings,
  KafkaSourceBuilder,
  ProjectJobCode,
  StreamOperator,
  UnknownPart,
} from "./facts";
import { isTestFile } from "./testCode";

/**
 * `pathInProject` gives a file's path relative to the project root: test folders and test file names are told by the
 * part of the path inside the project, so a checkout under `~/tests/` or `/srv/test/` is not all test code.
 */
export function projectJavaFacts(files: FileFacts[], pathInProject: (file: string) => string): ProjectJobCode {
  const own = files.flatMap((f) => (f.code ? [inProject(f.code, pathInProject(f.file))] : []));
  const java = resolveAcrossFiles(own);
  const beamArgs: BeamArg[] = [
    ...java.flatMap((j) => j.beamOptions.args),
    ...files.flatMap((f) => f.beamArgs ?? []),
    ...files.flatMap((f) => f.flinkDeployments.flatMap(flinkDeploymentArgs)),
  ];
  return {
    files: java,
    kafkaReads: java.flatMap((j) => j.kafkaReads),
    optionsCreations: java.flatMap((j) => j.beamOptions.creations),
    optionSettings: java.flatMap((j) => j.beamOptions.settings),
    beamArgs,
    pipelines: java.flatMap((j) => j.beamOptions.pipelines),
    environments: java.flatMap((j) => j.dataStream.environments),
    checkpointing: java.flatMap((j) => j.dataStream.checkpointing),
    legacyKafka: java.flatMap((j) => j.dataStream.legacyKafka),
    kafkaSources: java.flatMap((j) => j.dataStream.kafkaSources),
    kafkaSinks: java.flatMap((j) => j.dataStream.kafkaSinks),
  };
}

/** A file's facts with its test-code answer taken from its path in the project. */
function inProject(code: JobCode, path: string): JobCode {
  const isTest = isTestFile(path, code.language);
  return isTest === code.isTest ? code : { ...code, isTest };
}

// ---------------------------------------------------------------------------------------------
// Across files

class Exports {
  private readonly byMember = new Map<string, CodeExport[]>();

  constructor(files: JobCode[]) {
    for (const f of files) {
      for (const e of f.exports) addTo(this.byMember, e.member, e);
    }
  }

  get empty(): boolean {
    return this.byMember.size === 0;
  }

  /**
   * The one declaration a reference names: same member, and the same owner when the reference names one (a Kotlin
   * top-level or a Python module name matches an owner-less use). Several candidates that disagree resolve nothing.
   */
  find(ref: CodeRef, from: string): CodeExport | undefined {
    const found = (this.byMember.get(ref.member) ?? []).filter(
      (e) => e.file !== from && (ref.owner === "" || e.owner === "" || e.owner === ref.owner),
    );
    return found.length === 1 ? found[0] : undefined;
  }
}

function resolveAcrossFiles(files: JobCode[]): JobCode[] {
  if (!files.some((f) => f.exports.length > 0)) return files;
  const exports = new Exports(files);
  const resolved = files.map((f) => resolveFile(f, exports));
  if (!resolved.some((f) => f.dataStream.operators.some((o) => o.externalSource))) return resolved;
  // The builders as resolved above (their settings may come from a third file), by the builder they were copied from.
  const builders = new Map<KafkaSourceBuilder, KafkaSourceBuilder>();
  for (let i = 0; i < files.length; i++) {
    const own = files[i].dataStream.kafkaSources;
    for (let j = 0; j < own.length; j++) builders.set(own[j], resolved[i].dataStream.kafkaSources[j]);
  }
  return resolved.map((f) => resolveSources(f, exports, builders));
}

/**
 * Sources made in another file: `env.fromSource(KafkaSources.orders(topic), …)`, `env.addSource(Consumers.orders())`
 * and a variable holding one, when the member it names builds a KafkaSource or a FlinkKafkaConsumer.
 */
function resolveSources(
  code: JobCode,
  exports: Exports,
  builders: ReadonlyMap<KafkaSourceBuilder, KafkaSourceBuilder>,
): JobCode {
  let changed = false;
  const operators = code.dataStream.operators.map((op): StreamOperator => {
    const external = op.externalSource;
    const made = external && !op.kafkaSource ? exports.find(external.ref, code.file)?.kafkaSource : undefined;
    if (!external || !made) return op;
    changed = true;
    const builder = made.builder ? (builders.get(made.builder) ?? made.builder) : undefined;
    return { ...op, kafkaSource: { kind: made.kind, range: external.range, ...(builder ? { builder } : {}) } };
  });
  return changed ? { ...code, dataStream: { ...code.dataStream, operators } } : code;
}

function resolveFile(code: JobCode, exports: Exports): JobCode {
  let changed = false;
  const settings = (s: KafkaSettings): KafkaSettings => {
    const r = resolveSettings(s, code.file, exports);
    if (r !== s) changed = true;
    return r;
  };
  const kafkaReads = code.kafkaReads.map((r) => ({ ...r, consumerConfig: settings(r.consumerConfig) }));
  const kafkaSources = code.dataStream.kafkaSources.map((b) => ({ ...b, properties: settings(b.properties) }));
  const kafkaSinks = code.dataStream.kafkaSinks.map((b) => ({ ...b, properties: settings(b.properties) }));
  const legacyKafka = code.dataStream.legacyKafka.map((c) => ({ ...c, properties: settings(c.properties) }));
  if (!changed) return code;
  return { ...code, kafkaReads, dataStream: { ...code.dataStream, kafkaSources, kafkaSinks, legacyKafka } };
}

/** Settings with another file's maps merged in where they were passed, and other files' constants as values. */
function resolveSettings(settings: KafkaSettings, file: string, exports: Exports): KafkaSettings {
  const mapParts = settings.unknownParts.filter((u) => u.ref && exports.find(u.ref, file)?.map);
  const valueRefs = settings.entries.some((e) => e.value.value.kind === "unknown" && e.value.value.ref);
  if (mapParts.length === 0 && !valueRefs) return settings;
  let entries: KafkaSetting[] = settings.entries.map((e) => resolveEntry(e, file, exports));
  const unknownParts: UnknownPart[] = [];
  for (const part of settings.unknownParts) {
    const exported = part.ref ? exports.find(part.ref, file) : undefined;
    if (!exported?.map) {
      unknownParts.push(part);
      continue;
    }
    const via = `${exported.owner ? `${exported.owner}.` : ""}${exported.member} in ${exported.file.slice(exported.file.lastIndexOf("/") + 1)}`;
    const index = part.sourceIndex ?? Number.MAX_SAFE_INTEGER;
    const added = exported.map.entries.map(
      (e): KafkaSetting => ({
        ...e,
        sourceIndex: index,
        sourceCall: { file: part.file, range: part.range },
        via: [via, ...e.via],
      }),
    );
    // Later config calls override earlier ones: the map goes where its call stood in the merge order.
    const at = entries.findIndex((e) => e.sourceIndex > index);
    entries = at < 0 ? [...entries, ...added] : [...entries.slice(0, at), ...added, ...entries.slice(at)];
    pushAll(unknownParts, exported.map.unknownParts);
  }
  return { ...settings, entries, unknownParts, hasUnknownParts: unknownParts.length > 0 };
}

function resolveEntry(e: KafkaSetting, file: string, exports: Exports): KafkaSetting {
  const ref = e.value.value.kind === "unknown" ? e.value.value.ref : undefined;
  const exported = ref ? exports.find(ref, file) : undefined;
  if (!exported?.value) return e;
  const value: CodeExpr = { ...e.value, value: exported.value.value, origin: exported.value };
  return { ...e, value };
}
