/**
 * A linear statement scanner for Flink SQL: just enough to find `SET` statements, `CREATE [TEMPORARY] TABLE … WITH
 * (…)` options, and which tables `INSERT INTO` writes and `FROM` / `JOIN` read. It is not a SQL parser: statements
 * it does not know (Flink 2.x `QUALIFY`, `CREATE MATERIALIZED TABLE`, `EXECUTE STATEMENT SET`) are passed over in
 * silence, and only a `WITH (…)` list or a `SET` it started reading and could not finish is a problem.
 *
 * A script that is recognisably another engine's (ksqlDB: a `CREATE STREAM`, `EMIT CHANGES`, a `WITH (KAFKA_TOPIC='…')`
 * property list; Confluent's Flink statements: a `SET` of a statement property such as `sql.current-catalog` or
 * `client.statement-name`, which Apache Flink does not have; a database's init script: `SET search_path TO …`:
 * `otherEngineSign`) is not Apache Flink SQL: its scan says so and holds nothing else, no SET, no table, no problem.
 *
 * It reads `--` and `/* … *\/` comments, quoted strings with `''` escapes, backtick identifiers with ```` `` ````
 * escapes, and splits statements on `;` outside them. One pass over the text, never throws.
 *
 * Offsets are into the scanned text; an embedded script (a string literal in job code) maps them back to the host
 * file through `SqlText.start` / `SqlText.end`.
 */

/** SQL that looks like Flink SQL but is run by something else. */
export type SqlEngine = "ksqlDB" | "Confluent" | "database" | "Trino";

export interface SqlToken {
  kind: "word" | "string" | "quoted" | "punct";
  start: number;
  end: number;
  /** Words as written; strings and backtick identifiers decoded (quotes removed, doubled quotes halved). */
  value: string;
  /** A string or backtick identifier whose closing quote is missing. */
  unterminated?: boolean;
}

export interface SqlOption {
  key: string;
  value: string;
  /** Offsets of the key's and value's text (inside the quotes). */
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** What deleting the option removes: the option and the comma that separates it from its neighbour. */
  deleteStart: number;
  deleteEnd: number;
  /** The key or value holds a doubled quote: its text is not the decoded value. */
  escaped: boolean;
}

export interface SqlSet {
  key: string;
  value: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  statementStart: number;
  statementEnd: number;
  escaped: boolean;
  quoted: boolean;
}

export interface SqlTable {
  /** The table's name (the last part of its path), without backticks. */
  name: string;
  nameStart: number;
  nameEnd: number;
  temporary: boolean;
  options: SqlOption[];
  /** Offset of `WITH`, and of the `)` that closes the options (where a new option is inserted before). */
  withStart: number;
  closeParen?: number;
  /** `CREATE TABLE … LIKE other`: options are merged from another table. */
  like: boolean;
}

export interface SqlProblem {
  start: number;
  end: number;
  message: string;
}

export interface SqlScan {
  sets: SqlSet[];
  tables: SqlTable[];
  /**
   * Names of tables written by `INSERT INTO` / `INSERT OVERWRITE`, with where they are named. `literal`: the
   * statement reads no table (`INSERT INTO t VALUES …`, `SELECT 1, 'a'`), so the job it submits is bounded.
   * `sources`: the names of the tables the statement reads, when its whole text is known (none is filled in at run
   * time).
   */
  inserts: { name: string; start: number; end: number; literal?: true; sources?: string[] }[];
  /** Names of tables read by `FROM` / `JOIN`. */
  reads: { name: string; start: number; end: number }[];
  /** Views (`CREATE VIEW v AS SELECT …`) and the tables their query reads, when its whole text is known. */
  views: { name: string; sources?: string[] }[];
  /** Offset where the first statement starts (after leading comments and blank lines). */
  firstStatement?: number;
  problems: SqlProblem[];
  /** The script is another engine's, not Apache Flink SQL: the first token that says so (the scan then holds nothing else). */
  otherEngine?: { start: number; end: number; engine: SqlEngine };
}

function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 36 ||
    c === 45 /* - inside words: keys such as restart-strategy */ ||
    c >= 128
  );
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff;
}

