/**
 * Which entry of a configuration Flink actually reads for an option. Flink looks up the option's own key first
 * and only then its deprecated and fallback keys, in order; within one key the last entry wins (legacy
 * flink-conf.yaml keeps the last duplicate).
 */

import {
  aliasReadIn,
  existsIn,
  isOptionKnown,
  lookupOption,
  type OptionInfo,
  optionForAlias,
  optionsForAlias,
} from "../knowledge/options";
import type { ConfigEntry, FlinkConfig } from "../model";
import { type ProjectModel, parseMinor } from "../workspace/project";

/** The option's keys in Flink's lookup order: the canonical key, then its deprecated and fallback keys. */
function lookupKeys(key: string): string[] {
  const option = lookupOption(key) ?? optionForAlias(key);
  if (!option || option.key.includes("<")) return [key];
  return [option.key, ...option.aliases];
}

/**
 * The option Flink `minor` (undefined = the newest) reads `key` as: the key's own option, or the option it is a
 * deprecated or fallback key of.
 */
export function optionReadAs(key: string, minor: string | undefined): OptionInfo | undefined {
  const own = lookupOption(key);
  if (own && existsIn(own, minor)) return own;
  return optionsForAlias(key).find((m) => aliasReadIn(m, minor))?.option;
}

/** Whether Flink `minor` reads this key at all (a key of another version is ignored). */
function readBy(key: string, minor: string | undefined): boolean {
  if (minor === undefined) return true;
  const status = isOptionKnown(key, minor);
  return status !== "other-version";
}

/** Every entry that sets the option `key` (under its own key or an alias), in source order. */
export function findEntries(config: FlinkConfig, key: string, minor?: string): ConfigEntry[] {
  const keys = new Set(lookupKeys(key).filter((k) => readBy(k, minor)));
  return config.entries.filter((e) => keys.has(e.key));
}

/**
 * The entry whose value Flink uses for the option `key`, or undefined when the option is unset. With `minor`,
 * keys that Flink version does not know are skipped.
 */
export function findEntry(config: FlinkConfig, key: string, minor?: string): ConfigEntry | undefined {
  for (const k of lookupKeys(key)) {
    if (!readBy(k, minor)) continue;
    const own = config.entries.filter((e) => e.key === k);
    if (own.length > 0) return own[own.length - 1];
  }
  return undefined;
}

/**
 * The Flink minor a configuration is read by: a FlinkDeployment's own `flinkVersion` for its flinkConfiguration,
 * otherwise the project's Flink version; undefined when nothing says.
 */
export function flinkMinorFor(project: ProjectModel, config: FlinkConfig): string | undefined {
  const deployment = project.flinkDeployments.find((d) => d.config === config || d.config.id === config.id);
  const own = deployment?.flinkVersion ? parseMinor(deployment.flinkVersion.value) : undefined;
  return own ? `${own.major}.${own.minor}` : project.flinkVersion?.minor;
}
