import { sqlJobsOf } from "../../project/sqlJobs";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { insertOption, tableFix } from "./kafkaTables";

const SCRIPT = (extra: string) => `CREATE TABLE orders (
  order_id STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'scan.startup.mode' = 'group-offsets',${extra}
  'format' = 'json'
);

SET 'execution.checkpointing.interval' = '1 min';
INSERT INTO orders_archive SELECT * FROM orders;
`;

export const rule: Rule = {
  meta: {
    code: "BFL602",
    name: "sql-group-offsets-without-group-id",
    family: "sql",
    severity: "error",
    description: "A Kafka table read from its consumer group's offsets (the default) without 'properties.group.id'.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a Kafka source table (`'connector' = 'kafka'`) whose `scan.startup.mode` is `group-offsets`, written or left at its default, with no `'properties.group.id'`. The table is a source when a statement of the script reads it (`FROM`, `JOIN`) or when its own options are a source's (`scan.…`). The fix adds a `'properties.group.id'` placeholder to name. A Table API `TableDescriptor` that job code registers (`createTemporaryTable`, `createTable`) or reads (`from(descriptor)`, PyFlink `from_descriptor`) is a table too: its options are its `.option(…)` calls, and the fix adds `.option(\"properties.group.id\", …)` before its `.build()` in the file's language; an option whose key or value only the running program knows leaves it unreported.",
      whyItMatters:
        "`group-offsets` starts from the offsets the consumer group committed, and the connector commits offsets only for a group: without `properties.group.id` there is no group to read offsets from, so the source fails when it starts (or, with `properties.auto.offset.reset`, starts over every time), and no offsets are ever committed, so consumer-group lag shows nothing.",
      bad: { "job.sql": SCRIPT("") },
      good: { "job.sql": SCRIPT("\n  'properties.group.id' = 'orders-archive',") },
      whenNotToFire:
        "Other startup modes (`earliest-offset`, `latest-offset`, `timestamp`, `specific-offsets`); tables only written to (`INSERT INTO`); upsert-kafka tables (they always read from the earliest offset); tables created `LIKE` another table, which may bring the group id.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/kafka/#start-reading-position",
        "apache/flink-connector-kafka KafkaSourceBuilder ('Offset commit on checkpoint is disabled because group.id is not specified')",
      ],
    },
  },
  check(ctx) {
    for (const job of sqlJobsOf(ctx.project)) {
      for (const table of job.kafkaTables) {
        if (table.connector !== "kafka" || !table.read || table.facts.like) continue;
        if (table.startupMode !== "group-offsets" || table.option("properties.group.id")) continue;
        const mode = table.option("scan.startup.mode");
        const fixes = tableFix(table, "Add 'properties.group.id'", "unsafe", [
          insertOption(ctx.project, table, "properties.group.id", `${table.facts.name}-consumer`),
        ]);
        ctx.report({
          file: table.facts.file,
          range: mode ? mode.valueRange : table.facts.nameRange,
          message: fitting(
            `Kafka table ${table.facts.name} starts from group offsets but has no 'properties.group.id': the source fails at start.`,
            "This Kafka table starts from group offsets but has no 'properties.group.id': the source fails at start.",
          ),
          details: `It starts from its consumer group's committed offsets${mode ? "" : " (the default scan.startup.mode)"}, but there is no group to read offsets from or commit them to. Add 'properties.group.id'.`,
          fixes,
        });
      }
    }
  },
};
