/**
 * Fixture projects with inline expectation markers.
 *
 * A case is a folder of files forming one project (mounted at /project). A marker line stands under the line it
 * describes and is removed before analysis:
 *
 *     restart-strategy.fixed-delay.delay: 180
 *     #                                   ^^^ BFL106 warning "read as 180 milliseconds"
 *
 * Carets give the exact columns (a marker may start at column 0 without a comment sign, since it is removed);
 * `@` marks a zero-width range. The severity is required; a quoted text must occur in the message.
 * `<file>.after` holds the file's text after applying the first fix of each finding of the case's rule.
 * `case.json` may hold engine options: { "assumedFlinkVersion": "1.19" }, and `"todo": "why"` for a case that
 * states behaviour the analysis does not have yet (it runs as a node:test todo: reported, not failing).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { EngineOptions } from "../../server/src/core/config";
import type { Finding } from "../../server/src/core/findings";
import { Workspace } from "../../server/src/core/workspace/workspace";

export const FIXTURE_ROOT = "/project";

export interface Expectation {
  file: string;
  line: number;
  start: number;
  end: number;
  rule: string;
  severity: string;
  messagePart?: string;
}

export interface FixtureCase {
  dir: string;
  /** Absolute virtual path → text with markers removed. */
  files: Map<string, string>;
  /** Absolute virtual path → expected text after the fix. */
  afters: Map<string, string>;
  expectations: Expectation[];
  options: EngineOptions;
  /** Why the case cannot pass yet (`todo` in case.json). */
  todo?: string;
}

const MARKER =
  /^(\s*(?:#|\/\/|--|<!--)?\s*)(\^+|@)\s+(BFL\d{3})\s+(error|warning|info|hint)(?:\s+"([^"]*)")?\s*(?:-->)?\s*$/;

export function stripMarkers(file: string, text: string): { text: string; expectations: Expectation[] } {
  const lines = text.split(/(?<=\n)/);
  const kept: string[] = [];
  const expectations: Expectation[] = [];
  for (const raw of lines) {
    const line = raw.replace(/\r?\n$/, "");
    const m = MARKER.exec(line);
    if (m && kept.length > 0) {
      const start = m[1].length;
      const width = m[2] === "@" ? 0 : m[2].length;
      const e: Expectation = { file, line: kept.length - 1, start, end: start + width, rule: m[3], severity: m[4] };
      if (m[5] !== undefined) e.messagePart = m[5];
      expectations.push(e);
      continue;
    }
    kept.push(raw);
  }
  return { text: kept.join(""), expectations };
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

export function loadCase(dir: string): FixtureCase {
  const files = new Map<string, string>();
  const afters = new Map<string, string>();
  const expectations: Expectation[] = [];
  let options: EngineOptions = {};
  let todo: string | undefined;
  for (const p of walk(dir)) {
    const rel = relative(dir, p).split("\\").join("/");
    const text = readFileSync(p, "utf8");
    if (rel === "case.json") {
      const { todo: why, ...rest } = JSON.parse(text) as EngineOptions & { todo?: string };
      options = rest;
      todo = why;
    } else if (rel.endsWith(".after")) afters.set(`${FIXTURE_ROOT}/${rel.slice(0, -".after".length)}`, text);
    else {
      const file = `${FIXTURE_ROOT}/${rel}`;
      const stripped = stripMarkers(file, text);
      files.set(file, stripped.text);
      expectations.push(...stripped.expectations);
    }
  }
  return { dir, files, afters, expectations, options, ...(todo ? { todo } : {}) };
}

export function workspaceOf(files: Map<string, string>, options: EngineOptions = {}): Workspace {
  const ws = new Workspace({ ...options, roots: [FIXTURE_ROOT] });
  for (const [file, text] of files) ws.setFile(file, text);
  return ws;
}

export function analyzeAll(ws: Workspace): Finding[] {
  const out: Finding[] = [];
  for (const root of ws.projectRoots()) {
    const result = ws.analyze(root);
    if (result.failures.length > 0) {
      throw new Error(`rules threw: ${result.failures.map((f) => `${f.rule}: ${f.error}`).join("\n")}`);
    }
    for (const list of result.byFile.values()) out.push(...list);
  }
  return out;
}

/** A finding in the same shape as an expectation, for deepEqual. */
export function asExpectation(f: Finding, messagePart?: string): Expectation {
  const e: Expectation = {
    file: f.file,
    line: f.range.start.line,
    start: f.range.start.character,
    end: f.range.end.line === f.range.start.line ? f.range.end.character : -1,
    rule: f.rule,
    severity: f.severity,
  };
  // A marker quotes what the user reads: the message or its details (the first related information).
  const shown = (part: string) => f.message.includes(part) || (f.details?.includes(part) ?? false);
  if (messagePart !== undefined) e.messagePart = shown(messagePart) ? messagePart : `«${f.message}»`;
  return e;
}

export function listCases(root: string): { code: string; name: string; dir: string }[] {
  const out: { code: string; name: string; dir: string }[] = [];
  for (const code of readdirSync(root).sort()) {
    const codeDir = join(root, code);
    if (!statSync(codeDir).isDirectory()) continue;
    for (const name of readdirSync(codeDir).sort()) {
      const dir = join(codeDir, name);
      if (statSync(dir).isDirectory()) out.push({ code, name, dir });
    }
  }
  return out;
}

/** A path in the repository (tests run with the repository as working directory; see scripts/run-tests.mjs). */
export function repoPath(...parts: string[]): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++, dir = join(dir, "..")) {
    // The compiled copy of package.json may sit in the output folder too; the repository is where the sources are.
    const names = readdirSafe(dir);
    if (names.includes("package.json") && names.includes("node_modules")) return join(dir, ...parts);
  }
  return join(process.cwd(), ...parts);
}

/** A path in the bundle folder (dist/, or BFL_DIST_DIR). */
export function distPath(...parts: string[]): string {
  return process.env.BFL_DIST_DIR ? join(process.env.BFL_DIST_DIR, ...parts) : repoPath("dist", ...parts);
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function sortExpectations(xs: Expectation[]): Expectation[] {
  const key = (e: Expectation) =>
    `${e.file}\u0000${String(e.line).padStart(6, "0")}:${String(e.start).padStart(6, "0")}:${e.rule}`;
  return [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
