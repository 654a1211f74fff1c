/**
 * Flink SQL jobs of a project: each script (a `.sql` file, or the SQL strings and Table API descriptors of one
 * job-code file) with its Kafka tables, whether the job checkpoints (a `SET` in the script; the configuration of the
 * deployment whose job arguments name the script, else of the project's clusters; or the job code around it), and
 * whether it runs in batch mode. Computed once per project model.
 */

import { withoutComments } from "../comments";
import { BATCH_CODE, mayHoldSql, STREAMING_CODE } from "../documents/sql/embedded";
import type { SqlScriptFacts, SqlTableFacts, SqlTableOption, SqlUse } from "../documents/sql/facts";
import type { Location } from "../findings";
import { isKafkaTableConnector, type KafkaTableConnector } from "../knowledge/kafkaTableOptions";
import { parseDuration } from "../knowledge/values";
import type { ConfigEntry } from "../model";
import { comparePositions, type Position, type Range, rangeContains } from "../text";
import type { ProjectModel } from "../workspace/project";
import { jobCheckpointing } from "./checkpointing";
import { checkpointing, clustersOf, mayBeCompleted, runsBatch, sqlRunnerCluster } from "./clusters";
import { findEntry } from "./configEntries";
import { isTestCode, namesFile, runsOnManagedFlink } from "./jobCode";

export interface KafkaTable {
  facts: SqlTableFacts;
  connector: KafkaTableConnector;
  /** The last option of that key (Flink keeps the last of duplicate keys). */
  option(key: string): SqlTableOption | undefined;
  /** The script reads it (FROM / JOIN), or nothing in the script says how it is used. */
  read: boolean;
  /** The script writes it (INSERT INTO). */
  written: boolean;
  /** `scan.startup.mode` as written, lower-cased; the default `group-offsets` when not written (upsert-kafka: earliest). */
  startupMode: string;
  /** A bounded read (`scan.bounded.mode` other than unbounded). */
  bounded: boolean;
}

export type SqlCheckpointing =
  | { kind: "on"; by: "script" | "cluster" | "code"; entry?: ConfigEntry; where: Location[] }
  | { kind: "off"; entry?: ConfigEntry }
  | { kind: "unknown" };

export interface SqlJob {
  script: SqlScriptFacts;
  kafkaTables: KafkaTable[];
  /**
   * Kafka tables written with the descriptor keys of Flink 1.13 and older (`'connector.type' = 'kafka'`): the
   * legacy table source, a FlinkKafkaConsumer. The BFL6xx option rules do not apply to them.
   */
  legacyKafkaTables: SqlTableFacts[];
  /** The script runs a job (INSERT INTO, or reads a table): a script of definitions only runs none. */
  runsJob: boolean;
  /**
   * The script is Flink SQL for certain: SQL in job code, a `SET` of a Flink option, or a table with a `connector`
   * (or the legacy `connector.type`).
   * A `.sql` file of plain DDL and INSERTs may be a database's init script (PostgreSQL, MySQL). A ksqlDB script or
   * one of Confluent's Flink statements is no script at all (the reader gives it no SQL facts).
   */
  flink: boolean;
  checkpointing: SqlCheckpointing;
  batch: boolean;
}

const cache = new WeakMap<ProjectModel, SqlJob[]>();

export function sqlJobsOf(project: ProjectModel): SqlJob[] {
  let jobs = cache.get(project);
  if (!jobs) {
    jobs = project.files
      .filter((f) => f.sql !== undefined && !isTestCode(project, f.file))
      .flatMap((f) => perDeployment(project, f.sql as SqlScriptFacts))
      .map((script) => jobOf(project, script));
    cache.set(project, jobs);
  }
  return jobs;
}

/**
 * The statements several FlinkDeployments of one manifest pass in their job arguments are one script of the file:
 * each deployment's share of it (its tables, statements and `SET`s) is a job of its own, run on that deployment.
 */
