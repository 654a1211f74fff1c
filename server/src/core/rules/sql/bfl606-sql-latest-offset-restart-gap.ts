import { sqlJobsOf } from "../../project/sqlJobs";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { streamingWithoutCheckpoints } from "./kafkaTables";

const SCRIPT = (set: string) => `${set}CREATE TABLE clicks (
  user_id STRING,
  url STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'clicks',
  'properties.bootstrap.servers' = 'kafka:9092',
  'properties.group.id' = 'clicks-counter',
  'scan.startup.mode' = 'latest-offset',
  'format' = 'json'
);

INSERT INTO click_counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;
`;

export const rule: Rule = {
  meta: {
    code: "BFL606",
    name: "sql-latest-offset-restart-gap",
    family: "sql",
    severity: "info",
    description:
      "A Kafka table starting at 'latest-offset' in a streaming job without checkpoints: every restart skips what arrived meanwhile.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports `'scan.startup.mode' = 'latest-offset'` on a Kafka table read by a streaming job of the script when nothing enables checkpointing (the script, the cluster's configuration, the job code). Tables job code builds with a Table API `TableDescriptor` are read the same way (`ScanStartupMode.LATEST_OFFSET` included).",
      whyItMatters:
        "The startup mode applies whenever the job starts without state. Without checkpoints that is every restart, after a failure too: the source starts again at the newest records, and whatever arrived while the job was down is never read.",
      bad: { "job.sql": SCRIPT("") },
      good: { "job.sql": SCRIPT("SET 'execution.checkpointing.interval' = '1 min';\n\n") },
      whenNotToFire:
        "Bounded reads, batch jobs, jobs that checkpoint, scripts that only define tables, and other startup modes (BFL603 reports the commits those jobs never make).",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/kafka/#start-reading-position",
      ],
    },
  },
  check(ctx) {
    for (const job of sqlJobsOf(ctx.project)) {
      if (!job.runsJob || !streamingWithoutCheckpoints(job)) continue;
      for (const table of job.kafkaTables) {
        if (!table.read || table.bounded || table.startupMode !== "latest-offset") continue;
        const mode = table.option("scan.startup.mode");
        if (!mode) continue;
        ctx.report({
          file: table.facts.file,
          range: mode.valueRange,
          message: fitting(
            `Kafka table ${table.facts.name} starts at latest-offset and the job never checkpoints: restarts skip records.`,
            "This Kafka table starts at latest-offset and the job never checkpoints: restarts skip records.",
          ),
          details:
            "Every restart, after a failure too, starts again at the newest records and skips what arrived while the job was down. Enable checkpointing so that restarts resume from the last checkpoint.",
        });
      }
    }
  },
};
