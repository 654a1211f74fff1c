import { deliveryGuaranteeOf } from "../../knowledge/kafkaTableOptions";
import { sqlJobsOf } from "../../project/sqlJobs";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { insertOption, tableFix } from "./kafkaTables";

const SCRIPT = (extra: string) => `SET 'execution.checkpointing.interval' = '1 min';

CREATE TABLE payments_out (
  payment_id STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments-out',
  'properties.bootstrap.servers' = 'kafka:9092',
  'properties.transaction.timeout.ms' = '900000',
  'format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once'${extra}
);

INSERT INTO payments_out SELECT payment_id, amount FROM payments;
`;

/** Kafka brokers abort transactions older than transaction.max.timeout.ms, 15 min by default. */
const BROKER_MAX_MS = 900_000;

export const rule: Rule = {
  meta: {
    code: "BFL604",
    name: "sql-exactly-once-sink-misconfigured",
    family: "sql",
    severity: "error",
    description:
      "A Kafka table written exactly-once without 'sink.transactional-id-prefix', or by a job that never checkpoints.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports a Kafka or upsert-kafka table with `'sink.delivery-guarantee' = 'exactly-once'` (or the deprecated `'sink.semantic' = 'exactly-once'`) that sets no `'sink.transactional-id-prefix'` (error), that the script writes in a streaming job that never checkpoints (error), or whose `properties.transaction.timeout.ms` is left at the sink's 1 h default or set above the brokers' default maximum of 15 min (warning). The fix adds a transactional id prefix to name. A Table API `TableDescriptor` (written by `executeInsert(descriptor)` or registered by name) is checked too; its fix adds `.option(\"sink.transactional-id-prefix\", …)` before `.build()`.",
      whyItMatters:
        "Flink rejects an exactly-once Kafka table without a transactional id prefix when the statement is planned. The exactly-once sink commits its Kafka transactions only when a checkpoint completes: without checkpoints nothing is ever committed and `read_committed` consumers see no data. A transaction timeout above the broker's `transaction.max.timeout.ms` makes the producer fail at start (`InvalidTxnTimeoutException`).",
      bad: { "job.sql": SCRIPT("") },
      good: { "job.sql": SCRIPT(",\n  'sink.transactional-id-prefix' = 'payments-out'") },
      whenNotToFire:
        "Tables with `at-least-once` or `none` delivery (the default is at-least-once); batch jobs and jobs whose cluster configuration or job code enables checkpointing (for the checkpointing part); tables created `LIKE` another table (for the missing prefix).",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/kafka/#consistency-guarantees",
        "apache/flink-connector-kafka KafkaConnectorOptionsUtil.validateDeliveryGuarantee (the prefix is required for exactly-once)",
        "Kafka broker configuration transaction.max.timeout.ms (default 900000)",
      ],
    },
  },
  check(ctx) {
    for (const job of sqlJobsOf(ctx.project)) {
      for (const table of job.kafkaTables) {
        const guarantee = table.option("sink.delivery-guarantee") ?? table.option("sink.semantic");
        if (!guarantee || deliveryGuaranteeOf(guarantee.value) !== "exactly-once") continue;
        const file = table.facts.file;
        if (!table.option("sink.transactional-id-prefix") && !table.facts.like) {
          ctx.report({
            file,
            range: guarantee.valueRange,
            message: fitting(
              `Kafka table ${table.facts.name} is written exactly-once without 'sink.transactional-id-prefix': Flink rejects it.`,
              "This Kafka table is written exactly-once without 'sink.transactional-id-prefix': Flink rejects it.",
            ),
            details: "Flink rejects the table when the statement is planned. Add a prefix unique to this sink.",
            fixes: tableFix(table, "Add 'sink.transactional-id-prefix'", "unsafe", [
              insertOption(ctx.project, table, "sink.transactional-id-prefix", table.facts.name),
            ]),
          });
        }
        if (table.written && !job.batch && job.checkpointing.kind === "off") {
          ctx.report({
            file,
            range: guarantee.valueRange,
            message: fitting(
              `Kafka table ${table.facts.name} is written exactly-once by a job that never checkpoints: nothing is committed.`,
              "This Kafka table is written exactly-once by a job that never checkpoints: nothing is committed.",
            ),
            details:
              "Its transactions commit only on completed checkpoints, so read_committed consumers never see a record. Enable checkpointing, e.g. SET 'execution.checkpointing.interval' = '1 min';",
          });
        }
        const timeout = table.option("properties.transaction.timeout.ms");
        const ms = timeout ? Number(timeout.value.trim()) : 3_600_000;
        // The default applies unless the options come from elsewhere too (LIKE, a key filled in at run time).
        if (Number.isFinite(ms) && ms > BROKER_MAX_MS && (timeout || !table.facts.like)) {
          ctx.report({
            file,
            range: timeout ? timeout.valueRange : guarantee.valueRange,
            severity: "warning",
            message: `${timeout ? "The sink's transaction timeout" : "The sink's default transaction timeout (1 h)"} exceeds the brokers' default 15 min limit: the producer fails at start.`,
            details: `${timeout ? `properties.transaction.timeout.ms is ${timeout.value}; ` : ""}brokers accept at most transaction.max.timeout.ms (15 min by default) unless raised. Set 'properties.transaction.timeout.ms' to at most '900000', above the longest checkpoint plus restart time.`,
          });
        }
      }
    }
  },
};
