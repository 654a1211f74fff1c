/**
 * Generates the benchmark inputs from a seed: Flink configuration files, a FlinkDeployment manifest, build files,
 * Java, Scala, Kotlin and Python job code, and a workspace of many small projects. Nothing is downloaded; the same seed gives the same
 * bytes on every machine (the run records a digest of them).
 *
 * `node out/bench/generate.js <folder> [seed]` writes them out for a look.
 */

import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pushAll } from "../server/src/core/arrays";
import catalogue from "../server/src/core/knowledge/flink-options.json";
import { Random } from "./random";

export const DEFAULT_SEED = 20240611;

interface CatalogueType {
  type?: string;
  enumValues?: string[];
}

interface CatalogueOption extends CatalogueType {
  key: string;
  types?: CatalogueType[];
  since?: string;
  until?: string;
}

function minorAtMost(a: string, b: string): boolean {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am < bm || (am === bm && an <= bn);
}

/** Keys a user can write as they are: no placeholders, no internal keys, not removed. */
const PLAIN_OPTIONS = (catalogue.options as CatalogueOption[]).filter(
  (o) => !o.key.includes("<") && !o.key.startsWith("$") && o.until === undefined,
);

function optionValue(option: CatalogueOption, rng: Random): string {
  const t = option.types ? option.types[option.types.length - 1] : option;
  switch (t.type) {
    case "Boolean":
      return rng.pick(["true", "false"]);
    case "Integer":
    case "Long":
      return String(rng.int(1, 5000));
    case "Double":
    case "Float":
      return `0.${rng.int(1, 99)}`;
    case "Duration":
      return rng.pick([`${rng.int(1, 600)} s`, `${rng.int(100, 90000)} ms`, `${rng.int(1, 30)} min`]);
    case "MemorySize":
      return rng.pick([`${rng.int(64, 8192)}m`, `${rng.int(1, 16)}gb`, `${rng.int(32, 512)}kb`]);
    case "Enum":
      return rng.pick(t.enumValues && t.enumValues.length > 0 ? t.enumValues : ["NONE"]);
    case "List":
      return `a${rng.int(1, 9)};b${rng.int(1, 9)}`;
    case "Map":
      return `k${rng.int(1, 9)}:v${rng.int(1, 99)},k${rng.int(10, 19)}:v${rng.int(1, 99)}`;
    default:
      return rng.pick([
        `/opt/flink/data-${rng.int(1, 999)}`,
        `value-${rng.int(1, 9999)}`,
        `host-${rng.int(1, 50)}:${rng.int(1024, 9999)}`,
      ]);
  }
}

/** Keys that real configurations get wrong: a removed key, an old spelling, a duration without a unit. */
const TYPICAL_MISTAKES = [
  "state.backend: rocksdb",
  "state.checkpoints.dir: hdfs://namenode:8020/flink/checkpoints",
  "taskmanager.heap.size: 4096m",
  "restart-strategy.fixed-delay.delay: 180",
  "jobmanager.heap.size: 1024m",
  "high-availability: zookeeper",
];

/** One setting of a metrics reporter, as a working configuration writes it. */
function reporterSetting(which: number, rng: Random): string {
  if (which === 0) return `port: ${rng.int(9000, 9999)}`;
  if (which === 1) return `interval: ${rng.int(10, 60)} s`;
  if (which === 2) return `host: metrics-${rng.int(1, 9)}.internal`;
  return "factory.class: org.apache.flink.metrics.prometheus.PrometheusReporterFactory";
}

/** `key: value` lines, comment lines and blank lines of a legacy flink-conf.yaml with `keys` keys. */
export function flinkConf(keys: number, rng: Random): string {
  const options = rng.shuffle(PLAIN_OPTIONS);
  const lines = ["# Flink configuration (generated)", "#==============================================", ""];
  let written = 0;
  for (const mistake of TYPICAL_MISTAKES.slice(0, Math.min(TYPICAL_MISTAKES.length, Math.ceil(keys / 40)))) {
    lines.push(mistake);
    written++;
  }
  for (let i = 0; written < keys; i++) {
    if (i % 12 === 0) lines.push("", `# section ${i / 12 + 1}: settings ${i}-${i + 11}`);
    if (i < options.length) lines.push(`${options[i].key}: ${optionValue(options[i], rng)}`);
    else {
      // Beyond the catalogue: reporter settings, which Flink passes on under a prefix of its own.
      const r = i - options.length;
      lines.push(`metrics.reporter.r${Math.floor(r / 4)}.${reporterSetting(r % 4, rng)}`);
    }
    written++;
  }
  lines.push("");
  return lines.join("\n");
}

/** One FlinkDeployment of exactly `lines` lines (at least 60). */
function flinkDeployment(i: number, lines: number, rng: Random): string[] {
  const minor = rng.pick(["1.17", "1.18", "1.19", "1.20"]);
  const head = [
    "---",
    `# streaming job ${i}`,
    "apiVersion: flink.apache.org/v1beta1",
    "kind: FlinkDeployment",
    "metadata:",
    `  name: job-${i}`,
    "  namespace: streaming",
    "  labels:",
    `    app: job-${i}`,
    `    team: team-${i % 4}`,
    "spec:",
    `  image: flink:${minor}.${rng.int(0, 3)}-scala_2.12-java11`,
    `  flinkVersion: v${minor.replace(".", "_")}`,
    "  serviceAccount: flink",
    "  flinkConfiguration:",
    `    taskmanager.numberOfTaskSlots: "${rng.pick([1, 2, 4, 8])}"`,
    `    state.checkpoints.dir: s3://checkpoints-${rng.int(1, 9)}/job-${i}`,
    `    execution.checkpointing.interval: ${rng.pick(["30s", "60s", "0", "5 min"])}`,
    `    restart-strategy.fixed-delay.attempts: "${rng.int(1, 10)}"`,
    `    high-availability.type: ${rng.pick(["kubernetes", "NONE"])}`,
    `    high-availability.storageDir: s3://ha-${rng.int(1, 9)}/job-${i}`,
  ];
  const tail = [
    "  jobManager:",
    `    replicas: ${rng.int(1, 2)}`,
    "    resource:",
    `      memory: "${rng.int(1, 4) * 1024}m"`,
    `      cpu: ${rng.int(1, 2)}`,
    "  taskManager:",
    `    replicas: ${rng.int(1, 6)}`,
    "    resource:",
    `      memory: "${rng.int(2, 8) * 1024}m"`,
    `      cpu: ${rng.int(1, 4)}`,
    "  podTemplate:",
    "    spec:",
    "      containers:",
    "        - name: flink-main-container",
    "          volumeMounts:",
    "            - mountPath: /opt/flink/log",
    "              name: flink-logs",
    "      volumes:",
    "        - name: flink-logs",
    "          emptyDir: {}",
    "  job:",
    `    jarURI: local:///opt/flink/usrlib/job-${i}.jar`,
    `    entryClass: com.example.Job${i}`,
    `    args: ["--topic", "topic-${i}", "--group", "group-${rng.int(1, 99)}"]`,
    `    parallelism: ${rng.int(1, 32)}`,
    `    upgradeMode: ${rng.pick(["savepoint", "last-state", "stateless"])}`,
    "    state: running",
  ];
  // Keys of the deployment's own Flink version, as a working manifest has.
  const options = rng.shuffle(
    PLAIN_OPTIONS.filter(
      (o) => !o.key.startsWith("kubernetes.operator") && (o.since === undefined || minorAtMost(o.since, minor)),
    ),
  );
  const body: string[] = [];
  for (let k = 0; head.length + body.length + tail.length < lines; k++) {
    body.push(`    ${options[k].key}: "${optionValue(options[k], rng).replace(/"/g, "")}"`);
  }
  return [...head, ...body, ...tail];
}

