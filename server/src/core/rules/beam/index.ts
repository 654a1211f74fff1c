import type { Rule } from "../types";
import { rule as bfl401 } from "./bfl401-auto-commit-with-finalize-commit";
import { rule as bfl402 } from "./bfl402-finalize-commit-without-group-id";
import { rule as bfl403 } from "./bfl403-offsets-never-committed";
import { rule as bfl404 } from "./bfl404-beam-checkpointing-disabled";
import { rule as bfl405 } from "./bfl405-auto-commit-data-loss-risk";
import { rule as bfl406 } from "./bfl406-invalid-checkpointing-interval";
import { rule as bfl407 } from "./bfl407-use-deprecated-read-no-effect";
import { rule as bfl408 } from "./bfl408-parallelism-exceeds-partitions";

export const BEAM_RULES: readonly Rule[] = [bfl401, bfl402, bfl403, bfl404, bfl405, bfl406, bfl407, bfl408];
