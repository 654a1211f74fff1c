/**
 * The facts of a project that advisory records ask about (knowledge/advisories.ts, `AdvisoryFact`): where job code
 * or launch flags reach a bug, or make it worse. Read from the merged job-code facts of the project; computed once
 * per project model.
 */
import type { Location } from "../../findings";
import type { AdvisoryFacts } from "../../knowledge/advisories";
import { streamingEvidence } from "../../project/beam";
import { productionCode } from "../../project/jobCode";
import { type KafkaTable, sqlJobsOf } from "../../project/sqlJobs";
import type { ProjectModel } from "../../workspace/project";

const cache = new WeakMap<ProjectModel, AdvisoryFacts>();

/** Experiments that make KafkaIO use its splittable-DoFn read (`ReadFromKafkaViaSDF`) on the classic runners. */
const SDF_EXPERIMENTS = ["beam_fn_api", "use_sdf_read"];
/** Experiments that keep or put it back on the legacy read, whatever else is set. */
const LEGACY_EXPERIMENTS = ["use_deprecated_read", "beam_fn_api_use_deprecated_read", "use_unbounded_sdf_wrapper"];

function experimentsOf(value: string | undefined): string[] {
  return (value ?? "").split(",").map((e) => e.trim().replace(/^["']|["']$/g, ""));
}

/**
 * A Java KafkaIO read in a project whose launch flags turn on the splittable-DoFn read: the places of those flags.
 * None when a flag also asks for the legacy read, or when the project has no KafkaIO read.
 */
function sdfKafkaRead(project: ProjectModel): Location[] {
  if (project.code.kafkaReads.length === 0) return [];
  const flags = project.code.beamArgs.filter((a) => a.name === "experiments");
  if (flags.some((a) => experimentsOf(a.value).some((e) => LEGACY_EXPERIMENTS.includes(e)))) return [];
  if (project.jobApi.useDeprecatedRead.length > 0) return [];
  return flags
    .filter((a) => experimentsOf(a.value).some((e) => SDF_EXPERIMENTS.includes(e)))
    .map((a) => ({ file: a.file, range: a.valueRange ?? a.range }));
}

export function advisoryFacts(project: ProjectModel): AdvisoryFacts {
  let facts = cache.get(project);
  if (!facts) {
    const java = project.code;
    const at = (l: Location): Location => ({ file: l.file, range: l.range });
    // Kafka tables of Flink SQL run on the same KafkaSource and KafkaSink: a written table is a sink, a read one a
    // source (bounded by `scan.bounded.mode`, starting at `latest-offset`).
    const tables = sqlJobsOf(project).flatMap((j) => j.kafkaTables);
    const table = (t: KafkaTable): Location => ({ file: t.facts.file, range: t.facts.nameRange });
    facts = {
      ...project.jobApi,
      kafkaSink: [...java.kafkaSinks.map(at), ...tables.filter((t) => t.written).map(table)],
      legacyKafkaProducer: java.legacyKafka.filter((c) => c.role === "producer").map(at),
      boundedKafkaSource: [
        ...java.kafkaSources.flatMap((s) => (s.setBounded ? [at(s.setBounded)] : [])),
        ...tables.filter((t) => t.read && t.bounded).map(table),
      ],
      latestOffsetsKafkaSource: [
        ...java.kafkaSources.flatMap((s) =>
          s.startingOffsets?.initializer === "latest" ? [at(s.startingOffsets.call)] : [],
        ),
        ...tables.filter((t) => t.read && t.startupMode === "latest-offset").map(table),
      ],
      pythonKafkaRead: project.pythonKafkaReads,
      sdfKafkaRead: sdfKafkaRead(project),
      unboundedRead: streamingEvidence(project),
      beamPipeline: productionCode(project).flatMap((c) => c.beamOptions.pipelines),
      kafkaCode: [
        ...[...java.kafkaSources, ...java.kafkaSinks, ...java.legacyKafka, ...project.pythonKafkaReads].map(at),
        ...java.kafkaReads.map((r) => ({ file: r.file, range: r.readRange })),
        ...tables.map(table),
      ],
    };
    cache.set(project, facts);
  }
  return facts;
}
