/**
 * Property-based fuzzing (fixed seeds) of what is on disk: random workspaces of regular files with bytes that are
 * not always UTF-8, symbolic links inside, outside, dangling and looping, and FIFOs under the names the product
 * reads, next to a folder outside the workspace. `--fix --fix-type all` runs on each, in a child process with a
 * timeout, and must finish, stay inside the workspace, keep links and FIFOs as they are, leave files that are not
 * UTF-8 byte for byte, and write only valid UTF-8.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { decodeText } from "../../server/src/core/encoding";
import { emptyTempDir } from "../cli/helpers";
import { distPath } from "../harness/fixtures";

const SEED = 0xd15c;

const NAMES = [
  "flink-conf.yaml",
  "conf/config.yaml",
  ".gitignore",
  ".beam-flink-lint.yaml",
  "pom.xml",
  "k8s/flink.yaml",
  "sub/flink-conf.yaml",
  "gradle/libs.versions.toml",
  "src/Job.java",
  "sub/deep/flink-conf.yaml",
];

const TEXTS = [
  "state.backend: rocksdb\nstate.backend: hashmap\nrestart-strategy.fixed-delay.delay: 10 # beam-flink-lint-disable-line BFL999\n",
  "taskmanager.numberOfTaskSlots: 2\nparallelism.default: 8\n",
  "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: a\nspec:\n  flinkConfiguration:\n    kubernetes.namespace: &ns x\n    state.backend: rocksdb\n  podTemplate:\n    metadata:\n      namespace: *ns\n",
  "<project><!-- beam-flink-lint-disable-next-line BFL301 --><dependencies/></project>\n",
  '[versions]\nbeam = "2.50.0"\nbeam = "2.51.0"\n',
  'class Job { void f(KafkaIO k) { String s = "// beam-flink-lint-disable-line BFL401"; } }\n',
  "scratch/\n*.tmp\n",
  'flinkVersion: "1.19"\n',
];

/** How a text is turned into bytes: as it is, with a BOM, CRLF, UTF-16, or with bytes that are not UTF-8. */
const ENCODE: ((text: string, at: number) => Buffer)[] = [
  (t) => Buffer.from(t),
  (t) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t)]),
  (t) => Buffer.from(t.replace(/\n/g, "\r\n")),
  (t) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, "utf16le")]),
  (t, at) => {
    const b = Buffer.from(t);
    const i = at % (b.length + 1);
    return Buffer.concat([b.subarray(0, i), Buffer.from([0xe9]), b.subarray(i)]);
  },
  (t, at) => {
    const b = Buffer.from(t);
    const i = at % (b.length + 1);
    return Buffer.concat([b.subarray(0, i), Buffer.from([0xc3]), b.subarray(i)]);
  },
];

type Entry =
  | { kind: "file"; name: string; text: number; encode: number; at: number }
  | { kind: "link-in" | "link-out" | "dir-link-out" | "dangling" | "loop" | "fifo"; name: string };

const entry: fc.Arbitrary<Entry> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("file" as const),
      name: fc.constantFrom(...NAMES),
      text: fc.nat(TEXTS.length - 1),
      encode: fc.nat(ENCODE.length - 1),
      at: fc.nat(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom("link-in", "link-out", "dir-link-out", "dangling", "loop", "fifo"),
      name: fc.constantFrom(...NAMES, "linked", "sub/linked"),
    }),
  },
);

function snapshot(dir: string, rel: string[]): Map<string, Buffer> {
  return new Map(rel.map((r) => [r, readFileSync(join(dir, r))]));
}

