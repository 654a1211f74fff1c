/**
 * Tables job code defines with the Table API's `TableDescriptor` (`tableEnv.createTemporaryTable("orders",
 * TableDescriptor.forConnector("kafka").option("topic", "orders")….build())`), read as the tables of the file's SQL
 * script: the same facts as a `CREATE TABLE … WITH (…)` statement, so the SQL rules judge them with the same
 * checkpointing and runtime mode as the statements that code runs. The extractor (`jobcode/extract.ts`) follows the
 * builder; this turns what it found into `SqlTableFacts`.
 */
import type { JobCode, TableDescriptorFact } from "../../jobcode/facts";
import type { SqlTableFacts, SqlTableOption } from "./facts";

export function descriptorTables(code: JobCode): SqlTableFacts[] {
  return code.tableDescriptors.map(tableOf);
}

function tableOf(d: TableDescriptorFact): SqlTableFacts {
  const options: SqlTableOption[] = [
    // `forConnector("kafka")` is the table's `connector` option; a legacy `new Kafka()`, its `connector.type`.
    {
      key: d.legacy ? "connector.type" : "connector",
      value: d.connector,
      keyRange: d.range,
      valueRange: d.range,
      deleteRange: d.range,
      exact: false,
    },
  ];
  for (const o of d.options)
    options.push({
      key: o.key,
      // A value only the running program knows, as an embedded SQL string has it: `${…}` over its text.
      value: o.value ?? `\${${o.valueText}}`,
      keyRange: o.keyRange,
      valueRange: o.valueRange,
      deleteRange: o.removeRange ?? o.keyRange,
      exact: o.exact,
    });
  const first = d.names[0];
  const topic = d.options.find((o) => o.key === "topic" && o.value !== undefined)?.value;
  return {
    file: d.file,
    // A table used without a name is called by its topic in messages.
    name: first?.name ?? topic ?? d.connector,
    nameRange: first?.range ?? d.range,
    ...(d.legacy ? { connectorType: d.connector } : { connector: d.connector }),
    options,
    like: d.open,
    embedded: true,
    descriptor: {
      language: d.language,
      names: d.names.map((n) => n.name),
      read: d.read,
      written: d.written,
      ...(d.chainInsertion && !d.open ? { insertion: d.chainInsertion } : {}),
    },
  };
}
