/** Merges the Java facts of a project's files, and gathers every Beam flag the project passes to its pipelines. */

import { flinkDeploymentArgs } from "../documents/launchArgs";
import type { FileFacts } from "../model";
import type { BeamArg, ProjectJobCode } from "./facts";

export function projectJavaFacts(files: FileFacts[]): ProjectJobCode {
  const java = files.flatMap((f) => (f.code ? [f.code] : []));
  const beamArgs: BeamArg[] = [
    ...java.flatMap((j) => j.beamOptions.args),
    ...files.flatMap((f) => f.beamArgs ?? []),
    ...files.flatMap((f) => f.flinkDeployments.flatMap(flinkDeploymentArgs)),
  ];
  return {
    files: java,
    kafkaReads: java.flatMap((j) => j.kafkaReads),
    optionsCreations: java.flatMap((j) => j.beamOptions.creations),
    optionSettings: java.flatMap((j) => j.beamOptions.settings),
    beamArgs,
    pipelines: java.flatMap((j) => j.beamOptions.pipelines),
    environments: java.flatMap((j) => j.dataStream.environments),
    checkpointing: java.flatMap((j) => j.dataStream.checkpointing),
    legacyKafka: java.flatMap((j) => j.dataStream.legacyKafka),
    kafkaSources: java.flatMap((j) => j.dataStream.kafkaSources),
    kafkaSinks: java.flatMap((j) => j.dataStream.kafkaSinks),
  };
}
