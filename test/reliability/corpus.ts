/**
 * The seed corpus for fuzzing: every rule fixture case, every example project and a few generated ones, as
 * projects of files, plus ways to break a text (byte flips, line shuffles, junk, wrong encodings).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { flinkConf, gradle, javaJob, manifest, pom } from "../../bench/generate";
import { Random } from "../../bench/random";
import { FIXTURE_ROOT, listCases, loadCase, repoPath } from "../harness/fixtures";

export interface Project {
  name: string;
  files: Map<string, string>;
}

function exampleProjects(): Project[] {
  const root = repoPath("examples");
  const out: Project[] = [];
  for (const name of readdirSync(root).sort()) {
    const dir = join(root, name);
    if (!statSync(dir).isDirectory()) continue;
    const files = new Map<string, string>();
    const walk = (d: string) => {
      for (const entry of readdirSync(d).sort()) {
        const p = join(d, entry);
        if (statSync(p).isDirectory()) walk(p);
        else if (!entry.endsWith(".md")) files.set(`${FIXTURE_ROOT}/${relative(dir, p)}`, readFileSync(p, "utf8"));
      }
    };
    walk(dir);
    out.push({ name: `examples/${name}`, files });
  }
  return out;
}

/** Larger projects from the benchmark's generator: Kotlin build scripts, many documents, long classes. */
function generatedProjects(): Project[] {
  const rng = new Random(7);
  const at = (files: Record<string, string>) =>
    new Map(Object.entries(files).map(([path, text]) => [`${FIXTURE_ROOT}/${path}`, text]));
  return [
    { name: "generated/gradle-kts", files: at({ "build.gradle.kts": gradle(30, true, rng) }) },
    {
      name: "generated/job",
      files: at({
        "conf/flink-conf.yaml": flinkConf(40, rng),
        "k8s/flink.yaml": manifest(2, 160, rng),
        "src/main/java/com/example/Job.java": javaJob(150, rng),
      }),
    },
    {
      name: "generated/maven",
      files: at({ "pom.xml": pom(20, rng), "src/main/java/com/example/Job.java": javaJob(120, rng, "Job") }),
    },
  ];
}

let corpus: Project[] | undefined;

/** Fixture cases, examples and generated projects, in a fixed order, so that a seed picks the same everywhere. */
export function projects(): Project[] {
  corpus ??= [
    ...listCases(repoPath("test", "fixtures", "rules")).map((c) => ({
      name: `${c.code}/${c.name}`,
      files: loadCase(c.dir).files,
    })),
    ...exampleProjects(),
    ...generatedProjects(),
  ];
  return corpus;
}

/** Every (project, file) pair of the corpus. */
export function corpusFiles(): { project: Project; file: string; text: string }[] {
  return projects().flatMap((project) => [...project.files].map(([file, text]) => ({ project, file, text })));
}

export function flipBits(text: string, flips: readonly { at: number; bit: number }[]): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length === 0) return text;
  for (const f of flips) bytes[f.at % bytes.length] ^= 1 << f.bit;
  return bytes.toString("utf8");
}

export function shuffleLines(text: string, order: readonly number[]): string {
  const lines = text.split("\n");
  return order.map((i) => lines[i % lines.length]).join("\n");
}

/** The text as another program would have written it, read back as UTF-8 (what an editor shows). */
export const WRONG_ENCODINGS: Record<string, (text: string) => string> = {
  "UTF-16LE with BOM": (t) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, "utf16le")]).toString("utf8"),
  "UTF-16BE": (t) => Buffer.from(t, "utf16le").swap16().toString("utf8"),
  "Latin-1 read as UTF-8": (t) => Buffer.from(`${t}é ü ß`, "latin1").toString("utf8"),
  "UTF-8 read as Latin-1": (t) => Buffer.from(`${t}é ü ß ✓`, "utf8").toString("latin1"),
  "UTF-8 BOM": (t) => `\uFEFF${t}`,
  "CRLF line ends": (t) => t.replace(/\n/g, "\r\n"),
  "CR line ends": (t) => t.replace(/\n/g, "\r"),
  "NUL bytes": (t) => t.replace(/ /g, " \0"),
  "lone surrogates": (t) => t.replace(/:/g, ":\uD800"),
};
