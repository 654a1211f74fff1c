/**
 * The known bugs (advisory findings) that reach a piece of job code: the Beam runner's and Beam SDK's for a KafkaIO
 * or ReadFromKafka read, the Flink Kafka connector's for a KafkaSource, KafkaSink or legacy client. They are the
 * findings the advisory rules report on the build, Dockerfiles and requirements, so the hover on the code says
 * exactly what the Problems panel says about the version in use, with a pointer to where that version is defined.
 */

import type { Severity } from "../findings";
import { rule as bfl301 } from "../rules/build/bfl301-beam-restore-duplicate-splits";
import { rule as bfl302 } from "../rules/build/bfl302-beam-kafka-offsets-not-committed";
import { rule as bfl306 } from "../rules/build/bfl306-kafka-connector-known-bug";
import { rule as bfl308 } from "../rules/build/bfl308-beam-xlang-kafka-duplicates";
import type { Report, Rule } from "../rules/types";
import type { ProjectModel } from "../workspace/project";
import { relative } from "./hoverText";

/** Which software the code runs on: Beam (runner and SDK) or the Flink Kafka connector. */
export type BugSubject = "beam" | "connector";

const RULES: Record<BugSubject, Rule[]> = {
  beam: [bfl301, bfl302, bfl308],
  connector: [bfl306],
};

interface BugReport {
  code: string;
  severity: Severity;
  report: Report;
}

const cache = new WeakMap<ProjectModel, Map<BugSubject, BugReport[]>>();

function reportsOf(project: ProjectModel, subject: BugSubject): BugReport[] {
  let bySubject = cache.get(project);
  if (!bySubject) {
    bySubject = new Map();
    cache.set(project, bySubject);
  }
  let reports = bySubject.get(subject);
  if (!reports) {
    const found: BugReport[] = [];
    for (const rule of RULES[subject]) {
      const { code, severity } = rule.meta;
      try {
        rule.check({
          project,
          report: (report) => found.push({ code, severity: report.severity ?? severity, report }),
        });
      } catch {
        // The engine reports a failing rule; a hover shows what the other rules found.
      }
    }
    reports = found;
    bySubject.set(subject, reports);
  }
  return reports;
}

/**
 * A markdown section listing the known bugs of the Beam or connector versions in use, one line each (rule code,
 * severity, message, and where the version is defined); undefined when there are none.
 */
export function knownBugsSection(project: ProjectModel, subject: BugSubject): string | undefined {
  const reports = reportsOf(project, subject);
  if (reports.length === 0) return undefined;
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const { code, severity, report } of reports) {
    const where = `\`${relative(project, report.file)}\` line ${report.range.start.line + 1}`;
    const line = `- **${code}** (${severity}) ${report.message} Version defined in ${where}.`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  const what = subject === "beam" ? "the Beam version in use" : "the Kafka connector version in use";
  return `Known bugs of ${what}:\n${lines.join("\n")}`;
}
