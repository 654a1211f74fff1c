/**
 * Resolution of value expressions across files: references are followed to their definitions, and the result
 * keeps, for every character, the file and position it was written at. That is what lets a version found through
 * three references be reported and upgraded at the one literal that defines it.
 */
import type { SymbolDefinition, ValueExpr } from "../../documents/build/facts";
import type { Location } from "../../findings";
import type { Located, ResolvedDependency } from "../../model";
import type { Position } from "../../text";

/** A piece of a resolved value. `start` is where `text` is written when it can be edited in place. */
export interface Segment {
  text: string;
  /** Unknown: a computed part, or a reference with no (or no unconditional) definition. */
  unknown?: boolean;
  file?: string;
  start?: Position;
  /** References followed to reach this text (for messages). */
  via: string[];
  /** Maven profiles whose properties supplied this text. */
  profiles: string[];
}

/** Where a reference leads: the definition, the file it is in, and how to resolve references in its value. */
export interface Binding {
  def: SymbolDefinition;
  file: string;
  scope: Scope;
  /** How the step is described in `via`, e.g. `${beam.version} (parent/pom.xml)`. */
  label: string;
  profile?: string;
}

/**
 * Finds the definition a reference names, skipping definitions being resolved (a `val v: String by project`
 * reads the project property of the same name). "ambiguous" when only the build can tell (a conditional
 * definition).
 */
export type Scope = (ref: string, skip: ReadonlySet<SymbolDefinition>) => Binding | "ambiguous" | undefined;

const MAX_DEPTH = 16;

export function resolveExpr(
  expr: ValueExpr,
  file: string,
  scope: Scope,
  skip: Set<SymbolDefinition> = new Set(),
): Segment[] {
  const out: Segment[] = [];
  for (const part of expr.parts) {
    if ("text" in part) {
      out.push({ text: part.text, file, start: part.exact ? part.range.start : undefined, via: [], profiles: [] });
    } else if ("computed" in part) {
      out.push({ text: "", unknown: true, via: [], profiles: [] });
    } else {
      const binding = skip.size < MAX_DEPTH ? scope(part.ref, skip) : undefined;
      if (!binding || binding === "ambiguous") {
        out.push({ text: "", unknown: true, via: [], profiles: [] });
        continue;
      }
      skip.add(binding.def);
      for (const seg of resolveExpr(binding.def.value, binding.file, binding.scope, skip)) {
        out.push({
          ...seg,
          via: [binding.label, ...seg.via],
          profiles: binding.profile ? [binding.profile, ...seg.profiles] : seg.profiles,
        });
      }
      skip.delete(binding.def);
    }
  }
  return out;
}

/** Splits resolved `group:artifact[:version[:classifier]][@extension]` notation at its colons. */
export function splitNotation(segments: Segment[]): Segment[][] {
  const fields: Segment[][] = [[]];
  for (const seg of segments) {
    let from = 0;
    for (let i = seg.text.indexOf(":"); i >= 0; i = seg.text.indexOf(":", from)) {
      if (i > from) fields[fields.length - 1].push(slice(seg, from, i));
      fields.push([]);
      from = i + 1;
    }
    if (from < seg.text.length || seg.unknown) fields[fields.length - 1].push(slice(seg, from, seg.text.length));
  }
  // `g:a:v@jar`: the extension is not part of the last field.
  const last = fields[fields.length - 1];
  const at = last.findIndex((s) => s.text.includes("@"));
  if (at >= 0) last.splice(at, last.length - at, slice(last[at], 0, last[at].text.indexOf("@")));
  return fields;
}

function slice(seg: Segment, from: number, to: number): Segment {
  const start = seg.start ? { line: seg.start.line, character: seg.start.character + from } : undefined;
  return { ...seg, text: seg.text.slice(from, to), start };
}

/** The value, when every segment is known. */
export function textOf(segments: Segment[] | undefined): string | undefined {
  if (!segments || segments.some((s) => s.unknown)) return undefined;
  const text = segments.map((s) => s.text).join("");
  return text === "" ? undefined : text;
}

/** The literal that defines the whole value, when it is written in one piece that can be edited in place. */
function definitionOf(segments: Segment[] | undefined): Located<string> | undefined {
  const pieces = segments?.filter((s) => s.text !== "" || s.unknown);
  if (pieces?.length !== 1) return undefined;
  const [seg] = pieces;
  if (seg.unknown || !seg.file || !seg.start) return undefined;
  const end = { line: seg.start.line, character: seg.start.character + seg.text.length };
  return { value: seg.text, raw: seg.text, file: seg.file, range: { start: seg.start, end } };
}

function viaOf(segments: Segment[] | undefined): string[] {
  const out: string[] = [];
  for (const s of segments ?? []) for (const v of s.via) if (!out.includes(v)) out.push(v);
  return out;
}

export interface DependencyIdentity {
  group: string;
  artifact: string;
  declaration: Location;
  module: string;
  platform: boolean;
  profile?: string;
}

/** A resolved dependency from its identity and its version's segments; `via` leads up to the version's own steps. */
export function resolvedDependency(
  id: DependencyIdentity,
  version: Segment[] | undefined,
  via: string[],
): ResolvedDependency {
  const dep: ResolvedDependency = {
    group: id.group,
    artifact: id.artifact,
    declaration: id.declaration,
    module: id.module,
    platform: id.platform,
    via: [...via, ...viaOf(version)],
  };
  const text = textOf(version);
  if (text !== undefined) dep.version = text;
  const definition = text !== undefined ? definitionOf(version) : undefined;
  if (definition) dep.versionDefinition = definition;
  if (id.profile) dep.profile = id.profile;
  return dep;
}

/** The last unconditional definition of `name` among `defs`; "ambiguous" when a conditional one exists. */
export function pickDefinition(
  defs: readonly SymbolDefinition[],
  name: string,
  skip: ReadonlySet<SymbolDefinition>,
): SymbolDefinition | "ambiguous" | undefined {
  let found: SymbolDefinition | undefined;
  for (const d of defs) {
    if (d.name !== name || skip.has(d)) continue;
    if (d.conditional) return "ambiguous";
    found = d;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Paths (`/`-separated, absolute)

export function dirOf(file: string): string {
  const i = file.lastIndexOf("/");
  return i <= 0 ? "/" : file.slice(0, i);
}

/** `file` relative to the folder `root`, with `../` when it is outside. */
export function relativePath(root: string, file: string): string {
  const from = root.split("/").filter(Boolean);
  const to = file.split("/").filter(Boolean);
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => ".."), ...to.slice(common)].join("/");
}

/** `dir` joined with a relative path, with `.` and `..` applied. */
export function joinPath(dir: string, rel: string): string {
  const out = dir.split("/").filter(Boolean);
  for (const part of rel.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}