/** A manifest of `docs` FlinkDeployments, `lines` lines in all. */
export function manifest(docs: number, lines: number, rng: Random): string {
  const out: string[] = [];
  for (let i = 0; i < docs; i++) out.push(...flinkDeployment(i, Math.floor(lines / docs), rng));
  return `${out.join("\n")}\n`;
}

const COMMON_LIBRARIES = [
  ["com.google.guava", "guava", "32.1.3-jre"],
  ["com.fasterxml.jackson.core", "jackson-databind", "2.15.3"],
  ["org.slf4j", "slf4j-api", "1.7.36"],
  ["org.apache.logging.log4j", "log4j-core", "2.20.0"],
  ["org.apache.commons", "commons-lang3", "3.13.0"],
  ["commons-io", "commons-io", "2.15.0"],
  ["org.apache.avro", "avro", "1.11.3"],
  ["io.confluent", "kafka-avro-serializer", "7.5.1"],
  ["org.junit.jupiter", "junit-jupiter", "5.10.1"],
  ["org.mockito", "mockito-core", "5.7.0"],
  ["org.assertj", "assertj-core", "3.24.2"],
  ["joda-time", "joda-time", "2.12.5"],
  ["com.google.protobuf", "protobuf-java", "3.25.1"],
  ["org.postgresql", "postgresql", "42.6.0"],
  ["redis.clients", "jedis", "5.0.2"],
] as const;

/** `${name}`: a property or variable reference as Maven and Gradle write it. */
const ref = (name: string) => `\${${name}}`;

const JOB_LIBRARIES = [
  ["org.apache.beam", "beam-sdks-java-core", ref("beam.version")],
  ["org.apache.beam", "beam-sdks-java-io-kafka", ref("beam.version")],
  ["org.apache.beam", "beam-runners-flink-1.17", ref("beam.version")],
  ["org.apache.flink", "flink-streaming-java", ref("flink.version")],
  ["org.apache.flink", "flink-clients", ref("flink.version")],
  ["org.apache.flink", "flink-connector-kafka", "3.0.2-1.17"],
  ["org.apache.kafka", "kafka-clients", ref("kafka.version")],
] as const;

/** A pom.xml with `deps` dependencies, versions partly from properties. */
export function pom(deps: number, rng: Random, name = "streaming-job"): string {
  const props = ["flink.version>1.17.2", "beam.version>2.56.0", "kafka.version>3.6.1", "java.version>11"];
  const extra: string[] = [];
  const dependencies: string[] = [];
  for (let i = 0; i < deps; i++) {
    const [group, artifact, version] =
      i < JOB_LIBRARIES.length ? JOB_LIBRARIES[i] : COMMON_LIBRARIES[i % COMMON_LIBRARIES.length];
    const suffix = i < JOB_LIBRARIES.length + COMMON_LIBRARIES.length ? "" : `-m${i}`;
    let v: string = version;
    if (i >= JOB_LIBRARIES.length && rng.chance(0.5)) {
      const prop = `${artifact}${suffix}.version`;
      extra.push(`${prop}>${version.replace(/\d+$/, (d) => String(Number(d) + rng.int(0, 3)))}`);
      v = ref(prop);
    }
    dependencies.push(
      "    <dependency>",
      `      <groupId>${group}</groupId>`,
      `      <artifactId>${artifact}${suffix}</artifactId>`,
      `      <version>${v}</version>`,
      ...(artifact.startsWith("junit") || artifact.startsWith("mockito") ? ["      <scope>test</scope>"] : []),
      ...(artifact.startsWith("flink-") ? ["      <scope>provided</scope>"] : []),
      "    </dependency>",
    );
  }
  const property = (p: string) => `    <${p}</${p.slice(0, p.indexOf(">"))}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    '         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">',
    "  <modelVersion>4.0.0</modelVersion>",
    "  <groupId>com.example</groupId>",
    `  <artifactId>${name}</artifactId>`,
    `  <version>1.${rng.int(0, 9)}.0-SNAPSHOT</version>`,
    "  <properties>",
    ...[...props, ...extra].map(property),
    "  </properties>",
    "  <dependencies>",
    ...dependencies,
    "  </dependencies>",
    "  <build>",
    "    <plugins>",
    "      <plugin>",
    "        <groupId>org.apache.maven.plugins</groupId>",
    "        <artifactId>maven-shade-plugin</artifactId>",
    "        <version>3.5.1</version>",
    "        <executions>",
    "          <execution>",
    "            <phase>package</phase>",
    "            <goals><goal>shade</goal></goals>",
    "          </execution>",
    "        </executions>",
    "      </plugin>",
    "    </plugins>",
    "  </build>",
    "</project>",
    "",
  ].join("\n");
}

/** A Gradle build script of `lines` lines, Groovy DSL or Kotlin DSL. */
export function gradle(lines: number, kotlin: boolean, rng: Random): string {
  const call = (conf: string, coords: string) => (kotlin ? `    ${conf}("${coords}")` : `    ${conf} "${coords}"`);
  const head = kotlin
    ? [
        "plugins {",
        "    java",
        '    id("com.github.johnrengelman.shadow") version "8.1.1"',
        "}",
        "",
        'val flinkVersion = "1.17.2"',
        'val beamVersion = "2.56.0"',
        'val kafkaVersion = "3.6.1"',
        "",
        "repositories {",
        "    mavenCentral()",
        "}",
        "",
        "dependencies {",
      ]
    : [
        "plugins {",
        "    id 'java'",
        "    id 'com.github.johnrengelman.shadow' version '8.1.1'",
        "}",
        "",
        "ext {",
        "    flinkVersion = '1.17.2'",
        "    beamVersion = '2.56.0'",
        "    kafkaVersion = '3.6.1'",
        "}",
        "",
        "repositories {",
        "    mavenCentral()",
        "}",
        "",
        "dependencies {",
      ];
  const jobDeps = [
    call("implementation", `org.apache.beam:beam-sdks-java-core:${ref("beamVersion")}`),
    call("implementation", `org.apache.beam:beam-sdks-java-io-kafka:${ref("beamVersion")}`),
    call("implementation", `org.apache.beam:beam-runners-flink-1.17:${ref("beamVersion")}`),
    call("compileOnly", `org.apache.flink:flink-streaming-java:${ref("flinkVersion")}`),
    call("implementation", `org.apache.kafka:kafka-clients:${ref("kafkaVersion")}`),
  ];
  const tail = [
    "}",
    "",
    "java {",
    `    sourceCompatibility = JavaVersion.VERSION_11`,
    "}",
    "",
    kotlin ? "tasks.shadowJar {" : "shadowJar {",
    kotlin ? '    archiveClassifier.set("all")' : "    archiveClassifier = 'all'",
    "    mergeServiceFiles()",
    "}",
    "",
  ];
  const body = [...jobDeps];
  for (let i = 0; head.length + body.length + tail.length < lines; i++) {
    if (i % 15 === 14) {
      body.push(`    // group ${i / 15 + 1}`);
      continue;
    }
    const [group, artifact, version] = COMMON_LIBRARIES[i % COMMON_LIBRARIES.length];
    const conf = rng.pick(["implementation", "runtimeOnly", "testImplementation", "api"]);
    body.push(call(conf, `${group}:${artifact}-g${i}:${version.replace(/\d+$/, String(rng.int(0, 30)))}`));
  }
  return [...head, ...body, ...tail].join("\n");
}

