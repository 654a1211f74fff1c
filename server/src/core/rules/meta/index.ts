import type { Rule } from "../types";

export const META_RULES: readonly Rule[] = [];
