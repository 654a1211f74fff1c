/**
 * How each Kafka read of the project commits its offsets, decided once for the rules and the hovers alike.
 *
 * A Beam read (KafkaIO, or Beam Python's ReadFromKafka) commits in finalize when it calls
 * `commitOffsetsInFinalize()`, and the Kafka client auto-commits when `enable.auto.commit` is true (KafkaIO's
 * default is false). "decided at run time" means the reader cannot tell: a commit call on some paths only, or an
 * auto-commit value (or a part of the consumer config) only the running program knows.
 */
import { type BeamKafkaRead, effectiveSetting, type KafkaSettings, truthOf } from "../jobcode/facts";

export const AUTO_COMMIT = "enable.auto.commit";

export type BeamCommitMode = "finalize" | "finalize and auto-commit" | "auto-commit" | "none" | "decided at run time";

/** Whether the client auto-commits: undefined when only the running program knows. */
export function autoCommitOf(config: KafkaSettings): boolean | undefined {
  const setting = effectiveSetting(config, AUTO_COMMIT);
  if (!setting) return config.hasUnknownParts ? undefined : false;
  return setting.conditional ? undefined : truthOf(setting.value.value);
}

const modes = new WeakMap<BeamKafkaRead, BeamCommitMode>();

export function beamCommitMode(read: BeamKafkaRead): BeamCommitMode {
  let mode = modes.get(read);
  if (!mode) {
    const finalize = read.commitOffsetsInFinalize;
    const auto = autoCommitOf(read.consumerConfig);
    if (finalize?.conditional || auto === undefined) mode = "decided at run time";
    else if (finalize) mode = auto ? "finalize and auto-commit" : "finalize";
    else mode = auto ? "auto-commit" : "none";
    modes.set(read, mode);
  }
  return mode;
}