/** A member that reads Kafka with Beam's KafkaIO, with or without committing offsets. */
function kafkaReadMethod(i: number, rng: Random): string[] {
  const commit = rng.chance(0.6);
  const topics = rng.chance(0.3);
  return [
    `  static PCollection<KV<String, String>> readTopic${i}(Pipeline pipeline, Options options) {`,
    "    Map<String, Object> consumer = new HashMap<>();",
    `    consumer.put(ConsumerConfig.GROUP_ID_CONFIG, "group-${rng.int(1, 99)}");`,
    `    consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "${rng.pick(["earliest", "latest"])}");`,
    `    consumer.put("max.poll.records", ${rng.int(100, 2000)});`,
    ...(rng.chance(0.5)
      ? [`    consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ${rng.pick(["true", "false"])});`]
      : []),
    "    return pipeline",
    `        .apply("ReadKafka${i}", KafkaIO.<String, String>read()`,
    `            .withBootstrapServers("kafka-${rng.int(1, 5)}:9092")`,
    topics
      ? `            .withTopics(Arrays.asList("orders-${i}", "payments-${rng.int(1, 99)}"))`
      : `            .withTopic("events-${i}")`,
    "            .withKeyDeserializer(StringDeserializer.class)",
    "            .withValueDeserializer(StringDeserializer.class)",
    "            .withConsumerConfigUpdates(consumer)",
    ...(commit ? ["            .commitOffsetsInFinalize()"] : []),
    ...(rng.chance(0.3) ? ["            .withReadCommitted()"] : []),
    "            .withoutMetadata())",
    `        .apply("Window${i}", Window.into(FixedWindows.of(Duration.standardSeconds(${rng.int(5, 120)}))));`,
    "  }",
    "",
  ];
}

/** An ordinary helper method with loops and branches: Java the reader parses but draws no facts from. */
function helperMethod(i: number, rng: Random): string[] {
  return [
    `  static String format${i}(List<String> values, int limit) {`,
    "    StringBuilder out = new StringBuilder();",
    `    for (int k = 0; k < Math.min(values.size(), limit + ${rng.int(1, 9)}); k++) {`,
    `      if (values.get(k).length() > ${rng.int(1, 40)}) {`,
    "        out.append(values.get(k), 0, 10).append('…');",
    "      } else {",
    `        out.append(values.get(k)).append(k % ${rng.int(2, 7)} == 0 ? ";" : ",");`,
    "      }",
    "    }",
    `    return out.length() > ${rng.int(100, 900)} ? out.substring(0, 100) : out.toString();`,
    "  }",
    "",
  ];
}

/** A DataStream job member: KafkaSource, checkpointing, operators with lambdas. */
function streamMethod(i: number, rng: Random): string[] {
  return [
    `  static void stream${i}(StreamExecutionEnvironment env) {`,
    ...(rng.chance(0.5) ? [`    env.enableCheckpointing(${rng.int(1, 120) * 1000});`] : []),
    "    KafkaSource<String> source = KafkaSource.<String>builder()",
    `        .setBootstrapServers("kafka-${rng.int(1, 5)}:9092")`,
    `        .setTopics("clicks-${i}")`,
    `        .setGroupId("clicks-group-${rng.int(1, 50)}")`,
    "        .setStartingOffsets(OffsetsInitializer.earliest())",
    "        .setValueOnlyDeserializer(new SimpleStringSchema())",
    "        .build();",
    `    env.fromSource(source, WatermarkStrategy.noWatermarks(), "clicks-${i}")`,
    "        .map(v -> v.trim())",
    "        .filter(v -> !v.isEmpty())",
    `        .setParallelism(${rng.int(1, 16)})`,
    "        .keyBy(v -> v.hashCode() % 16)",
    "        .print();",
    "  }",
    "",
  ];
}

/** A job class of `lines` lines mixing KafkaIO reads, DataStream jobs and helpers. */
export function javaJob(lines: number, rng: Random, className = "StreamingJob"): string {
  const head = [
    "package com.example.jobs;",
    "",
    "import java.util.*;",
    "import org.apache.beam.sdk.Pipeline;",
    "import org.apache.beam.sdk.io.kafka.KafkaIO;",
    "import org.apache.beam.sdk.values.KV;",
    "import org.apache.beam.sdk.values.PCollection;",
    "import org.apache.flink.connector.kafka.source.KafkaSource;",
    "import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;",
    "import org.apache.kafka.clients.consumer.ConsumerConfig;",
    "import org.apache.kafka.common.serialization.StringDeserializer;",
    "",
    `public class ${className} {`,
    "  interface Options extends PipelineOptions {}",
    "",
    "  public static void main(String[] args) {",
    "    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);",
    "    Pipeline pipeline = Pipeline.create(options);",
    "    readTopic0(pipeline, options);",
    "    pipeline.run().waitUntilFinish();",
    "  }",
    "",
  ];
  const body: string[] = [];
  for (let i = 0; ; i++) {
    const kind = i % 4;
    const member =
      kind === 0 || kind === 2 ? kafkaReadMethod(i, rng) : kind === 1 ? helperMethod(i, rng) : streamMethod(i, rng);
    if (head.length + body.length + member.length + 1 > lines) break;
    body.push(...member);
  }
  while (head.length + body.length + 1 < lines) body.push("  // end of generated members");
  return [...head, ...body, "}"].join("\n");
}

