/**
 * Generates a long Python job module for scale tests: constants, helper functions building consumer configs, Beam
 * pipelines with ReadFromKafka, PyFlink jobs with KafkaSource chains, classes, loops and comprehensions. Run directly
 * for timings (a cold full read, a re-read after a one-character edit, and tree-sitter alone, medians of several
 * runs; wall-clock and CPU time of this process):
 * `node --import ./scripts/test-setup.mjs out/test/python/gen.js 500 2000`.
 */
import { readDocument } from "../../server/src/core/documents/index";
import { clearUnitCache } from "../../server/src/core/documents/python/unitCache";
import { parseTree } from "../../server/src/core/jobcode/treeSitter";

export interface GeneratedModule {
  text: string;
  /** ReadFromKafka reads written in the module. */
  reads: number;
  /** KafkaSource builders written in the module. */
  sources: number;
  /** DataStream operators written in the module. */
  operators: number;
}

function block(i: number): string[] {
  return [
    `GROUP_${i} = "group-${i}"`,
    "",
    "",
    `def consumer_config_${i}(servers, group=GROUP_${i}):`,
    `    """The consumer settings of pipeline ${i}."""`,
    `    config = {"bootstrap.servers": servers, "group.id": group}`,
    `    config["max.poll.records"] = ${i % 500}`,
    "    return config",
    "",
    "",
    `def pipeline_${i}(p, topics):`,
    "    for k, topic in enumerate(topics):",
    "        if k % 3 == 0:",
    '            logging.info("topic %s", topic)',
    "    (",
    "        p",
    `        | "Read${i}" >> ReadFromKafka(`,
    `            consumer_config=consumer_config_${i}("kafka:9092", GROUP_${i}),`,
    `            topics=["topic-${i}"],`,
    "            commit_offset_in_finalize=True,",
    "        )",
    `        | "Values${i}" >> beam.Map(lambda record: record[1].decode("utf-8"))`,
    "    )",
    "",
    "",
    `class Stream${i}:`,
    "    def __init__(self):",
    "        self.env = StreamExecutionEnvironment.get_execution_environment()",
    "",
    "    def run(self):",
    "        source = KafkaSource.builder() \\",
    '            .set_bootstrap_servers("kafka:9092") \\',
    `            .set_topics("topic-${i}") \\`,
    `            .set_group_id(f"stream-{GROUP_${i}}") \\`,
    "            .build()",
    `        words = self.env.from_source(source, WatermarkStrategy.no_watermarks(), "s${i}").set_parallelism(${(i % 8) + 1})`,
    "        words.map(lambda v: v.upper()) \\",
    "            .filter(lambda v: len(v) > 0) \\",
    "            .key_by(lambda v: v) \\",
    "            .reduce(lambda a, b: a + b) \\",
    "            .print()",
    `        return [w for w in ("a", "b") if w != "${i}"]`,
    "",
    "",
  ];
}

export function generateModule(lines: number): GeneratedModule {
  const out = [
    '"""A generated module with many pipelines and streams."""',
    "import logging",
    "",
    "import apache_beam as beam",
    "from apache_beam.io.kafka import ReadFromKafka",
    "from pyflink.common import WatermarkStrategy",
    "from pyflink.datastream import StreamExecutionEnvironment",
    "from pyflink.datastream.connectors.kafka import KafkaSource",
    "",
    "",
  ];
  let i = 0;
  while (out.length + block(0).length + 4 < lines) out.push(...block(i++));
  out.push('if __name__ == "__main__":', "    logging.basicConfig(level=logging.INFO)", "");
  return { text: out.join("\n"), reads: i, sources: i, operators: i * 6 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Wall-clock and CPU milliseconds of `f` (CPU time counts this process only: the machine may be shared). */
function timed<T>(f: () => T, into: { wall: number[]; cpu: number[] }): T {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const out = f();
  into.wall.push(Number(process.hrtime.bigint() - start) / 1e6);
  const used = process.cpuUsage(cpu);
  into.cpu.push((used.user + used.system) / 1000);
  return out;
}

function main(sizes: number[]): void {
  const runs = 15;
  for (const size of sizes) {
    const job = generateModule(size);
    const edited = job.text.replace('"topic-1"', '"topic-7"');
    const series = () => ({ wall: [] as number[], cpu: [] as number[] });
    const [full, again, parseFull, parseAgain] = [series(), series(), series(), series()];
    for (let run = 0; run < runs; run++) {
      const file = `/gen/run${run}/module.py`;
      // A cold read: nothing of the module is kept from an earlier run.
      clearUnitCache();
      const facts = timed(() => readDocument(file, job.text).code, full);
      if (facts?.kafkaReads.length !== job.reads) throw new Error(`found ${facts?.kafkaReads.length} of ${job.reads}`);
      timed(() => readDocument(file, edited), again);
      const floor = `/gen/floor${run}/module.py`;
      timed(() => parseTree(floor, "python", job.text), parseFull);
      timed(() => parseTree(floor, "python", edited), parseAgain);
    }
    const lineCount = job.text.split("\n").length;
    const f = (x: { wall: number[]; cpu: number[] }) =>
      `${median(x.wall).toFixed(1)} ms (CPU ${median(x.cpu).toFixed(1)} ms)`;
    console.log(
      `${lineCount} lines, ${(job.text.length / 1024).toFixed(0)} KiB, medians of ${runs}:\n` +
        `  cold read ${f(full)}; tree-sitter full parse ${f(parseFull)}\n` +
        `  re-read after a one-character edit ${f(again)}; incremental parse ${f(parseAgain)}`,
    );
  }
}

if (require.main === module)
  main(
    process.argv
      .slice(2)
      .map(Number)
      .filter((n) => n > 0),
  );
