import type { Location } from "../../findings";
import { callText, type JobCode, methodText, type StreamOperator } from "../../jobcode/facts";
import { clustersOf, intSetting } from "../../project/clusters";
import { productionCode } from "../../project/jobCode";
import { environmentOfOperator, numberOf } from "../../project/streams";
import type { ProjectModel } from "../../workspace/project";
import { fitting } from "../messages";
import type { Rule } from "../types";

const JOB = `package com.example.clicks;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class ClickCounts {
  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(60_000);

    KafkaSource<String> source = KafkaSource.<String>builder()
        .setBootstrapServers("kafka:9092")
        .setTopics("clicks")
        .setGroupId("click-counts")
        .setValueOnlyDeserializer(new SimpleStringSchema())
        .build();

    env.fromSource(source, WatermarkStrategy.noWatermarks(), "clicks")
        .setParallelism(8)
        .flatMap(new SplitWords())
        .setParallelism(1)
        .print();
    env.execute("click-counts");
  }
}
`;

const PATH = "src/main/java/com/example/clicks/ClickCounts.java";

/** Operators that pass records on with the parallelism of their input: they are not a stage of their own. */
const INHERITING = new Set([
  "keyBy",
  "rebalance",
  "rescale",
  "shuffle",
  "broadcast",
  "forward",
  "partitionCustom",
  "union",
  "connect",
  "window",
  "getSideOutput",
  "assignTimestampsAndWatermarks",
]);

/** Non-parallel by definition: Flink runs them, and what they produce, with one subtask. */
const ALL_WINDOWS = new Set(["windowAll", "countWindowAll", "timeWindowAll"]);

interface Upstream {
  parallelism: number;
  /** What feeds the operator, for the message (`fromSource`). */
  operator: string;
  /** Where that parallelism is set. */
  setAt?: Location;
  /** How the message names it (`setParallelism(8)`, `env.setParallelism(8)`, `parallelism.default: 8`). */
  label: string;
}

export const rule: Rule = {
  meta: {
    code: "BFL502",
    name: "parallelism-bottleneck",
    family: "datastream",
    severity: "warning",
    description: "An operator with setParallelism(1) fed by a stage that runs with more subtasks.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        "Reports `setParallelism(1)` on a DataStream operator whose input runs with a parallelism above 1: set on the input with `setParallelism(n)`, on the environment with `env.setParallelism(n)` or `parallelism.default` in a `Configuration` given to it, or in the project's Flink configuration or FlinkDeployment. `keyBy`, `rebalance`, `union` and similar calls are looked through to the operator before them. The fix removes the `.setParallelism(1)` call, so the operator runs with the job's parallelism.",
      whyItMatters:
        "Flink gives every operator its own parallelism. An operator set to 1 gets every record of all the subtasks before it, processed one after the other on one thread: it caps the throughput of the whole job, backpressure builds up to the Kafka source, consumer lag grows, and checkpoints slow down because their barriers wait behind the queued records.",
      bad: { [PATH]: JOB },
      good: {
        [PATH]: JOB.replace(
          "        .flatMap(new SplitWords())\n        .setParallelism(1)\n",
          "        .flatMap(new SplitWords())\n",
        ),
      },
      whenNotToFire:
        "`windowAll`, `countWindowAll` and `timeWindowAll` operators and the functions applied to them (Flink runs them with one subtask anyway), operators after `global()` (which sends every record to one subtask), sources, operators whose input parallelism is not known or is 1, a `setParallelism(1)` on an `if` branch, and test code. A sink that must be a single writer (one output file, an external system that takes one connection) is reported like any operator: keep it and add `// beam-flink-lint-disable-next-line BFL502 -- single writer` above the call.",
      references: [
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/execution/parallel/",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/monitoring/back_pressure/",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/operators/windows/#window-assigners (non-keyed windows run with parallelism 1)",
      ],
    },
  },
  check(ctx) {
    for (const java of productionCode(ctx.project)) {
      for (const op of java.dataStream.operators) {
        const set = op.parallelism;
        if (!set || set.call.conditional || op.role === "source") continue;
        if (numberOf(set.value.value) !== 1) continue;
        if (ALL_WINDOWS.has(op.call.method) || op.inputs.some((i) => feedsOneSubtask(java, i))) continue;
        const upstream = widestInput(ctx.project, java, op);
        if (!upstream || upstream.parallelism <= 1) continue;
        const n = upstream.parallelism;
        const single = op.role === "sink" ? "this sink's single subtask" : `this single ${methodText(op.call)} subtask`;
        const remove = `Remove ${callText(set.call)}`;
        const advice =
          op.role === "sink"
            ? `${remove} so the sink writes with the job's parallelism; if it must be a single writer, keep it and suppress this finding with a comment that says why.`
            : `${remove} so the operator runs with the job's parallelism, or give it one that keeps up with its input.`;
        ctx.report({
          file: set.call.file,
          range: set.call.range,
          message: fitting(
            `${n} subtasks of ${upstream.operator} (${upstream.label}) feed ${single}: it caps the job's throughput.`,
            `${n} subtasks of ${upstream.operator} feed ${single}: it caps the job's throughput.`,
            `${n} subtasks feed this single subtask: it caps the job's throughput.`,
          ),
          details: `It processes every record alone, and backpressure makes the Kafka consumer lag grow. ${advice}`,
          related: upstream.setAt ? [{ ...upstream.setAt, message: `The input runs with parallelism ${n} here.` }] : [],
          fixes: set.call.removeRange
            ? [
                {
                  title: remove,
                  safety: "unsafe",
                  changes: [{ file: set.call.file, edits: [{ range: set.call.removeRange, newText: "" }] }],
                },
              ]
            : [],
        });
      }
    }
  },
};

