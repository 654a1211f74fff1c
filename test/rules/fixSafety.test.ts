/**
 * The fix-safety contract (ARCHITECTURE.md), enforced over every rule: a fix marked safe keeps what the job does
 * under every Flink version the file may run with. For every safe fix of every finding in every rule fixture, the
 * fix is applied and the project analysed again:
 *
 * - every Flink configuration reads the same (which options Flink reads, with their values, deprecated and
 *   fallback keys resolved for that version) under every minor of the option catalogue the configuration may run
 *   with (its pinned version only; else every minor, narrowed by the file format: flink-conf.yaml is not read from
 *   Flink 2.0, config.yaml only from 1.19), except that the option the finding points at may be gone;
 * - no finding appears that was not there before (a broken file, a lost YAML anchor, a new problem).
 *
 * The checker is run on deliberately wrong fixes too, which it must catch, so that this test can fail.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseAllDocuments } from "yaml";
import type { Finding, Fix } from "../../server/src/core/findings";
import {
  aliasReadIn,
  catalogueMinor,
  compareMinors,
  FLINK_MINORS,
  isOptionKnown,
  type OptionInfo,
  optionsForAlias,
  typesIn,
} from "../../server/src/core/knowledge/options";
import { parseBoolean, parseDuration, parseMemorySize, validateValue } from "../../server/src/core/knowledge/values";
import type { ConfigEntry, FlinkConfig } from "../../server/src/core/model";
import { configVersion } from "../../server/src/core/project/clusters";
import { findEntry, optionReadAs } from "../../server/src/core/project/configEntries";
import { ALL_RULES } from "../../server/src/core/rules/index";
import { applyEdits, rangeContains } from "../../server/src/core/text";
import type { ProjectModel } from "../../server/src/core/workspace/project";
import type { Workspace } from "../../server/src/core/workspace/workspace";
import { analyzeAll, listCases, loadCase, repoPath, workspaceOf } from "../harness/fixtures";

/** A value as Flink takes it for the option's type in `minor`: `180 ms` and `180` are the same duration. */
function normalized(option: OptionInfo | undefined, value: string, minor: string): string {
  const type = option ? typesIn(option, minor)[0]?.type : undefined;
  const v = value.trim();
  switch (type) {
    case "Duration":
      return String(parseDuration(v)?.millis ?? v);
    case "MemorySize":
      return String(parseMemorySize(v)?.bytes ?? v);
    case "Boolean":
      return String(parseBoolean(v) ?? v);
    case "Enum":
      return v.toUpperCase();
    default:
      return v;
  }
}

/** What Flink `minor` reads from a configuration: option key (or, for keys it does not know, `?key`) → value. */
function effective(config: FlinkConfig, minor: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of config.entries) {
    if (e.valueKind === "mapping") continue;
    const option = optionReadAs(e.key, minor);
    if (option && !option.key.includes("<")) {
      // A key can be an option of its own and a deprecated key of another at once (`web.port` and `rest.port` up
      // to 1.20): every option that reads it counts.
      const readers = [
        option,
        ...optionsForAlias(e.key)
          .filter((a) => aliasReadIn(a, minor))
          .map((a) => a.option),
      ];
      for (const reader of readers) {
        if (out.has(reader.key) || reader.key.includes("<")) continue;
        const entry = findEntry(config, reader.key, minor);
        if (entry) out.set(reader.key, normalized(reader, entry.value, minor));
      }
    } else {
      // Keys Flink hands on (reporters, file systems) or ignores: the last one written.
      const status = isOptionKnown(e.key, minor);
      out.set(status === "pass-through" || option ? e.key : `?${e.key}`, e.value.trim());
    }
  }
  return out;
}

/** Whether Flink `minor` rejects an entry's value (it cannot read it as the option's type). */
function rejectedBy(entry: ConfigEntry, minor: string): boolean {
  return rejectedValue(readAs(entry, minor), entry.value, minor);
}

function rejectedValue(key: string, value: string, minor: string): boolean {
  const option = optionReadAs(key, minor);
  return option !== undefined && !option.key.includes("<") && validateValue(option, value, minor) !== undefined;
}

/** Documents of a YAML text whose aliases do not all resolve. */
function danglingAliases(text: string): number {
  let n = 0;
  for (const doc of parseAllDocuments(text)) {
    try {
      doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      if (e instanceof ReferenceError || /alias/i.test(String(e))) n++;
    }
  }
  return n;
}

/** The minors a configuration may run with. */
function minorsFor(project: ProjectModel, config: FlinkConfig): string[] {
  const evidence = configVersion(project, config);
  if (evidence.strength === "pinned" && evidence.minor) return [catalogueMinor(evidence.minor)];
  return FLINK_MINORS.filter((m) => {
    if (config.logicalName === "flink-conf.yaml" && compareMinors(m, "2.0") >= 0) return false;
    if (config.logicalName === "config.yaml" && compareMinors(m, "1.19") < 0) return false;
    return true;
  });
}

