import { Extractor } from "../../jobcode/extract";
import type { CodeParseProblem, JobCode, LegacyKafkaClient } from "../../jobcode/facts";
import type { Member, Stmt } from "../../jobcode/ir";
import { isTestFile } from "../../jobcode/testCode";
import { emptyFacts, type FileFacts, markNotAnalysed, type NotAnalysed } from "../../model";
import { LineIndex } from "../../text";
import { cachedParseUnit as parseUnit } from "./parseCache";
import type { ParseRule } from "./syntax";
import { type Token, tokenize } from "./tokens";
import { memberUnits, snippetHazard, snippetUnits, type Unit } from "./units";
import { scanJobApiUsage } from "./usage";

/** Names without which a file holds nothing the Java rules read: most files of a project skip the parser. */
const RELEVANT =
  /ConsumerConfig|ProducerConfig|CommonClientConfigs|group\.id|bootstrap\.servers|enable\.auto\.commit|auto\.offset\.reset|KafkaIO|KafkaSource|KafkaSink|FlinkKafkaConsumer|FlinkKafkaProducer|StreamExecutionEnvironment|FlinkPipelineOptions|PipelineOptionsFactory|Pipeline\.create|setCheckpointingInterval|enableCheckpointing|checkpointingInterval|executeSql|sqlQuery|TableDescriptor|execution\.checkpointing\.|CHECKPOINTING_INTERVAL|state\.checkpoints\.dir|CHECKPOINTS_DIRECTORY/;

export function readJavaFile(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "java", text);
  facts.jobApi = scanJobApiUsage(file, text);
  if (!RELEVANT.test(text)) return facts;
  const notAnalysed: NotAnalysed[] = [];
  const java = readJava(file, text, notAnalysed);
  for (const n of notAnalysed) markNotAnalysed(facts, n.range, n.message);
  facts.code = java;
  return facts;
}

interface Parsed {
  members: Member[];
  stmts: Stmt[][];
}

/**
 * Reads a Java file's job facts. Units that could not be parsed (nested too deeply, or not Java the parser reads)
 * are added to `notAnalysed`, at their names.
 */
export function readJava(file: string, text: string, notAnalysed: NotAnalysed[] = []): JobCode {
  const index = new LineIndex(text);
  const tokens = tokenize(text);
  const problems: CodeParseProblem[] = [];
  const parsed: Parsed = { members: [], stmts: [] };
  const extractor = new Extractor(file, text, index);
  const units = memberUnits(tokens);
  let shape: JobCode["shape"] = "compilationUnit";
  const into: Into = { text, index, parsed, problems, notAnalysed };
  if (units) {
    for (const u of units) parseInto(u, [u.rule], into);
  } else {
    // A snippet is first tried whole, unless it nests too deeply for the parser: then only its parts are.
    const shallow = snippetHazard(tokens) === undefined;
    const statements = shallow ? parseUnit(text, "blockStatements", 0) : undefined;
    const expression = shallow && !statements?.ok ? parseUnit(text, "expression", 0) : undefined;
    if (statements?.ok) {
      shape = "statements";
      parsed.stmts.push(statements.stmts);
    } else if (expression?.ok && expression.expr) {
      shape = "expression";
      extractor.expression(expression.expr);
    } else {
      shape = "statements";
      const parts = snippetUnits(tokens);
      for (const u of parts) parseInto(u, ["blockStatements", "classBodyDeclaration"], into);
    }
  }
  const classes = classNames(tokens);
  extractor.ownerAt = classAt(tokens);
  extractor.members(parsed.members, classes, calledMethods(tokens, classes));
  const scope = extractor.newScope();
  for (const stmts of parsed.stmts) extractor.statements(stmts, scope);
  extractor.rest();
  const out = extractor.finish();
  out.dataStream.legacyKafka.unshift(...legacyImports(file, tokens, index));
  return { file, language: "java", isTest: isTestFile(file, "java"), shape, ...out, parseProblems: problems };
}

/** `import …FlinkKafkaConsumer011;` lines: the legacy connector is on the class path even where it is not built. */
function legacyImports(file: string, tokens: Token[], index: LineIndex): LegacyKafkaClient[] {
  const out: LegacyKafkaClient[] = [];
  let inImport = false;
  for (const t of tokens) {
    if (t.kind === "identifier" && t.text === "import") inImport = true;
    else if (t.text === ";") inImport = false;
    else if (inImport && t.kind === "identifier" && /^FlinkKafka(Consumer|Producer)\d*$/.test(t.text)) {
      out.push({
        file,
        language: "java",
        className: t.text,
        role: t.text.includes("Consumer") ? "consumer" : "producer",
        range: index.rangeOf(t.start, t.end),
        constructed: false,
        properties: { entries: [], hasUnknownParts: false, unknownParts: [] },
      });
    }
  }
  return out;
}

