/**
 * Requirements on the Python packages the product knows (apache-beam, apache-flink), read statically from the files Python
 * projects declare them in: requirements*.txt, pyproject.toml (`[project] dependencies` and optional dependencies,
 * Poetry's `[tool.poetry.dependencies]` and groups), setup.cfg (`install_requires`, extras) and setup.py (string
 * literals: the file is never executed). A requirement counts as one version only when its specifier allows
 * exactly one (`==2.58.0`, `===2.58.0`, Poetry's bare `2.58.0`, or `>=2.58.0,<2.58.1`); only `==` pins and Poetry
 * exact versions have a literal an upgrade can rewrite.
 */
import { normalizePythonName } from "../../knowledge/advisories";
import { emptyFacts, type FileFacts, type Located, type PythonRequirement } from "../../model";
import { LineIndex, type Range } from "../../text";
import { readToml, type TomlValue } from "../build/toml";

/** The packages whose requirements are kept. */
const KNOWN = new Set(["apache-beam", "apache-flink"]);

function basename(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}

/** requirements.txt, requirements-dev.txt, requirements/base.txt, constraints.txt; pyproject.toml; setup.cfg; setup.py. */
export function isPythonDependencyFile(file: string): boolean {
  const name = basename(file).toLowerCase();
  if (name === "pyproject.toml" || name === "setup.cfg" || name === "setup.py") return true;
  if (!name.endsWith(".txt")) return false;
  return /^(requirements|constraints)([-_.].*)?\.txt$/.test(name) || /\/requirements\/[^/]+\.txt$/i.test(file);
}

/** `2.58` → `2.58.0`: release numbers compared with three parts. */
function release(v: string): string | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(v.trim());
  return m ? `${m[1]}.${m[2]}.${m[3] ?? "0"}` : undefined;
}

function nextPatch(v: string): string {
  const [a, b, c] = v.split(".").map(Number);
  return `${a}.${b}.${c + 1}`;
}

/**
 * The one version a specifier allows, and where its literal is (offset in the specifier) when it is a pin. Poetry's
 * bare version (`2.58.0`) is exact.
 */
export function pinnedVersion(specifier: string, poetry = false): { version?: string; literal?: [number, number] } {
  const spec = specifier.trim();
  if (spec === "") return {};
  const clauses = spec.split(",").map((c) => c.trim());
  const pin = /^(===?)\s*(\d+(?:\.\d+){1,2})$/.exec(clauses[0]);
  if (clauses.length === 1 && pin) {
    const at = specifier.indexOf(pin[2], specifier.indexOf(pin[1]) + pin[1].length);
    return { version: release(pin[2]), literal: [at, at + pin[2].length] };
  }
  if (poetry && clauses.length === 1 && /^\d+(\.\d+){1,2}$/.test(clauses[0])) {
    const at = specifier.indexOf(clauses[0]);
    return { version: release(clauses[0]), literal: [at, at + clauses[0].length] };
  }
  if (clauses.length === 2) {
    const lower = clauses.map((c) => /^>=\s*(\d+(?:\.\d+){1,2})$/.exec(c)).find(Boolean);
    const upperLt = clauses.map((c) => /^<\s*(\d+(?:\.\d+){1,2})$/.exec(c)).find(Boolean);
    const upperLe = clauses.map((c) => /^<=\s*(\d+(?:\.\d+){1,2})$/.exec(c)).find(Boolean);
    const low = lower && release(lower[1]);
    if (low && upperLt && release(upperLt[1]) === nextPatch(low)) return { version: low };
    if (low && upperLe && release(upperLe[1]) === low) return { version: low };
  }
  return {};
}

/** PEP 508 `name[extras] specifier ; marker` → the name and the specifier with its offset, or undefined. */
function parseRequirement(text: string): { name: string; specifier: string; specifierAt: number } | undefined {
  const m = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*/.exec(text);
  if (!m) return undefined;
  let rest = text.slice(m[0].length);
  let at = m[0].length;
  const marker = rest.indexOf(";");
  if (marker >= 0) rest = rest.slice(0, marker);
  // `name @ https://…` names no version.
  if (rest.startsWith("@")) return { name: m[1], specifier: "", specifierAt: at };
  // The old form `name (>=1.0)`.
  if (rest.startsWith("(")) {
    rest = rest.slice(1);
    at += 1;
    const close = rest.indexOf(")");
    if (close >= 0) rest = rest.slice(0, close);
  }
  return { name: m[1], specifier: rest.trimEnd(), specifierAt: at };
}

interface Span {
  start: number;
  end: number;
}

class Collector {
  readonly out: PythonRequirement[] = [];
  private readonly index: LineIndex;

  constructor(
    private readonly file: string,
    text: string,
  ) {
    this.index = new LineIndex(text);
  }

  range(start: number, end: number): Range {
    return this.index.rangeOf(start, end);
  }