function perDeployment(project: ProjectModel, script: SqlScriptFacts): SqlScriptFacts[] {
  if (script.runBy !== "deploymentArgs") return [script];
  const objects = project
    .fileFacts(script.file)
    ?.k8sObjects.filter((o) => o.kind === "FlinkDeployment")
    .map((o) => o.range);
  if (!objects || objects.length < 2) return [script];
  const shares = objects.map((range) => {
    const inside = (r: Range) => rangeContains(range, r);
    return {
      ...script,
      tables: script.tables.filter((t) => inside(t.nameRange)),
      writes: script.writes.filter((w) => inside(w.range)),
      reads: script.reads.filter((r) => inside(r.range)),
      config: { ...script.config, entries: script.config.entries.filter((e) => inside(e.keyRange)) },
    };
  });
  return shares.filter(
    (s) => s.tables.length > 0 || s.writes.length > 0 || s.reads.length > 0 || s.config.entries.length > 0,
  );
}

/** Where a script's statements start: a deployment's share of a manifest's statements is found by it. */
function firstPosition(script: SqlScriptFacts): Position | undefined {
  const starts = [
    ...script.tables.map((t) => t.nameRange.start),
    ...script.writes.map((w) => w.range.start),
    ...script.reads.map((r) => r.range.start),
    ...script.config.entries.map((e) => e.keyRange.start),
  ];
  return starts.sort(comparePositions)[0];
}

function jobOf(project: ProjectModel, script: SqlScriptFacts): SqlJob {
  const reads = new Set(script.reads.map((u) => u.name));
  const writes = new Set(script.writes.map((u) => u.name));
  const kafkaTables: KafkaTable[] = [];
  for (const t of script.tables) {
    if (!isKafkaTableConnector(t.connector)) continue;
    const option = (key: string) => tableOption(t, key);
    // A Table API descriptor is named by what it is registered as, or used by code without a name.
    const names = t.descriptor ? t.descriptor.names : [t.name];
    const written = names.some((n) => writes.has(n)) || t.descriptor?.written === true;
    // A table no statement reads may still be read by code (`tableEnv.from("orders")`) or a later session: its own
    // source options (`scan.*`, a group id) say it is a source.
    const read = names.some((n) => reads.has(n)) || t.descriptor?.read === true || (!written && sourceOptions(t));
    const bounded = (option("scan.bounded.mode")?.value.trim().toLowerCase() ?? "unbounded") !== "unbounded";
    kafkaTables.push({
      facts: t,
      connector: t.connector,
      option,
      read,
      written,
      // upsert-kafka always starts from the earliest offsets (it has no startup mode).
      startupMode:
        t.connector === "upsert-kafka"
          ? "earliest-offset"
          : (option("scan.startup.mode")?.value.trim().toLowerCase() ?? "group-offsets"),
      bounded,
    });
  }
  return {
    script,
    kafkaTables,
    legacyKafkaTables: script.tables.filter((t) => t.connectorType === "kafka"),
    runsJob: script.writes.length > 0 || (script.embedded && script.tables.length > 0),
    flink:
      script.embedded ||
      script.config.entries.length > 0 ||
      script.tables.some((t) => t.connector !== undefined || t.connectorType !== undefined),
    checkpointing: checkpointingOf(project, script),
    batch: batchOf(project, script),
  };
}

function sourceOptions(t: SqlTableFacts): boolean {
  return t.options.some((o) => o.key.startsWith("scan.") || o.key === "properties.group.id");
}

