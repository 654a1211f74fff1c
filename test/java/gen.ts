/**
 * Generates a long Java job class for scale tests: fields, helper methods with maps, KafkaIO reads, DataStream
 * chains with lambdas, loops and switches. Run directly to print parse times and memory:
 * `node --expose-gc out/test/java/gen.js 2000 10000`.
 */
import { readJava } from "../../server/src/core/documents/java/reader";

export interface GeneratedJob {
  text: string;
  /** KafkaIO reads written in the class. */
  reads: number;
  /** DataStream operators written in the class. */
  operators: number;
}

function block(i: number): string[] {
  return [
    `  private static Map<String, Object> consumerProps${i}(String group) {`,
    "    Map<String, Object> props = new HashMap<>();",
    "    props.put(ConsumerConfig.GROUP_ID_CONFIG, group);",
    `    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, ${i % 500});`,
    "    return props;",
    "  }",
    "",
    `  void pipeline${i}(Pipeline p, List<String> topics) {`,
    `    for (int k = 0; k < topics.size(); k++) {`,
    "      switch (k % 3) {",
    '        case 0 -> LOG.info("topic {}", topics.get(k));',
    '        default -> LOG.debug("skip");',
    "      }",
    "    }",
    `    p.apply("Read${i}", KafkaIO.<String, String>read()`,
    '        .withBootstrapServers("kafka:9092")',
    `        .withTopic("topic-${i}")`,
    `        .withConsumerConfigUpdates(consumerProps${i}("group-${i}"))`,
    "        .commitOffsetsInFinalize()",
    "        .withoutMetadata())",
    "        .apply(MapElements.into(TypeDescriptors.strings()).via((KV<String, String> kv) -> kv.getValue()));",
    "  }",
    "",
    `  void stream${i}(StreamExecutionEnvironment env) {`,
    `    DataStream<String> s = env.fromElements("a", "b").setParallelism(${(i % 8) + 1});`,
    "    s.map(v -> v.toUpperCase())",
    "        .filter(v -> !v.isEmpty())",
    "        .keyBy(v -> v)",
    "        .reduce((a, b) -> a + b)",
    "        .print();",
    "  }",
    "",
  ];
}

export function generateJob(lines: number): GeneratedJob {
  const out = [
    "package com.example;",
    "",
    "import org.apache.beam.sdk.io.kafka.KafkaIO;",
    "",
    "public class GeneratedJob {",
    "  private static final Logger LOG = LoggerFactory.getLogger(GeneratedJob.class);",
    "",
  ];
  let i = 0;
  while (out.length + 32 < lines) out.push(...block(i++));
  out.push("}", "");
  return { text: out.join("\n"), reads: i, operators: i * 6 };
}

function main(sizes: number[]): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (const size of sizes) {
    const job = generateJob(size);
    const times: number[] = [];
    let heap = 0;
    for (let run = 0; run < 3; run++) {
      const start = process.hrtime.bigint();
      const facts = readJava("/gen/GeneratedJob.java", job.text);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (facts.kafkaReads.length !== job.reads)
        throw new Error(`found ${facts.kafkaReads.length} reads of ${job.reads}`);
      gc?.();
      heap = Math.max(heap, process.memoryUsage().heapUsed);
    }
    const lineCount = job.text.split("\n").length;
    const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
    console.log(
      `${lineCount} lines, ${(job.text.length / 1024).toFixed(0)} KiB: ${times.map((t) => `${t.toFixed(0)} ms`).join(", ")}; ` +
        `heap after GC ${mb(heap)}, RSS ${mb(process.memoryUsage().rss)}`,
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
