/**
 * Static values of Java expressions: literals, constants, Kafka/Flink option constants, durations, simple
 * arithmetic. What cannot be known before the program runs is `unknown`.
 */
import type { LineIndex } from "../text";
import type { CodeExpr, CodeValue } from "./facts";
import { dottedName, type Expr } from "./ir";

export interface ValueContext {
  file: string;
  text: string;
  index: LineIndex;
  /** The value a simple name stands for here (a local, a parameter, a constant of the file); undefined if unknown. */
  resolve(name: string): CodeExpr | undefined;
  /** A constant `Class.NAME` of a class declared in this file. */
  resolveQualified(owner: string, name: string): CodeExpr | undefined;
  /** Whether the name is declared here (a local, a parameter, a field): then it is not another file's. */
  bound?(name: string): boolean;
}

const UNKNOWN: CodeValue = { kind: "unknown" };

/** Classes whose `*_CONFIG` constants name Kafka client properties. */
const KAFKA_CONFIG_CLASSES = new Set([
  "ConsumerConfig",
  "ProducerConfig",
  "CommonClientConfigs",
  "SaslConfigs",
  "SslConfigs",
]);

/** Constants whose property name does not follow from the constant's name. */
const KAFKA_KEY_EXCEPTIONS: Record<string, string> = {
  KEY_DESERIALIZER_CLASS_CONFIG: "key.deserializer",
  VALUE_DESERIALIZER_CLASS_CONFIG: "value.deserializer",
  KEY_SERIALIZER_CLASS_CONFIG: "key.serializer",
  VALUE_SERIALIZER_CLASS_CONFIG: "value.serializer",
  TRANSACTION_TIMEOUT_CONFIG: "transaction.timeout.ms",
  RECEIVE_BUFFER_CONFIG: "receive.buffer.bytes",
  SEND_BUFFER_CONFIG: "send.buffer.bytes",
  SASL_JAAS_CONFIG: "sasl.jaas.config",
};

/** `GROUP_ID_CONFIG` is `group.id`, `ENABLE_AUTO_COMMIT_CONFIG` is `enable.auto.commit`. */
export function kafkaKeyOfConstant(name: string): string | undefined {
  if (KAFKA_KEY_EXCEPTIONS[name]) return KAFKA_KEY_EXCEPTIONS[name];
  if (!/^[A-Z][A-Z0-9_]*_CONFIG$/.test(name)) return undefined;
  return name.slice(0, -"_CONFIG".length).toLowerCase().replace(/_/g, ".");
}

/** Flink `ConfigOption` constants used with `Configuration.set`, and the key each stands for. */
const FLINK_OPTIONS: Record<string, string> = {
  "CheckpointingOptions.CHECKPOINTING_INTERVAL": "execution.checkpointing.interval",
  "ExecutionCheckpointingOptions.CHECKPOINTING_INTERVAL": "execution.checkpointing.interval",
  "CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE": "execution.checkpointing.mode",
  "ExecutionCheckpointingOptions.CHECKPOINTING_MODE": "execution.checkpointing.mode",
  "CheckpointingOptions.CHECKPOINTING_TIMEOUT": "execution.checkpointing.timeout",
  "ExecutionCheckpointingOptions.CHECKPOINTING_TIMEOUT": "execution.checkpointing.timeout",
  "CheckpointingOptions.CHECKPOINTS_DIRECTORY": "state.checkpoints.dir",
  "CheckpointingOptions.CHECKPOINT_STORAGE": "state.checkpoint-storage",
  "StateBackendOptions.STATE_BACKEND": "state.backend.type",
  "CoreOptions.DEFAULT_PARALLELISM": "parallelism.default",
  "PipelineOptions.MAX_PARALLELISM": "pipeline.max-parallelism",
  "RestartStrategyOptions.RESTART_STRATEGY": "restart-strategy.type",
  "KafkaSourceOptions.COMMIT_OFFSETS_ON_CHECKPOINT": "commit.offsets.on.checkpoint",
  "KafkaSourceOptions.PARTITION_DISCOVERY_INTERVAL_MS": "partition.discovery.interval.ms",
  "KafkaSourceOptions.CLIENT_ID_PREFIX": "client.id.prefix",
};

export function flinkOptionKey(owner: string, name: string): string | undefined {
  return FLINK_OPTIONS[`${owner.slice(owner.lastIndexOf(".") + 1)}.${name}`];
}