/** A Scala member that reads Kafka with Beam's KafkaIO (the Java API called from Scala), consumer settings in a Map. */
function scalaKafkaRead(i: number, rng: Random): string[] {
  const commit = rng.chance(0.6);
  return [
    `  def readTopic${i}(pipeline: Pipeline): PCollection[KV[String, String]] = {`,
    "    val consumer = Map[String, AnyRef](",
    `      ConsumerConfig.GROUP_ID_CONFIG -> "group-${rng.int(1, 99)}",`,
    `      ConsumerConfig.AUTO_OFFSET_RESET_CONFIG -> "${rng.pick(["earliest", "latest"])}",`,
    ...(rng.chance(0.5) ? [`      ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG -> "${rng.pick(["true", "false"])}",`] : []),
    `      "max.poll.records" -> Integer.valueOf(${rng.int(100, 2000)})`,
    "    )",
    "    pipeline",
    `      .apply(s"ReadKafka${i}", KafkaIO.read[String, String]()`,
    `        .withBootstrapServers("kafka-${rng.int(1, 5)}:9092")`,
    rng.chance(0.3)
      ? `        .withTopics(List("orders-${i}", "payments-${rng.int(1, 99)}").asJava)`
      : `        .withTopic("events-${i}")`,
    "        .withKeyDeserializer(classOf[StringDeserializer])",
    "        .withValueDeserializer(classOf[StringDeserializer])",
    "        .withConsumerConfigUpdates(consumer.asJava)",
    ...(commit ? ["        .commitOffsetsInFinalize()"] : []),
    ...(rng.chance(0.3) ? ["        .withReadCommitted()"] : []),
    "        .withoutMetadata())",
    `      .apply(s"Window${i}", Window.into[KV[String, String]](FixedWindows.of(Duration.standardSeconds(${rng.int(5, 120)}))))`,
    "  }",
    "",
  ];
}

/** A Scala helper with a for comprehension, a match and a fold: parsed and lowered, no facts drawn from it. */
function scalaHelper(i: number, rng: Random): string[] {
  return [
    `  def format${i}(values: Seq[String], limit: Int): String = {`,
    "    val out = new StringBuilder",
    `    for (k <- 0 until math.min(values.size, limit + ${rng.int(1, 9)})) {`,
    `      if (values(k).length > ${rng.int(1, 40)}) out.append(values(k).take(10)).append('…')`,
    `      else out.append(values(k)).append(if (k % ${rng.int(2, 7)} == 0) ";" else ",")`,
    "    }",
    "    val total = values.foldLeft(0) { (sum, v) =>",
    "      v match {",
    `        case s if s.startsWith("#") => sum`,
    `        case s => sum + s.length * ${rng.int(1, 9)}`,
    "      }",
    "    }",
    `    if (out.length > ${rng.int(100, 900)} || total < 0) out.substring(0, 100) else out.toString`,
    "  }",
    "",
  ];
}

/** A Scala DataStream job member: KafkaSource, checkpointing, operators with function literals. */
function scalaStream(i: number, rng: Random): string[] {
  return [
    `  def stream${i}(env: StreamExecutionEnvironment): Unit = {`,
    ...(rng.chance(0.5) ? [`    env.enableCheckpointing(${rng.int(1, 120) * 1000})`] : []),
    "    val source = KafkaSource.builder[String]()",
    `      .setBootstrapServers("kafka-${rng.int(1, 5)}:9092")`,
    `      .setTopics("clicks-${i}")`,
    `      .setGroupId("clicks-group-${rng.int(1, 50)}")`,
    "      .setStartingOffsets(OffsetsInitializer.earliest())",
    "      .setValueOnlyDeserializer(new SimpleStringSchema())",
    "      .build()",
    `    env.fromSource(source, WatermarkStrategy.noWatermarks[String](), "clicks-${i}")`,
    "      .map(_.trim)",
    "      .filter(v => v.nonEmpty)",
    `      .setParallelism(${rng.int(1, 16)})`,
    "      .keyBy(v => v.hashCode % 16)",
    "      .print()",
    "  }",
    "",
  ];
}

/** The legacy consumer with java.util.Properties, as older Scala jobs are written. */
function scalaLegacyConsumer(i: number, rng: Random): string[] {
  return [
    `  def legacy${i}(env: StreamExecutionEnvironment): DataStream[String] = {`,
    "    val props = new Properties()",
    `    props.setProperty("bootstrap.servers", "kafka-${rng.int(1, 5)}:9092")`,
    `    props.setProperty("group.id", "legacy-${rng.int(1, 99)}")`,
    `    props.put("auto.offset.reset", "${rng.pick(["earliest", "latest"])}")`,
    `    env.addSource(new FlinkKafkaConsumer[String]("audit-${i}", new SimpleStringSchema(), props))`,
    `      .setParallelism(${rng.int(1, 8)})`,
    "  }",
    "",
  ];
}

/** A Scala job of `lines` lines: one object mixing KafkaIO reads, DataStream jobs, legacy consumers and helpers. */
export function scalaJob(lines: number, rng: Random, objectName = "StreamingJob"): string {
  const head = [
    "package com.example.jobs",
    "",
    "import java.util.Properties",
    "",
    "import scala.jdk.CollectionConverters._",
    "",
    "import org.apache.beam.runners.flink.FlinkPipelineOptions",
    "import org.apache.beam.sdk.Pipeline",
    "import org.apache.beam.sdk.io.kafka.KafkaIO",
    "import org.apache.beam.sdk.options.PipelineOptionsFactory",
    "import org.apache.beam.sdk.transforms.windowing.{FixedWindows, Window}",
    "import org.apache.beam.sdk.values.{KV, PCollection}",
    "import org.apache.flink.api.common.eventtime.WatermarkStrategy",
    "import org.apache.flink.api.common.serialization.SimpleStringSchema",
    "import org.apache.flink.connector.kafka.source.KafkaSource",
    "import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer",
    "import org.apache.flink.streaming.api.scala._",
    "import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer",
    "import org.apache.kafka.clients.consumer.ConsumerConfig",
    "import org.apache.kafka.common.serialization.StringDeserializer",
    "import org.joda.time.Duration",
    "",
    "final case class Click(page: String, user: String, at: Long)",
    "",
    `object ${objectName} {`,
    `  val Topic = "clicks"`,
    "",
    "  def main(args: Array[String]): Unit = {",
    "    val options = PipelineOptionsFactory.fromArgs(args: _*).withValidation().as(classOf[FlinkPipelineOptions])",
    "    val pipeline = Pipeline.create(options)",
    "    readTopic0(pipeline)",
    "    pipeline.run().waitUntilFinish()",
    "  }",
    "",
  ];
  const body: string[] = [];
  for (let i = 0; ; i++) {
    const kind = i % 5;
    const member =
      kind === 0 || kind === 3
        ? scalaKafkaRead(i, rng)
        : kind === 1
          ? scalaHelper(i, rng)
          : kind === 2
            ? scalaStream(i, rng)
            : scalaLegacyConsumer(i, rng);
    if (head.length + body.length + member.length + 1 > lines) break;
    pushLines(body, member);
  }
  while (head.length + body.length + 1 < lines) body.push("  // end of generated members");
  return [...head, ...body, "}"].join("\n");
}

