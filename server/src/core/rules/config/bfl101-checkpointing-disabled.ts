import type { Fix } from "../../findings";
import { parseDuration } from "../../knowledge/values";
import type { ConfluentFlinkSpec } from "../../model";
import { jobCheckpointing } from "../../project/checkpointing";
import { type Cluster, checkpointing, clustersOf, flinkEnvironments, runsBatch } from "../../project/clusters";
import { findEntry } from "../../project/configEntries";
import { allCode, declaresEntryClass } from "../../project/jobCode";
import { isBoundedWrite, sqlJobsOf } from "../../project/sqlJobs";
import { insertFix } from "../clusterFixes";
import { fitting } from "../messages";
import { legacyTableSource } from "../sql/kafkaTables";
import type { Rule } from "../types";

const KEY = "execution.checkpointing.interval";

/**
 * A session cluster: a FlinkDeployment without a job, or standalone JobManagers started with `jobmanager` (not
 * `standalone-job`). Its jobs are submitted from elsewhere, each with its own checkpointing.
 */
/**
 * The configuration of a client that submits jobs to a cluster running elsewhere rather than of a cluster: a SQL
 * gateway's (`sql-gateway.*` keys), or one whose `execution.target` is a session (`remote`, `kubernetes-session`,
 * `yarn-session`). Each job it submits takes its interval, or the one its own statements set.
 */
function isClientConfig(cluster: Cluster): boolean {
  return cluster.config.entries.some(
    (e) =>
      e.key.startsWith("sql-gateway.") ||
      (e.key === "execution.target" && /^(remote|kubernetes-session|yarn-session)$/.test(e.value.trim())),
  );
}

/**
 * The job classes the `standalone-job` JobManagers of a standalone cluster name (`--job-classname`), none when they
 * take the class from the jar; undefined when no JobManager of the cluster starts an application.
 */
function standaloneJobClasses(cluster: Cluster): string[] | undefined {
  const jobManagers = cluster.workloads.filter((w) => w.role === "jobmanager" && w.mode === "application");
  if (jobManagers.length === 0) return undefined;
  return jobManagers.flatMap((w) => (w.jobClass ? [w.jobClass] : []));
}

function isSession(cluster: Cluster): boolean {
  if (cluster.deployment) return cluster.deployment.jobKey === undefined;
  const jobManagers = cluster.workloads.filter((w) => w.role === "jobmanager");
  return jobManagers.length > 0 && jobManagers.every((w) => w.mode === "session");
}

