/**
 * Kafka client settings written as Java maps and properties (`Map.of`, `ImmutableMap.of`, builders,
 * `new HashMap<>()` + `put`, `Properties` + `setProperty`, double-brace initialisation), and the edit that adds an
 * entry in the same style.
 */
import type { Location } from "../findings";
import type { LineIndex, TextEdit } from "../text";
import type { CodeExpr, CodeRef, KafkaSetting, KafkaSettingSource, KafkaSettings, UnknownPart } from "./facts";
import type { MapLitForm } from "./ir";
import { type CodeLiteral, type Dialect, str } from "./render";
import { kafkaKeyOfConstant } from "./values";

export interface MapEntry {
  key: CodeExpr;
  value: CodeExpr;
  location: Location;
  conditional: boolean;
}

/** How new entries are written into a map. */
export type MapStyle =
  /**
   * `v.put(k, x);` statements (method `[]`: index writes, `v[k] = x`): a new statement after `after` (the last put,
   * or the declaration).
   */
  | { kind: "statements"; variable: string; method: string; after: number; lineStart: number }
  /** `Map.of(k, v, …)`: a new pair after `lastArgEnd` (`open` is just after the parenthesis). */
  | { kind: "pairs"; open: number; lastArgEnd?: number; lastPairStart?: number; room: boolean; entryCall?: string }
  /** `ImmutableMap.builder().put(…)…build()`: a new `.put(…)` at `at`. */
  | { kind: "builder"; at: number; dot?: number }
  /** A map literal (`{k: v}`, `Map(k -> v)`, `mapOf(k to v)`): a new entry after the last one, in its form. */
  | {
      kind: "literal";
      form: MapLitForm;
      openEnd: number;
      closeStart: number;
      lastEntryStart?: number;
      lastEntryEnd?: number;
    }
  | { kind: "none" };

export class MapState {
  entries: MapEntry[] = [];
  unknown: UnknownPart[] = [];
  via: string[] = [];
  style: MapStyle = { kind: "none" };
  /** Keys are written as `ConsumerConfig.*_CONFIG` constants (then new keys are too). */
  constantOwner?: string;
  /** The map comes from outside what the reader sees (a parameter, a call to another class): more keys may be set. */
  opaque = false;

  copy(via?: string): MapState {
    const m = new MapState();
    m.entries = [...this.entries];
    m.unknown = [...this.unknown];
    m.via = via ? [...this.via, via] : [...this.via];
    m.style = this.style;
    m.constantOwner = this.constantOwner;
    m.opaque = this.opaque;
    return m;
  }

  add(entry: MapEntry): void {
    this.entries.push(entry);
    const owner = /^(\w+)\.[A-Z_]+_CONFIG$/.exec(entry.key.raw);
    if (owner) this.constantOwner = owner[1];
  }

  remove(key: string): void {
    this.entries = this.entries.filter((e) => e.key.value.kind !== "string" || e.key.value.value !== key);
  }
}

/** Offsets, text layout and the language the edits need. */
export interface Layout {
  text: string;
  index: LineIndex;
  dialect: Dialect;
}

function lineIndent(layout: Layout, offset: number): string {
  const line = layout.index.positionAt(offset).line;
  return /^[ \t]*/.exec(layout.index.lineText(line))?.[0] ?? "";
}

/** Whether only whitespace precedes `offset` on its line. */
export function startsLine(layout: Layout, offset: number): boolean {
  const p = layout.index.positionAt(offset);
  return layout.index.lineText(p.line).slice(0, p.character).trim() === "";
}

/** `.` or a line break + the indentation of the line of `dot` + `.`, for a call joining a chain. */
export function chainPrefix(layout: Layout, dot: number | undefined, at?: number): string {
  if (dot === undefined || !startsLine(layout, dot)) return ".";
  const prefix = `${layout.index.eol}${lineIndent(layout, dot)}.`;
  // A chain continued with backslashes (Python) needs one at the end of the line the new call follows.
  const rest =
    at === undefined
      ? ""
      : layout.text.slice(at, layout.text.indexOf("\n", at) < 0 ? undefined : layout.text.indexOf("\n", at));
  return /^[ \t]*\\[ \t]*\r?$/.test(rest) ? ` \\${prefix}` : prefix;
}

function at(layout: Layout, offset: number, newText: string): TextEdit {
  const p = layout.index.positionAt(offset);
  return { range: { start: p, end: p }, newText };
}

/** The key as source text: a `ConsumerConfig.*_CONFIG` constant when the map uses them, else a string literal. */
function keyText(layout: Layout, map: MapState, key: string): string {
  const constant = `${key.toUpperCase().replace(/\./g, "_")}_CONFIG`;
  if (map.constantOwner && kafkaKeyOfConstant(constant) === key) return `${map.constantOwner}.${constant}`;
  return layout.dialect.literal(str(key));
}