/** The option (or `?key`) Flink `minor` reads an entry as. */
function readAs(entry: ConfigEntry, minor: string): string {
  const option = optionReadAs(entry.key, minor);
  return option && !option.key.includes("<") ? option.key : entry.key;
}

/** A finding as it can be recognised after an edit moved it: rule, file, message (line numbers aside). */
function identity(f: Finding): string {
  return `${f.rule} ${f.file} ${f.message.replace(/\d+/g, "#")}`;
}

function projects(ws: Workspace): ProjectModel[] {
  return ws.projectRoots().map((root) => ws.project(root));
}

/** How applying `fix` for `finding` breaks the contract, in words; empty when it keeps it. */
export function contractViolations(
  files: Map<string, string>,
  options: Parameters<typeof workspaceOf>[1],
  finding: Finding,
  fix: Fix,
): string[] {
  const problems: string[] = [];
  /** The fix makes a value Flink rejected readable: what the analysis sees of the project grows. */
  let repaired = false;
  const before = workspaceOf(files, options);
  const beforeFindings = analyzeAll(before);
  const after = new Map(files);
  for (const change of fix.changes) after.set(change.file, applyEdits(files.get(change.file) ?? "", change.edits));
  const fixed = workspaceOf(after, options);
  const afterFindings = analyzeAll(fixed);

  // Configurations: the same options with the same values, under every minor they may run with.
  const afterConfigs = new Map(projects(fixed).flatMap((p) => p.flinkConfigs.map((c) => [c.id, c] as const)));
  for (const project of projects(before)) {
    for (const config of project.flinkConfigs) {
      const other = afterConfigs.get(config.id);
      if (!other) {
        if (config.entries.length > 0) problems.push(`${config.id} is gone`);
        continue;
      }
      const pointed =
        config.file !== finding.file
          ? []
          : config.entries.filter(
              (e) =>
                rangeContains(e.keyRange, finding.range) ||
                rangeContains(finding.range, e.keyRange) ||
                rangeContains(e.valueRange, finding.range),
            );
      for (const minor of minorsFor(project, config)) {
        const was = effective(config, minor);
        const now = effective(other, minor);
        // The option the finding points at may go (a key the operator rejects); its value may change only from
        // one Flink rejects to one it reads (quotes Flink's line reader keeps): that is the problem being removed.
        const removable = new Set(pointed.map((e) => readAs(e, minor)));
        const rejected = new Set(pointed.filter((e) => rejectedBy(e, minor)).map((e) => readAs(e, minor)));
        if (rejected.size > 0) repaired = true;
        for (const key of new Set([...was.keys(), ...now.keys()])) {
          if (was.get(key) === now.get(key)) continue;
          if (removable.has(key) && !now.has(key)) continue;
          if (rejected.has(key) && now.has(key) && !rejectedValue(key, now.get(key) ?? "", minor)) continue;
          problems.push(`Flink ${minor} reads ${key} as ${now.get(key) ?? "unset"}, not ${was.get(key) ?? "unset"}`);
        }
      }
    }
  }

  // Findings: none that was not there before (the fixed one excepted).
  const counts = new Map<string, number>();
  const fixedId = identity(finding);
  let skippedFixed = false;
  for (const f of beforeFindings) {
    const id = identity(f);
    if (!skippedFixed && id === fixedId) {
      skippedFixed = true;
      continue;
    }
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  for (const f of afterFindings) {
    const id = identity(f);
    const n = counts.get(id) ?? 0;
    // A setting that could not be read before may reveal what it was hiding, in its own file (a checkpoint
    // interval that now applies and has no directory); anything else new is the fix's doing.
    if (n === 0 && !(repaired && f.file === finding.file && f.rule !== "BFL002")) problems.push(`new finding: ${id}`);
    else counts.set(id, n - 1);
  }
  // YAML aliases must keep their anchors (the product reads past a dangling alias; kubectl and Flink do not).
  for (const change of fix.changes) {
    if (!/\.ya?ml$/.test(change.file)) continue;
    const lost = danglingAliases(after.get(change.file) ?? "") - danglingAliases(files.get(change.file) ?? "");
    if (lost > 0) problems.push(`${change.file}: ${lost} YAML alias(es) lost their anchor`);
  }
  return problems;
}

const CASES = listCases(repoPath("test", "fixtures", "rules"));

test("every safe fix of every rule fixture keeps what Flink reads, under every version, and adds no finding", () => {
  const violations: string[] = [];
  let checked = 0;
  for (const c of CASES) {
    const fx = loadCase(c.dir);
    for (const finding of analyzeAll(workspaceOf(fx.files, fx.options))) {
      for (const fix of finding.fixes) {
        if (fix.safety !== "safe") continue;
        checked++;
        for (const v of contractViolations(fx.files, fx.options, finding, fix)) {
          violations.push(`${c.code}/${c.name}: ${finding.rule} "${fix.title}": ${v}`);
        }
      }
    }
  }
  assert.ok(checked >= 20, `only ${checked} safe fixes were checked`);
  assert.deepEqual(violations, []);
});

test("fixes that choose between intents are never safe: BFL106 (ms or s) and BFL502 (removing setParallelism)", () => {
  const rules = new Map(ALL_RULES.map((r) => [r.meta.code, r]));
  for (const code of ["BFL106", "BFL502"]) {
    assert.equal(rules.get(code)?.meta.fix, "unsafe", `${code} metadata`);
    let offered = 0;
    for (const c of CASES.filter((x) => x.code === code)) {
      const fx = loadCase(c.dir);
      for (const f of analyzeAll(workspaceOf(fx.files, fx.options)).filter((x) => x.rule === code)) {
        offered += f.fixes.length;
        assert.deepEqual(
          f.fixes.filter((x) => x.safety === "safe").map((x) => x.title),
          [],
          c.name,
        );
      }
    }
    assert.ok(offered > 0, `${code} fixtures offer fixes`);
  }
});

// ---------------------------------------------------------------------------------------------
// The checker catches wrong fixes

const CONF = "/project/flink-conf.yaml";

function finding(file: string, line: number, character: number, length: number): Finding {
  const range = { start: { line, character }, end: { line, character: character + length } };
  return {
    rule: "BFL999",
    name: "test",
    severity: "warning",
    message: "test",
    file,
    range,
    related: [],
    tags: [],
    fixes: [],
  };
}

function edit(file: string, line: number, character: number, length: number, newText: string): Fix {
  const range = { start: { line, character }, end: { line, character: character + length } };
  return { title: "test", safety: "safe", changes: [{ file, edits: [{ range, newText }] }] };
}

test("the checker catches a fix that changes a value, even where it keeps the key", () => {
  const files = new Map([[CONF, "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 2\n"]]);
  const violations = contractViolations(files, {}, finding(CONF, 0, 0, 29), edit(CONF, 0, 31, 1, "4"));
  assert.ok(
    violations.some((v) => /reads taskmanager\.numberOfTaskSlots as 4, not 2/.test(v)),
    violations.join("\n"),
  );
  // Writing out the unit a bare duration already has keeps the value.
  const delay = new Map([[CONF, "restart-strategy.type: fixed-delay\nrestart-strategy.fixed-delay.delay: 180\n"]]);
  assert.deepEqual(contractViolations(delay, {}, finding(CONF, 1, 36, 3), edit(CONF, 1, 36, 3, "180 ms")), []);
  assert.notDeepEqual(contractViolations(delay, {}, finding(CONF, 1, 36, 3), edit(CONF, 1, 36, 3, "180 s")), []);
});

test("the checker catches a rename that only some Flink versions read, unless the version is pinned", () => {
  const text = "state.checkpoints.dir: s3://bucket/checkpoints\n";
  const rename = edit(CONF, 0, 0, 21, "execution.checkpointing.dir");
  const at = finding(CONF, 0, 0, 21);
  const weak = contractViolations(new Map([[CONF, text]]), { assumedFlinkVersion: "1.20" }, at, rename);
  assert.ok(
    weak.some((v) => /^Flink 1\.19 reads/.test(v)),
    weak.join("\n"),
  );
  const pinned = new Map([
    [CONF, text],
    ["/project/.beam-flink-lint.yaml", 'flinkVersion: "1.20"\n'],
  ]);
  assert.deepEqual(contractViolations(pinned, {}, at, rename), []);
});

test("the checker catches a deletion that leaves a YAML alias without its anchor", () => {
  const file = "/project/k8s/flink.yaml";
  const manifest = [
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    "  name: orders",
    "spec:",
    "  flinkVersion: v1_19",
    "  flinkConfiguration:",
    "    kubernetes.namespace: &ns streaming",
    '    taskmanager.numberOfTaskSlots: "2"',
    "  podTemplate:",
    "    metadata:",
    "      namespace: *ns",
    "",
  ].join("\n");
  const deletion: Fix = {
    title: "test",
    safety: "safe",
    changes: [
      { file, edits: [{ range: { start: { line: 7, character: 0 }, end: { line: 8, character: 0 } }, newText: "" }] },
    ],
  };
  const violations = contractViolations(new Map([[file, manifest]]), {}, finding(file, 7, 4, 20), deletion);
  assert.ok(
    violations.some((v) => /lost their anchor/.test(v)),
    violations.join("\n"),
  );
});