/** A Kotlin member that reads Kafka with Beam's KafkaIO, consumer settings in `mapOf(… to …)`. */
function kotlinKafkaRead(i: number, rng: Random): string[] {
  const commit = rng.chance(0.6);
  return [
    `    fun readTopic${i}(pipeline: Pipeline): PCollection<KV<String, String>> {`,
    "        val consumer = mapOf<String, Any>(",
    `            ConsumerConfig.GROUP_ID_CONFIG to "group-${rng.int(1, 99)}",`,
    `            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG to "${rng.pick(["earliest", "latest"])}",`,
    ...(rng.chance(0.5)
      ? [`            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG to ${rng.pick(["true", "false"])},`]
      : []),
    `            "max.poll.records" to ${rng.int(100, 2000)},`,
    "        )",
    "        return pipeline",
    `            .apply("ReadKafka${i}", KafkaIO.read<String, String>()`,
    `                .withBootstrapServers("kafka-${rng.int(1, 5)}:9092")`,
    rng.chance(0.3)
      ? `                .withTopics(listOf("orders-${i}", "payments-${rng.int(1, 99)}"))`
      : `                .withTopic("events-${i}")`,
    "                .withKeyDeserializer(StringDeserializer::class.java)",
    "                .withValueDeserializer(StringDeserializer::class.java)",
    "                .withConsumerConfigUpdates(consumer)",
    ...(commit ? ["                .commitOffsetsInFinalize()"] : []),
    ...(rng.chance(0.3) ? ["                .withReadCommitted()"] : []),
    "                .withoutMetadata())",
    `            .apply("Window${i}", Window.into(FixedWindows.of(Duration.standardSeconds(${rng.int(5, 120)}))))`,
    "    }",
    "",
  ];
}

/** A Kotlin helper with a range loop, `when` and a fold. */
function kotlinHelper(i: number, rng: Random): string[] {
  return [
    `    fun format${i}(values: List<String>, limit: Int): String {`,
    "        val out = StringBuilder()",
    `        for (k in 0 until minOf(values.size, limit + ${rng.int(1, 9)})) {`,
    `            if (values[k].length > ${rng.int(1, 40)}) out.append(values[k], 0, 10).append('…')`,
    `            else out.append(values[k]).append(if (k % ${rng.int(2, 7)} == 0) ";" else ",")`,
    "        }",
    "        val total = values.fold(0) { sum, v ->",
    "            when {",
    `                v.startsWith("#") -> sum`,
    `                else -> sum + v.length * ${rng.int(1, 9)}`,
    "            }",
    "        }",
    `        return if (out.length > ${rng.int(100, 900)} || total < 0) out.substring(0, 100) else out.toString()`,
    "    }",
    "",
  ];
}

/** A Kotlin DataStream member: property syntax, `apply { }`, KafkaSource, lambdas. */
function kotlinStream(i: number, rng: Random): string[] {
  return [
    `    fun stream${i}(env: StreamExecutionEnvironment) {`,
    ...(rng.chance(0.5)
      ? [
          "        env.apply {",
          `            enableCheckpointing(${rng.int(1, 120) * 1000}L)`,
          `            checkpointConfig.minPauseBetweenCheckpoints = ${rng.int(1, 30) * 1000}L`,
          "        }",
        ]
      : []),
    "        val source = KafkaSource.builder<String>()",
    `            .setBootstrapServers("kafka-${rng.int(1, 5)}:9092")`,
    `            .setTopics("clicks-${i}")`,
    `            .setGroupId("clicks-group-${rng.int(1, 50)}")`,
    "            .setStartingOffsets(OffsetsInitializer.earliest())",
    "            .setValueOnlyDeserializer(SimpleStringSchema())",
    "            .build()",
    `        env.fromSource(source, WatermarkStrategy.noWatermarks(), "clicks-${i}")`,
    "            .map { it.trim() }",
    "            .filter { it.isNotEmpty() }",
    `            .setParallelism(${rng.int(1, 16)})`,
    "            .keyBy { it.hashCode() % 16 }",
    "            .print()",
    "    }",
    "",
  ];
}

/** The legacy consumer with java.util.Properties built in `apply { }`. */
function kotlinLegacyConsumer(i: number, rng: Random): string[] {
  return [
    `    fun legacy${i}(env: StreamExecutionEnvironment): DataStream<String> {`,
    "        val props = Properties().apply {",
    `            setProperty("bootstrap.servers", "kafka-${rng.int(1, 5)}:9092")`,
    `            setProperty("group.id", "legacy-${rng.int(1, 99)}")`,
    `            put("auto.offset.reset", "${rng.pick(["earliest", "latest"])}")`,
    "        }",
    `        return env.addSource(FlinkKafkaConsumer("audit-${i}", SimpleStringSchema(), props))`,
    `            .setParallelism(${rng.int(1, 8)})`,
    "    }",
    "",
  ];
}

/** A Kotlin job of `lines` lines: one object mixing KafkaIO reads, DataStream jobs, legacy consumers and helpers. */
export function kotlinJob(lines: number, rng: Random, objectName = "StreamingJob"): string {
  const head = [
    "package com.example.jobs",
    "",
    "import java.util.Properties",
    "import org.apache.beam.runners.flink.FlinkPipelineOptions",
    "import org.apache.beam.sdk.Pipeline",
    "import org.apache.beam.sdk.io.kafka.KafkaIO",
    "import org.apache.beam.sdk.options.PipelineOptionsFactory",
    "import org.apache.beam.sdk.transforms.windowing.FixedWindows",
    "import org.apache.beam.sdk.transforms.windowing.Window",
    "import org.apache.beam.sdk.values.KV",
    "import org.apache.beam.sdk.values.PCollection",
    "import org.apache.flink.api.common.eventtime.WatermarkStrategy",
    "import org.apache.flink.api.common.serialization.SimpleStringSchema",
    "import org.apache.flink.connector.kafka.source.KafkaSource",
    "import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer",
    "import org.apache.flink.streaming.api.datastream.DataStream",
    "import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
    "import org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer",
    "import org.apache.kafka.clients.consumer.ConsumerConfig",
    "import org.apache.kafka.common.serialization.StringDeserializer",
    "import org.joda.time.Duration",
    "",
    "data class Click(val page: String, val user: String, val at: Long)",
    "",
    `object ${objectName} {`,
    `    const val TOPIC = "clicks"`,
    "",
    "    @JvmStatic",
    "    fun main(args: Array<String>) {",
    "        val options = PipelineOptionsFactory.fromArgs(*args).withValidation().`as`(FlinkPipelineOptions::class.java)",
    "        val pipeline = Pipeline.create(options)",
    "        readTopic0(pipeline)",
    "        pipeline.run().waitUntilFinish()",
    "    }",
    "",
  ];
  const body: string[] = [];
  for (let i = 0; ; i++) {
    const kind = i % 5;
    const member =
      kind === 0 || kind === 3
        ? kotlinKafkaRead(i, rng)
        : kind === 1
          ? kotlinHelper(i, rng)
          : kind === 2
            ? kotlinStream(i, rng)
            : kotlinLegacyConsumer(i, rng);
    if (head.length + body.length + member.length + 1 > lines) break;
    pushLines(body, member);
  }
  while (head.length + body.length + 1 < lines) body.push("    // end of generated members");
  return [...head, ...body, "}"].join("\n");
}

