/**
 * Walks the syntax tree of a job-code file (any language, lowered to ir.ts) and records the facts of facts.ts. Objects the job builds (a KafkaIO read, a
 * KafkaSource builder, an environment, a stream, pipeline options, a map of consumer properties) are followed
 * through local variables, fields and helper methods of the same file, in source order, so that
 * `Map<String, Object> props = consumerProps(); props.put(…); read.withConsumerConfigUpdates(props)` reads as one
 * consumer config.
 */

import { pushAll } from "../arrays";
import { beamFlags } from "../documents/launchArgs";
import type { Location } from "../findings";
import type { LineIndex, Range, TextEdit } from "../text";
import type {
  BeamKafkaRead,
  BeamOptionsFacts,
  CodeCall,
  CodeExport,
  CodeExpr,
  CodeLanguage,
  CodeRef,
  CodeValue,
  DataStreamFacts,
  KafkaSettings,
  KafkaSinkBuilder,
  KafkaSourceBuilder,
  LegacyKafkaClient,
  OptionsCreation,
  StatementInsertion,
  StreamEnvironment,
  StreamOperator,
  TableDescriptorFact,
  TableDescriptorOption,
} from "./facts";
import { type CallExpr, dottedName, type Expr, type KwArg, type Member, type Param, type Stmt } from "./ir";
import { chainPrefix, type Layout, MapState, SettingsBuilder, startsLine } from "./maps";
import { type Dialect, dialectOf } from "./render";
import { flinkOptionKey, tableOptionEnumValue, tableOptionKey, Values } from "./values";

interface ReadState {
  read: BeamKafkaRead;
  settings: SettingsBuilder;
  /** Where `KafkaIO` starts: calls of the same chain start there too. */
  start: number;
  builderEnd: number;
  dot?: number;
}

interface BuilderState<T> {
  fact: T;
  settings: SettingsBuilder;
  /** End of the last call that still returns the builder, and the dot of the call that style follows. */
  builderEnd: number;
  dot?: number;
}

/** A `TableDescriptor` being built, and whether code registers or uses it. */
interface DescriptorState {
  fact: TableDescriptorFact;
  /** The descriptor is made on a path that may not run: calls on that same path are no more conditional than it. */
  conditional: boolean;
  /** End of the last call that still returns the builder, and the dot of the call that style follows. */
  builderEnd: number;
  dot?: number;
  built: boolean;
  /** Code of the file registers it (`createTemporaryTable`) or uses it (`from`, `executeInsert`). */
  used: boolean;
  /** A `Kafka()` of the legacy descriptor API; `connected` once a table environment's `connect(…)` took it. */
  legacy?: boolean;
  connected?: boolean;
}

/** Calls of the legacy `connect(…)` table descriptor that register the table under a name (their first argument). */
const LEGACY_REGISTRATIONS =
  /^(createTemporaryTable|registerTableSource|registerTableSink|registerTableSourceAndSink)$/;
/** Calls of the legacy `connect(…)` table descriptor that only shape it. */
const LEGACY_TABLE_STEPS = /^(withFormat|withSchema|inAppendMode|inRetractMode|inUpsertMode)$/;
/** The legacy `Kafka()` descriptor's start positions, as its `connector.startup-mode` key has them. */
const LEGACY_STARTUP_MODES: Record<string, string | undefined> = {
  startFromEarliest: "earliest-offset",
  startFromLatest: "latest-offset",
  startFromGroupOffsets: "group-offsets",
  startFromSpecificOffsets: "specific-offsets",
  startFromSpecificOffset: "specific-offsets",
  startFromTimestamp: "timestamp",
};

/** `TableDescriptor.Builder` calls that set no option. */
const DESCRIPTOR_STEPS =
  /^(schema|comment|partitionedBy|distributedBy|distributedByHash|distributedByRange|distributedInto)$/;
/** Calls that register a descriptor under a name (their second argument), read it or write it (their first). */
const DESCRIPTOR_REGISTRATIONS = /^(createTemporaryTable|createTable)$/;
const DESCRIPTOR_READS = /^(from|fromDescriptor)$/;
const DESCRIPTOR_WRITES = /^(executeInsert|insertInto|addInsert)$/;

/** The Table API environments, whose `getConfig()` configures the job they run. */
const TABLE_ENVIRONMENTS = /^(TableEnvironment|StreamTableEnvironment)$/;

interface ConfState {
  variable?: string;
  entries: { key: string; value: CodeExpr; call: CodeCall }[];
  passed: boolean;
}

type Obj =
  | { t: "read"; s: ReadState }
  | { t: "source"; s: BuilderState<KafkaSourceBuilder> }
  | { t: "sink"; s: BuilderState<KafkaSinkBuilder> }
  /** `parameterOf`: a parameter of that method, walked without a caller of this file (any caller may pass it). */
  | { t: "env"; name?: string; fact?: StreamEnvironment; parameterOf?: string }
  | { t: "checkpointConfig"; env?: string; parameterOf?: string }
  | { t: "stream"; op?: number; env?: string }
  | { t: "options"; creation?: OptionsCreation; name?: string }
  | { t: "pipeline" }
  | { t: "conf"; s: ConfState }
  /** A Table API environment (`TableEnvironment.create(…)`, `StreamTableEnvironment.create(env)`). */
  | { t: "tableEnv" }
  /** A `TableDescriptor` builder, or the descriptor it built. */
  | { t: "descriptor"; s: DescriptorState }
  /** `FormatDescriptor.forFormat("json")…`: the expression naming the format. */
  | { t: "format"; format?: Expr }
  | { t: "map"; m: MapState }
  | { t: "legacy"; client: LegacyKafkaClient }
  /** What a call of another file's method returns (`Config.kafkaProps()`): resolved across files, by name. */
  | { t: "external"; ref: CodeRef };

interface Binding {
  obj?: Obj;
  value?: CodeExpr;
}

interface MethodInfo {
  member: Member & { k: "method" };
  state: "new" | "walking" | "done";
  returned?: Obj;
}

class Scope {
  readonly vars: Map<string, Binding>;
  /** The receiver of calls without one (`put(…)` in a double-brace initializer). */
  implicit?: Obj;
  returned?: Obj;
  readonly values: Values;

  constructor(
    private readonly x: Extractor,
    readonly parent: Scope | undefined,
    public conditional: boolean,
    readonly member: string | undefined,
    /** The names the scope binds; a script's top level binds the file's globals (its fields). */
    vars?: Map<string, Binding>,
  ) {
    this.vars = vars ?? new Map();
    this.values = new Values({
      file: x.file,
      text: x.text,
      index: x.index,
      resolve: (name) => this.lookup(name)?.value,
      bound: (name) => this.lookup(name) !== undefined || x.methods.has(name),
      resolveQualified: (owner, name) => (x.ownClasses.has(owner) ? x.fields.get(name)?.value : undefined),
    });
  }

  lookup(name: string): Binding | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name) ?? this.x.fields.get(name);
  }

  /** The nearest object of a kind this scope sees (its variables, its parents', then the file's fields). */
  nearestOf(kind: Obj["t"]): Obj | undefined {
    for (const b of this.vars.values()) if (b.obj?.t === kind) return b.obj;
    if (this.parent) return this.parent.nearestOf(kind);
    for (const b of this.x.fields.values()) if (b.obj?.t === kind) return b.obj;
    return undefined;
  }

  /** The scope that holds `name`, for assignments. */
  owner(name: string): Map<string, Binding> {
    if (this.vars.has(name)) return this.vars;
    if (this.parent) return this.parent.owner(name);
    return this.x.fields;
  }
}

const STREAM_TYPES =
  /^(DataStream|DataStreamSource|SingleOutputStreamOperator|KeyedStream|WindowedStream|AllWindowedStream|ConnectedStreams|BroadcastStream|IterativeStream)$/;
const MAP_TYPES = /^(Map|HashMap|LinkedHashMap|TreeMap|ConcurrentHashMap|Hashtable|Properties|ImmutableMap)$/;
const MAP_CLASSES = /^(HashMap|LinkedHashMap|TreeMap|ConcurrentHashMap|Hashtable|Properties)$/;
const ENV_FACTORIES =
  /^(getExecutionEnvironment|createLocalEnvironment|createLocalEnvironmentWithWebUI|createRemoteEnvironment)$/;
const ENV_SOURCES =
  /^(fromSource|addSource|fromElements|fromCollection|fromData|fromSequence|generateSequence|socketTextStream|readTextFile|readFile|createInput|fromParallelCollection)$/;
const STREAM_ATTRIBUTES =
  /^(name|uid|setUidHash|slotSharingGroup|disableChaining|startNewChain|returns|setDescription|setBufferTimeout|forceNonParallel)$/;
const STREAM_SINKS = /^(sinkTo|addSink|print|printToErr|writeAsText|writeAsCsv|writeToSocket|writeUsingOutputFormat)$/;
const BEAM_SETTERS_ANYWHERE = /^(setCheckpointingInterval|setRunner|setStreaming|setExperiments)$/;
const READ_TERMINALS = /^(withoutMetadata|externalWithMetadata|expand)$/;
const LEGACY = /^FlinkKafka(Consumer|Producer)(\d*|Base)$/;

/** Parameter names of the Python APIs that mirror Java ones, in the Java parameters' order (PyFlink). */
const PARAMETERS: Record<string, string[]> = {
  enableCheckpointing: ["interval", "mode"],
  setParallelism: ["parallelism"],
  setMaxParallelism: ["max_parallelism"],
  setCheckpointInterval: ["checkpoint_interval"],
  FlinkKafkaConsumer: ["topics", "deserialization_schema", "properties"],
  FlinkKafkaProducer: ["topic", "serialization_schema", "producer_config", "kafka_producer_pool_size", "semantic"],
  setProperty: ["key", "value"],
  setString: ["key", "value"],
  fromSource: ["source", "watermark_strategy", "source_name", "type_info"],
  addSource: ["source_func", "source_name", "type_info"],
  sinkTo: ["sink"],
  addSink: ["sink_func"],
  setGroupId: ["group_id"],
  setTopics: ["topics"],
  setBootstrapServers: ["bootstrap_servers"],
  setStartingOffsets: ["starting_offsets_initializer"],
  setDeliveryGuarantee: ["delivery_guarantee"],
  setTransactionalIdPrefix: ["transactional_id_prefix"],
  forConnector: ["connector"],
  forFormat: ["format"],
  option: ["key", "value"],
  format: ["format", "format_option"],
  createTemporaryTable: ["path", "descriptor"],
  createTable: ["path", "descriptor"],
  fromDescriptor: ["descriptor"],
  executeInsert: ["table_path_or_descriptor", "overwrite"],
  addInsert: ["target_path_or_descriptor", "table", "overwrite"],
};

/** The KafkaIO call each keyword argument of Beam Python's `ReadFromKafka` becomes. */
const READ_FROM_KAFKA: Record<string, string> = {
  consumer_config: "withConsumerConfigUpdates",
  topics: "withTopics",
  commit_offset_in_finalize: "commitOffsetsInFinalize",
  start_read_time: "withStartReadTime",
  max_num_records: "withMaxNumRecords",
  max_read_time: "withMaxReadTime",
  redistribute: "withRedistribute",
  timestamp_policy: "withTimestampPolicyFactory",
};

export interface ExtractedFacts {
  kafkaReads: BeamKafkaRead[];
  beamOptions: BeamOptionsFacts;
  dataStream: DataStreamFacts;
  exports: CodeExport[];
  tableDescriptors: TableDescriptorFact[];
}

export class Extractor {
  readonly fields = new Map<string, Binding>();
  readonly ownClasses = new Set<string>();
  readonly methods = new Map<string, MethodInfo[]>();
  /** The members as declared (classes nested), for what the file exports. */
  private declared: Member[] = [];
  /** The class declared around an offset, for readers that parse members without their class (Java). */
  ownerAt?: (offset: number) => string;
  private readonly out: ExtractedFacts = {
    exports: [],
    kafkaReads: [],
    beamOptions: { creations: [], settings: [], args: [], pipelines: [] },
    dataStream: {
      environments: [],
      checkpointing: [],
      checkpointStorage: [],
      configuration: [],
      environmentParallelism: [],
      legacyKafka: [],
      kafkaSources: [],
      kafkaSinks: [],
      operators: [],
    },
    tableDescriptors: [],
  };
  private readonly confs: ConfState[] = [];
  private readonly descriptors: DescriptorState[] = [];
  /** The statement being walked, for edits that add a statement after it. */
  private statement?: Stmt;

