import { parseBoolean } from "../../knowledge/values";
import { sqlJobsOf } from "../../project/sqlJobs";
import type { Rule } from "../types";
import { checkpointingRelated, deleteOption, tableFix } from "./kafkaTables";

const SCRIPT = (extra: string) => `SET 'execution.checkpointing.interval' = '1 min';

CREATE TABLE orders (
  order_id STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'properties.group.id' = 'orders-archive',${extra}
  'format' = 'json'
);

INSERT INTO orders_archive SELECT * FROM orders;
`;

export const rule: Rule = {
  meta: {
    code: "BFL605",
    name: "sql-auto-commit-with-checkpoint-commit",
    family: "sql",
    severity: "info",
    description:
      "A Kafka source table with 'properties.enable.auto.commit' = 'true' in a job that checkpoints: offsets are committed by two mechanisms.",
    fix: "safe",
    docs: {
      whatItDoes:
        "Reports `'properties.enable.auto.commit' = 'true'` on a Kafka table read by a job that checkpoints (a `SET` in the script, the cluster's configuration or the job code). The fix removes the option. On a Table API `TableDescriptor` the fix removes the `.option(…)` call.",
      whyItMatters:
        "The connector commits the offsets of each completed checkpoint and turns the client's auto-commit off unless it is set. With auto-commit on as well, the client commits whatever it fetched every few seconds, ahead of what the job processed and checkpointed: the group's offsets and lag no longer tell what the job did, and a job started without state from group offsets skips records it never processed.",
      bad: { "job.sql": SCRIPT("\n  'properties.enable.auto.commit' = 'true',") },
      good: { "job.sql": SCRIPT("") },
      whenNotToFire:
        "Jobs that do not checkpoint (auto-commit is then the only commit), `'properties.commit.offsets.on.checkpoint' = 'false'`, tables only written to, and values other than true.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/kafka/#consumer-offset-committing",
        "apache/flink-connector-kafka KafkaSourceBuilder.parseAndSetRequiredProperties",
      ],
    },
  },
  check(ctx) {
    for (const job of sqlJobsOf(ctx.project)) {
      if (job.checkpointing.kind !== "on") continue;
      for (const table of job.kafkaTables) {
        const auto = table.option("properties.enable.auto.commit");
        if (!table.read || !auto || parseBoolean(auto.value.trim()) !== true) continue;
        const onCheckpoint = table.option("properties.commit.offsets.on.checkpoint");
        if (onCheckpoint && parseBoolean(onCheckpoint.value.trim()) === false) continue;
        ctx.report({
          file: table.facts.file,
          range: auto.valueRange,
          message:
            "Auto-commit makes the Kafka client commit offsets ahead of the job's checkpoints: the group's offsets mislead.",
          details: `Kafka table ${table.facts.name} commits offsets on every checkpoint, and 'properties.enable.auto.commit' = 'true' makes the client commit too, ahead of what the job has checkpointed: the group's offsets no longer say what the job processed. Remove the option.`,
          related: checkpointingRelated(job),
          tags: ["unnecessary"],
          fixes: auto.exact
            ? tableFix(table, "Remove 'properties.enable.auto.commit'", "safe", [deleteOption(auto)])
            : [],
        });
      }
    }
  },
};
