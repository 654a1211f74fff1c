import { setStatement } from "../../documents/sql/reader";
import { sqlJobsOf } from "../../project/sqlJobs";
import { insertFix } from "../clusterFixes";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { legacyTableSource, streamingWithoutCheckpoints } from "./kafkaTables";

const SCRIPT = (set: string) => `${set}CREATE TABLE orders (
  order_id STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'properties.group.id' = 'orders-archive',
  'format' = 'json'
);

INSERT INTO orders_archive SELECT * FROM orders;
`;

const INTERVAL = "1 min";

export const rule: Rule = {
  meta: {
    code: "BFL603",
    name: "sql-offsets-never-committed",
    family: "sql",
    severity: "warning",
    description:
      "A Kafka source table read by a streaming SQL job that never checkpoints: its offsets are never committed.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a Kafka or upsert-kafka table read by a streaming job of the script when nothing enables checkpointing: no `SET 'execution.checkpointing.interval'` in the script, none in the configuration of the project's Flink clusters, and none in the job code (for SQL strings in job code, the code of that file; for statements a file defines for others to run, such as a class of SQL constants or an object's method returning the DDL, the code that runs SQL and names that class, object or module; for statements a FlinkDeployment passes to a SQL runner in `job.args` or a `SQL_STATEMENTS` environment variable, that deployment's configuration; for a `.sql` file, job code that runs SQL statements (calls `executeSql` & co.) or names the script: a DataStream job's own `enableCheckpointing` does not make a script beside it checkpoint; a Table API job's `tableEnv.getConfig().set(\"execution.checkpointing.interval\", …)`, `get_config().set(…)` in PyFlink, counts). A script named in the job arguments of a FlinkDeployment (a SQL runner: `args: [\"/opt/flink/usrlib/sql-scripts/orders.sql\"]`, matched by the path's last segments) is judged by that deployment's configuration only, and its `SET` statements by that deployment's Flink version. The fix inserts `SET 'execution.checkpointing.interval' = '1 min';` at the top of the script. Tables job code builds with a Table API `TableDescriptor` are judged by the checkpointing and runtime mode of that file's code, like the SQL strings it runs. Nothing is reported for a project on Flink 1.13 or older (its Flink version, or the Kafka connector bundled with it): up to 1.13 the Kafka table source is built on the legacy FlinkKafkaConsumer (Flink 1.14 moved it to the KafkaSource of FLIP-27), which, when the job takes no checkpoints, commits offsets with the Kafka client's auto-commit (on by default) instead of never; what it commits is not checked.",
      whyItMatters:
        "The Kafka source commits its offsets only when a checkpoint completes, and turns the client's auto-commit off. A job that never checkpoints never commits: the consumer group's offsets stay where they were, lag monitoring shows the group stuck, and every restart begins again at the startup mode (`group-offsets` falls back to the last committed offsets, possibly none), so data is read twice or skipped. Without checkpoints the job also has no state to restore after a failure.",
      bad: { "job.sql": SCRIPT("") },
      good: { "job.sql": SCRIPT(`${setStatement("execution.checkpointing.interval", INTERVAL)}\n\n`) },
      whenNotToFire:
        "Bounded reads (`scan.bounded.mode`), batch jobs (`SET 'execution.runtime-mode' = 'batch'`, or job code that runs the statements in a batch environment: `EnvironmentSettings.inBatchMode()`, `in_batch_mode()`), tables with `'scan.startup.mode' = 'latest-offset'` (BFL606 reports those), scripts whose cluster configuration or job code enables checkpointing, an interval only known at run time, scripts that only define tables (nothing reads them in a job), tables only written (`INSERT INTO`, or job code's `executeInsert(\"t\")` / `execute_insert(\"t\")`, even with `scan.*` options), and test code. Job code that reads a table by name (`tableEnv.from(\"orders\")`, `from_path`) makes it a source. SQL run by code for Amazon Managed Service for Apache Flink (code that reads `KinesisAnalyticsRuntime.getApplicationProperties()` or `/etc/flink/application_properties.json`, or a build that depends on `aws-kinesisanalytics-runtime`) counts as checkpointed: the service checkpoints every 60 s with its default checkpoint configuration.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/kafka/#consumer-offset-committing",
        "apache/flink-connector-kafka KafkaSourceBuilder (enable.auto.commit defaults to false; commits on completed checkpoints)",
      ],
    },
  },
  check(ctx) {
    // Flink 1.13 and older read Kafka tables with the legacy consumer, which auto-commits without checkpoints.
    if (legacyTableSource(ctx.project)) return;
    for (const job of sqlJobsOf(ctx.project)) {
      if (!job.runsJob || !streamingWithoutCheckpoints(job)) continue;
      for (const table of job.kafkaTables) {
        if (!table.read || table.bounded || table.startupMode === "latest-offset") continue;
        const setting = job.checkpointing.kind === "off" ? job.checkpointing.entry : undefined;
        const fix = setting
          ? undefined
          : insertFix(job.script.config, `Add SET 'execution.checkpointing.interval' = '${INTERVAL}'`, [
              ["execution.checkpointing.interval", INTERVAL],
            ]);
        const restart =
          table.startupMode === "group-offsets"
            ? "every restart begins again at the last committed offsets, possibly none"
            : `every restart begins again at ${table.startupMode}`;
        ctx.report({
          file: table.facts.file,
          range: table.facts.nameRange,
          message: fitting(
            `Kafka table ${table.facts.name} is read by a job that never checkpoints: its offsets are never committed.`,
            "This Kafka table is read by a job that never checkpoints: its offsets are never committed.",
          ),
          details: `The source commits offsets only on completed checkpoints${setting ? ` (execution.checkpointing.interval is ${setting.value})` : ""}, so none are ever committed and ${restart}. Enable checkpointing, e.g. SET 'execution.checkpointing.interval' = '${INTERVAL}';`,
          related: setting
            ? [
                {
                  file: job.script.config.file,
                  range: setting.valueRange,
                  message: "Checkpointing is turned off here.",
                },
              ]
            : [],
          fixes: fix ? [fix] : [],
        });
      }
    }
  },
};