export const rule: Rule = {
  meta: {
    code: "BFL101",
    name: "checkpointing-disabled",
    family: "flink-config",
    severity: "warning",
    description: "A Flink cluster configuration for streaming jobs that leaves periodic checkpointing off.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a Flink configuration (flink-conf.yaml, config.yaml, a ConfigMap's embedded configuration, a FlinkDeployment's `spec.flinkConfiguration`, or that of a Confluent Platform FlinkApplication, `cmf.confluent.io/v1` or the Confluent for Kubernetes resource `platform.confluent.io/v1beta1`, from which Confluent Manager for Apache Flink creates a FlinkDeployment) that sets no `execution.checkpointing.interval`, or one of 0. A FlinkApplication's configuration includes its Flink environment's: CMF merges the `spec.flinkApplicationDefaults.spec.flinkConfiguration` of the application's FlinkEnvironment over it, and the environment's settings win. The environment is the FlinkEnvironment of the project that the application's `spec.flinkEnvironment` names, or else, for an application that names none (a CMF application file: its environment is given when it is created), the project's only FlinkEnvironment. A standalone cluster's configuration includes what its containers set when they start, FLINK_PROPERTIES and then the `-Dkey=value` arguments of the start command (`standalone-job -Dexecution.checkpointing.interval=0` turns checkpointing off whatever the mounted file says). An interval set only for TaskManager containers counts as none: the JobManager triggers checkpoints and reads its own configuration. Tables of Flink 1.13's legacy descriptor keys (`'connector.type' = 'kafka'`) and job code that defines its Kafka tables with the legacy descriptor API (`tableEnv.connect(new Kafka()…)`, PyFlink `connect(Kafka()…)`) are read the same way: such a job that streams without checkpoints is reported at its write.",
      whyItMatters:
        "Flink has no default checkpoint interval: without one, no checkpoint is ever taken. When a TaskManager is lost or the job restarts, every operator starts without its state and the sources start over from their configured start position, so Kafka data is read again or skipped, windows and aggregates are lost, and exactly-once sinks never commit their transactions.",
      bad: { "flink-conf.yaml": "taskmanager.numberOfTaskSlots: 4\nparallelism.default: 4\n" },
      good: {
        "flink-conf.yaml":
          "taskmanager.numberOfTaskSlots: 4\nparallelism.default: 4\nexecution.checkpointing.interval: 1 min\n",
      },
      whenNotToFire:
        "When the project's job code enables checkpointing itself (DataStream `enableCheckpointing`, Beam `checkpointingInterval`, in any language, or a Beam flag in a launcher), the finding is only `info`, with the places in the code as related information; when a FlinkDeployment or a standalone application cluster (`standalone-job`) runs a job whose code is not in the project (a jar or an image built elsewhere, which may enable checkpointing in its own code, or one of the examples shipped in the Flink image, `local:///opt/flink/examples/streaming/StateMachineExample.jar`, unless its `entryClass` is one the project declares, or a `job.entryClass` or `--job-classname` that no Java, Scala or Kotlin source of the project declares), it is `info` too, and so it is for the configuration of a client that submits jobs to a session cluster (a SQL gateway's, with `sql-gateway.*` keys, or one whose `execution.target` is `remote`, `kubernetes-session` or `yarn-session`) and for a session cluster (a FlinkDeployment without `job`, standalone JobManagers started with `jobmanager` or `jobmanager.sh` rather than `standalone-job`), whose jobs are submitted from elsewhere. When the project does not show a FlinkApplication's environment (it holds no FlinkEnvironment, or several and the application names none, or the one it names is not in the project), the environment may set the interval: the finding is then `info`, and none at all when one of the project's FlinkEnvironments sets an interval. The Flink Kubernetes Operator's own configuration (`flink-operator-config`, configurations of `kubernetes.operator.*` keys) is not a cluster's and is not checked. The cluster a submit command starts in application or per-job mode (`flink run-application -t kubernetes-application -D…`, `-t yarn-application`, `-t yarn-per-job`) is checked with the command's `-D` properties over the distribution's default client configuration, which sets no interval, as one that runs a job (`info` when the job's code is not in the project or enables checkpointing itself); it is not checked for a missing interval when the script points the client at a configuration folder of its own (`FLINK_CONF_DIR`). A FlinkDeployment with `upgradeMode: last-state` and no interval is left alone: the operator sets 5 min. A Flink SQL script is checked as the configuration of the jobs it submits: one that turns checkpointing off is reported, and one that runs a streaming job (an `INSERT INTO` of a query that reads a table, not one of literal rows such as `INSERT INTO t VALUES …` or the Table API's `fromValues(…).executeInsert(…)`, also through a variable that holds such a table or a query given as one literal (`Table active = tEnv.sqlQuery(\"SELECT … FROM customers\")`), nor one that reads only tables every definition of which in the project is a bounded scan: `jdbc`, `filesystem` without `source.monitor-interval`, `datagen` with `number-of-rows`, directly or through views the script creates (`CREATE VIEW v AS SELECT … FROM customers`), nor a Table API write on an environment made with `inBatchMode()` beside a streaming one, nor one of code on the legacy batch environments of Flink 1.13 and older, `BatchTableEnvironment` and the DataSet API's `ExecutionEnvironment`: these make bounded jobs) with no interval in its `SET` statements in a project that configures no cluster and enables no checkpointing in its job code (SQL in job code counts the checkpointing of its own file and of the helpers it names: an environment a helper class makes with a `Configuration` that sets the interval, a MiniCluster it starts with one), unless it reads Kafka tables (BFL603 and BFL606 report those; on Flink 1.13 and older, whose Kafka table source commits offsets with the Kafka client's auto-commit, this rule reports such a script too); an interval a script sets counts like job code for the cluster; a `.sql` file with neither a `SET` nor a table with a `connector` (a PostgreSQL or MySQL init script) is not taken for Flink SQL, and neither is a ksqlDB script (`CREATE STREAM`, `EMIT CHANGES`, `WITH (KAFKA_TOPIC=…)`) or a script of Confluent's Flink statements (a `SET` of `sql.current-catalog`, `sql.state-ttl`, `client.statement-name`: Confluent runs and checkpoints them). Batch configurations (`execution.runtime-mode: BATCH`), FlinkSessionJob configurations (they run on a session cluster configured elsewhere), Helm values (defaults merged into other configurations) intervals written as templates, and configurations partly filled in by a Helm template (an `{{ include … }}`, `tpl` or `range` that writes entries, an empty block in a chart template) are not checked. A `{{- toYaml .Values.x | nindent 4 }}` inside a template's `flinkConfiguration` is read from the chart's values files (`values.yaml`, then the other `values*.yaml` of the chart's folder, then the values files the project's releases give the chart from elsewhere: an Argo CD Application's `helm.valueFiles`, a helmfile's `values`, `helm install|upgrade|template -f` in a script), so an interval set there counts, and the configuration stays unchecked only when none of them sets `x`. A ConfigMap named `flink-config-<name>` next to FlinkDeployment `<name>` is the operator's rendered copy and is not reported twice; of a flink-conf.yaml and a config.yaml in one folder only the file Flink reads is checked. SQL run by code for Amazon Managed Service for Apache Flink (code that reads `KinesisAnalyticsRuntime.getApplicationProperties()` or `/etc/flink/application_properties.json`, or a build that depends on `aws-kinesisanalytics-runtime`, or that lies in the folder of such code) counts as checkpointed: the service checkpoints every 60 s with its default checkpoint configuration.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/",
        "Flink CheckpointingOptions: execution.checkpointing.interval has no default (periodic checkpointing off)",
        "apache/flink-kubernetes-operator FlinkConfigBuilder.applyJobConfig (5 min default for last-state)",
      ],
    },
  },
  check(ctx) {
    const interval = ctx.project.config.checkpointInterval;
    const jobs = sqlJobsOf(ctx.project);
    // SQL scripts that SET an interval configure the jobs they submit, as job code does.
    const scripts = jobs.flatMap((j) =>
      j.checkpointing.kind === "on" && j.checkpointing.by === "script" ? j.checkpointing.where : [],
    );
    // A `flink run -D execution.checkpointing.interval=…` of a script configures the job it submits, as code does.
    const submissions = ctx.project.flinkConfigs.flatMap((c) => {
      if (c.host !== "submission") return [];
      const entry = c.entries.find((e) => e.key === KEY);
      const millis = entry && !entry.templated ? parseDuration(entry.value.trim())?.millis : undefined;
      return entry && (millis === undefined || millis > 0) ? [{ file: c.file, range: entry.keyRange }] : [];
    });
    const code = [...jobCheckpointing(ctx.project), ...scripts, ...submissions];
    const related = [
      ...jobCheckpointing(ctx.project).map((l) => ({ ...l, message: "The job code enables checkpointing here." })),
      ...scripts.map((l) => ({ ...l, message: "The SQL script enables checkpointing here." })),
      ...submissions.map((l) => ({ ...l, message: "The submit command enables checkpointing here." })),
    ];
    // A FlinkDeployment's job built elsewhere (a jar or an image only): its code may well enable checkpointing.
    const noCode = allCode(ctx.project).length === 0;
    const environments = flinkEnvironments(ctx.project);
    for (const cluster of clustersOf(ctx.project)) {
      if (runsBatch(cluster)) continue;
      const state = checkpointing(cluster);
      if (state.kind !== "off") continue;
      // A Confluent application whose environment the project does not show: one of its environments may set it.
      const openEnvironment = cluster.environment?.open === true && !state.setting && !state.taskManagersOnly;
      if (openEnvironment && environments.some((e) => findEntry(e.config, KEY) !== undefined)) continue;
      const client = !cluster.deployment && isClientConfig(cluster);
      const session = client || isSession(cluster);
      // A FlinkDeployment with a job, or the cluster an application-mode submit command starts for its job.
      const job = cluster.deployment?.jobKey !== undefined || cluster.config.target !== undefined;
      // A standalone application cluster (`standalone-job`) runs one job too, the class its command names.
      const standaloneClasses = cluster.deployment ? undefined : standaloneJobClasses(cluster);
      const application = !session && standaloneClasses !== undefined;
      const entryClass = cluster.deployment?.entryClass?.value;
      const ours = entryClass !== undefined && declaresEntryClass(ctx.project, entryClass) === true;
      const notOurs = cluster.deployment
        ? entryClass !== undefined && declaresEntryClass(ctx.project, entryClass) === false
        : (standaloneClasses ?? []).some((c) => declaresEntryClass(ctx.project, c) === false);
      const elsewhere =
        (job && (noCode || notOurs || (!ours && runsFlinkExample(cluster)))) ||
        (application && (noCode || notOurs)) ||
        session;
      const severity = code.length > 0 || elsewhere || openEnvironment ? ("info" as const) : undefined;
      const [outcome, shorter, details] =
        openEnvironment && code.length === 0
          ? [
              "jobs take no checkpoints unless the application's environment sets one.",
              "jobs take no checkpoints unless the environment sets one.",
              `CMF merges the application defaults of the application's Flink environment over this configuration, and ${unknownEnvironment(cluster, environments)}. Set ${KEY}, e.g. ${interval}, here or in the environment's flinkApplicationDefaults.`,
            ]
          : code.length > 0
            ? [
                "only jobs that enable checkpointing in their code take checkpoints.",
                "only jobs that enable checkpointing in code take checkpoints.",
                "This project's job code does (see related information); set an interval here too so that every job on this cluster is covered.",
              ]
            : elsewhere
              ? [
                  "jobs on it take no checkpoints unless their own code enables checkpointing.",
                  "jobs take no checkpoints unless their code enables checkpointing.",
                  client
                    ? `This is the configuration of a client that submits jobs to a session cluster (a SQL gateway, a session \`execution.target\`): each job takes the interval set here or by its own statements. Set ${KEY}, e.g. ${interval}, to cover every job.`
                    : session
                      ? `It is a session cluster: jobs are submitted to it from elsewhere, and each may enable checkpointing itself. Set ${KEY}, e.g. ${interval}, to cover every job.`
                      : `Their code is not in this project. Set ${KEY}, e.g. ${interval}, to cover every job.`,
                ]
              : [
                  "Flink never takes a checkpoint and jobs lose their state on failure.",
                  "Flink never takes a checkpoint.",
                  `After a failure or restart, jobs lose their state and their sources re-read or skip data. Set ${KEY}, e.g. ${interval}.`,
                ];
      if (state.setting) {
        const { entry, config } = state.setting;
        const fixes: Fix[] = config.inexactRanges
          ? []
          : [
              {
                title: `Checkpoint every ${interval}`,
                safety: "unsafe",
                changes: [{ file: config.file, edits: [{ range: entry.valueRange, newText: interval }] }],
              },
            ];
        ctx.report({
          file: config.file,
          range: entry.valueRange,
          message: fitting(
            `${KEY} ${entry.value} turns periodic checkpointing off, so ${outcome}`,
            `${KEY} ${entry.value} turns periodic checkpointing off, so ${shorter}`,
            `This value turns periodic checkpointing off, so ${shorter}`,
          ),
          details,
          severity,
          related,
          fixes,
        });
        continue;
      }
      if (cluster.incomplete) continue;
      const fix = insertFix(cluster.config, `Add ${KEY}: ${interval}`, [[KEY, interval]]);
      if (state.taskManagersOnly) {
        const { entry, config } = state.taskManagersOnly;
        ctx.report({
          file: config.file,
          range: entry.keyRange,
          message: fitting(
            `${KEY} is set only for the TaskManagers, so ${outcome}`,
            `${KEY} is set only for the TaskManagers, so ${shorter}`,
            `The interval is set only for the TaskManagers, so ${shorter}`,
          ),
          details: `The JobManager triggers checkpoints and reads its own configuration, which sets no interval; a TaskManager's FLINK_PROPERTIES and command line do not reach it. ${details}`,
          severity,
          related: [
            { file: cluster.config.file, range: cluster.config.anchor, message: "The JobManager's configuration." },
            ...related,
          ],
          fixes: fix ? [fix] : [],
        });
        continue;
      }
      const environment = cluster.environment?.defaults;
      ctx.report({
        file: cluster.config.file,
        range: cluster.config.anchor,
        message: fitting(`No ${KEY} is set, so ${outcome}`, `No ${KEY} is set, so ${shorter}`),
        details,
        severity,
        related: environment
          ? [
              {
                file: environment.config.file,
                range: environment.config.anchor,
                message: `The application defaults of ${environment.object.name ? `FlinkEnvironment ${environment.object.name}` : "its FlinkEnvironment"} set none either.`,
              },
              ...related,
            ]
          : related,
        fixes: fix ? [fix] : [],
      });
    }
    // A script's missing interval is the cluster's finding where the project configures a cluster.
    const noCluster = clustersOf(ctx.project).length === 0;
    // Scripts reading Kafka tables: BFL603 and BFL606 report what the missing checkpoints do to their offsets (not
    // on Flink 1.13 and older, whose table source auto-commits: there the script is this rule's).
    const offsetsReported = !legacyTableSource(ctx.project);
    for (const job of jobs) {
      if (
        !job.runsJob ||
        !job.flink ||
        job.batch ||
        job.checkpointing.kind !== "off" ||
        (offsetsReported && job.kafkaTables.some((t) => t.read))
      )
        continue;
      const config = job.script.config;
      const entry = job.checkpointing.entry;
      if (entry) {
        ctx.report({
          file: config.file,
          range: entry.valueRange,
          message:
            "This SQL script turns checkpointing off: after a failure its jobs lose their state and re-read or skip data.",
          details: `${KEY} ${entry.value} turns periodic checkpointing off for the jobs this script submits: after a failure or restart they lose their state and their sources re-read or skip data. Set ${KEY}, e.g. ${interval}.`,
          fixes: config.inexactRanges
            ? []
            : [
                {
                  title: `Checkpoint every ${interval}`,
                  safety: "unsafe",
                  changes: [{ file: config.file, edits: [{ range: entry.valueRange, newText: interval }] }],
                },
              ],
        });
        continue;
      }
      // Only a script that submits a streaming job (INSERT INTO) is reported; definitions read by a query in job code
      // are that code's job.
      // A file whose only tables are Table API descriptors runs no SQL script: its job is the code's (BFL603 reports
      // its Kafka tables), unless they are legacy `connect(new Kafka()…)` tables, which no other rule reports.
      // Literal rows (`INSERT INTO t VALUES …`), a batch environment, or reads of bounded tables only (a JDBC table, a
      // file) make a bounded job: it ends before a checkpoint would matter.
      const streaming = job.script.writes.find((w) => !isBoundedWrite(ctx.project, job.script, w));
      // Tables of the legacy descriptor API (`connect(new Kafka()…)`) are no SQL rule's: the job is reported here.
      if (!noCluster || !streaming || (job.script.descriptorsOnly && job.legacyKafkaTables.length === 0)) continue;
      const fix = insertFix(config, `Add SET '${KEY}' = '${interval}'`, [[KEY, interval]]);
      ctx.report({
        file: config.file,
        range: streaming.range,
        message: job.script.descriptorsOnly
          ? "This Table API job never checkpoints: after a failure it loses its state and re-reads or skips data."
          : "This SQL script's streaming job never checkpoints: after a failure it loses its state and re-reads or skips data.",
        details: `Nothing sets ${KEY} (not the script, the project's cluster configuration or its job code), so Flink never takes a checkpoint. Add SET '${KEY}' = '${interval}';`,
        fixes: fix ? [fix] : [],
      });
    }
  },
};

