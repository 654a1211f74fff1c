/**
 * Fix intents on job-code facts: what a rule wants done ("enable checkpointing every 60 s", "set Beam option
 * checkpointingInterval", "add a builder call", "commit offsets in finalize", "write this value"), turned into edits
 * in the fact's own language by the dialects of render.ts. Each returns the edit and the code it writes (for fix
 * titles and messages), or undefined where the fact gives no safe place to write it.
 */
import type { TextEdit } from "../text";
import {
  appendCall,
  type BeamKafkaRead,
  type ChainInsertion,
  type CodeExpr,
  type CodeLanguage,
  insertStatement,
  type OptionsCreation,
  type StreamEnvironment,
} from "./facts";
import { type CodeLiteral, dialectOf, int, long } from "./render";

export interface IntentEdit {
  edit: TextEdit;
  /** The code the edit writes, e.g. `env.enableCheckpointing(60_000)`. */
  text: string;
}

/** `env.enableCheckpointing(<millis>)` as the language writes it (Python `env.enable_checkpointing(60000)`). */
export function enableCheckpointingText(language: CodeLanguage, variable: string, millis: number): string {
  const d = dialectOf(language);
  return d.call(variable, "enableCheckpointing", [d.literal(int(millis))]);
}

/** Turns checkpointing on right after the statement that creates the environment. */
export function enableCheckpointingEdit(env: StreamEnvironment, millis: number): IntentEdit | undefined {
  if (!env.variable || !env.insertion) return undefined;
  const text = enableCheckpointingText(env.language, env.variable, millis);
  return { edit: insertStatement(env.insertion, dialectOf(env.language).statement(text)), text };
}

/**
 * Sets a Beam pipeline option: a setter statement after the options are created (Kotlin writes the property), or a
 * keyword argument of Beam Python's `PipelineOptions(…)`. `flinkOptions` is how the receiver is written when the
 * declared type is not a FlinkPipelineOptions (Java `options.as(FlinkPipelineOptions.class)`).
 */
export function setBeamOptionEdit(
  creation: OptionsCreation,
  option: string,
  value: CodeLiteral,
  flinkOptions?: string,
): IntentEdit | undefined {
  const d = dialectOf(creation.language);
  if (creation.language === "python") {
    const at = creation.argumentInsertion;
    if (!at || !d.namedArgument) return undefined;
    const snake = option.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
    const text = d.namedArgument(snake, d.literal(value));
    return { edit: { range: { start: at.at, end: at.at }, newText: `${at.prefix}${text}` }, text };
  }
  if (!creation.variable || !creation.insertion) return undefined;
  const text = d.setter(flinkOptions ?? creation.variable, option, d.literal(value));
  return { edit: insertStatement(creation.insertion, d.statement(text)), text };
}

/** A call joining a builder chain: `.setGroupId("orders")` (Python `.set_group_id("orders")`). */
export function addChainCallEdit(
  target: { language: CodeLanguage; chainInsertion: ChainInsertion },
  javaMethod: string,
  args: CodeLiteral[],
): IntentEdit {
  const d = dialectOf(target.language);
  const text = `${d.method(javaMethod)}(${args.map((a) => d.literal(a)).join(", ")})`;
  return { edit: appendCall(target.chainInsertion, text), text: `.${text}` };
}

/** Makes a Beam Kafka read commit offsets in finalize: `.commitOffsetsInFinalize()`, `commit_offset_in_finalize=True`. */
export function commitInFinalizeEdit(read: BeamKafkaRead): IntentEdit | undefined {
  if (read.api === "ReadFromKafka") {
    const at = read.argumentInsertion;
    const d = dialectOf(read.language);
    if (!at || !d.namedArgument) return undefined;
    const text = d.namedArgument("commit_offset_in_finalize", d.literal({ kind: "bool", value: true }));
    return { edit: { range: { start: at.at, end: at.at }, newText: `${at.prefix}${text}` }, text };
  }
  return addChainCallEdit(read, "commitOffsetsInFinalize", []);
}

/** The innermost expression a value was initialised with: the literal a fix edits. */
export function literalOf(expr: CodeExpr): CodeExpr {
  let e = expr;
  while (e.origin) e = e.origin;
  return e;
}

/** Writes `value` in place of an expression's literal (the constant's initialiser when the expression is a name). */
export function replaceValueEdit(language: CodeLanguage, expr: CodeExpr, value: CodeLiteral): IntentEdit {
  const target = literalOf(expr);
  const text = dialectOf(language).literal(value);
  return { edit: { range: target.range, newText: text }, text };
}

/** A Beam `long` interval in the language (`60_000L`, Scala `60000L`, Python `60000`). */
export function longText(language: CodeLanguage, n: number): string {
  return dialectOf(language).literal(long(n));
}
