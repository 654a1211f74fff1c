/**
 * Flink's value parsers, mirrored: what a configuration value must look like for Flink to accept it as the
 * option's type. Durations follow TimeUtils.parseDuration, memory sizes MemorySize.parse, numbers Java's
 * Integer/Long/Double/Float parsing, booleans and enums Flink's case-insensitive conversion.
 */
import { type OptionInfo, type OptionTypeInfo, typesIn } from "./options";

export interface ParsedDuration {
  millis: number;
  /** False for a bare number, which Flink reads as milliseconds. */
  hasUnit: boolean;
  /** The number as written (digits only). */
  number: string;
  /** The unit as written (trimmed), empty when absent. */
  unit: string;
}

const MILLIS_PER: Record<string, number> = {};
function units(millis: number, ...labels: string[]) {
  for (const l of labels) MILLIS_PER[l] = millis;
}
// Singular-only labels first, then labels Flink also accepts with a trailing `s`.
units(86_400_000, "d", "day", "days");
units(3_600_000, "h", "hour", "hours");
units(60_000, "min", "m", "minute", "minutes");
units(1_000, "s", "sec", "secs", "second", "seconds");
units(1, "ms", "milli", "millis", "millisecond", "milliseconds");
units(0.001, "µs", "micro", "micros", "microsecond", "microseconds");
units(0.000_001, "ns", "nano", "nanos", "nanosecond", "nanoseconds");

/** Java's String.trim: strips every character up to U+0020. */
function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

const LONG_MAX = 9_223_372_036_854_775_807n;

/** Leading digits, then an optional unit label after optional whitespace (Flink's duration and memory syntax). */
function splitNumberUnit(text: string): { number: string; unit: string } | undefined {
  const trimmed = javaTrim(text);
  const m = /^([0-9]*)(.*)$/s.exec(trimmed);
  if (!m || m[1] === "") return undefined;
  return { number: m[1], unit: javaTrim(m[2]).toLowerCase() };
}

export function parseDuration(text: string): ParsedDuration | undefined {
  const parts = splitNumberUnit(text);
  if (!parts || BigInt(parts.number) > LONG_MAX) return undefined;
  const factor = parts.unit === "" ? 1 : MILLIS_PER[parts.unit];
  if (factor === undefined) return undefined;
  return { millis: Number(parts.number) * factor, hasUnit: parts.unit !== "", number: parts.number, unit: parts.unit };
}

const BYTES_PER: Record<string, bigint> = {};
function memoryUnits(bytes: bigint, ...labels: string[]) {
  for (const l of labels) BYTES_PER[l] = bytes;
}
memoryUnits(1n, "b", "bytes");
memoryUnits(1n << 10n, "k", "kb", "kibibytes");
memoryUnits(1n << 20n, "m", "mb", "mebibytes");
memoryUnits(1n << 30n, "g", "gb", "gibibytes");
memoryUnits(1n << 40n, "t", "tb", "tebibytes");

/** Bytes, or undefined when Flink rejects the text (unknown unit, fraction, overflow of a 64-bit count). */
export function parseMemorySize(text: string): { bytes: bigint; hasUnit: boolean } | undefined {
  const parts = splitNumberUnit(text);
  if (!parts) return undefined;
  const factor = parts.unit === "" ? 1n : BYTES_PER[parts.unit];
  if (factor === undefined) return undefined;
  const bytes = BigInt(parts.number) * factor;
  if (bytes > LONG_MAX) return undefined;
  return { bytes, hasUnit: parts.unit !== "" };
}

export function parseBoolean(text: string): boolean | undefined {
  const upper = text.toUpperCase();
  return upper === "TRUE" ? true : upper === "FALSE" ? false : undefined;
}

function parseJavaInteger(text: string, min: bigint, max: bigint): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= min && value <= max ? value : undefined;
}

/** Integer.parseInt: optional sign, decimal digits, 32-bit range; no spaces, no `_`, no decimal point. */
export function parseInteger(text: string): number | undefined {
  const v = parseJavaInteger(text, -(2n ** 31n), 2n ** 31n - 1n);
  return v === undefined ? undefined : Number(v);
}

