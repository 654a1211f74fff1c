/**
 * Reads Flink SQL scripts into facts: a `.sql` file, or the SQL strings of a job-code file (each piece decoded from
 * its literal, with the host offset of every character). `SET` statements become one Flink configuration with the
 * "sql" host, so the Flink configuration rules check them like any other; tables become `SqlTableFacts`.
 */
import { pushAll } from "../../arrays";
import type { ConfigEntry, FlinkConfig, SyntaxProblem } from "../../model";
import { LineIndex, type Range, type TextEdit } from "../../text";
import type { SqlScriptFacts, SqlTableFacts, SqlUse } from "./facts";
import { scanSql } from "./scanner";

/** A SQL text and where each of its characters stands in the host file. */
export interface SqlPiece {
  text: string;
  /** Host offset of character i (identity when absent: the piece is the file). */
  starts?: readonly number[];
  /** Host offset just after character i. */
  ends?: readonly number[];
  /** A statement the file defines (a constant, a returned value) rather than passes to `executeSql` itself. */
  defined?: boolean;
}

export interface SqlRead {
  /** Undefined when no piece is Flink SQL: every one is ksqlDB (`CREATE STREAM … WITH (KAFKA_TOPIC='…')`). */
  script?: SqlScriptFacts;
  problems: SyntaxProblem[];
}

/**
 * Reads the pieces of one file (a `.sql` file is one piece, job code one per string passed to executeSql …). A piece
 * that is ksqlDB is another engine's SQL and is passed over: its SET statements are not Flink options, its streams
 * and tables not Flink tables. `defined` are the tables the file's code defines otherwise (Table API descriptors):
 * they join the script, which exists for them alone too.
 */