/** Table connector `ConfigOption` constants given to `TableDescriptor.Builder.option`, and their keys. */
const TABLE_OPTIONS: Record<string, string> = {
  "FactoryUtil.FORMAT": "format",
  "FactoryUtil.SINK_PARALLELISM": "sink.parallelism",
  "FactoryUtil.SOURCE_PARALLELISM": "scan.parallelism",
  "KafkaConnectorOptions.KEY_FORMAT": "key.format",
  "KafkaConnectorOptions.VALUE_FORMAT": "value.format",
  "KafkaConnectorOptions.KEY_FIELDS": "key.fields",
  "KafkaConnectorOptions.KEY_FIELDS_PREFIX": "key.fields-prefix",
  "KafkaConnectorOptions.VALUE_FIELDS_INCLUDE": "value.fields-include",
  "KafkaConnectorOptions.SINK_PARALLELISM": "sink.parallelism",
  "KafkaConnectorOptions.SCAN_PARALLELISM": "scan.parallelism",
  "KafkaConnectorOptions.TOPIC": "topic",
  "KafkaConnectorOptions.TOPIC_PATTERN": "topic-pattern",
  "KafkaConnectorOptions.PROPS_BOOTSTRAP_SERVERS": "properties.bootstrap.servers",
  "KafkaConnectorOptions.PROPS_GROUP_ID": "properties.group.id",
  "KafkaConnectorOptions.SCAN_STARTUP_MODE": "scan.startup.mode",
  "KafkaConnectorOptions.SCAN_BOUNDED_MODE": "scan.bounded.mode",
  "KafkaConnectorOptions.SCAN_STARTUP_SPECIFIC_OFFSETS": "scan.startup.specific-offsets",
  "KafkaConnectorOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS": "scan.bounded.specific-offsets",
  "KafkaConnectorOptions.SCAN_STARTUP_TIMESTAMP_MILLIS": "scan.startup.timestamp-millis",
  "KafkaConnectorOptions.SCAN_BOUNDED_TIMESTAMP_MILLIS": "scan.bounded.timestamp-millis",
  "KafkaConnectorOptions.SCAN_TOPIC_PARTITION_DISCOVERY": "scan.topic-partition-discovery.interval",
  "KafkaConnectorOptions.SINK_PARTITIONER": "sink.partitioner",
  "KafkaConnectorOptions.SINK_BUFFER_FLUSH_MAX_ROWS": "sink.buffer-flush.max-rows",
  "KafkaConnectorOptions.SINK_BUFFER_FLUSH_INTERVAL": "sink.buffer-flush.interval",
  "KafkaConnectorOptions.SINK_SEMANTIC": "sink.semantic",
  "KafkaConnectorOptions.DELIVERY_GUARANTEE": "sink.delivery-guarantee",
  "KafkaConnectorOptions.TRANSACTIONAL_ID_PREFIX": "sink.transactional-id-prefix",
  "KafkaConnectorOptions.TRANSACTION_NAMING_STRATEGY": "sink.transaction-naming-strategy",
};

/** The key of a table connector option constant (`KafkaConnectorOptions.PROPS_GROUP_ID` is `properties.group.id`). */
export function tableOptionKey(owner: string, name: string): string | undefined {
  return TABLE_OPTIONS[`${owner.slice(owner.lastIndexOf(".") + 1)}.${name}`];
}

/** Enums of table options whose string form is their described value (`GROUP_OFFSETS` is `group-offsets`). */
const DESCRIBED_ENUMS = new Set(["ScanStartupMode", "ScanBoundedMode", "DeliveryGuarantee"]);

/** A table option value written as an enum constant (`ScanStartupMode.LATEST_OFFSET`), as Flink writes it. */
export function tableOptionEnumValue(owner: string, name: string): string | undefined {
  const simple = owner.slice(owner.lastIndexOf(".") + 1);
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) return undefined;
  if (DESCRIBED_ENUMS.has(simple)) return name.toLowerCase().replaceAll("_", "-");
  return simple === "ValueFieldsStrategy" ? name : undefined;
}

/** Enums whose constants are read as their name (`DeliveryGuarantee.EXACTLY_ONCE` is "EXACTLY_ONCE"). */
const ENUMS = new Set([
  "DeliveryGuarantee",
  "CheckpointingMode",
  "OffsetResetStrategy",
  "Semantic",
  "ExternalizedCheckpointCleanup",
  "ExternalizedCheckpointRetention",
  "TimeCharacteristic",
  "RuntimeExecutionMode",
]);

const MILLIS: Record<string, number> = {
  ofMillis: 1,
  milliseconds: 1,
  ofSeconds: 1000,
  seconds: 1000,
  ofMinutes: 60_000,
  minutes: 60_000,
  ofHours: 3_600_000,
  hours: 3_600_000,
  ofDays: 86_400_000,
  days: 86_400_000,
};

const TIME_UNITS: Record<string, number> = {
  MILLISECONDS: 1,
  SECONDS: 1000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
};

