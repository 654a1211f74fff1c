/**
 * The job code of a project in every language, and which of it is test code. Test sources run jobs on mini
 * clusters, embedded Kafka or the DirectRunner for a few seconds: their checkpointing, parallelism and consumer
 * settings say nothing about production, so the derived answers below leave them out.
 */
import type { CodeLanguage, JobCode } from "../jobcode/facts";
import { isTestFile } from "../jobcode/testCode";
import type { ProjectModel } from "../workspace/project";
import { relativeTo } from "../workspace/workspace";

const LANGUAGE_OF: [RegExp, CodeLanguage][] = [
  [/\.java$/, "java"],
  [/\.(scala|sc)$/, "scala"],
  [/\.kt$/, "kotlin"],
  [/\.py$/, "python"],
];

/** Whether a file of the project is test code, by its path inside the project (and its language). */
export function isTestCode(project: ProjectModel, file: string): boolean {
  const language = project.fileFacts(file)?.code?.language ?? LANGUAGE_OF.find(([re]) => re.test(file))?.[1];
  return isTestFile(relativeTo(project.root, file), language ?? "java");
}

const production = new WeakMap<ProjectModel, JobCode[]>();

/** The project's job-code files that are not tests. */
export function productionCode(project: ProjectModel): JobCode[] {
  let files = production.get(project);
  if (!files) {
    files = project.code.files.filter((f) => !f.isTest);
    production.set(project, files);
  }
  return files;
}

/** The job-code facts of one file. */
export function codeOf(project: ProjectModel, file: string): JobCode | undefined {
  return project.fileFacts(file)?.code;
}

/** Every Beam Kafka read of the project, test code included (a read that cannot be built fails its tests too). */
export function allReads(project: ProjectModel): JobCode["kafkaReads"] {
  return project.code.kafkaReads;
}

/** Every job-code file of the project, test code included. */
export function allCode(project: ProjectModel): JobCode[] {
  return project.code.files;
}

/**
 * `name` as a word of code (`$` counts as a letter of Java identifiers): how other code mentions a class, a module
 * or a method, in a call, an import, a method reference or a string used by reflection alike.
 */
export function wordPattern(name: string, flags = ""): RegExp {
  return new RegExp(`(?<![\\w$])${name.replace(/[$]/g, "\\$")}(?![\\w$])`, flags);
}