function checkpointingOf(project: ProjectModel, script: SqlScriptFacts): SqlCheckpointing {
  const entry = findEntry(script.config, "execution.checkpointing.interval");
  if (entry) {
    const parsed = entry.templated ? undefined : parseDuration(entry.value.trim());
    if (!parsed) return { kind: "unknown" };
    if (parsed.millis > 0)
      return { kind: "on", by: "script", entry, where: [{ file: script.file, range: entry.valueRange }] };
    return { kind: "off", entry };
  }
  const runner = sqlRunnerCluster(project, script.file, firstPosition(script));
  if (runner) {
    // The deployment that runs the script decides, not the project's other clusters.
    const state = checkpointing(runner);
    if (state.kind === "on") {
      const where = state.setting
        ? [{ file: state.setting.config.file, range: state.setting.entry.valueRange }]
        : runner.deployment?.upgradeMode
          ? [{ file: runner.deployment.upgradeMode.file, range: runner.deployment.upgradeMode.range }]
          : [];
      return { kind: "on", by: "cluster", where };
    }
    return state.kind === "unknown" || mayBeCompleted(runner) ? { kind: "unknown" } : { kind: "off" };
  }
  let unknown = false;
  for (const cluster of clustersOf(project)) {
    const state = checkpointing(cluster);
    if (state.kind === "on")
      return {
        kind: "on",
        by: "cluster",
        where: state.setting ? [{ file: state.setting.config.file, range: state.setting.entry.valueRange }] : [],
      };
    if (state.kind === "unknown") unknown = true;
  }
  if (unknown) return { kind: "unknown" };
  const code = jobCheckpointing(project);
  // SQL strings in job code run in that code's environment; a .sql file may be run by a job elsewhere in the project
  // that runs SQL (calls executeSql & co.) or names the script. A DataStream job's checkpointing is its own.
  // An environment or a MiniCluster a helper of another file configures counts when the script's code names it.
  const own = script.embedded
    ? code.filter(
        (l) =>
          l.file === script.file ||
          (script.shared && mayRunDefinitions(project, l.file, script)) ||
          usesHelper(project, script.file, l.file),
      )
    : code.filter((l) => mayRunScript(project, l.file, script.file));
  if (own.length > 0) return { kind: "on", by: "code", where: own };
  // Amazon Managed Service for Apache Flink checkpoints the application unless its configuration says otherwise.
  if (script.embedded && runsOnManagedFlink(project, script.file)) return { kind: "unknown" };
  return { kind: "off" };
}

/**
 * Whether the code of `file` uses the job-code file `helper`: a JVM file that names a class or member the helper
 * declares (`Environment.initMiniCluster()`), a Python file that imports the helper's module.
 */
function usesHelper(project: ProjectModel, file: string, helper: string): boolean {
  const facts = project.fileFacts(file);
  const defining = project.fileFacts(helper);
  if (!facts || !defining) return false;
  if (facts.kind === "python" || defining.kind === "python") {
    if (facts.kind !== defining.kind) return false;
    const module = helper.slice(helper.lastIndexOf("/") + 1, -".py".length).replace(/[^\w]/g, "");
    return (
      module !== "" &&
      new RegExp(
        `^\\s*(?:from\\s+(?:[\\w.]+\\.)?${module}\\s+import\\b|import\\s+(?:[\\w.]+\\.)?${module}\\b)`,
        "m",
      ).test(facts.text)
    );
  }
  return namesFile(project, helper, defining.text, facts.text);
}

/** Whether the code of `file` may run the SQL script `scriptFile`: it names the script, or it runs SQL statements. */
function mayRunScript(project: ProjectModel, file: string, scriptFile: string): boolean {
  const facts = project.fileFacts(file);
  if (!facts) return true;
  const name = scriptFile.slice(scriptFile.lastIndexOf("/") + 1);
  if (facts.text.includes(name)) return true;
  const python = facts.kind === "python";
  return (
    (python || facts.kind === "java" || facts.kind === "scala" || facts.kind === "kotlin") &&
    mayHoldSql(facts.text, python)
  );
}

/**
 * Whether the code of `file` may run statements another file defines: it runs SQL statements and names that file's
 * class, object or module (`tableEnv.executeSql(SqlConstants.ORDERS_DDL)`, `from sql_queries import ORDERS_DDL`).
 */
function mayRunDefinitions(project: ProjectModel, file: string, script: SqlScriptFacts): boolean {
  const facts = project.fileFacts(file);
  const defining = project.fileFacts(script.file);
  if (!facts || !defining) return false;
  if (!mayHoldSql(facts.text, facts.kind === "python")) return false;
  return namesFile(project, script.file, defining.text, facts.text);
}

/**
 * The mode job code runs a script's statements in: batch when the code that runs them creates only batch
 * environments (`EnvironmentSettings.inBatchMode()`, `in_batch_mode()`, `RuntimeExecutionMode.BATCH`), streaming
 * when it names a streaming one, unknown otherwise.
 */
