import type { Rule } from "../types";
import { rule as bfl301 } from "./bfl301-beam-restore-duplicate-splits";
import { rule as bfl302 } from "./bfl302-beam-kafka-offsets-not-committed";
import { rule as bfl303 } from "./bfl303-runner-flink-version-mismatch";
import { rule as bfl304 } from "./bfl304-runner-artifact-not-published";
import { rule as bfl305 } from "./bfl305-mixed-beam-versions";
import { rule as bfl306 } from "./bfl306-kafka-connector-known-bug";
import { rule as bfl307 } from "./bfl307-kafka-connector-flink-mismatch";
import { rule as bfl308 } from "./bfl308-beam-xlang-kafka-duplicates";

export const BUILD_RULES: readonly Rule[] = [bfl301, bfl302, bfl303, bfl304, bfl305, bfl306, bfl307, bfl308];