  /** What fix builders keep: the text and its line index, not the syntax trees. */
  private readonly layout: Layout;
  private readonly dialect: Dialect;
  /** `read` / `readBytes` when the file imports them statically from KafkaIO: `read().withTopic(…)` is a read. */
  private readonly staticReads: ReadonlySet<string>;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly index: LineIndex,
    readonly language: CodeLanguage = "java",
  ) {
    this.dialect = dialectOf(language);
    this.layout = { text, index, dialect: this.dialect };
    this.staticReads = staticKafkaReads(text);
  }

  // ---------------------------------------------------------------------------------------------
  // Entry points

  /**
   * Class members of a compilation unit (or pasted without their class), fields and initializers first. Methods
   * the file calls itself (`called`) are walked from their first call, with that call's arguments, so a helper's
   * parameters carry the caller's values; whatever is left is walked on its own afterwards.
   */
  members(members: Member[], classNames: string[], called: ReadonlySet<string>, script = false): void {
    for (const c of classNames) this.ownClasses.add(c);
    pushAll(this.declared, members);
    const all = flattenMembers(members);
    for (const m of all) {
      if (m.k !== "method") continue;
      const list = this.methods.get(m.name) ?? [];
      list.push({ member: m, state: "new" });
      this.methods.set(m.name, list);
    }
    const top = new Scope(this, undefined, false, undefined);
    for (const m of all) if (m.k === "field") this.field(m, top);
    for (const m of all) if (m.k === "init") this.walk(m.body, new Scope(this, undefined, false, "<init>"));
    for (const m of all) if (m.k === "method" && m.name === "<init>") this.method(this.info(m));
    const uncalled = all.filter(
      (m): m is Member & { k: "method" } => m.k === "method" && m.name !== "<init>" && !called.has(m.name),
    );
    // A script's functions may use the names its statements bind: they are walked after the statements.
    if (script) this.afterScript = uncalled;
    else for (const m of uncalled) this.method(this.info(m));
  }

  /** The methods no code of a script calls, walked once its statements are. */
  private afterScript: (Member & { k: "method" })[] = [];

  /**
   * The top-level statements of a script (Python module code, a Kotlin or Scala script): the names they bind are the
   * file's globals, which its functions see (`env` created at module level, used in `def build():`).
   */
  script(stmts: Stmt[]): void {
    this.walk(stmts, new Scope(this, undefined, false, undefined, this.fields));
    for (const m of this.afterScript) this.method(this.info(m));
    this.afterScript = [];
  }

  /** Walks the methods no walked code called. */
  rest(): void {
    for (const list of this.methods.values()) for (const info of list) this.method(info);
  }

  /** Statements of a snippet, walked as one body. */
  statements(stmts: Stmt[], scope = new Scope(this, undefined, false, undefined)): Scope {
    this.walk(stmts, scope);
    return scope;
  }

  expression(e: Expr): void {
    this.eval(e, new Scope(this, undefined, false, undefined));
  }

  /** Scope for a snippet split into several parse units: variables carry over from one unit to the next. */
  newScope(): Scope {
    return new Scope(this, undefined, false, undefined);
  }

  /**
   * What other files may use: `static final` / `val` / `const val` constants with a value, and fields and methods
   * holding a map, by the class or object that declares them ("" at the top level; a Python module's name too).
   */
  private exportsOf(): CodeExport[] {
    const out: CodeExport[] = [];
    const module = this.language === "python" ? this.file.slice(this.file.lastIndexOf("/") + 1, -3) : "";
    const visit = (members: Member[], owner: string) => {
      for (const m of members) {
        if (m.k === "class") {
          visit(m.members, m.name ?? owner);
          continue;
        }
        const declaredIn = this.ownerAt?.(m.start) || owner;
        if (m.k === "field") {
          for (const d of m.declarators) {
            const binding = this.fields.get(d.name);
            const map = binding?.obj?.t === "map" ? this.exportedMap(binding.obj.m) : undefined;
            const value = binding?.value && binding.value.value.kind !== "unknown" ? binding.value : undefined;
            const kafkaSource = kafkaSourceOf(binding?.obj);
            if (map || value || kafkaSource)
              out.push({
                owner: declaredIn,
                member: d.name,
                file: this.file,
                ...(value ? { value } : {}),
                ...(map ? { map } : {}),
                ...(kafkaSource ? { kafkaSource } : {}),
              });
          }
        } else if (m.k === "method") {
          const info = this.methods.get(m.name)?.find((i) => i.member === m);
          const returned = info?.returned;
          if (returned?.t === "map")
            out.push({ owner: declaredIn, member: m.name, file: this.file, map: this.exportedMap(returned.m) });
          const kafkaSource = kafkaSourceOf(returned);
          if (kafkaSource) out.push({ owner: declaredIn, member: m.name, file: this.file, kafkaSource });
        }
      }
    };
    visit(this.declared, module);
    return out;
  }

  private exportedMap(m: MapState): KafkaSettings {
    const settings = new SettingsBuilder(this.layout, () => undefined);
    settings.addMap(
      "withConsumerConfigUpdates",
      m.entries[0]?.location ?? { file: this.file, range: this.index.rangeOf(0, 0) },
      m,
      false,
      { file: this.file, range: this.index.rangeOf(0, 0) },
    );
    return settings.settings;
  }

  finish(): ExtractedFacts {
    this.out.exports = this.exportsOf();
    // Only descriptors the file's code registers or uses are tables of its job.
    for (const d of this.descriptors) {
      if (!d.used) continue;
      if (d.fact.open) delete d.fact.chainInsertion;
      this.out.tableDescriptors.push(d.fact);
    }
    for (const c of this.confs) {
      for (const e of c.entries) {
        this.out.dataStream.configuration.push({
          key: e.key,
          value: e.value,
          call: e.call,
          variable: c.variable,
          passedToEnvironment: c.passed,
        });
        if (c.passed && (e.key === "state.checkpoints.dir" || e.key === "execution.checkpointing.dir")) {
          this.out.dataStream.checkpointStorage.push({ call: e.call, location: e.value });
        }
        if (c.passed && e.key.startsWith("execution.checkpointing.")) {
          this.out.dataStream.checkpointing.push({
            kind: "configuration",
            call: e.call,
            key: e.key,
            ...(e.key === "execution.checkpointing.interval" ? { interval: e.value } : {}),
            ...(e.key === "execution.checkpointing.mode" ? { mode: e.value } : {}),
          });
        }
      }
    }
    return this.out;
  }

  private info(m: Member & { k: "method" }): MethodInfo {
    return (this.methods.get(m.name) ?? []).find((i) => i.member === m) as MethodInfo;
  }

  // ---------------------------------------------------------------------------------------------
  // Members and statements

  private field(m: Member & { k: "field" }, scope: Scope): void {
    const final = m.modifiers.includes("final");
    for (const d of m.declarators) {
      const obj = d.init ? this.eval(d.init, scope) : typedObject(m.type, d.name);
      const value = d.init && final ? scope.values.of(d.init) : undefined;
      this.fields.set(d.name, { obj: declared(obj, m.type, d.name, d.init && this.loc(d.init)), value });
      if (obj) this.named(obj, d.name, m.type, undefined);
    }
  }

  private method(info: MethodInfo, args?: { obj?: Obj; value: CodeExpr }[], caller?: Scope): Obj | undefined {
    if (info.state === "walking") return undefined;
    if (info.state === "done") return info.returned;
    info.state = "walking";
    const m = info.member;
    const scope = new Scope(this, undefined, false, m.name === "<init>" ? "<init>" : m.name);
    m.params.forEach((p, i) => {
      const a = args?.[i];
      let obj = a?.obj;
      if (!obj) {
        obj = typedObject(p.type, p.name, true);
        if (obj?.t === "env" && m.name !== "<init>") obj.parameterOf = m.name;
      }
      scope.vars.set(p.name, { obj, value: a?.value });
    });
    // An implicit parameter is what the caller has in scope of that kind (`implicit val env = …; kStream("t")`).
    for (const p of m.implicits ?? []) {
      const typed = typedObject(p.type, p.name, true);
      const given = typed && caller?.nearestOf(typed.t);
      let obj = given ?? typed;
      if (!given && obj?.t === "env") obj = { ...obj, parameterOf: m.name };
      scope.vars.set(p.name, { obj });
    }
    const saved = this.statement;
    this.walk(m.body, scope);
    this.statement = saved;
    info.state = "done";
    info.returned = scope.returned;
    return info.returned;
  }

  private walk(stmts: Stmt[], scope: Scope): void {
    const base = scope.conditional;
    for (const s of stmts) {
      scope.conditional = base || s.conditional;
      this.statement = s;
      switch (s.k) {
        case "local": {
          const obj = s.init ? this.eval(s.init, scope) : undefined;
          const value = s.init ? scope.values.of(s.init) : undefined;
          scope.vars.set(s.name, { obj: declared(obj, s.type, s.name, s.init && this.loc(s.init)), value });
          if (obj) this.named(obj, s.name, s.type, s);
          break;
        }
        case "expr":
          this.eval(s.expr, scope);
          break;
        case "return":
          if (s.expr) {
            const obj = this.eval(s.expr, scope);
            if (!scope.returned || !s.conditional) scope.returned = obj;
          }
          break;
        case "class":
          for (const m of flattenMembers(s.members)) {
            if (m.k === "method") this.walk(m.body, new Scope(this, scope, true, m.name));
          }
          break;
      }
    }
    scope.conditional = base;
  }

  /** An object got a name: a variable declaration or an assignment. */
  private named(obj: Obj, name: string, type: string | undefined, stmt: Stmt | undefined): void {
    switch (obj.t) {
      case "read":
        obj.s.read.variable ??= name;
        break;
      case "source":
      case "sink":
        obj.s.fact.variable ??= name;
        break;
      case "env":
        obj.name ??= name;
        if (obj.fact) {
          obj.fact.variable ??= name;
          if (stmt && !obj.fact.insertion && this.inside(obj.fact.range, stmt)) obj.fact.insertion = this.after(stmt);
        }
        break;
      case "options":
        obj.name ??= name;
        if (obj.creation) {
          obj.creation.variable ??= name;
          if (type) obj.creation.declaredType ??= type;
          if (stmt && !obj.creation.insertion && this.inside(obj.creation.range, stmt))
            obj.creation.insertion = this.after(stmt);
        }
        break;
      case "conf":
        obj.s.variable ??= name;
        break;
      case "map":
        if (stmt && obj.m.style.kind === "none") {
          obj.m.style = { kind: "statements", variable: name, method: "put", after: stmt.end, lineStart: stmt.start };
        }
        break;
    }
  }

  private inside(range: { start: { line: number } }, stmt: Stmt): boolean {
    const line = range.start.line;
    return line >= this.index.positionAt(stmt.start).line && line <= this.index.positionAt(stmt.end).line;
  }

  private after(stmt: Stmt): StatementInsertion {
    const line = this.index.positionAt(stmt.start).line;
    return {
      at: this.index.positionAt(stmt.end),
      indent: /^[ \t]*/.exec(this.index.lineText(line))?.[0] ?? "",
      eol: this.index.eol,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Expressions

  private eval(e: Expr, scope: Scope): Obj | undefined {
    switch (e.k) {
      case "literal":
        if (e.type === "string" || e.type === "text") this.flags([e], scope);
        return undefined;
      case "name":
        // `this` inside a scope function or an anonymous body is its receiver (`apply { this["k"] = v }`).
        return scope.lookup(e.name)?.obj ?? (e.name === "this" ? scope.implicit : undefined);
      case "field":
        return this.fieldRead(e, scope);
      case "mapLit":
        return this.mapLiteral(e, scope);
      case "call":
        return this.call(e, scope);
      case "new":
        return this.construct(e, scope);
      case "array":
        this.evalAll(e.items, scope);
        return undefined;
      case "lambda": {
        const inner = new Scope(this, scope, true, scope.member);
        if (Array.isArray(e.body)) {
          const saved = this.statement;
          this.walk(e.body, inner);
          this.statement = saved;
        } else {
          this.eval(e.body, inner);
        }
        return undefined;
      }
      case "assign":
        return this.assign(e, scope);
      case "binary":
        this.eval(e.left, scope);
        this.eval(e.right, scope);
        return undefined;
      case "unary":
        this.eval(e.operand, scope);
        return undefined;
      case "cond": {
        this.eval(e.test, scope);
        const saved = scope.conditional;
        scope.conditional = true;
        this.eval(e.whenTrue, scope);
        this.eval(e.whenFalse, scope);
        scope.conditional = saved;
        return undefined;
      }
      case "cast":
        return this.eval(e.expr, scope);
      case "classLit":
        return undefined;
      case "other":
        for (const p of e.parts) this.eval(p, scope);
        return undefined;
    }
  }

  /** Evaluates a list of arguments or items; string literals among them are read for flags as a list. */
  private evalAll(items: Expr[], scope: Scope): (Obj | undefined)[] {
    const out = items.map((i) => (i.k === "literal" ? undefined : this.eval(i, scope)));
    this.flags(items, scope);
    return out;
  }

  private assign(e: Expr & { k: "assign" }, scope: Scope): Obj | undefined {
    const setter = e.op === "=" ? this.propertyWrite(e, scope) : undefined;
    if (setter) return setter.result;
    const obj = this.eval(e.value, scope);
    const target = e.target;
    const name =
      target.k === "name"
        ? target.name
        : target.k === "field" && dottedName(target.target) === "this"
          ? target.name
          : undefined;
    if (!name || e.op !== "=") {
      this.eval(target, scope);
      return obj;
    }
    const vars = scope.owner(name);
    const old = vars.get(name);
    vars.set(name, {
      obj: obj ?? old?.obj,
      value: scope.conditional ? undefined : scope.values.of(e.value),
    });
    const stmt = this.statement?.k === "expr" && this.statement.expr === e ? this.statement : undefined;
    if (obj) this.named(obj, name, undefined, stmt);
    return obj;
  }

  // ---------------------------------------------------------------------------------------------
  // Forms of other languages, read as the Java calls they stand for

  /**
   * A field read. On an object the reader follows it is a call without arguments: a Scala call written without
   * parentheses (`env.getCheckpointConfig`, `.build`), a Kotlin property read of a Java getter
   * (`env.checkpointConfig` is `getCheckpointConfig()`). On a class name it may be a static call without parentheses
   * (Scala `StreamExecutionEnvironment.getExecutionEnvironment`).
   */
  private fieldRead(e: Expr & { k: "field" }, scope: Scope): Obj | undefined {
    if (e.target.k === "name" && (e.target.name === "this" || this.ownClasses.has(e.target.name))) {
      return scope.lookup(e.name)?.obj;
    }
    const receiver = this.eval(e.target, scope);
    if (!/^[a-z]/.test(e.name)) return undefined;
    if (receiver) return this.callOn(receiver, this.fieldCall(e, this.getterName(e.name)), [], scope);
    const owner = e.target.k === "name" && !scope.lookup(e.target.name) ? e.target.name : dottedName(e.target);
    const simple = owner?.slice(owner.lastIndexOf(".") + 1);
    if (simple && /^[A-Z]/.test(simple) && this.language !== "java") {
      const r = this.staticCall(simple, this.fieldCall(e, e.name), [], scope);
      if (r !== undefined) return r ?? undefined;
    }
    // A property of another object of the project (Scala `KafkaSources.orders`, a Kotlin object's `val`).
    if (simple && /^[A-Z]/.test(simple) && !this.ownClasses.has(simple)) {
      return { t: "external", ref: { owner: simple, member: e.name } };
    }
    return undefined;
  }

  /** Kotlin reads Java getters as properties; the other languages call them by name. */
  private getterName(name: string): string {
    if (this.language !== "kotlin" || /^(get|is)[A-Z]/.test(name)) return name;
    return `get${name[0].toUpperCase()}${name.slice(1)}`;
  }

  private fieldCall(e: Expr & { k: "field" }, name: string): CallExpr {
    return {
      k: "call",
      start: e.start,
      end: e.end,
      target: e.target,
      name,
      nameStart: e.nameStart,
      nameEnd: e.nameStart + e.name.length,
      dot: e.dot,
      args: [],
    };
  }

  /**
   * A property write read as its setter: Kotlin `env.parallelism = 4` is `env.setParallelism(4)`, Python
   * `options.view_as(StandardOptions).streaming = True` is `setStreaming(true)`; inside a scope function a bare name
   * with no variable of that name is the receiver's property (`apply { parallelism = 4 }`). An index write on a map
   * (`props["group.id"] = "g"`) is a put. Undefined when the write is an ordinary assignment.
   */
  private propertyWrite(e: Expr & { k: "assign" }, scope: Scope): { result: Obj | undefined } | undefined {
    const target = e.target;
    if (target.k === "other" && target.parts.length === 2 && e.value) {
      const map = this.eval(target.parts[0], scope);
      if (map?.t !== "map") return undefined;
      this.eval(e.value, scope);
      this.pair(map.m, target.parts[1], e.value, { start: e.start, end: e.end }, scope);
      const stmt = this.statement;
      if (map.m.style.kind === "statements" && stmt?.k === "expr" && stmt.expr === e && target.parts[0].k === "name") {
        map.m.style = {
          kind: "statements",
          variable: target.parts[0].name,
          method: "[]",
          after: stmt.end,
          lineStart: stmt.start,
        };
      }
      return { result: undefined };
    }
    let receiver: Obj | undefined;
    let name: string | undefined;
    let nameStart = 0;
    let dot: number | undefined;
    let receiverExpr: Expr | undefined;
    if (target.k === "field" && /^[a-z]/.test(target.name) && dottedName(target.target) !== "this") {
      if (this.language === "java") return undefined;
      receiver = this.eval(target.target, scope);
      name = target.name;
      nameStart = target.nameStart;
      dot = target.dot;
      receiverExpr = target.target;
    } else if (
      target.k === "field" &&
      this.language !== "java" &&
      dottedName(target.target) === "this" &&
      scope.implicit &&
      /^[a-z]/.test(target.name) &&
      !this.fields.has(target.name)
    ) {
      // `apply { this.parallelism = 4 }`.
      receiver = scope.implicit;
      name = target.name;
      nameStart = target.nameStart;
      dot = target.dot;
      receiverExpr = target.target;
    } else if (target.k === "name" && scope.implicit && !scope.lookup(target.name)) {
      receiver = scope.implicit;
      name = target.name;
      nameStart = target.start;
    }
    if (!receiver || receiver.t === "external" || !name) return undefined;
    const value = this.eval(e.value, scope);
    const call: CallExpr = {
      k: "call",
      start: e.start,
      end: e.end,
      target: receiverExpr,
      // Kotlin names a boolean `isX()` getter's property `isX`; its setter is `setX`.
      name:
        this.language === "kotlin" && /^is[A-Z]/.test(name)
          ? `set${name.slice(2)}`
          : `set${name[0].toUpperCase()}${name.slice(1)}`,
      nameStart,
      nameEnd: nameStart + name.length,
      dot,
      args: [e.value],
    };
    this.propertyCalls.add(call);
    return { result: this.callOn(receiver, call, [value], scope) };
  }

  /** Calls made by property writes: removing one removes its whole statement. */
  private readonly propertyCalls = new WeakSet<CallExpr>();

  /** A map literal: `{"k": v}`, `Map("k" -> v)`, `mapOf("k" to v)`. */
  private mapLiteral(e: Expr & { k: "mapLit" }, scope: Scope): Obj {
    const m = new MapState();
    for (const entry of e.entries) {
      const value = this.eval(entry.value, scope);
      // Python's `{**base, "k": v}`: the entries of `base` where the splat stands.
      if (entry.key.k === "unary" && entry.key.op === "**") this.merge(m, value, entry.value);
      else this.pair(m, entry.key, entry.value, entry, scope);
    }
    const last = e.entries[e.entries.length - 1];
    m.style = {
      kind: "literal",
      form: e.form,
      openEnd: e.openEnd,
      closeStart: e.closeStart,
      lastEntryStart: last?.start,
      lastEntryEnd: last?.end,
    };
    return { t: "map", m };
  }

  /**
   * Kotlin scope functions run their lambda once, right away: `x.apply { … }` / `x.run { … }` / `with(x) { … }` with
   * `x` as the receiver of calls without one, `x.also { it… }` / `x.let { v -> … }` with `x` bound to the parameter.
   * `apply` and `also` return `x`. Undefined when `e` is not a scope function call.
   */
  private scopeFunction(e: CallExpr, scope: Scope): { result: Obj | undefined } | undefined {
    if (this.language !== "kotlin" || !/^(apply|run|also|let|with)$/.test(e.name)) return undefined;
    const lambda = e.args[e.args.length - 1];
    if (lambda?.k !== "lambda") return undefined;
    let receiver: Obj | undefined;
    if (e.name === "with") {
      if (e.target || e.args.length !== 2) return undefined;
      receiver = this.eval(e.args[0], scope);
    } else {
      receiver = e.target ? this.eval(e.target, scope) : scope.implicit;
    }
    const inner = new Scope(this, scope, scope.conditional, scope.member);
    if (e.name === "also" || e.name === "let") inner.vars.set(lambda.params[0] ?? "it", { obj: receiver });
    else inner.implicit = receiver;
    if (Array.isArray(lambda.body)) {
      const saved = this.statement;
      this.walk(lambda.body, inner);
      this.statement = saved;
    } else {
      this.eval(lambda.body, inner);
    }
    return { result: e.name === "apply" || e.name === "also" ? receiver : undefined };
  }

  /**
   * Named arguments in the positions of the Java API's parameters, for the Python APIs that mirror it
   * (`enable_checkpointing(interval=60000)`, `FlinkKafkaConsumer(topics=…, properties=…)`). Unknown names are kept
   * after the positional arguments, so what they build is still followed.
   */
  private positional(name: string, args: Expr[], kwargs: KwArg[] | undefined): Expr[] {
    if (!kwargs || kwargs.length === 0) return args;
    const params = PARAMETERS[name];
    const out = [...args];
    const rest: Expr[] = [];
    for (const k of kwargs) {
      const i = params?.indexOf(k.name) ?? -1;
      if (i >= 0 && i >= args.length) out[i] = k.value;
      else rest.push(k.value);
    }
    for (let i = 0; i < out.length; i++) {
      out[i] ??= {
        k: "other",
        start: args[args.length - 1]?.end ?? 0,
        end: args[args.length - 1]?.end ?? 0,
        parts: [],
      };
    }
    return [...out, ...(params ? [] : rest)];
  }

  /** Where a new argument of `e` goes (`argsEnd` from the lowering). */
  private argumentInsertion(e: { args: Expr[]; kwargs?: KwArg[]; argsEnd?: number }) {
    if (e.argsEnd === undefined) return undefined;
    const all: { start: number }[] = [...e.args, ...(e.kwargs ?? [])].sort((a, b) => a.start - b.start);
    const last = all[all.length - 1];
    const prefix = !last
      ? ""
      : startsLine(this.layout, last.start)
        ? `,${this.index.eol}${/^[ \t]*/.exec(this.index.lineText(this.index.positionAt(last.start).line))?.[0] ?? ""}`
        : ", ";
    return { at: this.index.positionAt(e.argsEnd), prefix };
  }

  /**
   * The location a checkpoint storage argument names: a path string, or a `FileSystemCheckpointStorage(path)`;
   * null for JobManager (in-memory) storage, which is not durable; undefined when it cannot be read.
   */
  private storageLocation(arg: Expr | undefined, scope: Scope): CodeExpr | null | undefined {
    if (!arg) return undefined;
    if (arg.k === "new") {
      const simple = arg.type.slice(arg.type.lastIndexOf(".") + 1);
      if (simple === "JobManagerCheckpointStorage") return null;
      return arg.args[0] ? scope.values.of(arg.args[0]) : undefined;
    }
    return scope.values.of(arg);
  }

  // ---- Beam Python

  /**
   * Beam Python objects made by calls on a module (`beam.Pipeline(options=…)`, `kafka.ReadFromKafka(…)`,
   * `beam.io.ReadFromKafka(…)`) and `PipelineOptions.from_dictionary({…})`.
   */
  private pythonCall(e: CallExpr, scope: Scope): { result: Obj | undefined } | undefined {
    if (this.language !== "python" || !e.target) return undefined;
    const owner = dottedName(e.target);
    if (owner === undefined || (e.target.k === "name" && scope.lookup(e.target.name))) return undefined;
    const made = this.pythonConstruct(e.name, e, scope, e.nameStart, e.nameEnd);
    if (made) return { result: made };
    if (owner.endsWith("PipelineOptions") && e.name === "fromDictionary") {
      const options = this.pythonOptions({ ...e, args: [] }, e.target.start, e.nameEnd, scope);
      const dict = e.args[0];
      if (dict?.k === "mapLit" && options.t === "options" && options.creation) {
        for (const entry of dict.entries) {
          const key = scope.values.of(entry.key).value;
          if (key.kind !== "string") continue;
          const value = scope.values.of(entry.value);
          const call: CodeCall = {
            file: this.file,
            range: this.index.rangeOf(entry.key.start, entry.key.end),
            method: key.value,
            callRange: this.index.rangeOf(entry.start, entry.end),
            args: [value],
            conditional: scope.conditional,
          };
          const option = key.value.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
          this.out.beamOptions.settings.push({ option, value, call });
        }
      } else if (dict) this.eval(dict, scope);
      return { result: options };
    }
    return undefined;
  }

  /** Beam Python's objects by their class: `ReadFromKafka(…)`, `PipelineOptions(…)`, `Pipeline(…)`. */
  private pythonConstruct(
    simple: string,
    e: {
      start: number;
      end: number;
      args: Expr[];
      kwargs?: KwArg[];
      argsEnd?: number;
      typeStart?: number;
      typeEnd?: number;
    },
    scope: Scope,
    nameStart = e.typeStart ?? e.start,
    nameEnd = e.typeEnd ?? e.end,
  ): Obj | undefined {
    if (this.language !== "python") return undefined;
    if (simple === "ReadFromKafka") return this.pythonRead(e, nameStart, nameEnd, scope);
    if (/^(PipelineOptions|StandardOptions|FlinkRunnerOptions|PortableOptions)$/.test(simple)) {
      this.evalAll(e.args, scope);
      return this.pythonOptions(e, nameStart, nameEnd, scope);
    }
    if (simple === "Pipeline" || simple === "TestPipeline") {
      for (const a of e.args) this.eval(a, scope);
      for (const k of e.kwargs ?? []) this.eval(k.value, scope);
      this.out.beamOptions.pipelines.push({ file: this.file, range: this.index.rangeOf(nameStart, nameEnd) });
      return { t: "pipeline" };
    }
    return undefined;
  }

  /**
   * `ReadFromKafka(consumer_config={…}, topics=[…], commit_offset_in_finalize=True, …)`: Beam Python's
   * cross-language read of Java KafkaIO. Each keyword argument is recorded as the KafkaIO call it becomes
   * (`consumer_config` → `withConsumerConfigUpdates`, `commit_offset_in_finalize=True` → `commitOffsetsInFinalize`,
   * `max_num_records` → `withMaxNumRecords` …), so the Beam rules read both APIs the same way.
   */
  private pythonRead(
    e: { start: number; end: number; args: Expr[]; kwargs?: KwArg[]; argsEnd?: number },
    nameStart: number,
    nameEnd: number,
    scope: Scope,
  ): Obj {
    const read: BeamKafkaRead = {
      file: this.file,
      language: this.language,
      api: "ReadFromKafka",
      readRange: this.index.rangeOf(nameStart, nameEnd),
      chainRange: this.index.rangeOf(e.start, e.end),
      calls: [],
      consumerConfig: { entries: [], hasUnknownParts: false, unknownParts: [] },
      topics: [],
      chainInsertion: { at: this.index.positionAt(e.end), prefix: "." },
    };
    const insertion = this.argumentInsertion(e);
    if (insertion) read.argumentInsertion = insertion;
    if (scope.member) read.member = scope.member;
    const settings = new SettingsBuilder(this.layout, (key, value) =>
      read.argumentInsertion
        ? [
            {
              range: { start: read.argumentInsertion.at, end: read.argumentInsertion.at },
              newText: `${read.argumentInsertion.prefix}consumer_config={${this.dialect.literal({ kind: "string", value: key })}: ${this.dialect.literal(value)}}`,
            },
          ]
        : undefined,
    );
    read.consumerConfig = settings.settings;
    const named = new Map<string, KwArg>();
    for (const k of e.kwargs ?? []) named.set(k.name, k);
    // Positional arguments follow the signature: consumer_config, topics, key_deserializer, value_deserializer.
    const positional = ["consumer_config", "topics"];
    e.args.forEach((a, i) => {
      if (positional[i] && !named.has(positional[i]))
        named.set(positional[i], { name: positional[i], nameStart: a.start, start: a.start, end: a.end, value: a });
    });
    const args = new Map<string, Obj | undefined>();
    for (const [name, k] of named) args.set(name, this.eval(k.value, scope));
    const c = scope.conditional;
    for (const [name, k] of named) {
      const method = READ_FROM_KAFKA[name];
      if (!method) continue;
      const call: CodeCall = {
        file: this.file,
        range: this.index.rangeOf(k.nameStart, k.nameStart + name.length),
        method,
        callRange: this.index.rangeOf(k.start, k.end),
        args: [scope.values.of(k.value)],
        conditional: c,
      };
      const value = call.args[0].value;
      if (method === "commitOffsetsInFinalize" || method === "withRedistribute") {
        // `commit_offset_in_finalize=False` commits nothing; a value only the program knows may or may not.
        if (value.kind === "bool" && !value.value) continue;
        if (value.kind !== "bool") call.conditional = true;
      }
      read.calls.push(call);
      if (method === "withConsumerConfigUpdates") {
        const map = args.get(name);
        settings.addMap(
          method,
          call,
          map?.t === "map" ? this.named2(map.m, k.value) : undefined,
          c,
          call.args[0],
          refOf(map),
        );
      } else if (method === "commitOffsetsInFinalize") read.commitOffsetsInFinalize = call;
      else if (method === "withStartReadTime") read.withStartReadTime = call;
      else if (method === "withRedistribute") read.withRedistribute = call;
      else if (method === "withTopics") {
        const v = call.args[0];
        if (v.value.kind === "list") pushAll(read.topics, v.value.items);
        else read.topics.push(v);
      }
    }
    this.out.kafkaReads.push(read);
    return { t: "read", s: { read, settings, start: e.start, builderEnd: e.end } };
  }

  /**
   * Beam Python `PipelineOptions(flags, **options)` (also `PipelineOptions.from_dictionary({…})`): flags in the list
   * are read like any flag strings, keyword arguments are option settings (`checkpointing_interval=60000` sets
   * `checkpointingInterval`), and a list that is not written out (`argv`, `pipeline_args`) comes from the command
   * line.
   */
  private pythonOptions(
    e: { start: number; end: number; args: Expr[]; kwargs?: KwArg[]; argsEnd?: number },
    nameStart: number,
    nameEnd: number,
    scope: Scope,
  ): Obj {
    const flags = e.args[0] ?? e.kwargs?.find((k) => k.name === "flags")?.value;
    const creation: OptionsCreation = {
      file: this.file,
      language: this.language,
      fromArgs: flags !== undefined && flags.k !== "array",
      range: this.index.rangeOf(nameStart, nameEnd),
    };
    const insertion = this.argumentInsertion(e);
    if (insertion) creation.argumentInsertion = insertion;
    this.out.beamOptions.creations.push(creation);
    for (const k of e.kwargs ?? []) {
      if (k.name === "flags") continue;
      if (k.name === "**") {
        // `PipelineOptions([], **pipeline_opts)`: the dict's keys are keyword arguments.
        this.optionsDict(this.eval(k.value, scope), scope);
        continue;
      }
      const name = this.index.rangeOf(k.nameStart, k.nameStart + k.name.length);
      this.pythonSetting(k.name, name, this.index.rangeOf(k.start, k.end), scope.values.of(k.value), scope.conditional);
    }
    return { t: "options", creation };
  }

  /** `--name=value` flags in string literals (also `"--name", "value"` pairs in arrays and lists). */
  /** The entries of a dict passed as `**options` to `PipelineOptions`, each a Beam option set to its value. */
  private optionsDict(obj: Obj | undefined, scope: Scope): void {
    if (obj?.t !== "map") return;
    for (const entry of obj.m.entries) {
      const key = entry.key.value;
      if (key.kind !== "string" || !/^[a-z][a-z0-9_]*$/.test(key.value)) continue;
      const conditional = scope.conditional || entry.conditional;
      this.pythonSetting(key.value, entry.key.range, entry.location.range, entry.value, conditional);
    }
  }

  /** A Beam option Python sets by its snake_case name (`checkpointing_interval=60000`), as the Java option. */
  private pythonSetting(name: string, range: Range, callRange: Range, value: CodeExpr, conditional: boolean): void {
    const call: CodeCall = { file: this.file, range, method: name, callRange, args: [value], conditional };
    const option = name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
    this.out.beamOptions.settings.push({ option, value, call });
  }

  private flags(items: Expr[], scope: Scope): void {
    items.forEach((item, i) => {
      if (item.k !== "literal" || item.type !== "string") return;
      const open = /^[A-Za-z]*("""|'''|"|')/.exec(item.image)?.[0].length ?? 1;
      const content = item.image.slice(open, item.image.length - Math.min(open, item.image.length - open));
      // Only strings that are flags themselves: "--name=value", not a log message that mentions one.
      if (!content.trimStart().startsWith("--")) return;
      const next = items[i + 1];
      const nextValue = next?.k === "literal" && next.type === "string" ? next : undefined;
      const found = beamFlags(content, item.start + open, this.index, this.file, "javaString");
      const last = found[found.length - 1];
      if (last && last.value === undefined && nextValue && /^--\w+$/.test(content.trim())) {
        const v = scope.values.of(nextValue);
        if (v.value.kind === "string" && !v.value.value.startsWith("-")) {
          const q = /^[A-Za-z]*("""|'''|"|')/.exec(nextValue.image)?.[0].length ?? 1;
          last.value = v.value.value;
          last.valueRange = this.index.rangeOf(
            nextValue.start + q,
            nextValue.end - Math.min(q, nextValue.end - nextValue.start - q),
          );
        }
      }
      pushAll(this.out.beamOptions.args, found);
    });
  }

  private construct(made: Expr & { k: "new" }, scope: Scope): Obj | undefined {
    const simple = made.type.slice(made.type.lastIndexOf(".") + 1);
    const python = this.pythonConstruct(simple, made, scope);
    if (python) return python;
    const e = made.kwargs ? { ...made, args: this.positional(simple, made.args, made.kwargs) } : made;
    const args = this.evalAll(e.args, scope);
    // A configuration given to an environment or a MiniCluster the code starts configures the jobs run there.
    if (CONFIGURED_BY_CONSTRUCTOR.test(simple)) passConfigurations(args);
    let obj: Obj | undefined;
    if (MAP_CLASSES.test(simple)) {
      const from = args[0];
      const m = from?.t === "map" ? from.m.copy() : new MapState();
      // `new HashMap<>(16)` is a capacity; any other argument is a map or defaults the reader cannot see.
      if (from?.t !== "map" && e.args[0] && !(e.args[0].k === "literal" && e.args[0].type === "number")) {
        m.unknown.push(this.loc(e.args[0]));
      }
      obj = { t: "map", m };
    } else if (/(^|\.)(ImmutableMap|ImmutableSortedMap)\.Builder$/.test(made.type.replace(/<.*$/, ""))) {
      // `new ImmutableMap.Builder<String, Object>()`, as `ImmutableMap.builder()`: the puts before `build()`.
      obj = builderMap(e.end);
    } else if (simple === "Kafka" && e.args.length === 0 && /\btable\.descriptors\b/.test(this.text)) {
      obj = this.newLegacyDescriptor(e, scope);
    } else if (simple === "Configuration") {
      const s: ConfState = { entries: [], passed: false };
      this.confs.push(s);
      obj = { t: "conf", s };
    } else if (LEGACY.test(simple)) {
      const props = args.find((a): a is Obj & { t: "map" } => a?.t === "map");
      const settings = new SettingsBuilder(this.layout, () => undefined);
      if (props) settings.addMap("constructorProperties", this.loc(e), props.m, scope.conditional, this.loc(e));
      else if (e.args.length >= 3)
        settings.markUnknown(this.loc(e.args[e.args.length - 1]), refOf(args[args.length - 1]));
      const client: LegacyKafkaClient = {
        file: this.file,
        language: this.language,
        className: simple,
        role: simple.includes("Consumer") ? "consumer" : "producer",
        range: this.index.rangeOf(e.typeStart, e.typeEnd),
        constructed: true,
        properties: settings.settings,
      };
      this.out.dataStream.legacyKafka.push(client);
      obj = { t: "legacy", client };
    }
    if (e.body) {
      const inner = new Scope(this, scope, scope.conditional, scope.member);
      inner.implicit = obj;
      for (const m of flattenMembers(e.body)) {
        if (m.k === "init") this.walk(m.body, inner);
        else if (m.k === "method") this.walk(m.body, new Scope(this, scope, true, scope.member));
      }
    }
    return obj;
  }

  // ---------------------------------------------------------------------------------------------
  // Calls

  private javaCall(e: CallExpr, scope: Scope): CodeCall {
    const call: CodeCall = {
      file: this.file,
      range: this.index.rangeOf(e.nameStart, e.nameEnd),
      method: e.name,
      callRange: this.index.rangeOf(e.nameStart, e.end),
      args: e.args.map((a) => scope.values.of(a)),
      conditional: scope.conditional,
    };
    if (e.target && e.dot !== undefined) call.removeRange = this.removal(e);
    if (this.propertyCalls.has(e)) call.property = true;
    return call;
  }

  /**
   * What deleting a call removes: `.name(…)` from the end of its receiver; for `x.name(…);` alone as a statement
   * (where `x;` would not compile) the whole statement, with its line when nothing else is on it.
   */
  private removal(e: CallExpr): Range {
    const stmt = this.statement;
    const whole = stmt?.k === "expr" && (stmt.expr === e || (this.propertyCalls.has(e) && stmt.expr.start === e.start));
    if (whole && (e.target?.k === "name" || this.propertyCalls.has(e))) {
      const first = this.index.positionAt(stmt.start);
      const last = this.index.positionAt(stmt.end);
      const alone =
        this.index.lineText(first.line).slice(0, first.character).trim() === "" &&
        this.index.lineText(last.line).slice(last.character).trim() === "";
      if (alone) {
        const full = this.index.fullLineRange(last.line);
        return { start: { line: first.line, character: 0 }, end: full.end };
      }
      return this.index.rangeOf(stmt.start, stmt.end);
    }
    return this.index.rangeOf((e.target as Expr).end, e.end);
  }

  private loc(e: Expr): Location {
    return { file: this.file, range: this.index.rangeOf(e.start, e.end) };
  }

  private call(call: CallExpr, scope: Scope): Obj | undefined {
    const scoped = this.scopeFunction(call, scope);
    if (scoped) return scoped.result;
    const python = this.pythonCall(call, scope);
    if (python) return python.result;
    const dict = this.pythonDict(call, scope);
    if (dict) return dict;
    const e: CallExpr = call.kwargs ? { ...call, args: this.positional(call.name, call.args, call.kwargs) } : call;
    const receiver =
      e.target && !(e.target.k === "name" && e.target.name === "this") ? this.eval(e.target, scope) : scope.implicit;
    const owner = e.target ? dottedName(e.target) : undefined;
    const ownerIsVariable = e.target?.k === "name" && scope.lookup(e.target.name) !== undefined;
    const simple = owner && !ownerIsVariable ? owner.slice(owner.lastIndexOf(".") + 1) : undefined;
    const args = this.evalAll(e.args, scope);
    if (args.some((a) => a?.t === "descriptor")) this.descriptorUse(e, args, simple, scope);
    // `new MiniClusterConfiguration.Builder().setConfiguration(conf)`, `MiniClusterResourceConfiguration`'s too.
    if (e.name === "setConfiguration") passConfigurations(args);
    // A call on another file's object (`Sources.kafka.build()`) is read by its own name, as before it was known.
    if (receiver && receiver.t !== "external") return this.callOn(receiver, e, args, scope);
    // A Kafka source added to an environment another file makes (`env = envfactory.get_env()`, a Scala 3 top-level
    // `val env` or a trait's `env` of another file, a Python class's `self.env` its caller passed in): the job's
    // environment is not this file's, but the source is read.
    const elsewhere =
      receiver?.t === "external" ||
      (!receiver && ((e.target?.k === "name" && /^[a-z_]/.test(e.target.name)) || e.target?.k === "field"));
    if (elsewhere && (e.name === "fromSource" || e.name === "addSource") && kafkaArgument(args[0]))
      return this.envCall({ t: "env" }, e, args, scope);
    // A method of the class with the same name shadows the static import, whatever its parameters.
    if (!e.target && e.args.length === 0 && this.staticReads.has(e.name) && !this.methods.has(e.name))
      return this.newRead(e, scope);
    if (simple) {
      const r = this.staticCall(simple, e, args, scope);
      if (r !== undefined) return r === null ? undefined : r;
    }
    if (!e.target || dottedName(e.target) === "this" || (simple && this.ownClasses.has(simple))) {
      const candidates = this.methods.get(e.name)?.filter((m) => takes(m.member.params, e.args.length)) ?? [];
      if (candidates.length === 1) {
        const obj = this.method(
          candidates[0],
          e.args.map((a, i) => ({ obj: args[i], value: scope.values.of(a) })),
          scope,
        );
        return obj?.t === "map" ? { t: "map", m: obj.m.copy(`method ${e.name}()`) } : obj;
      }
    }
    if (BEAM_SETTERS_ANYWHERE.test(e.name) && e.args.length === 1) this.beamSetter(e, scope, owner);
    if (e.name === "getOptions" && e.args.length === 0) return { t: "options" };
    // A method of another class or module of the project (`Config.kafkaProps()`, an imported Python function).
    if (simple && /^[A-Za-z_]/.test(simple) && !this.ownClasses.has(simple)) {
      return { t: "external", ref: { owner: simple, member: e.name } };
    }
    if (!e.target && !this.methods.has(e.name)) return { t: "external", ref: { owner: "", member: e.name } };
    return undefined;
  }

  /** Calls on a class name. Returns null for "handled, no object". */
  private staticCall(simple: string, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj | null | undefined {
    const name = e.name;
    if (simple === "KafkaIO" && /^read(Bytes)?$/.test(name)) return this.newRead(e, scope);
    if (simple === "KafkaSource" && name === "builder") return this.newSource(e);
    if (simple === "KafkaSink" && name === "builder") return this.newSink(e);
    if (TABLE_ENVIRONMENTS.test(simple) && name === "create") return { t: "tableEnv" };
    if (simple === "TableDescriptor" && name === "forConnector") return this.newDescriptor(e, scope);
    if (simple === "FormatDescriptor" && name === "forFormat") return { t: "format", format: e.args[0] };
    if (simple === "StreamExecutionEnvironment" && ENV_FACTORIES.test(name)) {
      const fact: StreamEnvironment = {
        file: this.file,
        language: this.language,
        range: this.index.rangeOf(e.nameStart, e.nameEnd),
      };
      const conf = args.find((a): a is Obj & { t: "conf" } => a?.t === "conf");
      if (conf) {
        conf.s.passed = true;
        fact.configurationVariable = conf.s.variable;
      }
      this.out.dataStream.environments.push(fact);
      return { t: "env", fact };
    }
    if (simple === "PipelineOptionsFactory") {
      if (!/^(fromArgs|create|as)$/.test(name)) return undefined;
      const creation: OptionsCreation = {
        file: this.file,
        language: this.language,
        fromArgs: name === "fromArgs",
        range: this.index.rangeOf(e.target?.start ?? e.start, e.nameEnd),
      };
      if (name === "as") creation.asClass = classArg(e, scope);
      this.out.beamOptions.creations.push(creation);
      return { t: "options", creation };
    }
    if ((simple === "Pipeline" || simple === "TestPipeline") && /^(create|fromOptions)$/.test(name)) {
      this.out.beamOptions.pipelines.push({
        file: this.file,
        range: this.index.rangeOf(e.target?.start ?? e.start, e.nameEnd),
      });
      return { t: "pipeline" };
    }
    if (simple === "ExperimentalOptions" && name === "addExperiment" && e.args.length === 2) {
      const value = scope.values.of(e.args[1]);
      this.out.beamOptions.settings.push({
        option: "experiments",
        value: { ...value, value: { kind: "list", items: [value] } },
        call: this.javaCall(e, scope),
        target: e.args[0].k === "name" ? e.args[0].name : undefined,
      });
      return null;
    }
    if (/^(Map|ImmutableMap|Collections|Maps|ImmutableSortedMap)$/.test(simple))
      return this.mapFactory(simple, e, args, scope);
    return undefined;
  }

  private mapFactory(simple: string, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj | null | undefined {
    const name = e.name;
    if (name === "of" || name === "singletonMap") {
      const m = new MapState();
      for (let i = 0; i + 1 < e.args.length; i += 2)
        this.pair(m, e.args[i], e.args[i + 1], { start: e.args[i].start, end: e.args[i + 1].end }, scope);
      const limit = simple === "Map" ? 10 : simple === "ImmutableMap" ? 5 : 0;
      const last = e.args[e.args.length - 1];
      m.style = {
        kind: "pairs",
        open: e.nameEnd + (this.text.slice(e.nameEnd).indexOf("(") + 1),
        lastArgEnd: last?.end,
        lastPairStart: e.args[e.args.length - 2]?.start,
        room: e.args.length / 2 < limit,
      };
      return { t: "map", m };
    }
    if (name === "ofEntries") {
      const m = new MapState();
      for (const a of e.args) {
        if (a.k === "call" && a.name === "entry" && a.args.length === 2) this.pair(m, a.args[0], a.args[1], a, scope);
        else m.unknown.push(this.loc(a));
      }
      const last = e.args[e.args.length - 1];
      m.style = {
        kind: "pairs",
        open: e.end - 1,
        lastArgEnd: last?.end,
        lastPairStart: last?.start,
        room: true,
        entryCall: `${simple}.entry`,
      };
      return { t: "map", m };
    }
    if (name === "builder") return builderMap(e.end);
    if (/^(copyOf|unmodifiableMap|synchronizedMap|newHashMap)$/.test(name)) {
      const from = args[0];
      if (from?.t === "map") return { t: "map", m: from.m.copy() };
      const m = new MapState();
      if (e.args[0]) m.unknown.push(this.loc(e.args[0]));
      return { t: "map", m };
    }
    if (name === "emptyMap") return { t: "map", m: new MapState() };
    return undefined;
  }

  private pair(m: MapState, key: Expr, value: Expr, at: { start: number; end: number }, scope: Scope): void {
    m.add({
      key: scope.values.of(key),
      value: scope.values.of(value),
      location: { file: this.file, range: this.index.rangeOf(at.start, at.end) },
      conditional: scope.conditional,
    });
  }

  private callOn(obj: Obj, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj | undefined {
    switch (obj.t) {
      case "read":
        return this.readCall(obj, e, args, scope);
      case "source":
        return this.sourceCall(obj, e, args, scope);
      case "sink":
        return this.sinkCall(obj, e, args, scope);
      case "map":
        return this.mapCall(obj, e, args, scope);
      case "env":
        return this.envCall(obj, e, args, scope);
      case "checkpointConfig": {
        if (!e.name.startsWith("set") && !e.name.startsWith("enable")) return undefined;
        const call = this.javaCall(e, scope);
        if (e.name === "setCheckpointStorage" || e.name === "setCheckpointStorageDir") {
          const location = this.storageLocation(e.args[0], scope);
          if (location !== null)
            this.out.dataStream.checkpointStorage.push({ call, ...(location ? { location } : {}) });
          return undefined;
        }
        const interval = e.name === "setCheckpointInterval" ? call.args[0] : undefined;
        const mode = e.name === "setCheckpointingMode" ? call.args[0] : undefined;
        this.out.dataStream.checkpointing.push({
          kind: "checkpointConfig",
          call,
          ...(interval ? { interval } : {}),
          ...(mode ? { mode } : {}),
          ...(obj.env ? { environment: obj.env } : {}),
          ...(obj.parameterOf ? { parameterOf: obj.parameterOf } : {}),
        });
        return undefined;
      }
      case "stream":
        return this.streamCall(obj, e, args, scope);
      case "options":
        return this.optionsCall(obj, e, scope);
      case "pipeline":
        return e.name === "getOptions" ? { t: "options" } : undefined;
      case "conf":
        return this.confCall(obj, e, scope);
      case "tableEnv": {
        // `tableEnv.connect(new Kafka()…)`: the legacy descriptor API, the table's definition goes on.
        const connected = args[0];
        if (e.name === "connect" && connected?.t === "descriptor" && connected.s.legacy) {
          connected.s.connected = true;
          return connected;
        }
        // The TableConfig's settings configure the job the environment runs (its SQL statements included).
        if (e.name !== "getConfig") return undefined;
        const s: ConfState = { entries: [], passed: true };
        this.confs.push(s);
        return { t: "conf", s };
      }
      case "legacy":
        if (e.name === "setCommitOffsetsOnCheckpoints") obj.client.commitOffsetsOnCheckpoints = this.javaCall(e, scope);
        return obj;
      case "descriptor":
        return this.descriptorCall(obj, e, args, scope);
      case "format":
        return e.name === "option" || e.name === "build" ? obj : undefined;
      case "external":
        return undefined;
    }
  }

  // ---- Beam KafkaIO

  private newRead(e: CallExpr, scope: Scope): Obj {
    const read: BeamKafkaRead = {
      file: this.file,
      language: this.language,
      api: "KafkaIO",
      readRange: this.index.rangeOf(e.start, e.end),
      chainRange: this.index.rangeOf(e.start, e.end),
      calls: [],
      consumerConfig: { entries: [], hasUnknownParts: false, unknownParts: [] },
      topics: [],
      chainInsertion: { at: this.index.positionAt(e.end), prefix: "." },
    };
    if (scope.member) read.member = scope.member;
    const layout = this.layout;
    const state: ReadState = {
      read,
      start: e.start,
      builderEnd: e.end,
      settings: new SettingsBuilder(this.layout, (key, value) => {
        const map = layout.dialect.javaMapOf(
          layout.dialect.literal({ kind: "string", value: key }),
          layout.dialect.literal(value),
        );
        return [
          ...map.imports.flatMap((i) => importEdits(layout, i)),
          {
            range: { start: read.chainInsertion.at, end: read.chainInsertion.at },
            newText: `${read.chainInsertion.prefix}withConsumerConfigUpdates(${map.text})`,
          },
        ];
      }),
    };
    read.consumerConfig = state.settings.settings;
    this.out.kafkaReads.push(read);
    return { t: "read", s: state };
  }

  private readCall(obj: Obj & { t: "read" }, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj {
    const { read, settings } = obj.s;
    const call = this.javaCall(e, scope);
    read.calls.push(call);
    if (e.start === obj.s.start) read.chainRange = this.index.rangeOf(e.start, e.end);
    const c = scope.conditional;
    switch (e.name) {
      case "withConsumerConfigUpdates":
      case "updateConsumerProperties": {
        const map = args[0]?.t === "map" ? args[0].m : undefined;
        settings.addMap(e.name, call, map && this.named2(map, e.args[0]), c, call.args[0] ?? call, refOf(args[0]));
        break;
      }
      case "withBootstrapServers":
        if (call.args[0]) {
          read.bootstrapServers = call.args[0];
          settings.addOne("bootstrap.servers", call.args[0], "withBootstrapServers", call, c);
        }
        break;
      case "withReadCommitted":
        read.withReadCommitted = call;
        settings.addOne(
          "isolation.level",
          { file: this.file, range: call.range, raw: e.name, value: { kind: "string", value: "read_committed" } },
          "withReadCommitted",
          call,
          c,
        );
        break;
      case "commitOffsetsInFinalize":
        read.commitOffsetsInFinalize = call;
        break;
      case "withStartReadTime":
        read.withStartReadTime = call;
        break;
      case "withTopicPartitions":
        read.withTopicPartitions = call;
        break;
      case "withTopicPattern":
        read.withTopicPattern = call;
        break;
      case "withRedistribute":
        read.withRedistribute = call;
        break;
      case "withTopic":
        if (call.args[0]) read.topics.push(call.args[0]);
        break;
      case "withTopics":
        for (const a of call.args) {
          if (a.value.kind === "list") pushAll(read.topics, a.value.items);
          else read.topics.push(a);
        }
        break;
    }
    if (!READ_TERMINALS.test(e.name)) {
      obj.s.builderEnd = e.end;
      obj.s.dot = e.dot;
    } else {
      obj.s.dot ??= e.dot;
    }
    read.chainInsertion = {
      at: this.index.positionAt(obj.s.builderEnd),
      prefix: chainPrefix(this.layout, obj.s.dot, obj.s.builderEnd),
    };
    return obj;
  }

  /** A map passed by name gets that name in its path (`variable props`). */
  private named2(map: MapState, arg: Expr): MapState {
    if (arg.k === "name") return map.copy(`variable ${arg.name}`);
    if (arg.k === "field" && dottedName(arg.target) === "this") return map.copy(`field ${arg.name}`);
    return map;
  }

  // ---- KafkaSource / KafkaSink builders

  private newSource(e: CallExpr): Obj {
    const fact: KafkaSourceBuilder = {
      file: this.file,
      language: this.language,
      range: this.index.rangeOf(e.start, e.end),
      calls: [],
      properties: { entries: [], hasUnknownParts: false, unknownParts: [] },
      topics: [],
      chainInsertion: { at: this.index.positionAt(e.end), prefix: "." },
    };
    const s: BuilderState<KafkaSourceBuilder> = {
      fact,
      builderEnd: e.end,
      settings: new SettingsBuilder(this.layout, (key, value) => [
        {
          range: { start: fact.chainInsertion.at, end: fact.chainInsertion.at },
          newText: `${fact.chainInsertion.prefix}${this.dialect.method("setProperty")}(${this.dialect.literal({ kind: "string", value: key })}, ${this.dialect.literal(value)})`,
        },
      ]),
    };
    fact.properties = s.settings.settings;
    this.out.dataStream.kafkaSources.push(fact);
    return { t: "source", s };
  }

  private newSink(e: CallExpr): Obj {
    const fact: KafkaSinkBuilder = {
      file: this.file,
      language: this.language,
      range: this.index.rangeOf(e.start, e.end),
      calls: [],
      properties: { entries: [], hasUnknownParts: false, unknownParts: [] },
      chainInsertion: { at: this.index.positionAt(e.end), prefix: "." },
    };
    const s: BuilderState<KafkaSinkBuilder> = {
      fact,
      builderEnd: e.end,
      settings: new SettingsBuilder(this.layout, (key, value) => [
        {
          range: { start: fact.chainInsertion.at, end: fact.chainInsertion.at },
          newText: `${fact.chainInsertion.prefix}${this.dialect.method("setProperty")}(${this.dialect.literal({ kind: "string", value: key })}, ${this.dialect.literal(value)})`,
        },
      ]),
    };
    fact.properties = s.settings.settings;
    this.out.dataStream.kafkaSinks.push(fact);
    return { t: "sink", s };
  }

  /** Records a builder call and moves the insertion point (before `.build()`). */
  private builderStep(s: BuilderState<KafkaSourceBuilder | KafkaSinkBuilder>, e: CallExpr, call: CodeCall): void {
    s.fact.calls.push(call);
    if (e.name === "build") {
      s.fact.chainInsertion = {
        at: this.index.positionAt(s.builderEnd),
        prefix: chainPrefix(this.layout, e.dot ?? s.dot, s.builderEnd),
      };
      return;
    }
    s.builderEnd = e.end;
    s.dot = e.dot;
    s.fact.chainInsertion = { at: this.index.positionAt(e.end), prefix: chainPrefix(this.layout, e.dot, e.end) };
  }

  private properties(
    s: BuilderState<KafkaSourceBuilder | KafkaSinkBuilder>,
    e: CallExpr,
    call: CodeCall,
    args: (Obj | undefined)[],
    scope: Scope,
  ): void {
    const c = scope.conditional;
    if (e.name === "setProperty" && call.args.length === 2) {
      const key = call.args[0];
      if (key.value.kind === "string") s.settings.addOne(key.value.value, call.args[1], "setProperty", call, c, key);
      else s.settings.markUnknown(key);
    } else if (e.name === "setProperties" || e.name === "setKafkaProducerConfig") {
      const map = args[0]?.t === "map" ? args[0].m : undefined;
      s.settings.addMap(
        e.name,
        call,
        map && e.args[0] ? this.named2(map, e.args[0]) : map,
        c,
        call.args[0] ?? call,
        refOf(args[0]),
      );
    } else if (e.name === "setBootstrapServers" && call.args[0]) {
      s.settings.addOne("bootstrap.servers", call.args[0], "setBootstrapServers", call, c);
    }
  }

  private sourceCall(obj: Obj & { t: "source" }, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj {
    const s = obj.s;
    const call = this.javaCall(e, scope);
    this.builderStep(s, e, call);
    this.properties(s, e, call, args, scope);
    const f = s.fact;
    if (e.name === "setGroupId" && call.args[0]) {
      f.setGroupId = call;
      s.settings.addOne("group.id", call.args[0], "setGroupId", call, scope.conditional);
    } else if (e.name === "setStartingOffsets") {
      const init = e.args[0];
      f.startingOffsets = { call, ...(init?.k === "call" ? { initializer: init.name } : {}) };
    } else if (e.name === "setBounded") {
      f.setBounded = call;
    } else if (e.name === "setTopics") {
      for (const a of call.args) {
        if (a.value.kind === "list") pushAll(f.topics, a.value.items);
        else f.topics.push(a);
      }
    }
    return obj;
  }

  private sinkCall(obj: Obj & { t: "sink" }, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj {
    const s = obj.s;
    const call = this.javaCall(e, scope);
    this.builderStep(s, e, call);
    this.properties(s, e, call, args, scope);
    if ((e.name === "setDeliveryGuarantee" || e.name === "setDeliverGuarantee") && call.args[0]) {
      s.fact.deliveryGuarantee = call.args[0];
      s.fact.deliveryGuaranteeCall = call;
    } else if (e.name === "setTransactionalIdPrefix") {
      s.fact.setTransactionalIdPrefix = call;
    }
    return obj;
  }

  // ---- Table API descriptors

  /** `TableDescriptor.forConnector("kafka")`; null (no object to follow) when the connector is not a literal. */
  private newDescriptor(e: CallExpr, scope: Scope): Obj | null {
    const connector = e.args[0] ? scope.values.of(e.args[0]).value : undefined;
    if (connector?.kind !== "string") return null;
    const fact: TableDescriptorFact = {
      file: this.file,
      language: this.language,
      range: this.index.rangeOf(e.target?.start ?? e.start, e.end),
      connector: connector.value.trim().toLowerCase(),
      options: [],
      open: false,
      names: [],
      read: false,
      written: false,
      chainInsertion: { at: this.index.positionAt(e.end), prefix: "." },
    };
    const s: DescriptorState = { fact, conditional: scope.conditional, builderEnd: e.end, built: false, used: false };
    this.descriptors.push(s);
    return { t: "descriptor", s };
  }

  /**
   * `new Kafka()` of the legacy descriptor API (`org.apache.flink.table.descriptors.Kafka`, PyFlink's
   * `pyflink.table.descriptors.Kafka`, Flink 1.13 and older): its calls are the table's `connector.*` keys.
   */
  private newLegacyDescriptor(e: { start: number; end: number }, scope: Scope): Obj {
    const fact: TableDescriptorFact = {
      file: this.file,
      language: this.language,
      range: this.index.rangeOf(e.start, e.end),
      connector: "kafka",
      legacy: true,
      options: [],
      open: false,
      names: [],
      read: false,
      written: false,
    };
    const s: DescriptorState = {
      fact,
      conditional: scope.conditional,
      builderEnd: e.end,
      built: false,
      used: false,
      legacy: true,
    };
    this.descriptors.push(s);
    return { t: "descriptor", s };
  }

  /** A call on a legacy `Kafka()` descriptor, or on the table descriptor `connect(…)` made of it. */
  private legacyDescriptorCall(obj: Obj & { t: "descriptor" }, e: CallExpr, scope: Scope): Obj | undefined {
    const s = obj.s;
    const f = s.fact;
    if (s.connected) {
      const name = e.args[0] ? this.tableName(e.args[0], scope) : undefined;
      if (LEGACY_REGISTRATIONS.test(e.name)) {
        s.used = true;
        if (name && !f.names.some((n) => n.name === name.name)) f.names.push(name);
        if (/Sink/.test(e.name)) f.written = true;
        return undefined;
      }
      return LEGACY_TABLE_STEPS.test(e.name) ? obj : undefined;
    }
    const key = (k: string, valueExpr?: Expr, value?: string): void => {
      const range = this.index.rangeOf(e.nameStart, e.nameEnd);
      const v = valueExpr ? this.optionValue(valueExpr, scope) : undefined;
      const known = value ?? v?.value;
      f.options.push({
        key: k,
        ...(known !== undefined && !scope.conditional ? { value: known } : {}),
        keyRange: range,
        valueRange: v?.range ?? range,
        valueText: valueExpr ? this.text.slice(valueExpr.start, valueExpr.end) : e.name,
        exact: false,
        conditional: scope.conditional,
      });
      if (known === undefined) f.open = true;
    };
    const start = LEGACY_STARTUP_MODES[e.name];
    if (e.name === "version" && e.args.length === 1) key("connector.version", e.args[0]);
    else if (e.name === "topic" && e.args.length === 1) key("connector.topic", e.args[0]);
    else if (start !== undefined) key("connector.startup-mode", undefined, start);
    else if (e.name === "property" && e.args.length === 2) {
      const k = this.optionValue(e.args[0], scope);
      if (k.value === undefined || !k.string) f.open = true;
      else key(`connector.properties.${k.value}`, e.args[1]);
    } else f.open = true;
    return obj;
  }

  private descriptorCall(
    obj: Obj & { t: "descriptor" },
    e: CallExpr,
    args: (Obj | undefined)[],
    scope: Scope,
  ): Obj | undefined {
    const s = obj.s;
    const f = s.fact;
    if (s.legacy) return this.legacyDescriptorCall(obj, e, scope);
    if (s.built) {
      // What the built descriptor answers (`getOptions()`, `toBuilder()`) changes nothing of it.
      if (e.name !== "build") return undefined;
    } else if (e.name === "option" || e.name === "format") {
      const option = this.descriptorOption(e, args, scope, s.conditional);
      if (option) f.options.push(option);
      if (!option || option.value === undefined) f.open = true;
    } else if (e.name !== "build" && !DESCRIPTOR_STEPS.test(e.name)) {
      // A builder call the reader does not know may set options.
      f.open = true;
      return undefined;
    }
    if (e.name === "build") {
      s.built = true;
      if (f.chainInsertion)
        f.chainInsertion = {
          at: this.index.positionAt(s.builderEnd),
          prefix: chainPrefix(this.layout, e.dot ?? s.dot, s.builderEnd),
        };
      return obj;
    }
    s.builderEnd = e.end;
    s.dot = e.dot;
    f.chainInsertion = { at: this.index.positionAt(e.end), prefix: chainPrefix(this.layout, e.dot, e.end) };
    return obj;
  }

  /**
   * `.option(key, value)` or `.format(…)`: `.format("json")` and `.format(FormatDescriptor.forFormat("json")…)` set
   * `format`; `.format(KafkaConnectorOptions.KEY_FORMAT, …)` (PyFlink: the option second) sets that option. An option
   * set on a path the descriptor does not always take has no known value. Undefined when the key is not known.
   */
  private descriptorOption(
    e: CallExpr,
    args: (Obj | undefined)[],
    scope: Scope,
    madeConditionally: boolean,
  ): TableDescriptorOption | undefined {
    let keyExpr: Expr | undefined;
    let valueExpr: Expr | undefined;
    if (e.name === "option") {
      if (e.args.length !== 2) return undefined;
      [keyExpr, valueExpr] = e.args;
    } else {
      if (e.args.length < 1 || e.args.length > 2) return undefined;
      const python = this.language === "python";
      const formatAt = e.args.length === 1 || python ? 0 : 1;
      keyExpr = e.args.length === 2 ? e.args[python ? 1 : 0] : undefined;
      valueExpr = e.args[formatAt];
      const made = args[formatAt];
      if (made?.t === "format") valueExpr = made.format;
      else if (made !== undefined) return undefined;
    }
    const key = keyExpr
      ? this.optionKey(keyExpr, scope)
      : { key: "format", range: this.index.rangeOf(e.nameStart, e.nameEnd), exact: false };
    if (!key || !valueExpr) return undefined;
    const value = this.optionValue(valueExpr, scope);
    const conditional = scope.conditional && !madeConditionally;
    const removeRange = e.target && e.dot !== undefined ? this.removal(e) : undefined;
    return {
      key: key.key,
      ...(value.value !== undefined && !conditional ? { value: value.value } : {}),
      keyRange: key.range,
      valueRange: value.range,
      valueText: this.text.slice(valueExpr.start, valueExpr.end),
      ...(removeRange ? { removeRange } : {}),
      exact: key.exact && value.exact && removeRange !== undefined,
      conditional,
    };
  }

  /** An option key: a string (literal or constant), or a connector option constant. */
  private optionKey(e: Expr, scope: Scope): { key: string; range: Range; exact: boolean } | undefined {
    if (e.k === "field") {
      const owner = dottedName(e.target);
      const key = owner ? tableOptionKey(owner, e.name) : undefined;
      if (key) return { key, range: this.index.rangeOf(e.start, e.end), exact: false };
    }
    const v = this.optionValue(e, scope);
    return v.value !== undefined && v.string ? { key: v.value, range: v.range, exact: v.exact } : undefined;
  }

  /**
   * An option value as the connector reads it: a string, a number or boolean as Flink writes it, a list joined by
   * `;`, an enum constant (`ScanStartupMode.GROUP_OFFSETS` is `group-offsets`). Its range is inside the quotes of a
   * string literal, which is `exact` when its text is its value.
   */
  private optionValue(e: Expr, scope: Scope): { value?: string; range: Range; exact: boolean; string: boolean } {
    const whole = { range: this.index.rangeOf(e.start, e.end), exact: false };
    if (e.k === "field") {
      const owner = dottedName(e.target);
      const named = owner ? tableOptionEnumValue(owner, e.name) : undefined;
      if (named !== undefined) return { ...whole, value: named, string: false };
    }
    const v = scope.values.of(e).value;
    const text = (x: CodeValue): string | undefined =>
      x.kind === "string" ? x.value : x.kind === "number" || x.kind === "bool" ? String(x.value) : undefined;
    if (v.kind === "list") {
      const items = v.items.map((i) => text(i.value));
      if (items.some((i) => i === undefined)) return { ...whole, string: false };
      return { ...whole, value: items.join(";"), string: false };
    }
    const value = text(v);
    if (value === undefined) return { ...whole, string: false };
    if (v.kind !== "string") return { ...whole, value, string: false };
    if (e.k !== "literal" || (e.type !== "string" && e.type !== "text")) return { ...whole, value, string: true };
    const quote = /^[A-Za-z]*("""|'''|"|')/.exec(e.image);
    if (!quote || !e.image.endsWith(quote[1]) || e.image.length < quote[0].length + quote[1].length)
      return { ...whole, value, string: true };
    const from = e.start + quote[0].length;
    const to = e.end - quote[1].length;
    return {
      value,
      range: this.index.rangeOf(from, to),
      exact: e.type === "string" && this.text.slice(from, to) === value,
      string: true,
    };
  }

  /**
   * A call taking a descriptor: registering it under a name (`createTemporaryTable("orders", d)`), reading it
   * (`from(d)`) or writing it (`executeInsert(d)`). Passed anywhere else the reader does not follow (a method of
   * another file), it may get more options there.
   */
  private descriptorUse(e: CallExpr, args: (Obj | undefined)[], simple: string | undefined, scope: Scope): void {
    const own =
      (!e.target || dottedName(e.target) === "this" || (simple !== undefined && this.ownClasses.has(simple))) &&
      this.methods.has(e.name);
    args.forEach((a, i) => {
      if (a?.t !== "descriptor") return;
      const s = a.s;
      if (i === 1 && DESCRIPTOR_REGISTRATIONS.test(e.name)) {
        s.used = true;
        const name = e.args[0] ? this.tableName(e.args[0], scope) : undefined;
        if (name && !s.fact.names.some((n) => n.name === name.name)) s.fact.names.push(name);
      } else if (i === 0 && DESCRIPTOR_READS.test(e.name)) {
        s.used = true;
        s.fact.read = true;
      } else if (i === 0 && DESCRIPTOR_WRITES.test(e.name)) {
        s.used = true;
        s.fact.written = true;
      } else if (!own) s.fact.open = true;
    });
  }

  /** The name a table is registered under: the last part of its path (`catalog.db.orders` is `orders`). */
  private tableName(e: Expr, scope: Scope): { name: string; range: Range } | undefined {
    const v = this.optionValue(e, scope);
    if (v.value === undefined || !v.string) return undefined;
    const dot = v.value.lastIndexOf(".");
    const name = v.value.slice(dot + 1).replace(/^`|`$/g, "");
    if (!/^[\w$]+$/.test(name)) return undefined;
    if (!v.exact) return { name, range: v.range };
    const start = this.index.offsetAt(v.range.start) + dot + 1;
    return { name, range: this.index.rangeOf(start, this.index.offsetAt(v.range.end)) };
  }

  // ---- maps

  private mapCall(obj: Obj & { t: "map" }, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj | undefined {
    const m = obj.m;
    switch (e.name) {
      case "put":
      case "set":
      case "setProperty":
      case "putIfAbsent":
        if (e.args.length === 2) {
          this.pair(m, e.args[0], e.args[1], { start: e.nameStart, end: e.end }, scope);
          const stmt = this.statement;
          if (m.style.kind === "statements" && stmt?.k === "expr" && stmt.expr === e && e.target?.k === "name") {
            m.style = {
              kind: "statements",
              variable: e.target.name,
              method: e.name === "putIfAbsent" || e.name === "set" ? "put" : e.name,
              after: stmt.end,
              lineStart: stmt.start,
            };
          } else if (m.style.kind === "builder") {
            m.style = { kind: "builder", at: e.end, dot: e.dot };
          }
        }
        return m.style.kind === "builder" ? obj : undefined;
      case "putAll":
        if (e.args[0]) this.merge(m, args[0], e.args[0]);
        return m.style.kind === "builder" ? obj : undefined;
      case "remove": {
        const key = e.args[0] && scope.values.of(e.args[0]).value;
        if (key?.kind === "string") m.remove(key.value);
        return undefined;
      }
      case "clear":
        m.entries = [];
        return undefined;
      case "load":
        m.unknown.push(this.loc(e));
        return undefined;
      case "build":
      case "buildOrThrow":
      case "buildKeepingLast":
      // Scala and Kotlin conversions to and from java.util maps keep the entries.
      case "asJava":
      case "asScala":
      case "toMap":
      case "toMutableMap":
      case "toProperties":
      case "toJavaMap":
        return obj;
      case "update":
        // Scala's `m.update(k, v)`; Python's `d.update(other)` merges another dict.
        if (e.args.length === 2) this.pair(m, e.args[0], e.args[1], { start: e.nameStart, end: e.end }, scope);
        else if (e.args.length === 1 && this.language === "python") this.merge(m, args[0], e.args[0]);
        return undefined;
      case "copy":
        return this.language === "python" && e.args.length === 0 ? { t: "map", m: m.copy() } : undefined;
      default:
        return undefined;
    }
  }

  /** The entries of `from` (the value of `expr`) added to `m`; where they are not known, `m` is open there. */
  private merge(m: MapState, from: Obj | undefined, expr: Expr): void {
    if (from?.t === "map") {
      for (const x of from.m.entries) m.add(x);
      pushAll(m.unknown, from.m.unknown);
      if (from.m.opaque) m.unknown.push(this.loc(expr));
    } else {
      const ref = refOf(from);
      m.unknown.push({ ...this.loc(expr), ...(ref ? { ref } : {}) });
    }
  }

  /** Python's `dict(base, **extra, key=value)`: a new dict with the entries of each, in order. */
  private pythonDict(e: CallExpr, scope: Scope): Obj | undefined {
    if (this.language !== "python" || e.target || e.name !== "dict" || this.methods.has("dict") || scope.lookup("dict"))
      return undefined;
    const m = new MapState();
    for (const a of e.args) this.merge(m, this.eval(a, scope), a);
    for (const kw of e.kwargs ?? []) {
      const value = this.eval(kw.value, scope);
      if (kw.name === "**") {
        this.merge(m, value, kw.value);
        continue;
      }
      const key: Expr = {
        k: "literal",
        type: "string",
        image: JSON.stringify(kw.name),
        value: { kind: "string", value: kw.name },
        start: kw.nameStart,
        end: kw.nameStart + kw.name.length,
      };
      this.pair(m, key, kw.value, { start: kw.start, end: kw.end }, scope);
    }
    return { t: "map", m };
  }

  // ---- Beam options

  private optionsCall(obj: Obj & { t: "options" }, e: CallExpr, scope: Scope): Obj | undefined {
    if (e.name === "as" || e.name === "viewAs") {
      if (obj.creation && !obj.creation.asClass) obj.creation.asClass = classArg(e, scope);
      return obj;
    }
    if (e.name === "withValidation" || e.name === "withoutStrictParsing" || e.name === "create") return obj;
    if (/^set[A-Z]/.test(e.name) && e.args.length === 1) {
      this.beamSetter(e, scope, obj.name ?? (e.target ? dottedName(e.target) : undefined));
      return undefined;
    }
    return undefined;
  }

  private beamSetter(e: CallExpr, scope: Scope, target: string | undefined): void {
    const call = this.javaCall(e, scope);
    const option = e.name[3].toLowerCase() + e.name.slice(4);
    this.out.beamOptions.settings.push({ option, value: call.args[0], call, ...(target ? { target } : {}) });
  }

  // ---- DataStream

  private envCall(obj: Obj & { t: "env" }, e: CallExpr, args: (Obj | undefined)[], scope: Scope): Obj | undefined {
    const env = obj.name;
    const name = e.name;
    if (name === "enableCheckpointing") {
      const call = this.javaCall(e, scope);
      this.out.dataStream.checkpointing.push({
        kind: "enableCheckpointing",
        call,
        ...(call.args[0] ? { interval: call.args[0] } : {}),
        ...(call.args[1] ? { mode: call.args[1] } : {}),
        ...(env ? { environment: env } : {}),
        ...(obj.parameterOf ? { parameterOf: obj.parameterOf } : {}),
      });
      return undefined;
    }
    if (name === "getCheckpointConfig")
      return { t: "checkpointConfig", env, ...(obj.parameterOf ? { parameterOf: obj.parameterOf } : {}) };
    if (name === "setStateBackend") {
      const backend = e.args[0];
      const simple = backend?.k === "new" ? backend.type.slice(backend.type.lastIndexOf(".") + 1) : undefined;
      // The legacy backends take the checkpoint directory as their first argument.
      if (simple && /^(RocksDBStateBackend|FsStateBackend)$/.test(simple) && backend?.k === "new" && backend.args[0]) {
        const call = this.javaCall(e, scope);
        this.out.dataStream.checkpointStorage.push({ call, location: scope.values.of(backend.args[0]) });
      }
      return undefined;
    }
    if (name === "setParallelism" || name === "setMaxParallelism") {
      const call = this.javaCall(e, scope);
      if (call.args[0])
        this.out.dataStream.environmentParallelism.push({ environment: env, method: name, value: call.args[0], call });
      return obj;
    }
    if (name === "configure") {
      const conf = args[0];
      if (conf?.t === "conf") {
        conf.s.passed = true;
        if (obj.fact) obj.fact.configurationVariable ??= conf.s.variable;
      }
      return undefined;
    }
    if (ENV_SOURCES.test(name)) {
      const op = this.operator(e, "source", [], scope);
      op.environment = env;
      const src = args[0];
      if (src?.t === "source")
        op.kafkaSource = {
          kind: "kafkaSource",
          variable: src.s.fact.variable,
          range: this.index.rangeOf(e.args[0].start, e.args[0].end),
        };
      else if (src?.t === "legacy")
        op.kafkaSource = {
          kind: "legacyConsumer",
          variable: e.args[0].k === "name" ? e.args[0].name : undefined,
          range: this.index.rangeOf(e.args[0].start, e.args[0].end),
        };
      else if (src?.t === "external")
        op.externalSource = { ref: src.ref, range: this.index.rangeOf(e.args[0].start, e.args[0].end) };
      return { t: "stream", op: op.id, env };
    }
    return undefined;
  }

  private operator(e: CallExpr, role: StreamOperator["role"], inputs: number[], scope: Scope): StreamOperator {
    const op: StreamOperator = {
      id: this.out.dataStream.operators.length,
      call: this.javaCall(e, scope),
      role,
      inputs,
    };
    this.out.dataStream.operators.push(op);
    return op;
  }

  private streamCall(
    obj: Obj & { t: "stream" },
    e: CallExpr,
    args: (Obj | undefined)[],
    scope: Scope,
  ): Obj | undefined {
    const name = e.name;
    const current = obj.op !== undefined ? this.out.dataStream.operators[obj.op] : undefined;
    if (name === "setParallelism" || name === "setMaxParallelism") {
      const call = this.javaCall(e, scope);
      if (current && call.args[0]) {
        if (name === "setParallelism") current.parallelism = { value: call.args[0], call };
        else current.maxParallelism = { value: call.args[0], call };
      }
      return obj;
    }
    if (STREAM_ATTRIBUTES.test(name)) return obj;
    if (name === "getSideOutput") return obj;
    if (/^(get|execute|collect)/.test(name) || name === "iterate") return undefined;
    const inputs = obj.op !== undefined ? [obj.op] : [];
    for (const a of args) if (a?.t === "stream" && a.op !== undefined) inputs.push(a.op);
    const op = this.operator(e, STREAM_SINKS.test(name) ? "sink" : "transformation", inputs, scope);
    const sink = args[0];
    if (sink?.t === "sink")
      op.kafkaSink = {
        kind: "kafkaSink",
        variable: sink.s.fact.variable,
        range: this.index.rangeOf(e.args[0].start, e.args[0].end),
      };
    else if (sink?.t === "legacy" && sink.client.role === "producer") {
      op.kafkaSink = {
        kind: "legacyProducer",
        variable: e.args[0].k === "name" ? e.args[0].name : undefined,
        range: this.index.rangeOf(e.args[0].start, e.args[0].end),
      };
    }
    return { t: "stream", op: op.id, env: obj.env };
  }

  private confCall(obj: Obj & { t: "conf" }, e: CallExpr, scope: Scope): Obj | undefined {
    // `tableEnv.getConfig().getConfiguration()` is the same settings.
    if (e.name === "getConfiguration" && e.args.length === 0) return obj;
    if (!/^(set|setString|setLong|setInteger|setBoolean)$/.test(e.name) || e.args.length !== 2) return undefined;
    const call = this.javaCall(e, scope);
    const keyArg = e.args[0];
    let key: string | undefined;
    if (keyArg.k === "field") {
      const owner = dottedName(keyArg.target);
      key = owner ? flinkOptionKey(owner, keyArg.name) : undefined;
    }
    const v = call.args[0].value;
    if (!key && v.kind === "string") key = v.value;
    if (key) obj.s.entries.push({ key, value: call.args[1], call });
    // Java's `set` returns the configuration, its typed setters return nothing; PyFlink's setters all return it, so
    // calls chain (`.set_string("pipeline.jars", …).set_string("execution.checkpointing.interval", "10s")`).
    return e.name === "set" || this.language === "python" ? obj : undefined;
  }
}

// Classes whose constructor takes the configuration of the jobs they run: environments made directly and a
// MiniCluster's configuration (`new RemoteStreamEnvironment(host, port, conf)`, `new MiniClusterConfiguration(conf, …)`).
const CONFIGURED_BY_CONSTRUCTOR =
  /^(RemoteStreamEnvironment|LocalStreamEnvironment|MiniClusterConfiguration|MiniCluster)$/;

function passConfigurations(args: (Obj | undefined)[]): void {
  for (const a of args) if (a?.t === "conf") a.s.passed = true;
}

/** A Kafka source as the argument of `fromSource` / `addSource`: a KafkaSource, a legacy consumer, another file's. */
function kafkaArgument(obj: Obj | undefined): boolean {
  return obj?.t === "source" || obj?.t === "legacy" || (obj?.t === "external" && /kafka/i.test(obj.ref.member));
}

/** Whether a call with `count` arguments fits these parameters (those with a default may be left out). */
function takes(params: Param[], count: number): boolean {
  if (params.length === count) return true;
  return count < params.length && params.slice(count).every((p) => p.optional);
}

/**
 * What a declared variable holds: the object its initialiser made, else what its type says. A map from another
 * file's method (`Map<String, Object> props = Config.props();`) is read as that method's map plus what is put in
 * later, once the project resolves the reference.
 */
function declared(obj: Obj | undefined, type: string, name: string, at: Location | undefined): Obj | undefined {
  if (obj?.t !== "external") return obj ?? typedObject(type, name);
  const typed = typedObject(type, name);
  if (typed?.t !== "map" || !at) return typed ?? obj;
  typed.m.opaque = false;
  typed.m.unknown.push({ ...at, ref: obj.ref });
  return typed;
}

/** A map built by a Guava builder (`ImmutableMap.builder()`, `new ImmutableMap.Builder<>()`), whose puts end at `at`. */
function builderMap(at: number): Obj {
  const m = new MapState();
  m.style = { kind: "builder", at };
  return { t: "map", m };
}

/** The Kafka source an exported member holds or returns: a built KafkaSource, or a FlinkKafkaConsumer. */
function kafkaSourceOf(obj: Obj | undefined): CodeExport["kafkaSource"] {
  if (obj?.t === "source") return { kind: "kafkaSource", builder: obj.s.fact };
  if (obj?.t === "legacy" && obj.client.role === "consumer") return { kind: "legacyConsumer" };
  return undefined;
}

/** The reference an unreadable argument makes to another file, when it is a call of another file's method. */
function refOf(obj: Obj | undefined): CodeRef | undefined {
  return obj?.t === "external" ? obj.ref : undefined;
}

function classArg(e: CallExpr, scope: Scope): string | undefined {
  const v = e.args[0] && scope.values.of(e.args[0]).value;
  return v?.kind === "class" ? v.name : undefined;
}

/** What a declared type says about a variable whose value is not visible (a parameter, a call's result). */

function typedObject(type: string, name: string, parameter = false): Obj | undefined {
  const simple = type.slice(type.lastIndexOf(".") + 1);
  if (simple === "StreamExecutionEnvironment") return { t: "env", name };
  if (TABLE_ENVIRONMENTS.test(simple)) return { t: "tableEnv" };
  if (STREAM_TYPES.test(simple)) return { t: "stream" };
  if (simple === "Pipeline") return { t: "pipeline" };
  if (/PipelineOptions$/.test(simple)) return { t: "options", name };
  if (MAP_TYPES.test(simple)) {
    // A map whose content comes from outside: entries put into it later are still read.
    const m = new MapState();
    m.opaque = true;
    if (parameter) m.via.push(`parameter ${name}`);
    return { t: "map", m };
  }
  return undefined;
}

const KAFKA_IO_STATIC_IMPORT = /^[ \t]*import\s+static\s+org\.apache\.beam\.sdk\.io\.kafka\.KafkaIO\.(\w+|\*)\s*;/gm;

/** The KafkaIO factory methods the file imports statically (`import static …KafkaIO.read;`, `…KafkaIO.*;`). */
function staticKafkaReads(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(KAFKA_IO_STATIC_IMPORT)) {
    for (const name of m[1] === "*" ? ["read", "readBytes"] : [m[1]]) {
      if (name === "read" || name === "readBytes") names.add(name);
    }
  }
  return names;
}

function flattenMembers(members: Member[]): Member[] {
  return members.flatMap((m) => (m.k === "class" ? flattenMembers(m.members) : [m]));
}

/** The edit adding `import <name>;` when the file has imports and none covers the name. */
function importEdits(layout: Layout, qualified: string): TextEdit[] {
  const pkg = qualified.slice(0, qualified.lastIndexOf("."));
  const imports = [...layout.text.matchAll(/^import\s+([\w.]+(?:\.\*)?)\s*;[^\n]*$/gm)];
  if (imports.some((m) => m[1] === qualified || m[1] === `${pkg}.*`)) return [];
  const last = imports[imports.length - 1];
  if (!last || last.index === undefined) return [];
  const at = layout.index.positionAt(last.index + last[0].length);
  return [{ range: { start: at, end: at }, newText: `${layout.index.eol}import ${qualified};` }];
}