export function parseNumber(image: string): number | undefined {
  const s = image.replace(/_/g, "");
  if (/^0[xX][0-9a-fA-F]+[lL]?$/.test(s)) return Number.parseInt(s.replace(/[lL]$/, ""), 16);
  if (/^0[bB][01]+[lL]?$/.test(s)) return Number.parseInt(s.slice(2).replace(/[lL]$/, ""), 2);
  const n = Number(s.replace(/[lLfFdD]$/, ""));
  return Number.isFinite(n) ? n : undefined;
}

/** The content of a string literal or text block, escapes decoded. */
export function stringContent(image: string): string {
  if (image.startsWith('"""')) {
    const body = image.slice(3, image.endsWith('"""') ? -3 : undefined).replace(/^[ \t]*\r?\n/, "");
    const lines = body.split(/\r?\n/);
    const indent = lines
      .filter((l) => l.trim())
      .reduce((least, l) => Math.min(least, /^[ \t]*/.exec(l)?.[0].length ?? 0), Number.POSITIVE_INFINITY);
    return decodeEscapes(lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n"));
  }
  return decodeEscapes(image.slice(1, image.length > 1 && image.endsWith(image[0]) ? -1 : undefined));
}

function decodeEscapes(s: string): string {
  return s.replace(/\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (_, c: string) => {
    if (c[0] === "u") return String.fromCharCode(Number.parseInt(c.replace(/^u+/, ""), 16));
    if (/^[0-7]/.test(c)) return String.fromCharCode(Number.parseInt(c, 8));
    return ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", s: " " } as Record<string, string>)[c] ?? c;
  });
}

export class Values {
  constructor(private readonly ctx: ValueContext) {}

  expr(e: Expr, value: CodeValue, origin?: CodeExpr): CodeExpr {
    const out: CodeExpr = {
      file: this.ctx.file,
      range: this.ctx.index.rangeOf(e.start, e.end),
      raw: this.ctx.text.slice(e.start, e.end),
      value,
    };
    if (origin) out.origin = origin;
    return out;
  }

  /** The static value of an expression. */
  of(e: Expr): CodeExpr {
    switch (e.k) {
      case "literal":
        return this.expr(e, e.value ?? literalValue(e.type, e.image));
      case "name": {
        const origin = this.ctx.resolve(e.name);
        if (origin) return this.expr(e, origin.value, origin);
        const key = kafkaKeyOfConstant(e.name);
        if (key) return this.expr(e, { kind: "string", value: key });
        return this.expr(
          e,
          this.ctx.bound?.(e.name) ? UNKNOWN : { kind: "unknown", ref: { owner: "", member: e.name } },
        );
      }
      case "field":
        return this.field(e);
      case "call":
        return this.expr(e, this.call(e));
      case "classLit":
        return this.expr(e, { kind: "class", name: e.type.slice(e.type.lastIndexOf(".") + 1) });
      case "array":
        return this.expr(e, { kind: "list", items: e.items.map((i) => this.of(i)) });
      case "cast":
        return { ...this.of(e.expr), ...this.location(e) };
      case "unary": {
        const v = this.of(e.operand).value;
        if (e.op === "-" && v.kind === "number") return this.expr(e, { kind: "number", value: -v.value });
        if (e.op === "+" && v.kind === "number") return this.expr(e, v);
        if (e.op === "!" && v.kind === "bool") return this.expr(e, { kind: "bool", value: !v.value });
        return this.expr(e, UNKNOWN);
      }
      case "binary":
        return this.expr(e, binaryValue(e.op, this.of(e.left).value, this.of(e.right).value));
      default:
        return this.expr(e, UNKNOWN);
    }
  }

  private location(e: Expr): Pick<CodeExpr, "range" | "raw"> {
    return { range: this.ctx.index.rangeOf(e.start, e.end), raw: this.ctx.text.slice(e.start, e.end) };
  }

  private field(e: Expr & { k: "field" }): CodeExpr {
    const owner = dottedName(e.target);
    if (owner === "this") return this.of({ k: "name", start: e.start, end: e.end, name: e.name });
    if (owner !== undefined) {
      const simple = owner.slice(owner.lastIndexOf(".") + 1);
      const own = this.ctx.resolveQualified(simple, e.name);
      if (own) return this.expr(e, own.value, own);
      if (KAFKA_CONFIG_CLASSES.has(simple)) {
        const key =
          kafkaKeyOfConstant(e.name) ??
          (/^[A-Z_]+$/.test(e.name) ? e.name.toLowerCase().replace(/_/g, ".") : undefined);
        if (key) return this.expr(e, { kind: "string", value: key });
      }
      if (simple === "Boolean" && (e.name === "TRUE" || e.name === "FALSE")) {
        return this.expr(e, { kind: "bool", value: e.name === "TRUE" });
      }
      if (ENUMS.has(simple)) return this.expr(e, { kind: "string", value: e.name });
      const limits: Record<string, number> = { MAX_VALUE: Number.MAX_SAFE_INTEGER };
      if ((simple === "Long" || simple === "Integer") && limits[e.name])
        return this.expr(e, { kind: "number", value: limits[e.name] });
      // A constant of another class of the project (`Config.GROUP_ID`): resolved when the project is put together.
      if (/^[A-Za-z]/.test(simple)) return this.expr(e, { kind: "unknown", ref: { owner: simple, member: e.name } });
    }
    return this.expr(e, UNKNOWN);
  }

  private call(e: Expr & { k: "call" }): CodeValue {
    const owner = e.target ? dottedName(e.target) : undefined;
    const simple = owner?.slice(owner.lastIndexOf(".") + 1);
    const arg = (i: number) => (e.args[i] ? this.of(e.args[i]).value : UNKNOWN);
    if ((simple === "Duration" || simple === "Time") && MILLIS[e.name] !== undefined) {
      const n = arg(0);
      return n.kind === "number" ? { kind: "number", value: n.value * MILLIS[e.name] } : UNKNOWN;
    }
    if (owner?.startsWith("TimeUnit.") && e.name === "toMillis") {
      const factor = TIME_UNITS[owner.slice("TimeUnit.".length)];
      const n = arg(0);
      return factor !== undefined && n.kind === "number" ? { kind: "number", value: n.value * factor } : UNKNOWN;
    }
    if (e.name === "toMillis" && e.args.length === 0 && e.target) return this.of(e.target).value;
    if (simple === "Boolean" && (e.name === "valueOf" || e.name === "parseBoolean")) {
      const v = arg(0);
      if (v.kind === "bool") return v;
      return v.kind === "string" ? { kind: "bool", value: v.value.toLowerCase() === "true" } : UNKNOWN;
    }
    if ((simple === "Long" || simple === "Integer") && /^(valueOf|parseLong|parseInt)$/.test(e.name)) {
      const v = arg(0);
      if (v.kind === "number") return v;
      const n = v.kind === "string" ? parseNumber(v.value.trim()) : undefined;
      return n === undefined ? UNKNOWN : { kind: "number", value: n };
    }
    if (
      (simple === "String" && e.name === "valueOf") ||
      (e.name === "toString" && (simple === "Boolean" || simple === "Long" || simple === "Integer"))
    ) {
      const v = arg(0);
      if (v.kind === "string") return v;
      if (v.kind === "bool" || v.kind === "number") return { kind: "string", value: String(v.value) };
      return UNKNOWN;
    }
    if (e.name === "key" && e.args.length === 0 && e.target?.k === "field") {
      const target = dottedName(e.target.target);
      const key = target && (flinkOptionKey(target, e.target.name) ?? tableOptionKey(target, e.target.name));
      return key ? { kind: "string", value: key } : UNKNOWN;
    }
    if (
      /^(asList|of|singletonList|newArrayList|copyOf)$/.test(e.name) &&
      /^(Arrays|List|ImmutableList|Collections|Lists|Set|ImmutableSet)$/.test(simple ?? "")
    ) {
      return { kind: "list", items: e.args.map((a) => this.of(a)) };
    }
    return UNKNOWN;
  }
}

function literalValue(type: string, image: string): CodeValue {
  switch (type) {
    case "string":
    case "text":
    case "char":
      return { kind: "string", value: stringContent(image) };
    case "bool":
      return { kind: "bool", value: image === "true" };
    case "number": {
      const n = parseNumber(image);
      return n === undefined ? UNKNOWN : { kind: "number", value: n };
    }
    default:
      return UNKNOWN;
  }
}

function binaryValue(op: string, a: CodeValue, b: CodeValue): CodeValue {
  if (op === "+" && (a.kind === "string" || b.kind === "string")) {
    const text = (v: CodeValue) =>
      v.kind === "string" ? v.value : v.kind === "number" || v.kind === "bool" ? String(v.value) : undefined;
    const x = text(a);
    const y = text(b);
    return x !== undefined && y !== undefined ? { kind: "string", value: x + y } : UNKNOWN;
  }
  if (a.kind !== "number" || b.kind !== "number") return UNKNOWN;
  switch (op) {
    case "+":
      return { kind: "number", value: a.value + b.value };
    case "-":
      return { kind: "number", value: a.value - b.value };
    case "*":
      return { kind: "number", value: a.value * b.value };
    case "/":
      return b.value === 0 ? UNKNOWN : { kind: "number", value: Math.trunc(a.value / b.value) };
    default:
      return UNKNOWN;
  }
}
