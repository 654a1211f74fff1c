/** Every rule the product ships, by family. Each family lists its own rules in its index. */
import { BEAM_RULES } from "./beam/index";
import { BUILD_RULES } from "./build/index";
import { CONFIG_RULES } from "./config/index";
import { DATASTREAM_RULES } from "./datastream/index";
import { KUBERNETES_RULES } from "./kubernetes/index";
import { META_RULES } from "./meta/index";
import { SQL_RULES } from "./sql/index";
import type { Rule } from "./types";

export const ALL_RULES: readonly Rule[] = [
  ...META_RULES,
  ...CONFIG_RULES,
  ...KUBERNETES_RULES,
  ...BUILD_RULES,
  ...BEAM_RULES,
  ...DATASTREAM_RULES,
  ...SQL_RULES,
];

export function findRule(codeOrName: string): Rule | undefined {
  return ALL_RULES.find((r) => r.meta.code === codeOrName || r.meta.name === codeOrName);
}
