import type { Fix } from "../../findings";
import { firstUnaffectedVersion } from "../../knowledge/advisories";
import { compareMavenVersions } from "../../knowledge/mavenVersion";
import type { PythonRequirement } from "../../model";
import type { ProjectModel } from "../../workspace/project";
import type { Rule, RuleContext } from "../types";
import { type AdvisorySite, reportAdvisories, reportSites } from "./advisoryFindings";
import { upgradeTarget } from "./beamVersions";

const PIPELINE = `import apache_beam as beam
from apache_beam.io.kafka import ReadFromKafka
from apache_beam.options.pipeline_options import PipelineOptions


def run():
    options = PipelineOptions(["--runner=FlinkRunner", "--streaming", "--checkpointing_interval=60000"])
    with beam.Pipeline(options=options) as p:
        (
            p
            | ReadFromKafka(
                consumer_config={"bootstrap.servers": "kafka:9092", "group.id": "orders"},
                topics=["orders"],
                commit_offset_in_finalize=True,
            )
            | beam.Map(print)
        )
`;

function key(r: PythonRequirement): string {
  const at = r.versionDefinition?.range ?? r.declaration.range;
  return `${r.declaration.file}:${at.start.line}:${at.start.character}`;
}

/** One site per pinned requirement on the Beam Python SDK; the fix rewrites an `==` pin. */
function pythonSites(ctx: RuleContext, project: ProjectModel): AdvisorySite[] {
  const seen = new Set<string>();
  const sites: AdvisorySite[] = [];
  for (const req of project.pythonRequirements) {
    if (req.name !== "apache-beam" || req.version === undefined || seen.has(key(req))) continue;
    seen.add(key(req));
    const definition = req.versionDefinition;
    const at = definition ? { file: definition.file, range: definition.range } : req.declaration;
    const version = req.version;
    sites.push({
      label: "Beam",
      version,
      at,
      packages: [{ ecosystem: "PyPI", name: req.name, uses: [] }],
      upgrade(match) {
        const target = upgradeTarget(ctx.project, firstUnaffectedVersion(match.advisory));
        const fix: Fix | undefined =
          definition && compareMavenVersions(target, version) > 0
            ? {
                title: `Upgrade Beam to ${target}`,
                safety: "unsafe",
                changes: [{ file: definition.file, edits: [{ range: definition.range, newText: target }] }],
              }
            : undefined;
        const how = fix
          ? `Upgrade the Beam Python SDK to ${target} where it is pinned`
          : `Upgrade the Beam Python SDK to ${target} or newer`;
        return {
          target,
          fix,
          advice: `${how}; the expansion service and the job server follow the SDK's version. A Beam upgrade can change the job's savepoint state: test that the upgraded job restores from a savepoint of the current one.`,
        };
      },
    });
  }
  return sites;
}

export const rule: Rule = {
  meta: {
    code: "BFL308",
    name: "beam-xlang-kafka-duplicates",
    family: "build",
    severity: "error",
    description:
      "Beam 2.58.0 with a cross-language Kafka read (Python ReadFromKafka, the Java expansion service, or KafkaIO with beam_fn_api), which may emit duplicates.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports Beam 2.58.0 where it is defined, when the project reads Kafka through KafkaIO's splittable-DoFn read: a Beam Python SDK pin (`apache-beam==2.58.0`, `apache-beam[gcp]==2.58.0`, Poetry's `apache-beam = \"2.58.0\"`, or a range that allows only 2.58.0, in requirements*.txt, pyproject.toml, setup.py or setup.cfg) in a project whose Python code calls `ReadFromKafka`; the Java expansion service artifact `beam-sdks-java-io-expansion-service` at 2.58.0; or a Java Flink runner at 2.58.0 in a pipeline launched with `--experiments=beam_fn_api` or `use_sdf_read` and a KafkaIO read.",
      whyItMatters:
        "In Beam 2.58.0 the splittable-DoFn Kafka read ignored its redistribute and allow-duplicates settings and always turned both on (apache/beam#32196), so records may be emitted more than once. A cross-language ReadFromKafka always uses that read, through the Java expansion service of the same Beam version; the classic Java Flink runner uses it only when asked to with `--experiments=beam_fn_api`, which is also the workaround for the restore double read (BFL301), so on 2.58.0 that workaround trades one source of duplicates for another. 2.58.1 fixes it. The fix rewrites the pin to the configured upgrade target (2.64.0 by default, which is also clear of BFL301); it is unsafe because a Beam upgrade can change the job's savepoint state.",
      bad: { "requirements.txt": "apache-beam[gcp]==2.58.0\nrequests==2.32.3\n", "pipeline/orders.py": PIPELINE },
      good: { "requirements.txt": "apache-beam[gcp]==2.64.0\nrequests==2.32.3\n", "pipeline/orders.py": PIPELINE },
      whenNotToFire:
        "2.58.1 and later, and before 2.58.0; a Python project without `ReadFromKafka`; a Beam Python requirement that allows several versions (`>=2.58,<2.59` also allows 2.58.1, which pip prefers); Java KafkaIO on the classic runner without `beam_fn_api`/`use_sdf_read`, or with `use_deprecated_read`; setup.py is read as text, never run, so requirements it computes are not seen.",
      references: [
        "https://github.com/apache/beam/issues/32196",
        "https://github.com/apache/beam/pull/32134 (the fix)",
        "Beam 2.58.1 release notes (website/www/site/content/en/blog/beam-2.58.1.md): Java pipelines on Dataflow Runner v2 and cross-language pipelines reading from Kafka",
        "apache_beam/io/kafka.py: ReadFromKafka is a cross-language transform served by the Java IO expansion service",
      ],
    },
  },
  check(ctx) {
    reportAdvisories(ctx, "BFL308");
    reportSites(ctx, "BFL308", pythonSites(ctx, ctx.project));
  },
};
