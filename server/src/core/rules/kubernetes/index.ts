import type { Rule } from "../types";

export const KUBERNETES_RULES: readonly Rule[] = [];
