import type { Fix } from "../../findings";
import {
  deliveryGuaranteeOf,
  formatPrefixes,
  isPassThrough,
  readBy,
  suggestTableOptions,
  tableOption,
} from "../../knowledge/kafkaTableOptions";
import { sqlJobsOf } from "../../project/sqlJobs";
import { fitting } from "../messages";
import type { Rule } from "../types";
import {
  connectorVersion,
  deleteOption,
  describeVersion,
  legacyDescriptorsGone,
  renameOption,
  replaceOptionValue,
  tableFix,
} from "./kafkaTables";

const TABLE = (options: string) => `CREATE TABLE orders_out (
  order_id STRING,
  amount DECIMAL(10, 2)
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders-out',
  'properties.bootstrap.servers' = 'kafka:9092',
  'format' = 'json',
${options}
);
`;

export const rule: Rule = {
  meta: {
    code: "BFL601",
    name: "unknown-connector-option",
    family: "sql",
    severity: "warning",
    description:
      "An option of a Kafka or upsert-kafka table that the connector does not read (misspelled, of another version, or deprecated).",
    fix: "safe",
    docs: {
      whatItDoes:
        "Reports options in `WITH (…)` of a `CREATE TABLE` with `'connector' = 'kafka'` or `'upsert-kafka'` that the connector does not know: an error for a key no connector version reads (a misspelling) or one the project's connector version does not read yet, a warning for the deprecated `sink.semantic`. Options under `properties.` (handed to the Kafka client), options of the table's formats (`json.…`, `key.avro.…`, `value.json.…`) and the planner's `scan.watermark.…` options are not checked. The fix renames a misspelled key (unsafe: it guesses) and replaces `sink.semantic` by `sink.delivery-guarantee` with the same guarantee (safe). Tables job code builds with the Table API (`TableDescriptor.forConnector(\"kafka\").option(…)`, `.format(…)` as `format`, typed options such as `KafkaConnectorOptions.TOPIC`) are checked the same way, and their fixes edit the string literals. A table written with the descriptor keys of Flink 1.13 and older (`'connector.type' = 'kafka'`, `'connector.topic'`), or built by job code with the legacy descriptor API (`tableEnv.connect(new Kafka().topic(…))…createTemporaryTable(…)`, PyFlink `connect(Kafka()…)`), is reported once, at `connector.type` or at `Kafka()`, when the project runs Flink 1.14 or later or a Kafka connector released apart from Flink, neither of which reads those keys; it gets no fix, since every option changes its name.",
      whyItMatters:
        "Flink validates a table's options when a query uses it: an option the connector does not know fails the statement with `Unsupported options found for 'kafka'`, so the job never starts, or a misspelled option such as `scan.startup-mode` stops every deployment until it is found. `sink.semantic` is still read but logs a deprecation warning on every start, and the connector may drop it.",
      bad: { "job.sql": TABLE("  'sink.semantic' = 'at-least-once'") },
      good: { "job.sql": TABLE("  'sink.delivery-guarantee' = 'at-least-once'") },
      whenNotToFire:
        "Tables of other connectors; `properties.*` pass-through options; format options of the formats the table names; options of a connector version newer than the project's when the version is not known (no Kafka connector in the build or images); tables created `LIKE` another table (options are merged from it) are still checked, since every option must be known to the connector. A `'connector.type'` table where the Flink version is not known, or is 1.13 or older.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/table/kafka/#connector-options",
        "apache/flink-connector-kafka KafkaDynamicTableFactory requiredOptions/optionalOptions and the sink.semantic deprecation warning",
        "apache/flink FactoryUtil.validateUnconsumedKeys ('Unsupported options found for ...')",
        "FLINK-23513 (apache/flink#16638, Flink 1.14): the legacy descriptors and the connectors' legacy table factories removed",
      ],
    },
  },
  check(ctx) {
    const version = connectorVersion(ctx.project);
    const legacyGone = legacyDescriptorsGone(ctx.project);
    for (const job of sqlJobsOf(ctx.project)) {
      for (const table of legacyGone ? job.legacyKafkaTables : []) {
        const key = table.options.find((o) => o.key === "connector.type");
        if (!key) continue;
        const code = table.descriptor !== undefined;
        ctx.report({
          file: table.file,
          range: key.keyRange,
          message: code
            ? fitting(
                `${legacyGone} has no Kafka() table descriptor any more: define the table with a TableDescriptor.`,
                "This Flink has no Kafka() table descriptor any more: define the table with a TableDescriptor.",
              )
            : fitting(
                `${legacyGone} no longer reads 'connector.type' tables: name the connector with 'connector' = 'kafka'.`,
                "This Flink no longer reads 'connector.type' tables: name the connector with 'connector' = 'kafka'.",
              ),
          details: `The descriptor keys of Flink 1.13 and older ('connector.type', 'connector.topic', 'connector.properties.*', 'format.type', 'update-mode') were read by the legacy table factories, which Flink 1.14 removed (FLINK-23513); a query that uses this table fails with "Could not find a suitable table factory". ${code ? 'The table environment\'s connect(…) went with them. Define the table with TableDescriptor.forConnector("kafka") (Flink 1.14 and later) or a CREATE TABLE statement' : "Write its options in the current form"}: 'connector' = 'kafka', 'topic', 'properties.bootstrap.servers', 'properties.group.id', 'scan.startup.mode', 'format'.`,
        });
      }
      for (const table of job.kafkaTables) {
        const formats = formatPrefixes(table.facts.options);
        for (const option of table.facts.options) {
          const key = option.key;
          if (isPassThrough(key) || formats.some((p) => key.startsWith(p))) continue;
          const known = tableOption(table.connector, key);
          const file = table.facts.file;
          if (known && readBy(known, version)) {
            if (!known.deprecated) continue;
            const target = tableOption(table.connector, known.deprecated);
            const mapped = deliveryGuaranteeOf(option.value);
            const replaced = table.option(known.deprecated);
            let fixes: Fix[] = [];
            if (replaced && option.exact)
              fixes = tableFix(
                table,
                `Remove ${key} (${known.deprecated} is set)`,
                mapped === deliveryGuaranteeOf(replaced.value) ? "safe" : "unsafe",
                [deleteOption(option)],
              );
            else if (target && readBy(target, version) && mapped && option.exact)
              fixes = tableFix(table, `Replace with '${known.deprecated}' = '${mapped}'`, "safe", [
                renameOption(option, known.deprecated),
                replaceOptionValue(option, mapped),
              ]);
            ctx.report({
              file,
              range: option.keyRange,
              message: fitting(
                `'${key}' is deprecated: the connector still reads it but logs a warning on every start.`,
                "This option is deprecated: the connector still reads it but logs a warning on every start.",
              ),
              details: `A later connector may drop it. Use '${known.deprecated}'${mapped ? ` = '${mapped}'` : ""}.`,
              tags: ["deprecated"],
              fixes,
            });
            continue;
          }
          if (known && version) {
            ctx.report({
              file,
              range: option.keyRange,
              severity: "error",
              message: fitting(
                `${describeVersion(version)} does not read '${key}': Flink rejects the table.`,
                `This connector version does not read '${key}': Flink rejects the table.`,
                "This connector version does not read this option: Flink rejects the table.",
              ),
              details: `The option comes with connector ${known.since}${known.bundledSince ? `, or Flink ${known.bundledSince}` : ""}; Flink fails with "Unsupported options found for '${table.connector}'". Upgrade the connector or remove the option.`,
            });
            continue;
          }
          const suggestions = suggestTableOptions(table.connector, key, version);
          const fixes = option.exact
            ? suggestions.flatMap((s) => tableFix(table, `Change to '${s}'`, "unsafe", [renameOption(option, s)]))
            : [];
          ctx.report({
            file,
            range: option.keyRange,
            severity: "error",
            message: fitting(
              `The ${table.connector} connector has no option '${key}': Flink rejects the table when a query uses it.`,
              `The ${table.connector} connector has no such option: Flink rejects the table when a query uses it.`,
            ),
            details: `Flink fails with "Unsupported options found for '${table.connector}'".${suggestions.length > 0 ? ` Did you mean '${suggestions[0]}'?` : ""}`,
            fixes,
          });
        }
      }
    }
  },
};
