import { optionValues } from "../../project/beam";
import { fitting } from "../messages";
import type { Rule } from "../types";
import { flinkJob } from "./exampleFiles";

/** Flink's CheckpointConfig.MINIMAL_CHECKPOINT_TIME. */
const MIN_INTERVAL_MS = 10;

const job = (interval: string) => `package com.example;

import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

public class OrdersPipeline {
  public static void main(String[] args) {
    FlinkPipelineOptions options = PipelineOptionsFactory.fromArgs(args).as(FlinkPipelineOptions.class);
    options.setCheckpointingInterval(${interval});
    Pipeline pipeline = Pipeline.create(options);
    pipeline.run();
  }
}
`;

/** Why a value is rejected, as the runner or the option parser says it; undefined for a valid value. */
function problem(number: number | undefined, text: string): { message: string; details: string } | undefined {
  if (number === undefined) {
    return {
      message: fitting(
        `Beam cannot read ${text} as a checkpointing interval: the pipeline fails when its options are parsed.`,
        "Beam cannot read this checkpointing interval: the pipeline fails when its options are parsed.",
      ),
      details: "The interval is a whole number of milliseconds.",
    };
  }
  if (number === 0 || number < -1) {
    return {
      message: `The Flink runner rejects a checkpointing interval of ${number} when the pipeline starts.`,
      details: 'The runner says "The checkpoint interval must be positive".',
    };
  }
  if (number > 0 && number < MIN_INTERVAL_MS) {
    return {
      message: `Flink rejects a checkpoint interval of ${number} ms when the pipeline starts.`,
      details: `Flink says "Checkpoint interval must be larger than or equal to ${MIN_INTERVAL_MS} ms".`,
    };
  }
  return undefined;
}

export const rule: Rule = {
  meta: {
    code: "BFL406",
    name: "invalid-checkpointing-interval",
    family: "beam",
    severity: "error",
    description: "A Beam `checkpointingInterval` that the Flink runner rejects.",
    fix: "none",
    docs: {
      whatItDoes:
        "Reports a Beam `checkpointingInterval` of 0, below -1, or between 1 and 9 ms, set in code (`setCheckpointingInterval`) or as a flag (`--checkpointingInterval=` in a Java string, a launch configuration, a script, a Dockerfile or a FlinkDeployment's `job.args`), and flags whose value is not a whole number (`--checkpointingInterval=60s`).",
      whyItMatters:
        'The job does not start. The Flink runner only accepts -1 (off) or a positive number of milliseconds and throws "The checkpoint interval must be positive" for anything else; Flink itself refuses intervals under 10 ms; and Beam parses the flag as a Java long, so a duration with a unit fails while the options are read.',
      bad: flinkJob(job("0")),
      good: flinkJob(job("60_000L")),
      whenNotToFire:
        "-1 (checkpointing explicitly off, reported by BFL404 for streaming pipelines on Flink); values only known at run time (variables, environment substitutions such as `$CHECKPOINT_MS` in scripts and manifests).",
      references: [
        'Beam FlinkExecutionEnvironments.configureCheckpointing: "The checkpoint interval must be positive"',
        "Flink CheckpointConfig.setCheckpointInterval: MINIMAL_CHECKPOINT_TIME = 10 ms",
        "Beam FlinkPipelineOptions.getCheckpointingInterval (Long, milliseconds, default -1)",
      ],
    },
  },
  check(ctx) {
    for (const v of optionValues(ctx.project, "checkpointingInterval")) {
      if (v.unknown || (v.setting && v.number === undefined)) continue;
      const why = problem(v.number, v.text);
      if (!why) continue;
      ctx.report({
        file: v.file,
        range: v.range,
        message: why.message,
        details: `${why.details} Set the interval to a positive number of milliseconds, e.g. 60000 for one minute, or -1 to leave checkpointing off.`,
      });
    }
  },
};
