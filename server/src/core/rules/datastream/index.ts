import type { Rule } from "../types";
import { rule as bfl501 } from "./bfl501-datastream-checkpointing-disabled";
import { rule as bfl502 } from "./bfl502-parallelism-bottleneck";
import { rule as bfl503 } from "./bfl503-legacy-kafka-connector";
import { rule as bfl504 } from "./bfl504-kafka-source-commit-without-group-id";
import { rule as bfl505 } from "./bfl505-exactly-once-sink-misconfigured";
import { rule as bfl506 } from "./bfl506-auto-commit-with-checkpoint-commit";

export const DATASTREAM_RULES: readonly Rule[] = [bfl501, bfl502, bfl503, bfl504, bfl505, bfl506];