/** The edit adding `key → value` to a map in its own style and language; undefined when there is none. */
export function mapInsertion(layout: Layout, map: MapState, key: string, literal: CodeLiteral): TextEdit | undefined {
  const style = map.style;
  const k = keyText(layout, map, key);
  const value = layout.dialect.literal(literal);
  const statement = layout.dialect.statement;
  switch (style.kind) {
    case "statements":
      return at(
        layout,
        style.after,
        `${layout.index.eol}${lineIndent(layout, style.lineStart)}${statement(
          style.method === "[]"
            ? `${style.variable}[${k}] = ${value}`
            : `${style.variable}.${style.method}(${k}, ${value})`,
        )}`,
      );
    case "pairs": {
      if (!style.room) return undefined;
      const pair = style.entryCall ? `${style.entryCall}(${k}, ${value})` : `${k}, ${value}`;
      if (style.lastArgEnd === undefined) return at(layout, style.open, pair);
      const own = style.lastPairStart !== undefined && startsLine(layout, style.lastPairStart);
      const sep = own ? `,${layout.index.eol}${lineIndent(layout, style.lastPairStart as number)}` : ", ";
      return at(layout, style.lastArgEnd, `${sep}${pair}`);
    }
    case "builder":
      return at(layout, style.at, `${chainPrefix(layout, style.dot)}put(${k}, ${value})`);
    case "literal": {
      const entry = layout.dialect.mapEntry(k, value, style.form);
      if (style.lastEntryEnd === undefined) return at(layout, style.openEnd, entry);
      const own = style.lastEntryStart !== undefined && startsLine(layout, style.lastEntryStart);
      const sep = own ? `,${layout.index.eol}${lineIndent(layout, style.lastEntryStart as number)}` : ", ";
      return at(layout, style.lastEntryEnd, `${sep}${entry}`);
    }
    default:
      return undefined;
  }
}

/** Collects the settings of one Kafka client from its config calls, in merge order. */
export class SettingsBuilder {
  readonly settings: KafkaSettings = { entries: [], hasUnknownParts: false, unknownParts: [] };
  private calls = 0;
  /** The maps given to config calls, last first: where a new entry goes. */
  private maps: MapState[] = [];

  constructor(
    private readonly layout: Layout,
    /** Builds the edit for a new config call when no map can take the entry. */
    private readonly fallback: (key: string, value: CodeLiteral) => TextEdit[] | undefined,
  ) {
    this.settings.insertEntry = (key, value) => {
      for (const m of this.maps) {
        const edit = mapInsertion(this.layout, m, key, value);
        if (edit) return [edit];
      }
      return this.fallback(key, value);
    };
  }

  /** A config call given a map (or something unreadable: `map` undefined). */
  addMap(
    source: KafkaSettingSource,
    call: Location,
    map: MapState | undefined,
    conditional: boolean,
    unreadable: Location,
    ref?: CodeRef,
  ): void {
    const index = this.calls++;
    if (!map) {
      this.markUnknown(unreadable, ref, index);
      return;
    }
    this.maps.unshift(map);
    if (map.opaque) this.markUnknown(unreadable);
    for (const e of map.entries) {
      if (e.key.value.kind !== "string") {
        this.markUnknown(e.key);
        continue;
      }
      this.settings.entries.push(
        this.setting(
          e.key.value.value,
          e.value,
          e.location,
          source,
          index,
          call,
          map.via,
          conditional || e.conditional,
          e.key,
        ),
      );
    }
    for (const u of map.unknown) this.markUnknown(u, u.ref, index);
  }

  /** A setting made by a dedicated method (`setGroupId`, `withReadCommitted`, `setProperty(k, v)`). */
  addOne(
    key: string,
    value: CodeExpr,
    source: KafkaSettingSource,
    call: Location,
    conditional: boolean,
    keyExpr?: CodeExpr,
  ): void {
    const index = this.calls++;
    this.settings.entries.push(this.setting(key, value, call, source, index, call, [], conditional, keyExpr));
  }

  markUnknown(where: Location, ref?: CodeRef, sourceIndex?: number): void {
    this.settings.hasUnknownParts = true;
    this.settings.unknownParts.push({
      file: where.file,
      range: where.range,
      ...(ref ? { ref } : {}),
      ...(sourceIndex !== undefined ? { sourceIndex } : {}),
    });
  }

  private setting(
    key: string,
    value: CodeExpr,
    location: Location,
    source: KafkaSettingSource,
    sourceIndex: number,
    sourceCall: Location,
    via: string[],
    conditional: boolean,
    keyExpr?: CodeExpr,
  ): KafkaSetting {
    const s: KafkaSetting = {
      key,
      value,
      location: { file: location.file, range: location.range },
      source,
      sourceIndex,
      sourceCall: { file: sourceCall.file, range: sourceCall.range },
      via,
      conditional,
    };
    if (keyExpr) s.keyExpr = keyExpr;
    return s;
  }
}
