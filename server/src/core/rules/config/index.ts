import type { Rule } from "../types";
import { rule as bfl100 } from "./bfl100-config-line-ignored";

export const CONFIG_RULES: readonly Rule[] = [bfl100];