/** The tokens of a SQL text, comments dropped. */
export function tokenizeSql(text: string): SqlToken[] {
  const out: SqlToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 45 && text.charCodeAt(i + 1) === 45) {
      while (i < n && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (c === 39 || c === 96) {
      const quote = text[i];
      const start = i;
      let value = "";
      let j = i + 1;
      let closed = false;
      let from = j;
      while (j < n) {
        if (text[j] === quote) {
          if (text[j + 1] === quote) {
            value += text.slice(from, j + 1);
            j += 2;
            from = j;
            continue;
          }
          closed = true;
          break;
        }
        j++;
      }
      value += text.slice(from, j);
      const end = closed ? j + 1 : n;
      out.push({ kind: c === 39 ? "string" : "quoted", start, end, value, unterminated: !closed || undefined });
      i = end;
      continue;
    }
    if (c === 34) {
      // Double-quoted identifiers are not Flink SQL, but a stray one must not swallow the script: it ends at its line.
      let j = i + 1;
      while (j < n && text[j] !== '"' && text[j] !== "\n") j++;
      const end = Math.min(n, j + 1);
      out.push({ kind: "quoted", start: i, end, value: text.slice(i + 1, j) });
      i = end;
      continue;
    }
    if (isWordChar(c) && c !== 45) {
      let j = i + 1;
      while (j < n && isWordChar(text.charCodeAt(j))) {
        // `a--comment`: a comment sign ends the word.
        if (text.charCodeAt(j) === 45 && text.charCodeAt(j + 1) === 45) break;
        j++;
      }
      out.push({ kind: "word", start: i, end: j, value: text.slice(i, j) });
      i = j;
      continue;
    }
    out.push({ kind: "punct", start: i, end: i + 1, value: text[i] });
    i++;
  }
  return out;
}

function isWord(t: SqlToken | undefined, word: string): boolean {
  return t !== undefined && t.kind === "word" && t.value.toUpperCase() === word;
}

function isPunct(t: SqlToken | undefined, p: string): boolean {
  return t !== undefined && t.kind === "punct" && t.value === p;
}

/** Splits tokens into statements on `;`. */
function statements(tokens: SqlToken[]): SqlToken[][] {
  const out: SqlToken[][] = [];
  let current: SqlToken[] = [];
  for (const t of tokens) {
    if (isPunct(t, ";")) {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push(t);
  }
  if (current.length > 0) out.push(current);
  return out;
}

export function scanSql(text: string): SqlScan {
  const scan: SqlScan = { sets: [], tables: [], inserts: [], reads: [], views: [], problems: [] };
  const tokens = tokenizeSql(text);
  if (tokens.length > 0) scan.firstStatement = tokens[0].start;
  const split = statements(tokens);
  for (const st of split) {
    const sign = otherEngineSign(st);
    if (sign) {
      scan.otherEngine = { start: sign.token.start, end: sign.token.end, engine: sign.engine };
      return scan;
    }
  }
  for (const st of split) {
    const head = st[0];
    if (isWord(head, "SET")) readSet(text, st, scan);
    else if (isWord(head, "CREATE")) readCreate(st, scan);
    readUses(text, st, scan);
  }
  return scan;
}

/**
 * Statement properties of Confluent Cloud for Apache Flink and Confluent Manager for Apache Flink
 * (`SET 'sql.current-catalog' = …`, `'sql.state-ttl'`, `'client.statement-name'`): Apache Flink has no `sql.*` option
 * at all, and its `client.*` options are others (`client.timeout`, `client.retry-period`).
 */
const CONFLUENT_PROPERTY = /^sql\.|^client\.(statement-name|service-account|output-format|results-timeout)$/;

/** The token that says a statement is another engine's SQL, and which engine. */
function otherEngineSign(st: SqlToken[]): { token: SqlToken; engine: SqlEngine } | undefined {
  const ksql = ksqlDbSign(st);
  if (ksql) return { token: ksql, engine: "ksqlDB" };
  if (isWord(st[0], "SET") && st[1]?.kind === "string" && CONFLUENT_PROPERTY.test(st[1].value))
    return { token: st[1], engine: "Confluent" };
  // A database's session setting: `SET search_path TO inventory`, `SET NAMES utf8mb4` (PostgreSQL, MySQL). Flink's
  // SET always has `=` (`SET 'key' = 'value'`, the old `SET key=value`); only a quoted key without one is a Flink typo.
  if (isWord(st[0], "SET") && st[1]?.kind === "word" && st.length > 2 && !st.some((t) => isPunct(t, "=")))
    return { token: st[0], engine: "database" };
  const trino = trinoSign(st);
  if (trino) return { token: trino, engine: "Trino" };
  return undefined;
}

/**
 * The property that says a `CREATE` statement is Trino's (Presto, Athena): `WITH (format = 'PARQUET', location = …)`.
 * Flink's grammar takes only string literals as option keys (`'connector' = 'kafka'`); Trino's properties are plain
 * identifiers, never dotted or hyphenated. A Flink script that lost the quotes keeps its own keys (`connector`, a
 * dotted `properties.…`, `scan.startup.mode`) and stays Flink's, with its syntax problem.
 */
function trinoSign(st: SqlToken[]): SqlToken | undefined {
  if (!isWord(st[0], "CREATE")) return undefined;
  let depth = 0;
  for (let i = 1; i < st.length - 2; i++) {
    const t = st[i];
    if (isPunct(t, "(")) depth++;
    else if (isPunct(t, ")")) depth = Math.max(0, depth - 1);
    else if (depth === 0 && isWord(t, "WITH") && isPunct(st[i + 1], "(")) {
      const key = st[i + 2];
      if (key?.kind !== "word" || !isPunct(st[i + 3], "=")) return undefined;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key.value) || key.value.toLowerCase() === "connector") return undefined;
      return key;
    }
  }
  return undefined;
}

