/**
 * What the Java reader extracts from job code: Beam KafkaIO reads and pipeline options (BFL4xx), Flink DataStream
 * environments, Kafka sources and sinks and the operator chain (BFL5xx), and the Beam command-line flags written in
 * code or in launch files (`--checkpointingInterval=60000`).
 *
 * Every fact carries its file and exact source range. Values are read statically: literals, constants of the same
 * file, `ConsumerConfig.*_CONFIG` names, local variables and fields, maps built in a helper method of the same
 * class. Anything only the running program knows is `{ kind: "unknown" }`, and rules must treat it as "could be
 * anything" (no report, or info), never as absent.
 *
 * Ranges are LSP ranges (0-based lines, UTF-16 columns). Fix data is given as positions plus the indentation and
 * line-break style of the surrounding code, with small builders at the end of this file.
 */
import type { Location } from "../findings";
import type { Position, Range, TextEdit } from "../text";
import type { CodeLiteral } from "./render";

// ---------------------------------------------------------------------------------------------
// Values and calls

/**
 * A statically known value.
 * - `bool`: `true`, `Boolean.TRUE`, `Boolean.valueOf("true")`, `Boolean.parseBoolean("true")`. A string literal
 *   `"true"` stays a `string` (Beam's own checks do not see a String "true", the Kafka client does): use
 *   {@link truthOf} to read either as a boolean.
 * - `string`: a string literal, a `static final String` constant of the file, a `ConsumerConfig.*_CONFIG` /
 *   `ProducerConfig.*_CONFIG` name (as the Kafka key it stands for), an enum constant written as `Type.NAME`
 *   (`DeliveryGuarantee.EXACTLY_ONCE` is the string `"EXACTLY_ONCE"`).
 * - `number`: integer and floating literals (`60_000L`, `1e3`), numeric constants, products of known numbers
 *   (`60 * 1000`), `Duration.ofSeconds(30).toMillis()`, `TimeUnit.MINUTES.toMillis(1)`, `Time.seconds(10)`
 *   (as milliseconds).
 * - `class`: a class literal, `FlinkRunner.class` is `{ kind: "class", name: "FlinkRunner" }` (simple name).
 * - `list`: `Arrays.asList(…)`, `List.of(…)`, `ImmutableList.of(…)`, `Collections.singletonList(…)`, array
 *   initializers; each item with its own range.
 * - `unknown`: anything computed at run time (a method parameter, `options.getX()`, `System.getenv`, a field
 *   assigned in several places, string concatenation with unknown parts).
 */
export type CodeValue =
  | { kind: "bool"; value: boolean }
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "class"; name: string }
  | { kind: "list"; items: CodeExpr[] }
  /** `ref`: the value is a constant or a call of another file of the project, resolved across files (project.ts). */
  | { kind: "unknown"; ref?: CodeRef };

/**
 * A name this file uses that another file of the project may define: `Config.GROUP_ID`, `KafkaConfig.build(opts)`,
 * a Kotlin top-level `const val`, a Python name imported from a module (`owner` is then the module, or "").
 */
export interface CodeRef {
  owner: string;
  member: string;
}

/** What a file offers other files: a constant's value, or the map a method or a field holds (by class and name). */
export interface CodeExport {
  /** The class or object (Java, Scala, Kotlin), or the Python module name; "" for Kotlin top-level declarations. */
  owner: string;
  member: string;
  file: string;
  value?: CodeExpr;
  map?: KafkaSettings;
  /** A method or field that returns a Kafka source: a KafkaSource (with the builder that made it) or a FlinkKafkaConsumer. */
  kafkaSource?: { kind: "kafkaSource" | "legacyConsumer"; builder?: KafkaSourceBuilder };
}

/** An expression as written in the file, with its static value. */
export interface CodeExpr extends Location {
  /** The value, as far as it can be known before the program runs. */
  value: CodeValue;
  /** The source text of the expression (`"true"` with its quotes, `Boolean.TRUE`, `GROUP_ID`). */
  raw: string;
  /**
   * When `raw` is a name (a constant, a local variable, a field), the expression the name was initialised with,
   * possibly in another part of the file. A fix that changes the value edits the innermost `origin` that is a
   * literal; the name itself is left alone.
   */
  origin?: CodeExpr;
}

