/**
 * The `-Dkey=value` dynamic properties of a Flink start command (documents/commandLine.ts) as a configuration of
 * the `commandLine` host: set over the cluster's configuration files and FLINK_PROPERTIES for the process the
 * command starts. Those of a client command in a script (`flink run -D…`, `yarn-session.sh -D…`) are a
 * configuration of the `submission` host: the job (or YARN session) it starts, not one of the project's clusters. Keys and values point at their exact characters inside the command line; fixes may only replace
 * them with single words, or delete a property written in a split string (rules/configEdits.ts
 * `commandLineFixes`). Nothing can be inserted.
 */
import type { ConfigEntry, FlinkConfig, K8sObject } from "../../model";
import type { Position, Range } from "../../text";
import {
  type ClientCommand,
  clientProperties,
  clientTarget,
  dynamicProperties,
  type StartCommand,
  type WordSlice,
} from "../commandLine";

export interface CommandLineConfigSpec {
  file: string;
  id: string;
  /** A start command (its properties configure the process it starts) or a client command of a script. */
  command: StartCommand | ClientCommand;
  /** The position of a file offset. */
  position(offset: number): Position;
  /** Where findings about the whole configuration point when the command's name has no exact place. */
  anchor: Range;
  owner?: K8sObject;
}

/** The range of a slice whose characters are written one after the other as themselves; undefined otherwise. */
function exactRange(s: WordSlice, position: (offset: number) => Position): Range | undefined {
  if (s.from === undefined) return undefined;
  for (let k = 0; k < s.at.length; k++) if (s.at[k] !== s.from + k) return undefined;
  return { start: position(s.from), end: position(s.from + s.text.length) };
}

const RUN_TIME = /\$|\{\{|`/;

/** The configuration a start command's dynamic properties set; undefined when it sets none. */
export function commandLineConfig(spec: CommandLineConfigSpec): FlinkConfig | undefined {
  const { command, position } = spec;
  const client = "kind" in command;
  const properties = client ? clientProperties(command) : dynamicProperties(command);
  if (properties.length === 0) return undefined;
  const name = command.name;
  const nameExact = name.at.length > 0 && name.at.every((a, k) => a !== undefined && a === (name.at[0] ?? 0) + k);
  const anchor =
    nameExact && name.at[0] !== undefined
      ? { start: position(name.at[0]), end: position(name.at[0] + name.text.length) }
      : spec.anchor;
  const entries: ConfigEntry[] = [];
  let exact = true;
  for (const p of properties) {
    // A key only the running shell knows is no key of this configuration.
    if (RUN_TIME.test(p.key.text) || p.key.text.trim() === "") continue;
    const keyRange = exactRange(p.key, position);
    const valueRange = exactRange(p.value, position);
    if (!keyRange || !valueRange) exact = false;
    const at = keyRange?.start ?? anchor.start;
    entries.push({
      key: p.key.text,
      value: p.value.text,
      keyRange: keyRange ?? anchor,
      valueRange: valueRange ?? anchor,
      // Not deletable (an empty range) unless the property is words of a split string.
      deleteRange: p.span ? { start: position(p.span[0]), end: position(p.span[1]) } : { start: at, end: at },
      nested: false,
      templated: RUN_TIME.test(p.value.text),
      valueKind: "scalar",
    });
  }
  if (entries.length === 0) return undefined;
  const config: FlinkConfig = {
    id: spec.id,
    file: spec.file,
    host: client ? "submission" : "commandLine",
    // Plain string values; a key given again replaces the earlier value.
    dialect: "legacy",
    entries,
    ignoredLines: [],
    anchor,
    insertEntry: () => undefined,
    ...(spec.owner ? { owner: spec.owner } : {}),
  };
  const target = client ? clientTarget(command) : undefined;
  if (target) config.target = target;
  if (exact) return config;
  // Where one property cannot be placed exactly, none is: every range points at the command, and no fix edits it.
  return {
    ...config,
    entries: entries.map((e) => ({
      ...e,
      keyRange: anchor,
      valueRange: anchor,
      deleteRange: { start: anchor.start, end: anchor.start },
    })),
    inexactRanges: true,
  };
}