interface Into {
  text: string;
  index: LineIndex;
  parsed: Parsed;
  problems: CodeParseProblem[];
  notAnalysed: NotAnalysed[];
}

function parseInto(u: Unit, rules: ParseRule[], into: Into): void {
  const { text, index, parsed, problems, notAnalysed } = into;
  const name = index.rangeOf(u.nameStart, u.nameEnd);
  const skipped = `This ${u.what} is not analysed, so nothing in it is checked`;
  if (u.hazard) {
    notAnalysed.push({ range: name, message: `${skipped}: ${u.hazard}.` });
    return;
  }
  const source = text.slice(u.start, u.end);
  let first: ReturnType<typeof parseUnit> | undefined;
  for (const rule of rules) {
    const r = parseUnit(source, rule, u.start);
    if (r.ok) {
      for (const m of r.members) parsed.members.push(m);
      if (r.stmts.length > 0) parsed.stmts.push(r.stmts);
      return;
    }
    first ??= r;
  }
  if (!first || first.ok) return;
  const p = problem(u, first, index);
  problems.push(p);
  const where = p.message.replace(/^Java syntax error at /, "");
  notAnalysed.push({
    range: name,
    message: first.tooDeep
      ? `${skipped}: it is nested too deeply for the Java parser.`
      : `${skipped}: the Java parser stops at ${short(where)}.`,
  });
}

function short(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}

function problem(u: Unit, r: { message: string; line?: number; column?: number }, index: LineIndex): CodeParseProblem {
  const start = index.positionAt(u.start);
  let where = "the end of this part: ";
  if (r.line !== undefined && r.column !== undefined && Number.isFinite(r.line)) {
    const line = start.line + r.line - 1;
    const column = (r.line === 1 ? start.character : 0) + r.column;
    where = `line ${line + 1}, column ${column}: `;
  }
  return { range: index.rangeOf(u.start, u.end), message: `Java syntax error at ${where}${r.message}` };
}

/** The innermost class declared around an offset (members are parsed without their class). */
function classAt(tokens: Token[]): (offset: number) => string {
  const spans: { name: string; start: number; end: number }[] = [];
  const open: { name?: string; start: number }[] = [];
  let pending: string | undefined;
  tokens.forEach((t, i) => {
    if (t.kind === "identifier" && /^(class|interface|enum|record)$/.test(t.text) && tokens[i - 1]?.text !== ".") {
      const name = tokens[i + 1];
      if (name?.kind === "identifier") pending = name.text;
    } else if (t.text === "{") {
      open.push({ name: pending, start: t.start });
      pending = undefined;
    } else if (t.text === "}") {
      const o = open.pop();
      if (o?.name) spans.push({ name: o.name, start: o.start, end: t.end });
    }
  });
  return (offset) => {
    let best: { name: string; start: number; end: number } | undefined;
    for (const s of spans) if (s.start <= offset && offset < s.end && (!best || s.start > best.start)) best = s;
    return best?.name ?? "";
  };
}

/** Names of the classes, interfaces, enums and records declared in the file. */
function classNames(tokens: Token[]): string[] {
  const names: string[] = [];
  tokens.forEach((t, i) => {
    if (t.kind === "identifier" && /^(class|interface|enum|record)$/.test(t.text) && tokens[i - 1]?.text !== ".") {
      const name = tokens[i + 1];
      if (name?.kind === "identifier") names.push(name.text);
    }
  });
  return names;
}

/**
 * Names the file calls as its own methods: `name(` after anything but a type or a name (which would make it a
 * declaration), or `this.name(` / `Job.name(`.
 */
function calledMethods(tokens: Token[], classes: string[]): Set<string> {
  const called = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.kind !== "identifier" || tokens[i + 1]?.text !== "(") return;
    const prev = tokens[i - 1];
    if (prev?.text === ".") {
      const owner = tokens[i - 2]?.text ?? "";
      if (owner === "this" || classes.includes(owner)) called.add(t.text);
    } else if (prev?.kind !== "identifier" || prev.text === "return") {
      if (prev?.text !== ">" && prev?.text !== "]") called.add(t.text);
    }
  });
  return called;
}