/** One method call of a chain or a statement: `.commitOffsetsInFinalize()`, `env.enableCheckpointing(60_000)`. */
export interface CodeCall extends Location {
  /** The method name. `range` (from Location) covers the name only: where findings point. */
  method: string;
  /** From the method name to the closing parenthesis (`setParallelism(1)`). */
  callRange: Range;
  /**
   * What deleting this call removes: from the end of the expression it is called on to its closing parenthesis,
   * so `x.map(f)\n    .setParallelism(1);` becomes `x.map(f);`. For a call on a plain variable that is a whole
   * statement (`op.setParallelism(1);`, where `op;` would not compile) the whole statement, and its line when
   * nothing else is on it. Undefined for calls without a receiver.
   */
  removeRange?: Range;
  /** The arguments, each with its static value. */
  args: CodeExpr[];
  /**
   * The call only runs on some paths: inside an `if`/`else`, `switch`, loop, `?:` branch, `catch`, or in a lambda
   * (which may run or not). Rules treat a conditional call as "maybe": it silences "missing" findings but does
   * not prove a setting is on.
   */
  conditional: boolean;
  /**
   * The call was written as a property write (Kotlin `options.checkpointingInterval = 60_000L`, Python
   * `options.view_as(StandardOptions).streaming = True`): messages quote it that way (`callText`).
   */
  property?: boolean;
}

/**
 * How a message quotes a call in the language it was written in: `setParallelism(4)` (Java, Scala, Kotlin),
 * `set_parallelism(4)` (Python), `checkpointingInterval = 60_000L` (a property write); `receiver` goes before it.
 */
export function callText(call: CodeCall, receiver?: string): string {
  const python = call.file.endsWith(".py");
  const args = call.args.map((a) => a.raw);
  const head = receiver ? `${receiver}.` : "";
  if (call.property && args.length === 1 && /^set[A-Z]/.test(call.method)) {
    const name = call.method.slice(3);
    const property = python ? pythonName(name) : `${name[0].toLowerCase()}${name.slice(1)}`;
    return `${head}${property} = ${args[0]}`;
  }
  return `${head}${python ? pythonName(call.method) : call.method}(${args.join(", ")})`;
}

/** A call's method as the file writes it (`from_source` in Python, `fromSource` elsewhere), for messages. */
export function methodText(call: CodeCall): string {
  return call.file.endsWith(".py") ? pythonName(call.method) : call.method;
}

