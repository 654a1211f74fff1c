import type { Rule } from "../types";
import { rule as bfl100 } from "./bfl100-config-line-ignored";
import { rule as bfl101 } from "./bfl101-checkpointing-disabled";
import { rule as bfl102 } from "./bfl102-unknown-key";
import { rule as bfl103 } from "./bfl103-deprecated-key";
import { rule as bfl104 } from "./bfl104-invalid-value";
import { rule as bfl105 } from "./bfl105-duplicate-key";
import { rule as bfl106 } from "./bfl106-duration-without-unit";
import { rule as bfl107 } from "./bfl107-key-prefix-conflict";
import { rule as bfl108 } from "./bfl108-config-file-format";
import { rule as bfl110 } from "./bfl110-parallelism-exceeds-slots";
import { rule as bfl111 } from "./bfl111-max-parallelism-below-parallelism";
import { rule as bfl112 } from "./bfl112-checkpoint-storage-missing";
import { rule as bfl113 } from "./bfl113-local-checkpoint-storage";
import { rule as bfl114 } from "./bfl114-ha-incomplete";
import { rule as bfl115 } from "./bfl115-unaligned-checkpoint-conflict";
import { rule as bfl116 } from "./bfl116-no-restart-strategy";

export const CONFIG_RULES: readonly Rule[] = [
  bfl100,
  bfl101,
  bfl102,
  bfl103,
  bfl104,
  bfl105,
  bfl106,
  bfl107,
  bfl108,
  bfl110,
  bfl111,
  bfl112,
  bfl113,
  bfl114,
  bfl115,
  bfl116,
];