export function readSqlPieces(
  file: string,
  hostText: string,
  pieces: SqlPiece[],
  embedded: boolean,
  defined: SqlTableFacts[] = [],
  runBy?: SqlScriptFacts["runBy"],
): SqlRead {
  const index = new LineIndex(hostText);
  const tables: SqlTableFacts[] = [];
  const writes: SqlUse[] = [];
  const views: NonNullable<SqlScriptFacts["views"]> = [];
  const reads: SqlUse[] = [];
  const entries: ConfigEntry[] = [];
  const problems: SyntaxProblem[] = [];
  let firstStatement: number | undefined;
  let inexact = false;
  let flinkPieces = 0;
  for (const piece of pieces) {
    const start = (i: number) => (piece.starts ? (piece.starts[i] ?? hostEnd(piece)) : i);
    const end = (i: number) => (i <= 0 ? start(0) : piece.ends ? (piece.ends[i - 1] ?? hostEnd(piece)) : i);
    // A range of the piece's text [s, e) in host coordinates; an empty range stays at its start.
    const range = (s: number, e: number): Range => index.rangeOf(start(s), e > s ? end(e) : start(s));
    // Source text equals the piece's text there (no escape sequence of the host language in between).
    const plain = (s: number, e: number) => end(e) - start(s) === e - s;
    const scan = scanSql(piece.text);
    if (scan.otherEngine) continue;
    flinkPieces++;
    if (firstStatement === undefined && scan.firstStatement !== undefined) firstStatement = start(scan.firstStatement);
    for (const p of scan.problems)
      problems.push({ range: range(p.start, p.end), message: p.message, severity: "info" });
    for (const s of scan.sets) {
      // A key filled in at run time (`SET '" + key + "' = …`): nobody knows which option it sets.
      if (/\$\{/.test(s.key)) continue;
      entries.push({
        key: s.key,
        value: s.value,
        keyRange: range(s.keyStart, s.keyEnd),
        valueRange: range(s.valueStart, s.valueEnd),
        deleteRange: range(s.statementStart, s.statementEnd),
        nested: false,
        templated: /\$\{/.test(s.value),
        valueKind: "scalar",
      });
      if (s.escaped || !plain(s.keyStart, s.keyEnd) || !plain(s.valueStart, s.valueEnd)) inexact = true;
    }
    for (const t of scan.tables) {
      // A name filled in at run time (`CREATE TABLE {name}` in a Python f-string): no statement can be told to use it.
      if (t.name.endsWith("$") && piece.text[t.nameEnd] === "{") continue;
      // Options whose key is filled in at run time may be any option: like a `LIKE` table's, the list is open.
      const options = t.options.filter((o) => !/\$\{/.test(o.key));
      const connector = options
        .find((o) => o.key === "connector")
        ?.value.trim()
        .toLowerCase();
      const connectorType =
        connector === undefined
          ? options
              .find((o) => o.key === "connector.type")
              ?.value.trim()
              .toLowerCase()
          : undefined;
      tables.push({
        file,
        name: t.name,
        nameRange: range(t.nameStart, t.nameEnd),
        connector,
        ...(connectorType !== undefined ? { connectorType } : {}),
        options: options.map((o) => ({
          key: o.key,
          value: o.value,
          keyRange: range(o.keyStart, o.keyEnd),
          valueRange: range(o.valueStart, o.valueEnd),
          deleteRange: range(o.deleteStart, o.deleteEnd),
          exact: !o.escaped && plain(o.keyStart, o.keyEnd) && plain(o.valueStart, o.valueEnd),
        })),
        like: t.like || options.length < t.options.length,
        insertAt: t.closeParen !== undefined ? range(t.closeParen, t.closeParen) : undefined,
        embedded,
      });
    }
    for (const u of scan.inserts)
      writes.push({
        name: u.name,
        range: range(u.start, u.end),
        ...(u.literal ? { literal: u.literal } : {}),
        ...(u.sources ? { sources: u.sources } : {}),
      });
    for (const u of scan.reads) reads.push({ name: u.name, range: range(u.start, u.end) });
    pushAll(views, scan.views);
  }
  if (flinkPieces === 0 && defined.length === 0) return { problems };
  pushAll(tables, defined);
  const anchorOffset = firstStatement ?? 0;
  const anchor = index.rangeOf(anchorOffset, anchorOffset);
  const config: FlinkConfig = {
    id: `${file}#sql`,
    file,
    host: "sql",
    // Like Flink's legacy line reader: values are plain strings and a key set again replaces the earlier value.
    dialect: "legacy",
    entries,
    ignoredLines: [],
    anchor,
    inexactRanges: inexact || undefined,
    // No SET is inserted into job code's strings or a manifest's job arguments.
    insertEntry: (key, value) =>
      embedded || runBy !== undefined ? undefined : insertSet(index, anchorOffset, key, value),
  };
  const shared = pieces.some((p) => p.defined);
  const descriptorsOnly = flinkPieces === 0;
  return {
    script: {
      file,
      embedded,
      ...(runBy ? { runBy } : {}),
      ...(shared ? { shared } : {}),
      ...(descriptorsOnly ? { descriptorsOnly } : {}),
      tables,
      writes,
      reads,
      ...(views.length > 0 ? { views } : {}),
      config,
    },
    problems,
  };
}

function hostEnd(piece: SqlPiece): number {
  const ends = piece.ends ?? [];
  return ends.length > 0 ? ends[ends.length - 1] : 0;
}

/** `'…'` with quotes doubled. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The statement that sets a Flink option, as the SQL client writes it. */
export function setStatement(key: string, value: string): string {
  return `SET ${sqlString(key)} = ${sqlString(value)};`;
}

/** Inserts `SET 'key' = 'value';` on its own line before the first statement of the script. */
function insertSet(index: LineIndex, firstStatement: number, key: string, value: string): TextEdit {
  const at = index.positionAt(firstStatement);
  const lineStart = { line: at.line, character: 0 };
  const before = index.text.slice(index.offsetAt(lineStart), firstStatement);
  const eol = index.eol;
  // A statement that does not start its line (after a comment `/* … */ CREATE …`) gets the SET right before it.
  if (before.trim() !== "") return { range: { start: at, end: at }, newText: `${setStatement(key, value)}${eol}` };
  return { range: { start: lineStart, end: lineStart }, newText: `${before}${setStatement(key, value)}${eol}` };
}

/** A `.sql` file. */
export function readSqlFile(file: string, text: string): SqlRead {
  return readSqlPieces(file, text, [{ text }], false);
}
