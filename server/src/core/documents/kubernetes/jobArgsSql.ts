/**
 * SQL statements a FlinkDeployment passes to its job as arguments: a SQL runner image (`flink-sql-runner`) started with
 * `job.args: ["CREATE TABLE …; INSERT INTO …"]` runs them as its script. Each argument that holds statements is a
 * piece of the file's SQL script, with the file offset of every character (quoted and multi-line YAML strings
 * included), so findings on its tables and options point into the manifest.
 */
import type { SqlPiece } from "../sql/reader";
import { getIn, getValue, scalarText, seqItems, type YamlSource } from "../yaml/ast";
import { scalarChars } from "../yaml/scalarChars";

const STATEMENT =
  /\b(CREATE\s+(TEMPORARY\s+)?(TABLE|VIEW|FUNCTION|CATALOG)|INSERT\s+(INTO|OVERWRITE)|EXECUTE\s+STATEMENT\s+SET)\b/i;

/** Whether a job argument holds SQL statements (not a path to a script, not a flag). */
export function isSqlArgument(value: string): boolean {
  return STATEMENT.test(value) && /\s/.test(value.trim()) && !value.trimStart().startsWith("-");
}

/**
 * The statements of a FlinkDeployment's `job.args`, and of an environment variable of its pod templates' containers
 * whose name says SQL (`SQL_STATEMENTS`, which the StreamsHub SQL runner reads).
 */
export function jobArgSqlPieces(src: YamlSource, spec: unknown): SqlPiece[] {
  const out: SqlPiece[] = [];
  const envValues = [getIn(spec, ["podTemplate", "spec"]), getIn(spec, ["jobManager", "podTemplate", "spec"])].flatMap(
    (pod) =>
      seqItems(getValue(pod, "containers")).flatMap((c) =>
        seqItems(getValue(c, "env"))
          .filter((e) => /sql/i.test(scalarText(getValue(e, "name")) ?? ""))
          .map((e) => getValue(e, "value")),
      ),
  );
  for (const node of [...seqItems(getIn(spec, ["job", "args"])), ...envValues]) {
    const value = scalarText(node);
    if (value === undefined || !isSqlArgument(value)) continue;
    const chars = scalarChars(src, node);
    if (!chars) continue;
    const starts: number[] = [];
    const ends: number[] = [];
    let last = chars.at.find((a) => a !== undefined) ?? 0;
    for (const a of chars.at) {
      // A character written as an escape has no offset of its own: it stands at the one before it.
      const at = a ?? last;
      starts.push(at);
      ends.push(a === undefined ? at : a + 1);
      last = a === undefined ? at : a + 1;
    }
    out.push({ text: chars.value, starts, ends });
  }
  return out;
}