  /** A PEP 508 requirement written at `at` (offsets of the requirement text in the file). */
  pep508(requirement: string, at: Span, exact = true): void {
    const parsed = parseRequirement(requirement);
    if (!parsed) return;
    this.add(parsed.name, parsed.specifier, at.start + parsed.specifierAt, at, exact, false);
  }

  /** A Poetry dependency: the version string at `at`. */
  poetry(name: string, version: string, at: Span, exact: boolean): void {
    this.add(name, version, at.start, at, exact, true);
  }

  private add(name: string, specifier: string, specAt: number, at: Span, exact: boolean, poetry: boolean): void {
    const normalized = normalizePythonName(name);
    if (!KNOWN.has(normalized)) return;
    const { version, literal } = pinnedVersion(specifier, poetry);
    let versionDefinition: Located<string> | undefined;
    if (version && literal && exact) {
      const raw = specifier.slice(literal[0], literal[1]);
      versionDefinition = {
        value: raw,
        raw,
        file: this.file,
        range: this.range(specAt + literal[0], specAt + literal[1]),
      };
    }
    this.out.push({
      name: normalized,
      specifier: specifier.trim(),
      version,
      versionDefinition,
      declaration: { file: this.file, range: this.range(at.start, at.end) },
    });
  }
}

/** requirements.txt and setup.cfg lines: `apache-beam[gcp]==2.58.0  # comment`, continuation lines included. */
function readLines(c: Collector, text: string, cfg: boolean): void {
  let offset = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const body = line.replace(/\r?\n$/, "");
    let start = 0;
    let content = body;
    if (cfg) {
      const key = /^\s*(install_requires|[A-Za-z0-9_.-]+)\s*=(?!=)\s*/.exec(body);
      if (key) {
        start = key[0].length;
        content = body.slice(start);
      }
    }
    const comment = /(^|\s)[#;]/.exec(content);
    const req = (comment ? content.slice(0, comment.index) : content).trimEnd();
    const lead = req.length - req.trimStart().length;
    if (req.trim() !== "" && !req.trim().startsWith("-")) {
      c.pep508(req.trim(), { start: offset + start + lead, end: offset + start + req.length });
    }
    offset += line.length;
  }
}

/** String literals of setup.py that are requirements on a known package. */
function readSetupPy(c: Collector, text: string): void {
  for (const m of text.matchAll(/(["'])(apache[-_.]beam\b[^"'\n]*)\1/gi)) {
    const at = m.index ?? 0;
    // A `#` earlier on the line makes it a comment (a `#` inside an earlier string is rare enough to accept).
    const lineStart = text.lastIndexOf("\n", at) + 1;
    if (text.slice(lineStart, at).includes("#")) continue;
    c.pep508(m[2], { start: at + 1, end: at + 1 + m[2].length });
  }
}

function strings(value: TomlValue): Extract<TomlValue, { kind: "string" }>[] {
  if (value.kind === "string") return [value];
  if (value.kind === "array") return value.items.flatMap(strings);
  return [];
}

function readPyproject(c: Collector, text: string): void {
  const { entries } = readToml(text);
  for (const e of entries) {
    const path = e.keys.map((k) => k.name);
    const head = path.join(".");
    if (head === "project.dependencies" || (path[0] === "project" && path[1] === "optional-dependencies")) {
      for (const s of strings(e.value)) c.pep508(s.value, { start: s.start, end: s.end }, s.exact);
      continue;
    }
    // tool.poetry.dependencies.<name>[.version], tool.poetry.group.<g>.dependencies.<name>[.version]
    const deps = path.indexOf("dependencies");
    if (path[0] !== "tool" || path[1] !== "poetry" || deps < 0 || deps + 1 >= path.length) continue;
    const name = path[deps + 1];
    const rest = path.slice(deps + 2);
    if (rest.length > 1 || (rest.length === 1 && rest[0] !== "version")) continue;
    if (e.value.kind === "string") {
      c.poetry(name, e.value.value, { start: e.value.start, end: e.value.end }, e.value.exact);
    }
  }
}

export function readPythonDependencies(file: string, text: string): FileFacts {
  const facts = emptyFacts(file, "pythonDeps", text);
  const c = new Collector(file, text);
  const name = basename(file).toLowerCase();
  if (name === "pyproject.toml") readPyproject(c, text);
  else if (name === "setup.py") readSetupPy(c, text);
  else readLines(c, text, name === "setup.cfg");
  if (c.out.length > 0) facts.pythonRequirements = c.out;
  // PyFlink (`apache-flink==1.18.1`) is the Flink the job is built and submitted with: its client must match the
  // cluster's minor.
  for (const r of c.out) {
    const m = r.name === "apache-flink" && r.version ? /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(r.version) : null;
    if (!m || !r.versionDefinition) continue;
    facts.flinkVersions.push({
      minor: `${m[1]}.${m[2]}`,
      full: m[0],
      source: "dependency",
      location: { file: r.versionDefinition.file, range: r.versionDefinition.range },
      core: true,
    });
  }
  return facts;
}
