/**
 * Property-based fuzzing (fast-check, fixed seeds: every run tries the same cases) of every reader and of the
 * whole analysis, on mutated fixture, example and generated projects. Each mutated file is analysed in its project
 * and read by every other reader; see invariants.ts for what must hold.
 */
import { test } from "node:test";
import fc from "fast-check";
import { kindFromName } from "../../server/src/core/documents/index";
import { corpusFiles, flipBits, type Project, projects, shuffleLines, WRONG_ENCODINGS } from "./corpus";
import { checkAnalysis, checkRead, READER_NAMES } from "./invariants";

const SEED = 0x5eed;
/** Cases per property. */
const RUNS = 100;

let cases = 0;

/**
 * The invariants for one mutated file: analysed in its project (which reads it as what it is), and read by every
 * other reader as well.
 */
function check(project: Project, file: string, text: string): void {
  cases++;
  checkAnalysis(new Map(project.files).set(file, text));
  const kind = kindFromName(file);
  for (const name of READER_NAMES) if (kind === undefined || kindFromName(name) !== kind) checkRead(name, text);
}

/** The smallest file of each kind in the corpus (YAML by role: Flink configuration, manifest, values, compose). */
function onePerKind() {
  const kinds = [
    /\/flink-conf\.yaml$/,
    /\/config\.yaml$/,
    /\/k8s\/[^/]+\.yaml$/,
    /\/values\.yaml$/,
    /\/docker-compose\.yml$/,
    /\/Dockerfile$/,
    /\/pom\.xml$/,
    /\/build\.gradle$/,
    /\/build\.gradle\.kts$/,
    /\/gradle\.properties$/,
    /\.versions\.toml$/,
    /\.java$/,
    /\/\.beam-flink-lint\.yaml$/,
    /\/launch\.json$/,
  ];
  return kinds.flatMap((kind) => {
    const files = corpusFiles()
      .filter((c) => kind.test(c.file) && (!c.file.endsWith(".java") || JAVA_APIS.test(c.text)))
      .sort((a, b) => a.text.length - b.text.length || (a.file < b.file ? -1 : 1));
    return files.length > 0 ? [files[0]] : [];
  });
}

/** A Java file the reader parses (one that mentions none of these is only scanned). */
const JAVA_APIS = /KafkaIO|StreamExecutionEnvironment|KafkaSource/;

const pick = () => fc.nat().map((n) => corpusFiles()[n % corpusFiles().length]);

test("byte flips", { timeout: 120_000 }, (t) => {
  const flips = fc.array(fc.record({ at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }), {
    minLength: 1,
    maxLength: 12,
  });
  fc.assert(
    fc.property(pick(), flips, (f, fl) => check(f.project, f.file, flipBits(f.text, fl))),
    { seed: SEED, numRuns: RUNS },
  );
  t.diagnostic(`${RUNS} cases`);
});

test("random line shuffles, duplications and drops", { timeout: 120_000 }, (t) => {
  fc.assert(
    fc.property(pick(), fc.array(fc.nat(), { maxLength: 80 }), (f, order) =>
      check(f.project, f.file, shuffleLines(f.text, order)),
    ),
    { seed: SEED + 1, numRuns: RUNS },
  );
  t.diagnostic(`${RUNS} cases`);
});

test("binary junk inserted anywhere, or as the whole file", { timeout: 120_000 }, (t) => {
  const junk = fc.uint8Array({ minLength: 1, maxLength: 2048 });
  fc.assert(
    fc.property(pick(), junk, fc.nat(), fc.boolean(), (f, bytes, at, latin1) => {
      const noise = Buffer.from(bytes).toString(latin1 ? "latin1" : "utf8");
      const where = at % (f.text.length + 1);
      check(f.project, f.file, f.text.slice(0, where) + noise + f.text.slice(where));
      check(f.project, f.file, noise);
    }),
    { seed: SEED + 2, numRuns: RUNS },
  );
  t.diagnostic(`${RUNS * 2} cases`);
});

test("text edits: strings of YAML, XML, Java and Gradle syntax spliced in", { timeout: 120_000 }, (t) => {
  const syntax = fc.constantFrom(
    ": ",
    "\n",
    "  ",
    "- ",
    "#",
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    "&a ",
    "*a",
    "!!str ",
    "---\n",
    "|\n",
    ">-\n",
    "<",
    ">",
    "</",
    "/>",
    "<!--",
    "-->",
    "<![CDATA[",
    "&amp;",
    "(",
    ")",
    ";",
    "//",
    "/*",
    "*/",
    ".",
    "$",
    "${",
    "\\",
    "\t",
    "\r",
    "@",
    "%",
    "`",
    "kind: FlinkDeployment\n",
    "apiVersion: v1\n",
    "KafkaIO.read()",
    "commitOffsetsInFinalize()",
    "enableCheckpointing(",
    "implementation '",
    "<dependency>",
    "flinkVersion: ",
  );
  const splice = fc.array(fc.record({ at: fc.nat(), cut: fc.nat({ max: 6 }), insert: syntax }), {
    minLength: 1,
    maxLength: 10,
  });
  fc.assert(
    fc.property(pick(), splice, (f, edits) => {
      let text = f.text;
      for (const e of edits) {
        const at = e.at % (text.length + 1);
        text = text.slice(0, at) + e.insert + text.slice(at + e.cut);
      }
      check(f.project, f.file, text);
    }),
    { seed: SEED + 3, numRuns: RUNS * 2 },
  );
  t.diagnostic(`${RUNS * 2} cases`);
});

test("wrong encodings and line ends, on one file of every kind", { timeout: 120_000 }, (t) => {
  let n = 0;
  for (const f of onePerKind()) {
    for (const encode of Object.values(WRONG_ENCODINGS)) {
      check(f.project, f.file, encode(f.text));
      n++;
    }
  }
  t.diagnostic(`${n} cases`);
});

test("truncation at every position of one file of every kind", { timeout: 120_000 }, (t) => {
  let n = 0;
  for (const f of onePerKind()) {
    for (let end = 0; end <= f.text.length; end++) {
      cases++;
      checkAnalysis(new Map(f.project.files).set(f.file, f.text.slice(0, end)), 1);
      n++;
    }
  }
  t.diagnostic(`${n} cases`);
});

test("fuzzing volume", (t) => {
  t.diagnostic(
    `${cases} mutated files analysed in their projects and read by the other readers; ${projects().length} seed projects`,
  );
});