/** A Beam Python function reading Kafka with ReadFromKafka (the cross-language transform), settings in a dict. */
function pythonKafkaRead(i: number, rng: Random): string[] {
  const commit = rng.chance(0.6);
  return [
    `def read_topic_${i}(p):`,
    `    """Reads topic events-${i} and windows it."""`,
    "    consumer_config = {",
    `        "bootstrap.servers": "kafka-${rng.int(1, 5)}:9092",`,
    `        "group.id": "group-${rng.int(1, 99)}",`,
    `        "auto.offset.reset": "${rng.pick(["earliest", "latest"])}",`,
    ...(rng.chance(0.5) ? [`        "enable.auto.commit": "${rng.pick(["true", "false"])}",`] : []),
    `        "max.poll.records": "${rng.int(100, 2000)}",`,
    "    }",
    "    return (",
    "        p",
    `        | "ReadKafka${i}" >> ReadFromKafka(`,
    "            consumer_config=consumer_config,",
    rng.chance(0.3)
      ? `            topics=["orders-${i}", "payments-${rng.int(1, 99)}"],`
      : `            topics=["events-${i}"],`,
    ...(commit ? ["            commit_offset_in_finalize=True,"] : []),
    "        )",
    `        | "Window${i}" >> beam.WindowInto(window.FixedWindows(${rng.int(5, 120)}))`,
    "    )",
    "",
    "",
  ];
}

/** A Python helper with a loop, a conditional expression and a comprehension. */
function pythonHelper(i: number, rng: Random): string[] {
  return [
    `def format_${i}(values, limit):`,
    "    out = []",
    `    for k in range(min(len(values), limit + ${rng.int(1, 9)})):`,
    `        if len(values[k]) > ${rng.int(1, 40)}:`,
    `            out.append(values[k][:10] + "…")`,
    "        else:",
    `            out.append(values[k] + (";" if k % ${rng.int(2, 7)} == 0 else ","))`,
    `    total = sum(len(v) * ${rng.int(1, 9)} for v in values if not v.startswith("#"))`,
    '    text = "".join(out)',
    `    return text[:100] if len(text) > ${rng.int(100, 900)} or total < 0 else text`,
    "",
    "",
  ];
}

/** A PyFlink DataStream function: KafkaSource builder, checkpointing, operators with lambdas. */
function pythonStream(i: number, rng: Random): string[] {
  return [
    `def stream_${i}(env):`,
    ...(rng.chance(0.5) ? [`    env.enable_checkpointing(${rng.int(1, 120) * 1000})`] : []),
    "    source = (",
    "        KafkaSource.builder()",
    `        .set_bootstrap_servers("kafka-${rng.int(1, 5)}:9092")`,
    `        .set_topics("clicks-${i}")`,
    `        .set_group_id("clicks-group-${rng.int(1, 50)}")`,
    "        .set_starting_offsets(KafkaOffsetsInitializer.earliest())",
    "        .set_value_only_deserializer(SimpleStringSchema())",
    "        .build()",
    "    )",
    "    (",
    `        env.from_source(source, WatermarkStrategy.no_watermarks(), "clicks-${i}")`,
    "        .map(lambda v: v.strip())",
    "        .filter(lambda v: len(v) > 0)",
    `        .set_parallelism(${rng.int(1, 16)})`,
    "        .key_by(lambda v: hash(v) % 16)",
    "        .print()",
    "    )",
    "",
    "",
  ];
}

/** The legacy PyFlink consumer with a properties dict. */
function pythonLegacyConsumer(i: number, rng: Random): string[] {
  return [
    `def legacy_${i}(env):`,
    "    props = {",
    `        "bootstrap.servers": "kafka-${rng.int(1, 5)}:9092",`,
    `        "group.id": "legacy-${rng.int(1, 99)}",`,
    "    }",
    `    consumer = FlinkKafkaConsumer("audit-${i}", SimpleStringSchema(), props)`,
    `    return env.add_source(consumer).set_parallelism(${rng.int(1, 8)})`,
    "",
    "",
  ];
}

/** A Python job module of `lines` lines: Beam Python reads, PyFlink jobs, legacy consumers, helpers, a `run`. */
export function pythonJob(lines: number, rng: Random): string {
  const head = [
    '"""Streaming jobs over the click and order topics (generated)."""',
    "import logging",
    "",
    "import apache_beam as beam",
    "from apache_beam.io.kafka import ReadFromKafka",
    "from apache_beam.options.pipeline_options import PipelineOptions",
    "from apache_beam.transforms import window",
    "from pyflink.common import WatermarkStrategy",
    "from pyflink.common.serialization import SimpleStringSchema",
    "from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer, KafkaOffsetsInitializer, KafkaSource",
    "",
    'TOPIC = "clicks"',
    "",
    "",
  ];
  const tail = [
    "def run(argv=None):",
    "    options = PipelineOptions(",
    "        argv,",
    '        runner="FlinkRunner",',
    '        flink_master="flink-jobmanager:8081",',
    "        streaming=True,",
    `        checkpointing_interval=${rng.int(1, 120) * 1000},`,
    "    )",
    "    with beam.Pipeline(options=options) as p:",
    '        read_topic_0(p) | "Log" >> beam.Map(logging.info)',
    "",
    "",
    'if __name__ == "__main__":',
    "    logging.getLogger().setLevel(logging.INFO)",
    "    run()",
  ];
  const body: string[] = [];
  for (let i = 0; ; i++) {
    const kind = i % 5;
    const member =
      kind === 0 || kind === 3
        ? pythonKafkaRead(i, rng)
        : kind === 1
          ? pythonHelper(i, rng)
          : kind === 2
            ? pythonStream(i, rng)
            : pythonLegacyConsumer(i, rng);
    if (head.length + body.length + member.length + tail.length > lines) break;
    pushLines(body, member);
  }
  while (head.length + body.length + tail.length < lines) body.push("# end of generated functions");
  return [...head, ...body, ...tail].join("\n");
}

/** Appends without spreading (members of a 10,000-line file add up). */
function pushLines(to: string[], lines: string[]): void {
  for (const l of lines) to.push(l);
}

function dockerfile(rng: Random): string {
  const minor = rng.pick(["1.17", "1.18", "1.19"]);
  return [
    `FROM flink:${minor}.${rng.int(0, 2)}-java11`,
    "RUN mkdir -p /opt/flink/usrlib",
    "COPY target/job.jar /opt/flink/usrlib/job.jar",
    `ENV JOB_TOPIC=topic-${rng.int(1, 99)}`,
    "",
  ].join("\n");
}

function projectConfigFile(rng: Random): string {
  return [
    `flinkVersion: "${rng.pick(["1.17", "1.18", "1.19"])}"`,
    "rules:",
    `  BFL101: ${rng.pick(["warning", "error", "off"])}`,
    "exclude:",
    '  - "generated/**"',
    "",
  ].join("\n");
}

