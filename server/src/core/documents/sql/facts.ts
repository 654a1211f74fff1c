/**
 * What a Flink SQL script says, with host-file ranges: its tables with their `WITH (…)` options, the tables its
 * statements write and read, and its `SET` statements (which become a Flink configuration with the "sql" host).
 * A script is a `.sql` file, or every SQL string literal one job-code file passes to `executeSql` and friends, with
 * the tables that file defines with the Table API's `TableDescriptor`.
 */
import type { ChainInsertion, CodeLanguage } from "../../jobcode/facts";
import type { FlinkConfig } from "../../model";
import type { Range } from "../../text";

export interface SqlTableOption {
  key: string;
  value: string;
  keyRange: Range;
  valueRange: Range;
  /** The option with the comma that joins it to its neighbour: what removing it deletes. */
  deleteRange: Range;
  /** False where the source text is not the value (an escape sequence in a host string or a doubled quote). */
  exact: boolean;
}

export interface SqlTableFacts {
  file: string;
  name: string;
  nameRange: Range;
  /** The value of `'connector'`, lower-cased, when the table names one. */
  connector?: string;
  /**
   * The value of `'connector.type'`, lower-cased, when the table names its connector with the descriptor keys of
   * Flink 1.13 and older (`'connector.type' = 'kafka'`, `'connector.topic'`, …) and has no `'connector'`.
   */
  connectorType?: string;
  options: SqlTableOption[];
  /** The options written are not all there is: `CREATE TABLE … LIKE` another table, or a key filled in at run time. */
  like: boolean;
  /** Where a new option is inserted (just before the `)` that closes `WITH (…)`), when the list is complete. */
  insertAt?: Range;
  /** True in a script embedded in job code. */
  embedded: boolean;
  /** A table job code defines with the Table API's `TableDescriptor` rather than a `CREATE TABLE` statement. */
  descriptor?: DescriptorTable;
}

/**
 * How a `TableDescriptor` table is used: its options are `.option(…)` calls (the key and value ranges are inside the
 * string literals' quotes), its `format` is `.format(…)`, and code names it or uses it directly.
 */
export interface DescriptorTable {
  language: CodeLanguage;
  /** Every name it is registered under (`createTemporaryTable("orders", d)`); empty when code uses it unnamed. */
  names: string[];
  /** Code reads it without a name (`tableEnv.from(descriptor)`). */
  read: boolean;
  /** Code writes it without a name (`table.executeInsert(descriptor)`). */
  written: boolean;
  /** Where a new `.option("k", "v")` joins the builder, when its options are complete. */
  insertion?: ChainInsertion;
}

export interface SqlUse {
  name: string;
  range: Range;
  /** A write of literal rows only (`INSERT INTO t VALUES …`, Table API `fromValues(…).executeInsert(…)`): a bounded job. */
  literal?: true;
  /** A Table API write run in a batch environment (`EnvironmentSettings.inBatchMode()`): a bounded job. */
  batch?: true;
  /**
   * Of a write: the names of the tables its rows are read from, when all of them are known (a statement with no text
   * filled in at run time, a Table API chain that reads tables by name only).
   */
  sources?: string[];
}

export interface SqlScriptFacts {
  file: string;
  embedded: boolean;
  /**
   * Statements a FlinkDeployment passes to its job as arguments (a SQL runner's `job.args`): the deployment of the
   * file runs them, as a `.sql` file named by its arguments would be.
   */
  runBy?: "deploymentArgs";
  /**
   * Some of its statements are defined for code elsewhere to run: SQL constants or methods returning SQL
   * (`SqlConstants.ORDERS_DDL`), run by the job of another file that names this one.
   */
  shared?: boolean;
  tables: SqlTableFacts[];
  /** The script has no SQL text: its tables are all `TableDescriptor`s of job code. */
  descriptorsOnly?: boolean;
  /** Tables written by INSERT INTO / INSERT OVERWRITE. */
  writes: SqlUse[];
  /** Tables read by FROM / JOIN. */
  reads: SqlUse[];
  /** Views the script creates (`CREATE VIEW v AS SELECT …`), with the tables their query reads when all are known. */
  views?: { name: string; sources?: string[] }[];
  /** The script's SET statements as a Flink configuration (host "sql"); also listed in the file's flinkConfigs. */
  config: FlinkConfig;
}