/** ksqlDB's own property names, written unquoted in its `WITH (…)` lists; Flink's table options are quoted strings. */
const KSQLDB_PROPERTIES = new Set(["KAFKA_TOPIC", "VALUE_FORMAT", "KEY_FORMAT"]);

/**
 * The token of a statement that only ksqlDB reads, outside comments and strings: `CREATE [OR REPLACE] [SOURCE]
 * STREAM`, `CREATE [OR REPLACE] SOURCE TABLE`, `DROP STREAM`, a query's `EMIT CHANGES` / `EMIT FINAL`, or an
 * unquoted `KAFKA_TOPIC`, `VALUE_FORMAT` or `KEY_FORMAT` property in a `WITH (…)` list. Flink SQL has none of them.
 */
function ksqlDbSign(st: SqlToken[]): SqlToken | undefined {
  const head = st[0];
  if (isWord(head, "CREATE")) {
    let i = 1;
    if (isWord(st[i], "OR") && isWord(st[i + 1], "REPLACE")) i += 2;
    const source = isWord(st[i], "SOURCE");
    if (source) i++;
    if (isWord(st[i], "STREAM") || (source && isWord(st[i], "TABLE"))) return st[i];
  } else if (isWord(head, "DROP") && isWord(st[1], "STREAM")) return st[1];
  let depth = 0;
  let withDepth = -1;
  for (let i = 0; i < st.length; i++) {
    const t = st[i];
    if (isPunct(t, "(")) {
      depth++;
      if (isWord(st[i - 1], "WITH") && withDepth < 0) withDepth = depth;
    } else if (isPunct(t, ")")) {
      if (depth === withDepth) withDepth = -1;
      depth = Math.max(0, depth - 1);
    } else if (isWord(t, "EMIT") && (isWord(st[i + 1], "CHANGES") || isWord(st[i + 1], "FINAL"))) return t;
    else if (
      depth === withDepth &&
      t.kind === "word" &&
      KSQLDB_PROPERTIES.has(t.value.toUpperCase()) &&
      isPunct(st[i + 1], "=") &&
      (isPunct(st[i - 1], "(") || isPunct(st[i - 1], ","))
    )
      return t;
  }
  return undefined;
}