/** `global()` and non-keyed windows hand every record to one subtask whatever the next operator's parallelism. */
function feedsOneSubtask(java: JobCode, id: number): boolean {
  const method = java.dataStream.operators[id]?.call.method;
  return method !== undefined && (method === "global" || ALL_WINDOWS.has(method));
}

/** The input of `op` that runs with the most subtasks, as far as code and configuration tell. */
function widestInput(project: ProjectModel, java: JobCode, op: StreamOperator): Upstream | undefined {
  let best: Upstream | undefined;
  for (const id of op.inputs) {
    const candidate = parallelismOf(project, java, id, new Set());
    if (candidate && (!best || candidate.parallelism > best.parallelism)) best = candidate;
  }
  return best;
}

function parallelismOf(project: ProjectModel, java: JobCode, id: number, seen: Set<number>): Upstream | undefined {
  const op = java.dataStream.operators[id];
  if (!op || seen.has(id)) return undefined;
  seen.add(id);
  if (op.parallelism) {
    const n = op.parallelism.call.conditional ? undefined : numberOf(op.parallelism.value.value);
    if (n === undefined) return undefined;
    return {
      parallelism: n,
      operator: methodText(op.call),
      setAt: { file: op.parallelism.call.file, range: op.parallelism.call.callRange },
      label: callText(op.parallelism.call),
    };
  }
  if (
    ALL_WINDOWS.has(op.call.method) ||
    op.inputs.some((i) => ALL_WINDOWS.has(java.dataStream.operators[i]?.call.method ?? ""))
  ) {
    return { parallelism: 1, operator: methodText(op.call), label: "a non-keyed window" };
  }
  if (INHERITING.has(op.call.method)) {
    let best: Upstream | undefined;
    for (const input of op.inputs) {
      const candidate = parallelismOf(project, java, input, seen);
      if (candidate && (!best || candidate.parallelism > best.parallelism)) best = candidate;
    }
    return best;
  }
  const fallback = defaultParallelism(project, java, op);
  return fallback && { ...fallback, operator: methodText(op.call) };
}

/** The parallelism an operator without its own gets: the environment's, else the cluster's default. */
function defaultParallelism(
  project: ProjectModel,
  java: JobCode,
  op: StreamOperator,
): Omit<Upstream, "operator"> | undefined {
  const env = environmentOfOperator(java, op);
  if (env) {
    const set = java.dataStream.environmentParallelism.find(
      (p) =>
        p.method === "setParallelism" &&
        (p.environment === env.variable ||
          (p.environment === undefined && java.dataStream.environments.length === 1)) &&
        !p.call.conditional,
    );
    const n = set && numberOf(set.value.value);
    if (set && n !== undefined) {
      return {
        parallelism: n,
        setAt: { file: set.call.file, range: set.call.callRange },
        label: callText(set.call, env.variable ?? "env"),
      };
    }
    const conf = java.dataStream.configuration.find(
      (c) =>
        c.key === "parallelism.default" &&
        c.passedToEnvironment &&
        c.variable === env.configurationVariable &&
        !c.call.conditional,
    );
    const m = conf && numberOf(conf.value.value);
    if (conf && m !== undefined) {
      return {
        parallelism: m,
        setAt: { file: conf.call.file, range: conf.call.callRange },
        label: `parallelism.default ${m}`,
      };
    }
  }
  return clusterParallelism(project);
}

/**
 * The default parallelism the project's clusters give jobs (FlinkDeployment job.parallelism, parallelism.default),
 * when every cluster that says one agrees on a value: the job may run on any of them.
 */
function clusterParallelism(project: ProjectModel): Omit<Upstream, "operator"> | undefined {
  const found: Omit<Upstream, "operator">[] = [];
  for (const cluster of clustersOf(project)) {
    const job = cluster.deployment?.jobParallelism;
    if (job) {
      found.push({
        parallelism: job.value,
        setAt: { file: job.file, range: job.range },
        label: `job.parallelism: ${job.value}`,
      });
      continue;
    }
    const setting = intSetting(cluster, "parallelism.default");
    if (setting) {
      const { entry, config } = setting.setting;
      found.push({
        parallelism: setting.value,
        setAt: { file: config.file, range: entry.valueRange },
        label: `parallelism.default: ${setting.value}`,
      });
    }
  }
  if (found.length === 0 || found.some((f) => f.parallelism !== found[0].parallelism)) return undefined;
  return found[0];
}