function compose(rng: Random): string {
  return [
    "services:",
    "  jobmanager:",
    `    image: flink:1.${rng.int(16, 19)}`,
    "    command: jobmanager",
    "    environment:",
    "      - |",
    "        FLINK_PROPERTIES=",
    "        jobmanager.rpc.address: jobmanager",
    `        parallelism.default: ${rng.int(1, 8)}`,
    "  taskmanager:",
    `    image: flink:1.${rng.int(16, 19)}`,
    "    command: taskmanager",
    "",
  ].join("\n");
}

export interface Workspace {
  files: Map<string, string>;
  projects: number;
}

/** The language of a workspace project's job: every fourth project's is Scala, Kotlin or Python, in turn. */
export function jobLanguage(project: number): "java" | "scala" | "kotlin" | "python" {
  if (project % 4 !== 3) return "java";
  return (["scala", "kotlin", "python"] as const)[Math.floor(project / 4) % 3];
}

/** A Beam Python project's requirements.txt. */
function requirements(rng: Random): string {
  return [
    `apache-beam[gcp]==2.${rng.int(52, 60)}.0`,
    `kafka-python==2.0.${rng.int(0, 2)}`,
    "apache-flink==1.18.1",
    "",
  ].join("\n");
}

/**
 * `projects` small projects of about five files each, laid out as a monorepo. Three quarters of the jobs are Java,
 * the others Scala, Kotlin and Python (jobLanguage); a Python project has a requirements.txt instead of a build file.
 */
export function workspace(projects: number, rng: Random): Workspace {
  const files = new Map<string, string>();
  for (let p = 0; p < projects; p++) {
    const dir = `services/team-${p % 20}/svc-${String(p).padStart(4, "0")}`;
    const language = jobLanguage(p);
    const build = rng.next();
    if (language === "python") files.set(`${dir}/requirements.txt`, requirements(rng));
    else if (build < 0.55) files.set(`${dir}/pom.xml`, pom(rng.int(8, 20), rng, `svc-${p}`));
    else if (build < 0.9 || language === "kotlin")
      files.set(
        `${dir}/build.gradle${language === "kotlin" || rng.chance(0.4) ? ".kts" : ""}`,
        gradle(rng.int(30, 60), language === "kotlin" || rng.chance(0.4), rng),
      );
    if (rng.chance(0.7)) files.set(`${dir}/conf/flink-conf.yaml`, flinkConf(rng.int(15, 40), rng));
    else files.set(`${dir}/conf/config.yaml`, configYaml(rng));
    files.set(`${dir}/k8s/deployment.yaml`, manifest(1, rng.int(60, 90), rng));
    files.set(`${dir}/Dockerfile`, dockerfile(rng));
    const jobLines = rng.int(60, 160);
    if (language === "java")
      files.set(`${dir}/src/main/java/com/example/Job${p}.java`, javaJob(jobLines, rng, `Job${p}`));
    else if (language === "scala")
      files.set(`${dir}/src/main/scala/com/example/Job${p}.scala`, scalaJob(jobLines, rng, `Job${p}`));
    else if (language === "kotlin")
      files.set(`${dir}/src/main/kotlin/com/example/Job${p}.kt`, kotlinJob(jobLines, rng, `Job${p}`));
    else files.set(`${dir}/pipeline/job_${p}.py`, pythonJob(jobLines, rng));
    if (rng.chance(0.2)) files.set(`${dir}/.beam-flink-lint.yaml`, projectConfigFile(rng));
    if (rng.chance(0.1)) files.set(`${dir}/docker-compose.yml`, compose(rng));
    files.set(`${dir}/README.md`, `# svc-${p}\n`);
  }
  return { files, projects };
}

/** A Flink 1.19+ config.yaml (nested YAML). */
function configYaml(rng: Random): string {
  return [
    "jobmanager:",
    "  rpc:",
    "    address: jobmanager",
    "  memory:",
    `    process.size: ${rng.int(1, 4)}g`,
    "taskmanager:",
    `  numberOfTaskSlots: ${rng.pick([1, 2, 4])}`,
    "  memory:",
    `    process.size: ${rng.int(2, 8)}g`,
    "parallelism:",
    `  default: ${rng.int(1, 16)}`,
    "execution:",
    "  checkpointing:",
    `    interval: ${rng.int(10, 120)}s`,
    "state:",
    "  backend:",
    "    type: rocksdb",
    "",
  ].join("\n");
}

/** One editing input: a file the benchmark opens and edits. */
const STARTUP_MODES = ["group-offsets", "earliest-offset", "latest-offset"];

/** One Kafka table: `columns` columns and the usual options, some of them with the mistakes the rules report. */
function sqlTable(name: string, columns: number, rng: Random): string[] {
  const lines = [`CREATE TABLE ${name} (`];
  for (let c = 0; c < columns; c++)
    lines.push(`  col_${c} ${rng.pick(["STRING", "BIGINT", "DECIMAL(10, 2)", "TIMESTAMP(3)"])},`);
  lines.push(
    `  event_time TIMESTAMP(3),`,
    `  WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND`,
    ") WITH (",
  );
  const options = [
    "'connector' = 'kafka'",
    `'topic' = '${name}-${rng.int(1, 99)}'`,
    `'properties.bootstrap.servers' = 'kafka-${rng.int(0, 9)}:9092'`,
    `'scan.startup.mode' = '${rng.pick(STARTUP_MODES)}'`,
    "'format' = 'json'",
  ];
  if (rng.int(0, 2) > 0) options.push(`'properties.group.id' = '${name}-${rng.int(1, 9)}'`);
  if (rng.int(0, 4) === 0) options.push("'sink.semantic' = 'exactly-once'");
  lines.push(...options.map((o, i) => `  ${o}${i < options.length - 1 ? "," : ""}`), ");", "");
  return lines;
}

/** A Flink SQL script of about `lines` lines: SET statements, Kafka tables, INSERT statements. */
export function sqlScript(lines: number, rng: Random): string {
  const out = [
    "-- Generated Flink SQL job.",
    `SET 'execution.checkpointing.interval' = '${rng.int(10, 90)} s';`,
    `SET 'parallelism.default' = '${rng.int(1, 16)}';`,
    `SET 'table.exec.state.ttl' = '${rng.int(1, 48)} h';`,
    "",
  ];
  let n = 0;
  while (out.length < lines - 4) {
    pushAll(out, sqlTable(`events_${n}`, rng.int(4, 12), rng));
    if (n > 0) out.push(`INSERT INTO events_${n} SELECT * FROM events_${n - 1} WHERE col_0 IS NOT NULL;`, "");
    n++;
  }
  return `${out.join("\n")}\n`;
}