test("random workspaces of links, FIFOs and bytes that are not UTF-8: --fix stays inside and breaks nothing", {
  timeout: 300_000,
}, (t) => {
  let runs = 0;
  fc.assert(
    fc.property(fc.array(entry, { minLength: 1, maxLength: 10 }), (entries) => {
      runs++;
      const root = emptyTempDir();
      const ws = join(root, "ws");
      const outside = join(root, "outside");
      mkdirSync(ws);
      mkdirSync(join(outside, "conf"), { recursive: true });
      writeFileSync(join(outside, "victim.yaml"), TEXTS[0]);
      writeFileSync(join(outside, "conf", "flink-conf.yaml"), TEXTS[0]);
      const outsideBefore = snapshot(outside, ["victim.yaml", "conf/flink-conf.yaml"]);
      const made = new Map<string, Entry>();
      const notUtf8 = new Map<string, Buffer>();
      for (const e of entries) {
        const path = join(ws, e.name);
        if (made.has(e.name)) continue;
        mkdirSync(dirname(path), { recursive: true });
        try {
          if (e.kind === "file") {
            const bytes = ENCODE[e.encode](TEXTS[e.text], e.at);
            writeFileSync(path, bytes);
            if (decodeText(bytes).problem) notUtf8.set(e.name, bytes);
          } else if (e.kind === "link-in") symlinkSync(resolve(ws, "sub-target.yaml"), path);
          else if (e.kind === "link-out") symlinkSync(join(outside, "victim.yaml"), path);
          else if (e.kind === "dir-link-out") symlinkSync(join(outside, "conf"), path);
          else if (e.kind === "dangling") symlinkSync(join(root, "nowhere"), path);
          else if (e.kind === "loop") symlinkSync(path, path);
          else if (spawnSync("mkfifo", [path]).status !== 0) continue;
        } catch {
          continue;
        }
        made.set(e.name, e);
      }
      writeFileSync(join(ws, "sub-target.yaml"), TEXTS[1]);

      const r = spawnSync(
        process.execPath,
        [resolve(distPath("cli.js")), "--fix", "--fix-type", "all", "--format", "json", "."],
        { cwd: ws, encoding: "utf8", timeout: 30_000, maxBuffer: 1 << 28 },
      );
      try {
        const what = `${JSON.stringify(entries)}\n${r.stderr}`;
        assert.equal(r.error, undefined, `did not finish: ${what}`);
        assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${what}`);
        const report = JSON.parse(r.stdout) as { findings: { file: string }[] };
        assert.deepEqual(
          report.findings.filter((f) => f.file.startsWith("..") || f.file.startsWith("/")),
          [],
          what,
        );
        assert.deepEqual(snapshot(outside, ["victim.yaml", "conf/flink-conf.yaml"]), outsideBefore, what);
        for (const [name, e] of made) {
          const stat = lstatSync(join(ws, name));
          if (e.kind === "fifo") assert.ok(stat.isFIFO(), `${name} is still a FIFO`);
          else if (e.kind !== "file") assert.ok(stat.isSymbolicLink(), `${name} is still a link`);
          else {
            const bytes = readFileSync(join(ws, name));
            const kept = notUtf8.get(name);
            if (kept) assert.deepEqual(bytes, kept, `${name}: not UTF-8, so not written`);
            else assert.equal(decodeText(bytes).problem, undefined, `${name} is still UTF-8`);
          }
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }),
    { seed: SEED, numRuns: 30 },
  );
  t.diagnostic(`${runs} workspaces`);
});

test("decoding random bytes never throws; valid UTF-8 comes back byte for byte", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 512 }), fc.boolean(), (raw, bom) => {
      const bytes = bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), raw]) : Buffer.from(raw);
      const decoded = decodeText(bytes);
      if (!decoded.problem) {
        const back = Buffer.concat([
          decoded.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
          Buffer.from(decoded.text),
        ]);
        assert.deepEqual(back, bytes);
      } else {
        assert.ok(decoded.problem.at.line >= 0 && decoded.problem.at.character >= 0);
      }
    }),
    { seed: SEED + 1, numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
      const decoded = decodeText(Buffer.from(text));
      // Text with many NUL characters reads as UTF-16; anything else is plain UTF-8.
      if (!decoded.problem) assert.equal((decoded.bom ? "\uFEFF" : "") + decoded.text, text);
    }),
    { seed: SEED + 2, numRuns: 2000 },
  );
});