function readSet(text: string, st: SqlToken[], scan: SqlScan): void {
  if (st.length === 1) return; // `SET;` lists the session's properties.
  const eq = st.findIndex((t) => isPunct(t, "="));
  const statementStart = st[0].start;
  // The statement with its `;`, and the line break after it when the statement is a line of its own.
  let statementEnd = st[st.length - 1].end;
  let j = statementEnd;
  while (text[j] === " " || text[j] === "\t") j++;
  if (text[j] === ";") {
    statementEnd = j + 1;
    const lineStart = text.lastIndexOf("\n", statementStart - 1) + 1;
    let k = statementEnd;
    while (text[k] === " " || text[k] === "\t") k++;
    if (text.slice(lineStart, statementStart).trim() === "" && (text[k] === "\n" || text.startsWith("\r\n", k)))
      statementEnd = text[k] === "\n" ? k + 1 : k + 2;
  }
  if (eq < 0) {
    scan.problems.push({
      start: st[1].start,
      end: st[st.length - 1].end,
      message: "This SET statement has no `=`; write it as SET 'key' = 'value';",
    });
    return;
  }
  const keyTokens = st.slice(1, eq);
  const valueTokens = st.slice(eq + 1);
  if (keyTokens.length === 0 || valueTokens.length === 0) {
    scan.problems.push({
      start: st[0].start,
      end: statementEnd,
      message: "This SET statement has no key or no value; write it as SET 'key' = 'value';",
    });
    return;
  }
  const one = (ts: SqlToken[]) => (ts.length === 1 && ts[0].kind === "string" ? ts[0] : undefined);
  const k = one(keyTokens);
  const v = one(valueTokens);
  const unterminated = [...keyTokens, ...valueTokens].find((t) => t.unterminated);
  if (unterminated) {
    scan.problems.push({ start: unterminated.start, end: unterminated.end, message: "This string is not closed." });
    return;
  }
  const keyStart = k ? k.start + 1 : keyTokens[0].start;
  const keyEnd = k ? k.end - 1 : keyTokens[keyTokens.length - 1].end;
  const valueStart = v ? v.start + 1 : valueTokens[0].start;
  const valueEnd = v ? v.end - 1 : valueTokens[valueTokens.length - 1].end;
  const key = k ? k.value : text.slice(keyStart, keyEnd);
  const value = v ? v.value : text.slice(valueStart, valueEnd);
  scan.sets.push({
    key,
    value,
    keyStart,
    keyEnd,
    valueStart,
    valueEnd,
    statementStart,
    statementEnd,
    escaped:
      (k !== undefined && k.value.length !== keyEnd - keyStart) ||
      (v !== undefined && v.value.length !== valueEnd - valueStart),
    quoted: k !== undefined,
  });
}

function readCreate(st: SqlToken[], scan: SqlScan): void {
  let i = 1;
  let temporary = false;
  if (isWord(st[i], "TEMPORARY")) {
    temporary = true;
    i++;
  }
  if (isWord(st[i], "OR") && isWord(st[i + 1], "REPLACE")) i += 2;
  if (!isWord(st[i], "TABLE")) return; // views, functions, catalogs, materialized tables: not read
  i++;
  if (isWord(st[i], "IF") && isWord(st[i + 1], "NOT") && isWord(st[i + 2], "EXISTS")) i += 3;
  // The table's path: name(.name)*
  let nameToken: SqlToken | undefined;
  while (i < st.length && (st[i].kind === "word" || st[i].kind === "quoted")) {
    nameToken = st[i];
    i++;
    if (isPunct(st[i], ".")) i++;
    else break;
  }
  if (!nameToken) return;
  // Find WITH at depth 0 after the name (the column list comes first, in parentheses), before the query of a
  // `CREATE TABLE … AS`. Only a WITH that opens a list, or starts one without its `(`, is the options' WITH: a common
  // table expression of the query (`AS WITH recent AS (…)`) and other engines' clauses (`DISTRIBUTED BY … WITH 4
  // BUCKETS`) are not.
  let depth = 0;
  let withAt = -1;
  let like = false;
  for (let j = i; j < st.length; j++) {
    const t = st[j];
    if (isPunct(t, "(")) depth++;
    else if (isPunct(t, ")")) depth = Math.max(0, depth - 1);
    else if (depth === 0 && isWord(t, "WITH") && withAt < 0 && opensOptions(st, j + 1)) withAt = j;
    else if (depth === 0 && isWord(t, "LIKE")) like = true;
    else if (depth === 0 && isWord(t, "AS")) break;
  }
  const table: SqlTable = {
    name: nameToken.value,
    nameStart: nameToken.kind === "quoted" ? nameToken.start + 1 : nameToken.start,
    nameEnd: nameToken.kind === "quoted" ? nameToken.end - 1 : nameToken.end,
    temporary,
    options: [],
    withStart: withAt >= 0 ? st[withAt].start : nameToken.start,
    like,
  };
  scan.tables.push(table);
  if (withAt < 0) return;
  readOptions(st, withAt + 1, table, scan);
}

/** What may follow the WITH of a table's options: its `(`, a list job code fills in (`${…}`), or its first key. */
function opensOptions(st: SqlToken[], at: number): boolean {
  const t = st[at];
  return t === undefined || isPunct(t, "(") || t.kind === "string" || placeholderEnd(st, at) >= 0;
}

/**
 * The index just after a value job code fills in at run time (`${…}`, how embedded SQL marks what is not a literal:
 * `WITH {kafka_options(topic)}` in a Python f-string), or -1 when `st[at]` does not start one.
 */