function codeMode(project: ProjectModel, script: SqlScriptFacts): "batch" | "streaming" | undefined {
  if (!script.embedded) return undefined;
  const files = [script.file];
  if (script.shared)
    for (const f of project.files)
      if (f.file !== script.file && mayRunDefinitions(project, f.file, script)) files.push(f.file);
  let batch = false;
  for (const file of files) {
    const facts = project.fileFacts(file);
    // A mode in a comment (`//.inBatchMode()` beside `.inStreamingMode()`) is one the code does not choose.
    const text = facts ? withoutComments(facts.text, facts.kind === "python" ? "shell" : "c") : "";
    if (STREAMING_CODE.test(text)) return "streaming";
    if (BATCH_CODE.test(text)) batch = true;
  }
  return batch ? "batch" : undefined;
}

function batchOf(project: ProjectModel, script: SqlScriptFacts): boolean {
  const mode = findEntry(script.config, "execution.runtime-mode");
  if (mode) return mode.value.trim().toUpperCase() === "BATCH";
  const code = codeMode(project, script);
  if (code) return code === "batch";
  const runner = sqlRunnerCluster(project, script.file, firstPosition(script));
  if (runner) return runsBatch(runner);
  const clusters = clustersOf(project);
  return clusters.length > 0 && clusters.every(runsBatch);
}

/**
 * Whether a write of a script makes a bounded job: it writes literal rows, runs in a batch environment, or reads
 * only tables whose every definition in the project is a bounded scan (`jdbc`; `filesystem` without
 * `source.monitor-interval`; `datagen` with `number-of-rows`). A table the project does not define (a catalog's),
 * a view, or a table defined `LIKE` another may be unbounded.
 */
export function isBoundedWrite(project: ProjectModel, script: SqlScriptFacts, write: SqlUse): boolean {
  if (write.literal || write.batch) return true;
  if (!write.sources || write.sources.length === 0) return false;
  // A table the script defines itself is that definition; one it does not, any the project holds (examples side by
  // side often define tables of one name differently).
  const own = cachedBoundedTables(script, () => [script]);
  const bounded = (name: string, seen: ReadonlySet<string>): boolean => {
    // A view the script creates reads what its query reads (a view of views too; a cycle is not bounded).
    const view = script.views?.find((v) => v.name === name);
    if (view) {
      if (!view.sources || view.sources.length === 0 || seen.has(name)) return false;
      const next = new Set([...seen, name]);
      return view.sources.every((n) => bounded(n, next));
    }
    return (
      own.get(name) ?? cachedBoundedTables(project, () => sqlJobsOf(project).map((j) => j.script)).get(name) === true
    );
  };
  return write.sources.every((name) => bounded(name, new Set()));
}

const boundedCache = new WeakMap<object, Map<string, boolean>>();

/** `boundedTables` of a script or of a whole project, computed once per script or project model. */
function cachedBoundedTables(key: object, scripts: () => readonly SqlScriptFacts[]): Map<string, boolean> {
  let found = boundedCache.get(key);
  if (!found) {
    found = boundedTables(scripts());
    boundedCache.set(key, found);
  }
  return found;
}

/** Per table name the scripts define: whether every definition of it is a bounded scan source. */
function boundedTables(scripts: readonly SqlScriptFacts[]): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const script of scripts)
    for (const t of script.tables) {
      const names = t.descriptor ? t.descriptor.names : [t.name];
      for (const name of names) found.set(name, found.get(name) !== false && boundedScan(t));
    }
  return found;
}

/** A table's option as Flink reads it: the last one of the key. */
function tableOption(t: SqlTableFacts, key: string): SqlTableOption | undefined {
  let found: SqlTableOption | undefined;
  for (const o of t.options) if (o.key === key) found = o;
  return found;
}

function boundedScan(t: SqlTableFacts): boolean {
  if (t.like) return false;
  // The legacy descriptor keys (Flink 1.13 and older): a JDBC table and a file table (a CSV source) are read once.
  if (t.connectorType !== undefined) return t.connectorType === "jdbc" || t.connectorType === "filesystem";
  switch (t.connector) {
    case "jdbc":
      return true;
    case "filesystem":
      return tableOption(t, "source.monitor-interval") === undefined;
    case "datagen":
      return tableOption(t, "number-of-rows") !== undefined;
    default:
      return false;
  }
}
