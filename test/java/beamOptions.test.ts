/** Beam pipeline options in code: creation, setters, flags in strings, and where a setter can be inserted. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { insertStatement } from "../../server/src/core/jobcode/facts";
import { jobCheckpointing } from "../../server/src/core/project/checkpointing";
import { Workspace } from "../../server/src/core/workspace/workspace";
import { span } from "../readers/helpers";
import { at, edited, FILE, inMain, java, shown } from "./helpers";

test("options created from args: variable, type, class, and the statement after which a setter goes", () => {
  const text = inMain(
    "FlinkPipelineOptions options =",
    "    PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class);",
    "Pipeline p = Pipeline.create(options);",
  );
  const { beamOptions } = java(text);
  const [creation] = beamOptions.creations;
  assert.equal(at(text, creation.range), "3:8-3:39 PipelineOptionsFactory.fromArgs");
  assert.equal(creation.variable, "options");
  assert.equal(creation.declaredType, "FlinkPipelineOptions");
  assert.equal(creation.asClass, "FlinkPipelineOptions");
  assert.equal(creation.fromArgs, true);
  assert.equal(
    edited(text, insertStatement(creation.insertion ?? assert.fail(), "options.setCheckpointingInterval(60_000L);")),
    inMain(
      "FlinkPipelineOptions options =",
      "    PipelineOptionsFactory.fromArgs(args).withValidation().as(FlinkPipelineOptions.class);",
      "options.setCheckpointingInterval(60_000L);",
      "Pipeline p = Pipeline.create(options);",
    ),
  );
  assert.deepEqual(
    beamOptions.pipelines.map((l) => at(text, l.range)),
    ["4:17-4:32 Pipeline.create"],
  );
});

test("setters on options variables, on `.as(…)` views and on parameters, with their values", () => {
  const text = [
    "class Job {",
    "  static final long INTERVAL = 60 * 1000;",
    "  void run(String[] args) {",
    "    PipelineOptions options = PipelineOptionsFactory.create();",
    "    options.as(FlinkPipelineOptions.class).setCheckpointingInterval(INTERVAL);",
    "    options.setRunner(FlinkRunner.class);",
    '    ExperimentalOptions.addExperiment(options.as(ExperimentalOptions.class), "use_deprecated_read");',
    "  }",
    "  void tune(FlinkPipelineOptions flink, int n) {",
    "    flink.setParallelism(n);",
    "    flink.setMaxParallelism(-1);",
    "    flink.setStreaming(true);",
    "  }",
    "}",
  ].join("\n");
  const { beamOptions } = java(text);
  assert.deepEqual(
    beamOptions.settings.map((s) => `${s.target ?? "-"} ${s.option}=${shown(s.value)} @${span(s.call.range)}`),
    [
      "options checkpointingInterval=60000 @4:43-4:67",
      "options runner=FlinkRunner.class @5:12-5:21",
      '- experiments=["use_deprecated_read"] @6:24-6:37',
      "flink parallelism=? @9:10-9:24",
      "flink maxParallelism=-1 @10:10-10:27",
      "flink streaming=true @11:10-11:22",
    ],
  );
  assert.equal(beamOptions.creations[0].declaredType, "PipelineOptions");
  assert.equal(beamOptions.creations[0].fromArgs, false);
});

test("flags in string literals: --name=value, --name + value pairs; not JVM flags or messages that mention one", () => {
  const text = inMain(
    'String[] defaults = {"--runner=FlinkRunner", "--checkpointingInterval=60000", "--parallelism", "4"};',
    'List<String> more = Arrays.asList("--experiments=use_deprecated_read", "--streaming");',
    'run(new String[] {"--add-opens=java.base/java.lang=ALL-UNNAMED"});',
    'log.info("use --checkpointingInterval=0 to switch it off");',
  );
  const args = java(text).beamOptions.args;
  assert.deepEqual(
    args.map((a) => `${a.name}=${a.value ?? ""} ${at(text, a.range)} | ${a.valueRange ? at(text, a.valueRange) : "-"}`),
    [
      "runner=FlinkRunner 2:26-2:46 --runner=FlinkRunner | 2:35-2:46 FlinkRunner",
      "checkpointingInterval=60000 2:50-2:79 --checkpointingInterval=60000 | 2:74-2:79 60000",
      "parallelism=4 2:83-2:96 --parallelism | 2:100-2:101 4",
      "experiments=use_deprecated_read 3:39-3:72 --experiments=use_deprecated_read | 3:53-3:72 use_deprecated_read",
      "streaming= 3:76-3:87 --streaming | -",
    ],
  );
  assert.ok(args.every((a) => a.source === "javaString" && a.file === FILE));
});

test("job code that sets a positive checkpointing interval is recorded for BFL101; 0 and -1 are not", () => {
  const text = inMain(
    "FlinkPipelineOptions o = PipelineOptionsFactory.as(FlinkPipelineOptions.class);",
    "o.setCheckpointingInterval(-1L);",
    "o.setCheckpointingInterval(Duration.ofMinutes(1).toMillis());",
    'String[] a = {"--checkpointingInterval=0", "--checkpointingInterval=30000"};',
  );
  const ws = new Workspace({ roots: ["/p"] });
  ws.setFile(FILE, text);
  assert.deepEqual(
    jobCheckpointing(ws.project(ws.projectRootOf(FILE))).map((l) => at(text, l.range)),
    ["4:6-4:30 setCheckpointingInterval", "5:48-5:77 --checkpointingInterval=30000"],
  );
});