function placeholderEnd(st: SqlToken[], at: number): number {
  if (st[at]?.kind !== "word" || st[at].value !== "$" || !isPunct(st[at + 1], "{")) return -1;
  let depth = 0;
  for (let j = at + 1; j < st.length; j++) {
    if (isPunct(st[j], "{")) depth++;
    else if (isPunct(st[j], "}") && --depth === 0) return j + 1;
  }
  return -1;
}

/**
 * `( 'k' = 'v' [, 'k' = 'v']* )` from `st[at]`, which must be `(`. Options filled in at run time (the whole list,
 * or entries of it) make the list open, as `LIKE` does; a value filled in at run time is an option set to `${…}`.
 */
function readOptions(st: SqlToken[], at: number, table: SqlTable, scan: SqlScan): void {
  const withToken = st[at - 1];
  if (placeholderEnd(st, at) >= 0) {
    table.like = true;
    return;
  }
  if (!isPunct(st[at], "(")) {
    scan.problems.push({
      start: withToken.start,
      end: withToken.end,
      message: "WITH is not followed by `(`: the table's options could not be read.",
    });
    return;
  }
  let i = at + 1;
  if (isPunct(st[i], ")")) {
    table.closeParen = st[i].start;
    return;
  }
  while (i < st.length) {
    const filled = placeholderEnd(st, i);
    if (filled >= 0) {
      table.like = true;
      if (isPunct(st[filled], ",")) {
        i = filled + 1;
        continue;
      }
      if (isPunct(st[filled], ")")) table.closeParen = st[filled].start;
      return;
    }
    const k = st[i];
    const eq = st[i + 1];
    const valueEnd = placeholderEnd(st, i + 2);
    if (k?.kind === "string" && !k.unterminated && isPunct(eq, "=") && valueEnd >= 0) {
      const last = st[valueEnd - 1];
      const option: SqlOption = {
        key: k.value,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the form of a value filled in at run time
        value: "${…}",
        keyStart: k.start + 1,
        keyEnd: k.end - 1,
        valueStart: st[i + 2].start,
        valueEnd: last.end,
        deleteStart: k.start,
        deleteEnd: last.end,
        escaped: true,
      };
      table.options.push(option);
      const after = st[valueEnd];
      if (isPunct(after, ",")) {
        option.deleteEnd = st[valueEnd + 1]?.start ?? after.end;
        i = valueEnd + 1;
        continue;
      }
      if (isPunct(after, ")")) table.closeParen = after.start;
      return;
    }
    const v = st[i + 2];
    if (k?.kind !== "string" || !isPunct(eq, "=") || v?.kind !== "string" || k.unterminated || v.unterminated) {
      const bad = [k, eq, v].find(
        (t) => t !== undefined && !(t.kind === "string" && !t.unterminated) && !isPunct(t, "="),
      );
      const where = bad ?? k ?? withToken;
      scan.problems.push({
        start: where.start,
        end: where.end,
        message:
          where.unterminated === true
            ? "This string is not closed: the table's options after it could not be read."
            : "The table's options could not be read from here: each option is written 'key' = 'value', separated by commas.",
      });
      return;
    }
    const next = st[i + 3];
    const option: SqlOption = {
      key: k.value,
      value: v.value,
      keyStart: k.start + 1,
      keyEnd: k.end - 1,
      valueStart: v.start + 1,
      valueEnd: v.end - 1,
      deleteStart: k.start,
      deleteEnd: v.end,
      escaped: k.value.length !== k.end - k.start - 2 || v.value.length !== v.end - v.start - 2,
    };
    table.options.push(option);
    if (isPunct(next, ",")) {
      option.deleteEnd = st[i + 4]?.start ?? next.end;
      i += 4;
      continue;
    }
    if (isPunct(next, ")")) {
      table.closeParen = next.start;
      // The last option takes the comma before it.
      const prev = table.options[table.options.length - 2];
      if (prev) option.deleteStart = prev.valueEnd + 1;
      return;
    }
    const where = next ?? v;
    scan.problems.push({
      start: where.start,
      end: where.end,
      message: next
        ? "Expected `,` or `)` after this option: the table's options after it could not be read."
        : "The table's options are not closed with `)`.",
    });
    return;
  }
}

