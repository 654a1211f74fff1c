import type { Rule } from "../types";
import { rule as bfl001 } from "./bfl001-unused-suppression";
import { rule as bfl002 } from "./bfl002-syntax-error";
import { rule as bfl003 } from "./bfl003-not-analysed";

export const META_RULES: readonly Rule[] = [bfl001, bfl002, bfl003];
