/**
 * Helpers for build-file tests. `render` writes a value expression back as text while checking every range:
 * an exact literal must be the very source text under its range, a reference shows the source it covers.
 */
import assert from "node:assert/strict";
import type { BuildFacts, RawDependency, ValueExpr } from "../../server/src/core/documents/build/facts";
import { readDocument } from "../../server/src/core/documents/index";
import type { FileFacts, ResolvedDependency } from "../../server/src/core/model";
import { LineIndex, type Range } from "../../server/src/core/text";
import { Workspace } from "../../server/src/core/workspace/workspace";

export function span(r: Range | undefined): string {
  return r ? `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}` : "none";
}

export function textAt(text: string, r: Range): string {
  const index = new LineIndex(text);
  return text.slice(index.offsetAt(r.start), index.offsetAt(r.end));
}

/** `g:a:{beamVersion|$beamVersion}`: literals as text, references as `{name|source}`, computed parts as `?{source}`. */
export function render(text: string, expr: ValueExpr | undefined): string | undefined {
  if (!expr) return undefined;
  return expr.parts
    .map((p) => {
      if ("text" in p) {
        if (!p.exact) return `~${p.text}`;
        assert.equal(textAt(text, p.range), p.text, `range ${span(p.range)} of literal ${JSON.stringify(p.text)}`);
        return p.text;
      }
      if ("ref" in p) return `{${p.ref}|${textAt(text, p.range)}}`;
      return `?{${textAt(text, p.range)}}`;
    })
    .join("");
}

/** A raw dependency as one line: `scope notation` or `scope group | artifact | version`, plus flags. */
export function renderDependency(text: string, d: RawDependency): string {
  const coordinates = d.notation
    ? render(text, d.notation)
    : [d.group, d.artifact, d.version].map((e) => render(text, e) ?? "-").join(" | ");
  const flags = [d.platform ? " platform" : "", d.managed ? " managed" : ""].join("");
  return `${d.scope ?? ""} ${coordinates}${flags}`.trim();
}

export function read<K extends BuildFacts["kind"]>(
  file: string,
  text: string,
  kind: K,
): { facts: FileFacts; build: Extract<BuildFacts, { kind: K }> } {
  const facts = readDocument(file, text);
  assert.equal(facts.build?.kind, kind, `${file} read as ${facts.build?.kind}`);
  return { facts, build: facts.build as Extract<BuildFacts, { kind: K }> };
}

/** `group:artifact:version` plus where the version is defined, as `file@span`. */
export function describe(d: ResolvedDependency): string {
  const def = d.versionDefinition ? ` @${d.versionDefinition.file}:${span(d.versionDefinition.range)}` : "";
  const profile = d.profile ? ` [${d.profile}]` : "";
  return `${d.group}:${d.artifact}:${d.version ?? "?"}${def}${profile}${d.platform ? " platform" : ""}`;
}

/** A workspace of one folder, /w, holding these files. */
export function workspace(files: Record<string, string>): Workspace {
  const ws = new Workspace({ roots: ["/w"] });
  for (const [file, text] of Object.entries(files)) ws.setFile(file, text);
  return ws;
}

/** The project's dependencies, after checking that each version definition's range holds exactly the version. */
export function resolved(ws: Workspace, root = "/w"): ResolvedDependency[] {
  const deps = ws.project(root).dependencies;
  for (const d of deps) {
    const def = d.versionDefinition;
    if (def) assert.equal(textAt(ws.text(def.file) ?? "", def.range), d.version, describe(d));
  }
  return deps;
}