/** Tables written (`INSERT INTO t`, `INSERT OVERWRITE t`) and read (`FROM t`, `JOIN t`) by a statement. */
function readUses(text: string, st: SqlToken[], scan: SqlScan): void {
  const firstInsert = scan.inserts.length;
  const firstRead = scan.reads.length;
  for (let i = 0; i < st.length; i++) {
    const t = st[i];
    if (t.kind !== "word") continue;
    const upper = t.value.toUpperCase();
    if (upper === "INSERT" && (isWord(st[i + 1], "INTO") || isWord(st[i + 1], "OVERWRITE"))) {
      const name = pathEnd(st, i + 2);
      if (name) scan.inserts.push(name);
    } else if (upper === "FROM" || upper === "JOIN") {
      let j = i + 1;
      // `FROM TABLE(TUMBLE(TABLE t, …))`: the table is named after the inner TABLE keyword.
      while (j < st.length) {
        const name = pathEnd(st, j);
        if (!name) break;
        if (name.name.toUpperCase() === "LATERAL" || name.name.toUpperCase() === "UNNEST") break;
        scan.reads.push(name);
        // `FROM a, b`
        let k = j;
        while (k < st.length && !isPunct(st[k], ",") && !isWord(st[k], "WHERE") && !isWord(st[k], "JOIN")) {
          if (isPunct(st[k], "(") || isPunct(st[k], ")")) break;
          k++;
        }
        if (!isPunct(st[k], ",")) break;
        j = k + 1;
      }
    } else if (upper === "TABLE" && i > 0 && isPunct(st[i - 1], "(")) {
      const name = pathEnd(st, i + 1);
      if (name) scan.reads.push(name);
    }
  }
  const runtime = text.slice(st[0].start, st[st.length - 1].end).includes("${");
  // Names a `WITH name AS (…)` clause gives a query are not tables.
  const sourcesOf = () => {
    const queries = new Set<string>();
    for (let i = 1; i + 2 < st.length; i++)
      if (
        (isWord(st[i - 1], "WITH") || isPunct(st[i - 1], ",")) &&
        (st[i].kind === "word" || st[i].kind === "quoted") &&
        isWord(st[i + 1], "AS") &&
        isPunct(st[i + 2], "(")
      )
        queries.add(st[i].value);
    return [...new Set(scan.reads.slice(firstRead).map((r) => r.name))].filter((n) => !queries.has(n));
  };
  const view = viewName(st);
  if (view) scan.views.push(runtime ? { name: view } : { name: view, sources: sourcesOf() });
  // Literal rows: the statement reads no table, says where its rows come from (VALUES or SELECT), and holds no text
  // filled in at run time (`"INSERT INTO t\n" + query` may read anything).
  if (scan.inserts.length === firstInsert || runtime) return;
  const sources = sourcesOf();
  const literal = sources.length === 0 && st.some((t) => isWord(t, "VALUES") || isWord(t, "SELECT"));
  for (let k = firstInsert; k < scan.inserts.length; k++) {
    scan.inserts[k].sources = sources;
    if (literal) scan.inserts[k].literal = true;
  }
}

/** `CREATE [TEMPORARY] [OR REPLACE] VIEW [IF NOT EXISTS] name AS …`: the view's name (the path's last part). */
function viewName(st: SqlToken[]): string | undefined {
  if (!isWord(st[0], "CREATE")) return undefined;
  let i = 1;
  if (isWord(st[i], "TEMPORARY")) i++;
  if (isWord(st[i], "OR") && isWord(st[i + 1], "REPLACE")) i += 2;
  if (isWord(st[i], "TEMPORARY")) i++;
  if (!isWord(st[i], "VIEW")) return undefined;
  i++;
  if (isWord(st[i], "IF") && isWord(st[i + 1], "NOT") && isWord(st[i + 2], "EXISTS")) i += 3;
  return pathEnd(st, i)?.name;
}

/** The last part of a table path starting at `st[i]`: `cat.db.t` → t. */
function pathEnd(st: SqlToken[], i: number): { name: string; start: number; end: number } | undefined {
  let last: SqlToken | undefined;
  let j = i;
  while (j < st.length && (st[j].kind === "word" || st[j].kind === "quoted")) {
    last = st[j];
    if (isPunct(st[j + 1], ".")) j += 2;
    else break;
  }
  if (!last) return undefined;
  if (last.kind === "word" && /^(SELECT|TABLE|VALUES)$/i.test(last.value)) return undefined;
  const quoted = last.kind === "quoted";
  return { name: last.value, start: quoted ? last.start + 1 : last.start, end: quoted ? last.end - 1 : last.end };
}