/** Why the project does not show a Confluent application's Flink environment, for the details of a finding. */
function unknownEnvironment(cluster: Cluster, environments: ConfluentFlinkSpec[]): string {
  const named = cluster.deployment?.flinkEnvironment?.value.trim();
  if (named !== undefined) {
    const same = environments.filter((e) => e.object.name === named).length;
    return same === 0
      ? `the FlinkEnvironment it names, ${named}, is not in the project`
      : `the project holds ${same} FlinkEnvironments named ${named}`;
  }
  if (environments.length === 0) return "the project holds no FlinkEnvironment";
  return `the project holds ${environments.length} FlinkEnvironments, and a CMF application's is chosen when it is created`;
}

/**
 * Whether a FlinkDeployment runs one of the examples the Flink image ships (`local:///opt/flink/examples/streaming/
 * StateMachineExample.jar`): its code is Flink's, not this project's. Those jars have plain class-like names; a
 * build's own jar copied into that folder (`flink-k8s-demo-assembly-0.1-SNAPSHOT.jar`) is not one of them.
 */
function runsFlinkExample(cluster: Cluster): boolean {
  const uri = cluster.deployment?.jarURI?.value.trim() ?? "";
  return /^local:\/\/\/opt\/flink\/examples\/(?:[\w-]+\/)*[A-Z][A-Za-z0-9]*\.jar$/.test(uri);
}