/** A Java job passing `statements` SQL statements (tables and inserts) to executeSql, as strings joined by `+`. */
export function javaSqlJob(statements: number, rng: Random): string {
  const out = [
    "package com.example.jobs;",
    "",
    "import org.apache.flink.table.api.EnvironmentSettings;",
    "import org.apache.flink.table.api.TableEnvironment;",
    "",
    "public class SqlJob {",
    "  public static void main(String[] args) {",
    "    TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());",
    `    tEnv.executeSql("SET 'execution.checkpointing.interval' = '${rng.int(10, 90)} s'");`,
  ];
  for (let i = 0; i < statements; i++) {
    if (i % 2 === 1) {
      out.push(`    tEnv.executeSql("INSERT INTO t_${i - 1}_out SELECT * FROM t_${i - 1}");`);
      continue;
    }
    const table = sqlTable(`t_${i}`, rng.int(2, 6), rng).filter((l) => l !== "");
    out.push(`    tEnv.executeSql(`);
    table.forEach((l, k) => out.push(`        ${k === 0 ? "" : "+ "}"${l.replaceAll('"', '\\"')} "`));
    out.push("    );");
  }
  out.push("  }", "}");
  return `${out.join("\n")}\n`;
}

export interface EditInput {
  /** A short label for tables and the chart. */
  name: string;
  /** Path relative to the editing workspace; the file name decides how it is read. */
  path: string;
  languageId: string;
  text: string;
  /**
   * Typical-size inputs carry the 50 ms target; the 2,000-line Java file the 150 ms one; the 2,000-line Scala,
   * Kotlin and Python files the 50 ms one (issue 10).
   */
  target?: number;
  /** The p50 ratio of server to floor that is the target, when the ratio is the target whatever the floor. */
  ratioTarget?: number;
  /** The floor parser to compare with (tree-sitter languages: an incremental re-parse after each edit). */
  floor: "legacyLines" | "yaml" | "xml" | "gradle" | "java" | "scala" | "kotlin" | "python" | "sql";
  /** Compared with yaml-language-server. */
  yaml: boolean;
}

export function editInputs(seed: number): EditInput[] {
  const rng = new Random(seed);
  const input = (i: Omit<EditInput, "text">, text: string): EditInput => ({ ...i, text });
  return [
    input(
      {
        name: "flink-conf 50 keys",
        path: "conf50/flink-conf.yaml",
        languageId: "yaml",
        target: 50,
        floor: "legacyLines",
        yaml: true,
      },
      flinkConf(50, rng),
    ),
    input(
      {
        name: "flink-conf 300 keys",
        path: "conf300/flink-conf.yaml",
        languageId: "yaml",
        target: 50,
        floor: "legacyLines",
        yaml: true,
      },
      flinkConf(300, rng),
    ),
    input(
      {
        name: "flink-conf 2,000 keys",
        path: "conf2000/flink-conf.yaml",
        languageId: "yaml",
        floor: "legacyLines",
        yaml: true,
      },
      flinkConf(2000, rng),
    ),
    input(
      {
        name: "manifest 2,000 lines, 20 FlinkDeployments",
        path: "k8s/flink-deployments.yaml",
        languageId: "yaml",
        floor: "yaml",
        yaml: true,
      },
      manifest(20, 2000, rng),
    ),
    input(
      {
        name: "pom.xml 60 dependencies",
        path: "maven/pom.xml",
        languageId: "xml",
        target: 50,
        floor: "xml",
        yaml: false,
      },
      pom(60, rng),
    ),
    input(
      {
        name: "build.gradle 200 lines",
        path: "gradle/build.gradle",
        languageId: "groovy",
        target: 50,
        floor: "gradle",
        yaml: false,
      },
      gradle(200, false, rng),
    ),
    input(
      {
        name: "build.gradle.kts 200 lines",
        path: "gradle-kts/build.gradle.kts",
        languageId: "kotlin",
        target: 50,
        floor: "gradle",
        yaml: false,
      },
      gradle(200, true, rng),
    ),
    input(
      {
        name: "Java 500 lines",
        path: "java500/src/main/java/com/example/jobs/StreamingJob.java",
        languageId: "java",
        target: 50,
        floor: "java",
        yaml: false,
      },
      javaJob(500, rng),
    ),
    input(
      {
        name: "Java 2,000 lines",
        path: "java2000/src/main/java/com/example/jobs/StreamingJob.java",
        languageId: "java",
        target: 150,
        floor: "java",
        yaml: false,
      },
      javaJob(2000, rng),
    ),
    input(
      {
        name: "Java 10,000 lines",
        path: "java10000/src/main/java/com/example/jobs/StreamingJob.java",
        languageId: "java",
        floor: "java",
        yaml: false,
      },
      javaJob(10000, rng),
    ),
    ...treeSitterInputs(rng),
    input(
      {
        name: "SQL script 2,000 lines",
        path: "sql2000/sql/job.sql",
        languageId: "sql",
        target: 50,
        floor: "sql",
        yaml: false,
      },
      sqlScript(2000, rng),
    ),
    input(
      {
        name: "Java 50 SQL statements",
        path: "javasql/src/main/java/com/example/jobs/SqlJob.java",
        languageId: "java",
        target: 50,
        floor: "java",
        yaml: false,
      },
      javaSqlJob(50, rng),
    ),
  ];
}

/** Scala, Kotlin and Python job files of 500 and 2,000 lines, and the 10,000-line Scala file of the memory target. */
function treeSitterInputs(rng: Random): EditInput[] {
  const out: EditInput[] = [];
  const languages = [
    { label: "Scala", id: "scala", dir: "src/main/scala/com/example/jobs/StreamingJob.scala", job: scalaJob },
    { label: "Kotlin", id: "kotlin", dir: "src/main/kotlin/com/example/jobs/StreamingJob.kt", job: kotlinJob },
    { label: "Python", id: "python", dir: "jobs/streaming_job.py", job: pythonJob },
  ] as const;
  for (const l of languages) {
    for (const lines of [500, 2000]) {
      out.push({
        name: `${l.label} ${lines.toLocaleString("en-US")} lines`,
        path: `${l.id}${lines}/${l.dir}`,
        languageId: l.id,
        ...(lines === 2000 ? { target: 50 } : {}),
        ratioTarget: 1.5,
        floor: l.id,
        yaml: false,
        text: l.job(lines, rng),
      });
    }
  }
  out.push({
    name: "Scala 10,000 lines",
    path: `scala10000/${languages[0].dir}`,
    languageId: "scala",
    floor: "scala",
    yaml: false,
    text: scalaJob(10000, rng),
  });
  return out;
}

export function writeFiles(root: string, files: Iterable<[string, string]>): void {
  for (const [path, text] of files) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** A short digest of generated files, to tell at a glance that two runs measured the same bytes. */
export function digest(files: Iterable<[string, string]>): string {
  const hash = createHash("sha256");
  for (const [path, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${path}\0${text}\0`);
  return hash.digest("hex").slice(0, 12);
}

if (require.main === module) {
  const [folder, seed] = process.argv.slice(2);
  if (!folder) throw new Error("usage: generate.js <folder> [seed]");
  const s = seed ? Number(seed) : DEFAULT_SEED;
  writeFiles(
    join(folder, "editing"),
    editInputs(s).map((i) => [i.path, i.text] as [string, string]),
  );
  writeFiles(join(folder, "workspace"), workspace(1000, new Random(s + 1)).files);
}