function pythonName(javaName: string): string {
  return javaName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** Where a new statement goes: `newText = eol + indent + statement` inserted at `at` (the end of a statement). */
export interface StatementInsertion {
  at: Position;
  indent: string;
  eol: string;
}

/**
 * Where a new argument goes: `newText = prefix + argument` at `at` (just after the last argument, `prefix` `", "`, or a
 * line break + the arguments' indentation when they stand one per line; `""` for an empty argument list).
 */
export interface ArgumentInsertion {
  at: Position;
  prefix: string;
}

/**
 * Where a new call joins a builder chain: `newText = prefix + call` inserted at `at`. `prefix` is `"."` for a chain
 * written on one line, or a line break + the chain's continuation indentation + `"."` for a chain written one call
 * per line. The position is after the last call that still returns the builder (before `.withoutMetadata()`,
 * `.build()`, `.commit()`-like terminal calls), so the inserted call type-checks.
 */
export interface ChainInsertion {
  at: Position;
  prefix: string;
}

// ---------------------------------------------------------------------------------------------
// Kafka client settings (Beam consumer config, KafkaSource / KafkaSink properties, legacy Properties)

/** The call or construct a Kafka setting came from. */
export type KafkaSettingSource =
  | "withConsumerConfigUpdates"
  | "updateConsumerProperties" // deprecated Beam name, same merge
  | "withBootstrapServers" // bootstrap.servers
  | "withReadCommitted" // isolation.level = read_committed
  | "setProperty" // KafkaSource / KafkaSink builders
  | "setProperties" // KafkaSource.setProperties(props)
  | "setKafkaProducerConfig" // KafkaSink.setKafkaProducerConfig(props)
  | "setGroupId" // KafkaSource.setGroupId: group.id
  | "setBootstrapServers" // KafkaSource/KafkaSink: bootstrap.servers
  | "constructorProperties"; // new FlinkKafkaConsumer<>(topic, schema, props)

export interface KafkaSetting {
  /** The Kafka property name, constants mapped (`ConsumerConfig.GROUP_ID_CONFIG` is `group.id`). */
  key: string;
  /**
   * The key as written (a literal or a constant); its `value` is the string key or unknown. Absent for settings
   * implied by a dedicated method (`setGroupId`, `withReadCommitted`, `withBootstrapServers`).
   */
  keyExpr?: CodeExpr;
  /** The value as written. For `withReadCommitted()` a synthetic string value at the method name. */
  value: CodeExpr;
  /** Where the entry is written: the `put(…)`/`setProperty(…)` call, the `Map.of` key, the builder call. */
  location: Location;
  source: KafkaSettingSource;
  /** 0-based index of the contributing builder call among this read's/builder's config calls (merge order). */
  sourceIndex: number;
  /** The builder call that brought the setting in (`withConsumerConfigUpdates` on the chain). */
  sourceCall: Location;
  /**
   * How the value reached the call, for messages and related information: e.g. `["variable props",
   * "method consumerProps()"]`. Empty for a map written inline.
   */
  via: string[];
  /** Set on a path that may not run (an `if` around the `put`, a conditional builder call). */
  conditional: boolean;
}

/**
 * The settings of one Kafka client in the order they apply: later entries override earlier ones with the same key.
 * Use {@link effectiveSetting} to read a key.
 */
/** An unreadable part of a client's settings; `ref` when it names a map of another file (resolved per project). */
export interface UnknownPart extends Location {
  ref?: CodeRef;
  /** The merge position of the config call it came from (as `KafkaSetting.sourceIndex`). */
  sourceIndex?: number;
}

export interface KafkaSettings {
  entries: KafkaSetting[];
  /**
   * Some part could not be read: a map from a parameter or another class, `putAll(other)`, a computed key, a
   * properties file loaded at run time. A key that is not in `entries` may then still be set: "missing" rules
   * (no `group.id`) must stay silent or drop to info.
   */
  hasUnknownParts: boolean;
  /** Why `hasUnknownParts` is set, pointing at the unreadable expression. */
  unknownParts: UnknownPart[];
  /**
   * Builds the edits that add an entry in the style of the existing config (a new `put` line after the last one,
   * a new pair in `ImmutableMap.of(…)`/`Map.of(…)` when that stays within its arity, a `.put(…)` in a builder, a
   * `ConsumerConfig.*_CONFIG` constant when the map uses them, a new entry of a map literal), or a new config call
   * on the chain when there is no editable map, written in the file's language. May include an import edit.
   * Undefined when no edit can be built safely (the map comes from another class).
   */
  insertEntry?(key: string, value: CodeLiteral): TextEdit[] | undefined;
}

// ---------------------------------------------------------------------------------------------
// Beam: KafkaIO reads

export interface BeamKafkaRead {
  file: string;
  language: CodeLanguage;
  /**
   * The API the read is written with: Beam Java's `KafkaIO.read()` (also from Scala and Kotlin), or Beam Python's
   * cross-language `ReadFromKafka(…)`, whose keyword arguments are read as the equivalent KafkaIO calls.
   */
  api: "KafkaIO" | "ReadFromKafka";
  /** `KafkaIO.<String, String>read()` from `KafkaIO` to the closing parenthesis: where findings point. */
  readRange: Range;
  /**
   * The chain the read is written in, from `KafkaIO` to its last call. Calls made later on a variable holding the
   * read (`read = read.commitOffsetsInFinalize();`) are in `calls` but outside this range.
   */
  chainRange: Range;
  /** The variable holding the read, when it is assigned to one. */
  variable?: string;
  /** The class member (method, field, initializer) the read is written in; `undefined` in a snippet. */
  member?: string;
  /** Every call on the read in order, the terminal ones (`withoutMetadata`) included. */
  calls: CodeCall[];
  /** The merged consumer config (withConsumerConfigUpdates, updateConsumerProperties, withBootstrapServers…). */
  consumerConfig: KafkaSettings;
  commitOffsetsInFinalize?: CodeCall;
  withReadCommitted?: CodeCall;
  /** `withStartReadTime(…)`: the start offset is chosen by time, not by committed offsets (BFL403 silent). */
  withStartReadTime?: CodeCall;
  /** `withTopic("t")`, `withTopics(List.of("a", "b"))`: each topic with its literal's range. */
  topics: CodeExpr[];
  /** `withTopicPartitions(…)`: explicit partitions (BFL403 silent). */
  withTopicPartitions?: CodeCall;
  withTopicPattern?: CodeCall;
  /** `withRedistribute()` (conflicts with commitOffsetsInFinalize in some versions). */
  withRedistribute?: CodeCall;
  bootstrapServers?: CodeExpr;
  /** Where `.commitOffsetsInFinalize()` (or another builder call) can be added. */
  chainInsertion: ChainInsertion;
  /** `ReadFromKafka(…)`: where a keyword argument (`commit_offset_in_finalize=True`) can be added. */
  argumentInsertion?: ArgumentInsertion;
}

// ---------------------------------------------------------------------------------------------
// Beam: pipeline options

/**
 * A Beam option set in code: `options.setCheckpointingInterval(60_000L)` is option `checkpointingInterval`.
 * Any `setXxx(…)` on a variable holding options is recorded (option = xxx with a lower-case first letter);
 * `ExperimentalOptions.addExperiment(options, "x")` is option `experiments` with a list value.
 */
export interface BeamOptionSetting {
  option: string;
  value: CodeExpr;
  call: CodeCall;
  /** The options variable the setter is called on (`options`, `flinkOptions`). */
  target?: string;
}

/** Where a Beam flag is written. */
export type BeamArgSource =
  | "javaString" // "--checkpointingInterval=60000" in a string literal of job code in any language (args lists, tests)
  | "launchJson" // .vscode/launch.json "args"
  | "gradle" // Gradle run { args … } / application { … } / tasks JavaExec args
  | "shell" // *.sh scripts (flink run … --checkpointingInterval=…)
  | "makefile" // Makefile recipes (python -m job --runner=FlinkRunner …)
  | "kubernetes" // command / args of a Kubernetes Job, CronJob, Deployment or Pod container
  | "dockerfile" // Dockerfile CMD / ENTRYPOINT
  | "flinkDeployment"; // FlinkDeployment spec.job.args

/** A Beam pipeline flag (`--name=value`, or `--name value` where the launcher splits them). */
export interface BeamArg {
  /**
   * The flag name without dashes, as a Beam Java option name: `checkpointingInterval`, `runner`, `experiments`.
   * Beam Python's snake_case flags are read under the same name (`--checkpointing_interval` is `checkpointingInterval`).
   */
  name: string;
  /** The value as written (`60000`, `FlinkRunner`, `use_deprecated_read`); undefined for a bare flag. */
  value?: string;
  file: string;
  /** The whole flag, `--checkpointingInterval=60000`. */
  range: Range;
  /** The value part only. */
  valueRange?: Range;
  source: BeamArgSource;
}

/** `PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class)` or `.create()`. */
export interface OptionsCreation {
  file: string;
  language: CodeLanguage;
  /** The variable the options are assigned to, when there is one. */
  variable?: string;
  /** The declared type of the variable (`FlinkPipelineOptions`, `PipelineOptions`, a user interface). */
  declaredType?: string;
  /** The class given to `.as(…)`, simple name. */
  asClass?: string;
  /** Built from command-line args (`fromArgs`): flags passed at launch apply. */
  fromArgs: boolean;
  /** The `PipelineOptionsFactory` call, where findings about the options point. */
  range: Range;
  /** After the statement that creates the options (`options.setCheckpointingInterval(60_000L);` goes here). */
  insertion?: StatementInsertion;
  /** Beam Python `PipelineOptions(…)`: where a keyword argument (`checkpointing_interval=60000`) can be added. */
  argumentInsertion?: ArgumentInsertion;
}

export interface BeamOptionsFacts {
  creations: OptionsCreation[];
  /** Setter calls, in source order. */
  settings: BeamOptionSetting[];
  /** Flags written as string literals in the code (`"--runner=FlinkRunner"`). */
  args: BeamArg[];
  /** `Pipeline.create(…)` calls: the file builds a Beam pipeline. */
  pipelines: Location[];
}

// ---------------------------------------------------------------------------------------------
// Flink DataStream

/** `StreamExecutionEnvironment.getExecutionEnvironment(…)` / `createLocalEnvironment…` / `createRemoteEnvironment…`. */
export interface StreamEnvironment {
  file: string;
  language: CodeLanguage;
  /** The variable (or field) the environment is assigned to. */
  variable?: string;
  /** The factory call (`getExecutionEnvironment`), where findings about the environment point. */
  range: Range;
  /** The `Configuration` variable passed to the factory (or to `env.configure(conf)`), if any. */
  configurationVariable?: string;
  /** After the statement creating the environment (`env.enableCheckpointing(60_000);` goes here). */
  insertion?: StatementInsertion;
}

/** Something that sets or may set checkpointing in DataStream code. */
export interface CheckpointingSetting {
  /**
   * - `enableCheckpointing`: `env.enableCheckpointing(interval[, mode])`; `interval` undefined for the deprecated
   *   no-argument form (500 ms).
   * - `checkpointConfig`: `env.getCheckpointConfig().setXxx(…)` (`setCheckpointInterval`, `setCheckpointingMode`,
   *   `setCheckpointTimeout`, …); `method` tells which.
   * - `configuration`: an `execution.checkpointing.*` entry of a `Configuration` passed to the environment
   *   (`conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(1))`, `conf.setString(…)`), or
   *   of a Table API environment's `getConfig()` (and its `getConfiguration()`).
   */
  kind: "enableCheckpointing" | "checkpointConfig" | "configuration";
  call: CodeCall;
  /** The configuration key, for `configuration` settings (`execution.checkpointing.interval`). */
  key?: string;
  /**
   * The interval: a number of milliseconds (`60_000`, `Duration.ofMinutes(1)` and `Time.seconds(60)` converted),
   * a string for `conf.setString("execution.checkpointing.interval", "1 min")` (a Flink duration), or unknown.
   */
  interval?: CodeExpr;
  /** The checkpointing mode argument (`CheckpointingMode.EXACTLY_ONCE` is the string "EXACTLY_ONCE"). */
  mode?: CodeExpr;
  /** The environment variable the call is made on. */
  environment?: string;
  /**
   * The method whose parameter the environment is (`static void configure(StreamExecutionEnvironment env)`), when
   * no code of the same file calls it: the call configures whatever job passes its environment there, if any does.
   */
  parameterOf?: string;
}

/** `Configuration` entries other than checkpointing (parallelism.default, pipeline.max-parallelism …). */
export interface FlinkConfigurationSetting {
  /** The Flink key, option constants mapped (`CoreOptions.DEFAULT_PARALLELISM` is `parallelism.default`). */
  key: string;
  value: CodeExpr;
  call: CodeCall;
  /** The Configuration variable. */
  variable?: string;
  /** The configuration is given to a StreamExecutionEnvironment of the file. */
  passedToEnvironment: boolean;
}

/** Uses of `FlinkKafkaConsumer`, `FlinkKafkaProducer` and the Kafka-version clients (`FlinkKafkaConsumer011`, `FlinkKafkaProducer09` …). */
export interface LegacyKafkaClient {
  file: string;
  language: CodeLanguage;
  /** The class name as written (`FlinkKafkaConsumer011`). */
  className: string;
  role: "consumer" | "producer";
  /** The class name token in `new FlinkKafkaConsumer<>(…)` or in an import. */
  range: Range;
  /** A `new` expression (true) or an import (false). */
  constructed: boolean;
  /** The Properties passed to the constructor. */
  properties: KafkaSettings;
  /** `consumer.setCommitOffsetsOnCheckpoints(…)`. */
  commitOffsetsOnCheckpoints?: CodeCall;
}

/** `KafkaSource.<T>builder()…build()`. */
export interface KafkaSourceBuilder {
  file: string;
  language: CodeLanguage;
  /** `KafkaSource.<String>builder()`, where findings point. */
  range: Range;
  /** The variable holding the built source (or the builder). */
  variable?: string;
  calls: CodeCall[];
  /** setProperty / setProperties / setGroupId / setBootstrapServers in order. */
  properties: KafkaSettings;
  setGroupId?: CodeCall;
  /** `setStartingOffsets(OffsetsInitializer.committedOffsets(…))`: the call and the initializer's method name. */
  startingOffsets?: { call: CodeCall; initializer?: string };
  setBounded?: CodeCall;
  topics: CodeExpr[];
  /** Where `.setGroupId("…")` can be added (before `.build()`). */
  chainInsertion: ChainInsertion;
}

/** `KafkaSink.<T>builder()…build()`. */
export interface KafkaSinkBuilder {
  file: string;
  language: CodeLanguage;
  range: Range;
  variable?: string;
  calls: CodeCall[];
  /** `setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)` (also the older `setDeliverGuarantee`): value "EXACTLY_ONCE". */
  deliveryGuarantee?: CodeExpr;
  deliveryGuaranteeCall?: CodeCall;
  setTransactionalIdPrefix?: CodeCall;
  /** setProperty / setKafkaProducerConfig (transaction.timeout.ms …). */
  properties: KafkaSettings;
  /** Where `.setTransactionalIdPrefix("…")` can be added (before `.build()`). */
  chainInsertion: ChainInsertion;
}

/**
 * One DataStream operator call: a source (`fromSource`, `addSource`, `fromElements`, …), a transformation (`map`,
 * `flatMap`, `filter`, `keyBy`, `window`, `windowAll`, `process`, `union`, `connect`, `reduce`, `aggregate`,
 * `apply`, …) or a sink (`sinkTo`, `addSink`, `print`). Operators form a graph through `inputs`, also across
 * variables: `DataStream<String> s = env.fromSource(…).setParallelism(8); s.flatMap(…).setParallelism(1)` gives
 * flatMap the input fromSource.
 */
export interface StreamOperator {
  /** Index of this operator in the file's `operators` list. */
  id: number;
  call: CodeCall;
  role: "source" | "transformation" | "sink";
  /** Indices of the operators feeding this one (the receiver, and the arguments of `union`/`connect`). */
  inputs: number[];
  /** `.setParallelism(n)` applied to this operator's result. `call.removeRange` deletes it. */
  parallelism?: { value: CodeExpr; call: CodeCall };
  /** `.setMaxParallelism(n)`. */
  maxParallelism?: { value: CodeExpr; call: CodeCall };
  /** For sources: the environment variable the source is created on. */
  environment?: string;
  /**
   * For `fromSource(src, …)` / `addSource(src)`: the variable or expression naming the Kafka source, if any.
   * `builder` is the KafkaSource builder of another file that made it (`KafkaSources.orders()`), resolved across
   * the project's files (project.ts); a builder of the operator's own file is found by `sourceBuilderOf`.
   */
  kafkaSource?: {
    kind: "kafkaSource" | "legacyConsumer";
    variable?: string;
    range: Range;
    builder?: KafkaSourceBuilder;
  };
  /**
   * For `fromSource(src, …)` / `addSource(src)` whose source comes from another file of the project (a call or a
   * property of another class, object or module: `KafkaSources.orders(topic)`): the name it is resolved by. When
   * that member returns a Kafka source, project.ts turns this into `kafkaSource`.
   */
  externalSource?: { ref: CodeRef; range: Range };
  /** For `sinkTo(sink)` / `addSink(sink)`: the Kafka sink, if any. */
  kafkaSink?: { kind: "kafkaSink" | "legacyProducer"; variable?: string; range: Range };
}

export interface DataStreamFacts {
  environments: StreamEnvironment[];
  checkpointing: CheckpointingSetting[];
  /**
   * Where the code chooses durable checkpoint storage: `env.setStateBackend(new RocksDBStateBackend(uri))` or
   * `new FsStateBackend(uri)`, `getCheckpointConfig().setCheckpointStorage(uri)` (also a `FileSystemCheckpointStorage`),
   * a `Configuration` given to the environment with `state.checkpoints.dir` / `execution.checkpointing.dir`.
   */
  checkpointStorage: { call: CodeCall; location?: CodeExpr }[];
  configuration: FlinkConfigurationSetting[];
  /** `env.setParallelism(n)` / `env.setMaxParallelism(n)`. */
  environmentParallelism: {
    environment?: string;
    method: "setParallelism" | "setMaxParallelism";
    value: CodeExpr;
    call: CodeCall;
  }[];
  legacyKafka: LegacyKafkaClient[];
  kafkaSources: KafkaSourceBuilder[];
  kafkaSinks: KafkaSinkBuilder[];
  operators: StreamOperator[];
}

// ---------------------------------------------------------------------------------------------
// Flink Table API

/**
 * One option of a `TableDescriptor`: `.option("topic", "orders")`, `.option(KafkaConnectorOptions.TOPIC, …)`, and
 * `.format("json")` (the `format` option).
 */
export interface TableDescriptorOption {
  /** The option key (an option constant mapped: `KafkaConnectorOptions.PROPS_GROUP_ID` is `properties.group.id`). */
  key: string;
  /** The value as the connector reads it (`ScanStartupMode.GROUP_OFFSETS` is `group-offsets`); undefined when unknown. */
  value?: string;
  /** The key as written: inside the string literal's quotes, the option constant, or the method name `format`. */
  keyRange: Range;
  /** The value as written: inside the string literal's quotes, or the whole expression. */
  valueRange: Range;
  /** The value's source text, for messages about a value only the running program knows. */
  valueText: string;
  /** What deleting the option removes (the `.option(…)` call from the end of its receiver). */
  removeRange?: Range;
  /** Key and value are string literals written as their value (no escapes): edits may rewrite their text. */
  exact: boolean;
  /** The call only runs on some paths. */
  conditional: boolean;
}

/**
 * `TableDescriptor.forConnector("kafka")…build()` (PyFlink `for_connector`), registered or used by the file's code:
 * `createTemporaryTable("orders", d)` / `createTable`, read by `from(d)` (`from_descriptor`), written by
 * `executeInsert(d)`, `insertInto(d)` or `addInsert(d, table)`.
 */
export interface TableDescriptorFact {
  file: string;
  language: CodeLanguage;
  /** `TableDescriptor.forConnector("kafka")`: where findings about a table with no name point. */
  range: Range;
  /** The connector, lower-cased. */
  connector: string;
  /**
   * A table of the legacy descriptor API of Flink 1.13 and older (`tableEnv.connect(new Kafka().topic(…))…
   * .createTemporaryTable("orders")`): its options are the `connector.*` keys those calls stand for.
   */
  legacy?: true;
  options: TableDescriptorOption[];
  /**
   * Some option could not be read (a key or value that is not a literal or constant, an option set on some paths
   * only, a builder call or a function the reader does not follow): more options may be set.
   */
  open: boolean;
  /** The names it is registered under, each the last part of its path, where the name literal's text is. */
  names: { name: string; range: Range }[];
  /** Code reads it without a name (`tableEnv.from(descriptor)`). */
  read: boolean;
  /** Code writes it without a name (`table.executeInsert(descriptor)`). */
  written: boolean;
  /** Where `.option("k", "v")` joins the builder (before `.build()`), when the options are complete. */
  chainInsertion?: ChainInsertion;
}

// ---------------------------------------------------------------------------------------------
// Per file and per project

/**
 * A class member (or the snippet) that java-parser could not read. Not a finding: Java files are often
 * half-typed in the editor and snippets are first-class, and the compiler reports syntax errors better than a
 * linter can, so BFL002 does not fire for Java files. The member simply contributes no facts until it parses again.
 */
export interface CodeParseProblem {
  /** The whole unit that did not parse (a class member, a statement of a snippet). */
  range: Range;
  /** `Java syntax error at line 12, column 30: expected ')' but found ';'` (1-based, in file coordinates). */
  message: string;
}

/** The languages job code is read in. */
export type CodeLanguage = "java" | "scala" | "kotlin" | "python";

/** What one source file of job code holds, in any language: the same facts whatever the language. */
export interface JobCode {
  file: string;
  language: CodeLanguage;
  /**
   * Test code (`src/test/…`, `test_*.py`, `*Test.kt` …): it runs jobs on mini clusters or the DirectRunner for a few
   * seconds, so checkpointing and parallelism there say nothing about production; deployment rules leave it alone.
   */
  isTest: boolean;
  /**
   * How the file was read: a compilation unit split into class members, or a pasted snippet parsed as block
   * statements (split into statements, or members pasted without their class, when the whole does not parse) or
   * as one expression (`pipeline.apply(…)` without a semicolon).
   */
  shape: "compilationUnit" | "statements" | "expression" | "script";
  kafkaReads: BeamKafkaRead[];
  beamOptions: BeamOptionsFacts;
  dataStream: DataStreamFacts;
  parseProblems: CodeParseProblem[];
  /** Constants and maps other files may use (`Config.GROUP_ID`, `Config.kafkaProps()`). */
  exports: CodeExport[];
  /** Table API tables the code defines with `TableDescriptor` (read as SQL tables: `documents/sql/descriptors.ts`). */
  tableDescriptors: TableDescriptorFact[];
}

/** The job-code facts of a project, merged from its files in every language (ProjectModel.code). */
export interface ProjectJobCode {
  files: JobCode[];
  kafkaReads: BeamKafkaRead[];
  optionsCreations: OptionsCreation[];
  optionSettings: BeamOptionSetting[];
  /** Beam flags from every source: Java strings, launch.json, Gradle, shell scripts, Dockerfiles, FlinkDeployments. */
  beamArgs: BeamArg[];
  pipelines: Location[];
  environments: StreamEnvironment[];
  checkpointing: CheckpointingSetting[];
  legacyKafka: LegacyKafkaClient[];
  kafkaSources: KafkaSourceBuilder[];
  kafkaSinks: KafkaSinkBuilder[];
}

// ---------------------------------------------------------------------------------------------
// Small helpers for rules

/**
 * A value read as a boolean the way the Kafka client reads it: `true`, `Boolean.TRUE` and the string `"true"` in
 * any case are true; `false`/"false" are false; anything else (unknown, other strings) is undefined.
 */
export function truthOf(value: CodeValue): boolean | undefined {
  if (value.kind === "bool") return value.value;
  if (value.kind === "string") {
    const v = value.value.trim().toLowerCase();
    return v === "true" ? true : v === "false" ? false : undefined;
  }
  return undefined;
}

/** The setting that wins for `key` (the last one), or undefined when the key is not set in readable code. */
export function effectiveSetting(settings: KafkaSettings, key: string): KafkaSetting | undefined {
  for (let i = settings.entries.length - 1; i >= 0; i--)
    if (settings.entries[i].key === key) return settings.entries[i];
  return undefined;
}

export function insertStatement(where: StatementInsertion, statement: string): TextEdit {
  return { range: { start: where.at, end: where.at }, newText: `${where.eol}${where.indent}${statement}` };
}

/** `call` without the leading dot, e.g. `commitOffsetsInFinalize()`. */
export function appendCall(where: ChainInsertion, call: string): TextEdit {
  return { range: { start: where.at, end: where.at }, newText: `${where.prefix}${call}` };
}

/**
 * The edit that writes `to` in place of a boolean value in the same style: `true` → `false`, `"TRUE"` →
 * `"FALSE"`, `Boolean.TRUE` → `Boolean.FALSE`, `Boolean.valueOf("true")` → `Boolean.valueOf("false")`. When the
 * value is a name, the literal it was initialised with is edited. Undefined when no literal can be found.
 */
export function booleanEdit(expr: CodeExpr, to: boolean): TextEdit | undefined {
  let e: CodeExpr = expr;
  while (e.origin) e = e.origin;
  const m = /true|false/i.exec(e.raw);
  if (!m || truthOf(e.value) === undefined) return undefined;
  const word = to ? "true" : "false";
  const cased =
    m[0] === m[0].toUpperCase()
      ? word.toUpperCase()
      : /^[A-Z]/.test(m[0])
        ? word[0].toUpperCase() + word.slice(1)
        : word;
  return { range: e.range, newText: e.raw.slice(0, m.index) + cased + e.raw.slice(m.index + m[0].length) };
}
