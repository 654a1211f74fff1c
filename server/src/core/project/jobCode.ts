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

/** Names too common to tell that one file uses another (`p.run()`, `main`, `expand`). */
const GENERIC = new Set(
  "main run apply expand process execute build create get set of init start stop close open print".split(" "),
);

/**
 * The names a job-code file declares for other files to use: its file name (a Python module, a Java class), its
 * classes, objects, interfaces and traits, and the functions Kotlin and Scala declare at the top level (`fun
 * Pipeline.readFromKafka(…)`, which callers write without a qualifier). Names too common to tell are left out.
 */
function declaredNames(file: string, text: string): Set<string> {
  const names = new Set<string>();
  const base = file.slice(file.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  if (/^[A-Za-z_]\w*$/.test(base)) names.add(base);
  if (file.endsWith(".py")) return names;
  const declaration =
    /\b(?:class|object|interface|trait|enum)\s+([A-Za-z_]\w*)|^(?:fun|def|val)\s+(?:[\w.<>]+\.)?([A-Za-z_]\w*)/gm;
  for (const m of text.matchAll(declaration)) {
    const name = m[1] ?? m[2];
    if (name && !GENERIC.has(name)) names.add(name);
  }
  return names;
}

const declaredCache = new WeakMap<ProjectModel, Map<string, Set<string>>>();

/**
 * Whether code (`text`) names something the job-code file `file` (of text `fileText`) declares: its class, object
 * or module, or one of its functions, methods or values, as a word. How one file shows that it uses another.
 */
export function namesFile(project: ProjectModel, file: string, fileText: string, text: string): boolean {
  let files = declaredCache.get(project);
  if (!files) {
    files = new Map();
    declaredCache.set(project, files);
  }
  let names = files.get(file);
  if (!names) {
    names = declaredNames(file, fileText);
    files.set(file, names);
  }
  for (const n of names) if (text.includes(n) && wordPattern(n).test(text)) return true;
  return false;
}

/**
 * Whether the project's JVM sources declare the class `qualified` names (`com.example.OrdersJob`): a class, object,
 * interface or record of that simple name in a file of that package, or for a Kotlin file facade (`OrdersJobKt`) a
 * file `OrdersJob.kt` of that package. Undefined for a name that is not a class of job code: PyFlink's driver
 * (`org.apache.flink.client.python.PythonDriver`) runs the Python script its arguments name.
 */
export function declaresEntryClass(project: ProjectModel, qualified: string): boolean | undefined {
  const name = qualified.trim();
  if (name === "" || name === "org.apache.flink.client.python.PythonDriver") return undefined;
  const dot = name.lastIndexOf(".");
  const pkg = dot >= 0 ? name.slice(0, dot) : "";
  const simple = name.slice(dot + 1);
  const facade = /^(.+)Kt$/.exec(simple)?.[1];
  const declares = new RegExp(`\\b(class|object|interface|record|enum)\\s+${escapeRegExp(simple)}\\b`);
  for (const facts of project.files) {
    if (facts.kind !== "java" && facts.kind !== "scala" && facts.kind !== "kotlin") continue;
    const text = facts.text;
    if (!text.includes(simple) && facade === undefined) continue;
    const own = /^\s*package\s+([\w.]+)/m.exec(text)?.[1] ?? "";
    if (own !== pkg) continue;
    const base = facts.file.slice(facts.file.lastIndexOf("/") + 1).replace(/\.\w+$/, "");
    if (declares.test(text) || (facade !== undefined && facts.kind === "kotlin" && base === facade)) return true;
  }
  return false;
}

const CODE_KINDS = new Set(["java", "scala", "kotlin", "python"]);

/**
 * Whether the project's job code names a configuration key as a string of its own (`"myapp.kafka.topic"` in Java,
 * Scala or Kotlin, `'myapp.kafka.topic'` in Python): code that reads its own settings from the Flink configuration.
 */
export function codeNamesKey(project: ProjectModel, key: string): boolean {
  return project.files.some(
    (f) => CODE_KINDS.has(f.kind) && (f.text.includes(`"${key}"`) || f.text.includes(`'${key}'`)),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Amazon Managed Service for Apache Flink runs the application's checkpoints itself: with its default checkpoint
 * configuration (`ConfigurationType: DEFAULT`) every 60 s, whatever the code sets; only a `CUSTOM` configuration of
 * the application, which is not in its code, may turn them off. An application for it reads its runtime properties
 * (`KinesisAnalyticsRuntime.getApplicationProperties()` in Java, `/etc/flink/application_properties.json` in Python)
 * or depends on `com.amazonaws:aws-kinesisanalytics-runtime`.
 */
export function runsOnManagedFlink(project: ProjectModel, file: string): boolean {
  const text = project.fileFacts(file)?.text ?? "";
  if (MANAGED_FLINK_CODE.test(text)) return true;
  // A job beside code that reads the service's runtime properties is packaged for the service with it.
  if (managedFlinkFolders(project).has(file.slice(0, file.lastIndexOf("/")))) return true;
  return managedFlinkBuild(project);
}

const managedFolders = new WeakMap<ProjectModel, Set<string>>();

/** The folders holding job code that reads Amazon Managed Service for Apache Flink's runtime properties. */
function managedFlinkFolders(project: ProjectModel): Set<string> {
  let folders = managedFolders.get(project);
  if (!folders) {
    folders = new Set(
      project.files
        .filter((f) => CODE_KINDS.has(f.kind) && MANAGED_FLINK_CODE.test(f.text))
        .map((f) => f.file.slice(0, f.file.lastIndexOf("/"))),
    );
    managedFolders.set(project, folders);
  }
  return folders;
}

const MANAGED_FLINK_CODE = /\bKinesisAnalyticsRuntime\b|\/etc\/flink\/application_properties\.json/;

const managedBuilds = new WeakMap<ProjectModel, boolean>();

function managedFlinkBuild(project: ProjectModel): boolean {
  let yes = managedBuilds.get(project);
  if (yes === undefined) {
    yes = project.dependencies.some((d) => /^aws-kinesisanalytics-(runtime|flink)$/.test(d.artifact));
    managedBuilds.set(project, yes);
  }
  return yes;
}