/** Long.parseLong: as parseInteger with a 64-bit range. */
export function parseLong(text: string): bigint | undefined {
  return parseJavaInteger(text, -(2n ** 63n), 2n ** 63n - 1n);
}

// Java's Double.parseDouble grammar (FloatingDecimal): surrounding whitespace is trimmed, then a signed decimal or
// hexadecimal floating literal with an optional f/F/d/D suffix, or NaN / Infinity.
const DECIMAL = /^[+-]?(NaN|Infinity|(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[fFdD]?))$/;
const HEX = /^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[fFdD]?$/;

export function parseDouble(text: string): number | undefined {
  const t = javaTrim(text);
  if (!DECIMAL.test(t) && !HEX.test(t)) return undefined;
  const body = t.replace(/[fFdD]$/, "");
  if (/NaN$/.test(body)) return Number.NaN;
  if (/Infinity$/.test(body)) return body.startsWith("-") ? -Infinity : Infinity;
  if (HEX.test(t)) return parseHexFloat(body);
  return Number(body);
}

function parseHexFloat(body: string): number {
  const m = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?[0-9]+)$/.exec(body);
  if (!m) return Number.NaN;
  const mantissa = Number.parseInt(`${m[2]}${m[3]}` || "0", 16) / 16 ** m[3].length;
  const value = mantissa * 2 ** Number(m[4]);
  return m[1] === "-" ? -value : value;
}

/** Float.parseFloat accepts the same texts; Flink then rejects values beyond the float range. */
export function parseFloat32(text: string): number | undefined {
  const v = parseDouble(text);
  if (v === undefined) return undefined;
  return Number.isFinite(v) && Math.abs(v) > 3.4028234663852886e38 ? undefined : v;
}

/** The allowed value `text` stands for (Flink compares enum names case-insensitively). */
export function matchEnum(text: string, allowed: readonly string[]): string | undefined {
  const upper = text.toUpperCase();
  return allowed.find((v) => v.toUpperCase() === upper);
}

/** Why `raw` is not a value of this type, or undefined when Flink accepts it. */
export function checkType(t: OptionTypeInfo, raw: string): string | undefined {
  // The legacy reader trims values; YAML scalars carry no surrounding spaces either.
  const text = raw.trim();
  switch (t.type) {
    case "Boolean":
      return parseBoolean(text) === undefined ? "Flink accepts only `true` or `false`" : undefined;
    case "Integer":
      return parseInteger(text) === undefined
        ? "Flink expects a whole number between -2147483648 and 2147483647"
        : undefined;
    case "Long":
      return parseLong(text) === undefined ? "Flink expects a whole number (64-bit)" : undefined;
    case "Double":
      return parseDouble(text) === undefined ? "Flink expects a number such as `0.4`" : undefined;
    case "Float":
      return parseFloat32(text) === undefined ? "Flink expects a number such as `0.4`" : undefined;
    case "Duration":
      return parseDuration(text) === undefined
        ? "Flink expects a whole number with an optional unit, such as `30 s`, `5 min`, `500 ms` or `1 h`"
        : undefined;
    case "MemorySize":
      return parseMemorySize(text) === undefined
        ? "Flink expects a whole number with an optional unit, such as `1024 mb`, `1600m` or `2 gb`"
        : undefined;
    case "Enum":
      if (!t.enumValues || matchEnum(text, t.enumValues) !== undefined) return undefined;
      return `Flink accepts one of ${t.enumValues.map((v) => `\`${v}\``).join(", ")}`;
    default:
      // Strings take anything; lists and maps have their own syntaxes that Flink reads leniently.
      return undefined;
  }
}

/**
 * Why Flink `minor` (undefined = any minor the data covers) rejects `raw` for this option, or undefined when it
 * accepts it. Where the type changed between minors and no minor is known, a value any of the types accepts passes.
 */
export function validateValue(option: OptionInfo, raw: string, minor?: string): string | undefined {
  const types = typesIn(option, minor);
  const problems = types.map((t) => checkType(t, raw));
  return problems.every((p) => p !== undefined) ? problems[problems.length - 1] : undefined;
}
