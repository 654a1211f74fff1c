import type { Fix } from "../../findings";
import {
  compareMinors,
  editDistance,
  FLINK_MINORS,
  isOptionKnown,
  isOptionRoot,
  lookupOption,
  type OptionInfo,
  olderThanCatalogue,
  optionsForAlias,
  suggestKeys,
} from "../../knowledge/options";
import type { ConfigEntry, FlinkConfig } from "../../model";
import { flinkMinorFor } from "../../project/clusters";
import { codeNamesKey } from "../../project/jobCode";
import { contextFor, renameKeyEdit, singleFileFix } from "../configEdits";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";

/** The option behind a key that exists in other minors only: its own option, or the one it is an alias of. */
function optionsOf(key: string): OptionInfo[] {
  const own = lookupOption(key);
  return own ? [own] : optionsForAlias(key).map((a) => a.option);
}

/** The oldest minor, above `minor`, that knows the key; undefined when the key only existed before `minor`. */
function introducedAfter(key: string, minor: string): string | undefined {
  const later = optionsOf(key)
    .map((o) => o.since)
    .filter((s): s is string => s !== undefined && compareMinors(s, minor) > 0)
    .sort(compareMinors);
  return later[0];
}

function renameFixes(ctx: RuleContext, file: string, entry: ConfigEntry, keys: string[]): Fix[] {
  const fixes: Fix[] = [];
  for (const key of keys) {
    const edit = renameKeyEdit(ctx.project, file, entry, key);
    // Unsafe: the renamed setting starts to apply, which changes what the cluster does.
    if (edit) fixes.push(singleFileFix(`Rename to \`${key}\``, "unsafe", file, [edit]));
  }
  return fixes;
}

/**
 * Kafka client properties written as Flink options (`auto.offset.reset`, `group.id`): settings meant for a Kafka
 * consumer or producer that Flink's configuration does not pass to one, not an application's own keys.
 */
const KAFKA_CLIENT_KEY =
  /^(bootstrap\.servers|group\.(id|instance\.id)|auto\.offset\.reset|enable\.auto\.commit|auto\.commit\.interval\.ms|isolation\.level|client\.id|(key|value)\.(de)?serializer|max\.poll\.|fetch\.|session\.timeout\.ms|heartbeat\.interval\.ms|security\.protocol|sasl\.|ssl\.|transaction(al\.id|\.timeout\.ms)|acks$|retries$|linger\.ms|batch\.size|compression\.type|request\.timeout\.ms|partition\.discovery)/;

export const rule: Rule = {
  meta: {
    code: "BFL102",
    name: "unknown-key",
    family: "flink-config",
    severity: "warning",
    description: "A Flink configuration key that the Flink version in use does not know; Flink ignores it silently.",
    fix: "unsafe",
    docs: {
      whatItDoes:
        'Reports keys of a Flink configuration (flink-conf.yaml, config.yaml, FlinkDeployment `flinkConfiguration`, ConfigMaps, and the Confluent Platform FlinkApplication `spec.flinkConfiguration`, FlinkEnvironment `spec.flinkApplicationDefaults.spec.flinkConfiguration` and ComputePool `spec.clusterSpec.flinkConfiguration`, each read with the Flink version of the applications or statements that run it) that are neither an option of the detected Flink version, nor a deprecated key Flink still reads, nor under a prefix Flink hands on to plugins (`metrics.reporter.<name>.`, `s3.`, `fs.s3a.`, `flink.hadoop.`, `containerized.taskmanager.env.` …). Also reports options that only a newer Flink version has. Offers up to three "Did you mean" renames.',
      whyItMatters:
        "Flink does not validate keys: a misspelled key is skipped without a word. `checkpointing.interval: 30s` looks like it turns checkpointing on, but Flink never reads it, so the job runs without checkpoints and re-reads or loses data after every restart.",
      bad: {
        "flink-conf.yaml": "taskmanager.numberOfTaskSlot: 4\ncheckpointing.interval: 30 s\n",
      },
      good: {
        "flink-conf.yaml": "taskmanager.numberOfTaskSlots: 4\nexecution.checkpointing.interval: 30 s\n",
      },
      whenNotToFire:
        "A key under a first part that no Flink option has and that resembles no Flink key (`orders.kafka.topic`, `myapp.tenant`) is taken for the application's own setting, which job code may read from the configuration: it is `info`, and not reported at all when the project's job code names the key in a string (`ConfigOptions.key(\"orders.kafka.topic\")`, `conf.get_string('orders.kafka.topic', …)`); Kafka client properties written as Flink keys (`auto.offset.reset`, `group.id`) stay warnings. A ConfigMap's `config.yaml` that belongs to another tool (its keys are not Flink's, and neither a `flink-conf.yaml` or Flink's log4j files beside it nor the ConfigMap's name say Flink) is not read as a Flink configuration. Logging settings pasted in (`rootLogger.*`, `logger.*`, `appender.*`, `log4j.*`) are one mistake and get one finding at the first of them, with the others as related information. Keys under pass-through prefixes, deprecated keys Flink still reads (BFL103 reports those), Kubernetes Operator options, entries of Map options written as `<option>.<entry>`, and options that existed in an older Flink version but were removed (BFL103 reports those as removed). With no detected Flink version, any key that exists in some Flink version from 1.15 on is accepted. On a release older than 1.15 (a `flink:1.9` image), whose keys this check does not know, a key no later release has is only information (that release may still read it, as Flink 1.9 reads `taskmanager.memory.preallocate`), unless it is a near miss of a known key (`taskmanager.numberOfTaskSlot`: a typo, warning). Keys Flink reads outside its declared options are accepted: the deprecated `fs.hdfs.hadoopconf`, `fs.hdfs.hdfsdefault` and `fs.hdfs.hdfssite` (read by Flink 1.x; HADOOP_CONF_DIR replaces them), and `mesos.*` up to Flink 1.13 (1.14 removed Mesos support). The `SET` statements of a ksqlDB script (one with `CREATE STREAM`, `EMIT CHANGES` or `WITH (KAFKA_TOPIC=…)`; SQL strings in job code are judged one by one) are ksqlDB's properties, not Flink options, and are not checked; neither are those of a script of Confluent's Flink statements (Confluent Cloud, Confluent Manager for Apache Flink), recognised by a `SET` of a statement property Apache Flink does not have (`sql.current-catalog`, `sql.state-ttl`, `client.statement-name`). The renames are unsafe: once renamed, the setting starts to apply.",
      references: [
        "apache/flink-agents #976 (`checkpointing.interval` is silently ignored)",
        "https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/",
      ],
    },
  },
  check(ctx) {
    for (const config of ctx.project.flinkConfigs) {
      const cctx = contextFor(ctx, config);
      const minor = flinkMinorFor(ctx.project, config);
      const version = minor ? `Flink ${minor}` : "Flink";
      const logging: ConfigEntry[] = [];
      for (const entry of config.entries) {
        // A parent mapping is judged by its children (`kubernetes.jobmanager.annotations: {team: data}`).
        if (entry.valueKind === "mapping") continue;
        const status = isOptionKnown(entry.key, minor);
        if (status === "unknown" && LOGGING_KEY.test(entry.key)) {
          logging.push(entry);
          continue;
        }
        if (status === "unknown") {
          const suggestions = suggestKeys(entry.key, minor);
          // A key under a root no Flink option has, nothing like a Flink key: the application's own setting.
          const own =
            suggestions.length === 0 && !isOptionRoot(entry.key.split(".")[0]) && !KAFKA_CLIENT_KEY.test(entry.key);
          if (own && codeNamesKey(ctx.project, entry.key)) continue;
          if (own) {
            cctx.report({
              file: config.file,
              range: entry.keyRange,
              message: fitting(
                `\`${entry.key}\` is no Flink option: Flink ignores it, and only job code that reads it from the configuration sees it.`,
                `\`${entry.key}\` is no Flink option: only job code that reads it from the configuration sees it.`,
                "This is no Flink option: only job code that reads it from the configuration sees it.",
              ),
              details:
                "No Flink option starts with this key's first part, so it is taken for the application's own setting. The project's job code does not name it; if a job reads it (`getConfiguration().getString(…)`, global job parameters), this is fine.",
              severity: "info",
            });
            continue;
          }
          const guess = suggestions.length > 0 ? `Did you mean \`${suggestions[0]}\`?` : undefined;
          // A release older than the catalogue's first minor: its keys are not known, so a key no later release has
          // may still be one of its own (`taskmanager.memory.preallocate` on Flink 1.9). A slip of a few letters
          // from a known key is still a typo; a key with a word more or less is not (`taskmanager.memory.fraction`
          // is Flink 1.9's own key, not a slip of `taskmanager.memory.managed.fraction`).
          const older = olderThanCatalogue(minor) ? minor : undefined;
          const first = FLINK_MINORS[0];
          const slip =
            guess !== undefined && editDistance(entry.key.toLowerCase(), suggestions[0].toLowerCase(), 3) <= 2;
          let message: string;
          let details: string;
          let severity: "info" | undefined;
          if (older && slip) {
            message = fitting(
              `No Flink release from ${first} on has an option \`${entry.key}\`; did you mean \`${suggestions[0]}\`?`,
              `\`${entry.key}\` is no option of Flink ${first} or later; did you mean \`${suggestions[0]}\`?`,
              `No option of Flink ${first} or later has this key; did you mean \`${suggestions[0]}\`?`,
            );
            details = `The keys of Flink releases before ${first} are not known to this check; this one looks like a slip of \`${suggestions[0]}\`.`;
          } else if (older) {
            message = fitting(
              `\`${entry.key}\` is no option of Flink ${first} or later; Flink ${older} is older and may still read it.`,
              `This key is no option of Flink ${first} or later; Flink ${older} may still read it.`,
            );
            severity = "info";
            details = `The keys of Flink releases before ${first} are not known to this check. If Flink ${older} does not read the key either, it logs at most a warning and starts without it.${guess ? ` ${guess}` : ""}`;
          } else {
            const plain = `${version} has no option \`${entry.key}\` and ignores it, so this setting does not apply.`;
            const withGuess = guess
              ? `${version} has no option \`${entry.key}\` and ignores it; did you mean \`${suggestions[0]}\`?`
              : plain;
            message = fitting(withGuess, plain);
            details =
              guess && message === plain
                ? guess
                : "Flink logs unknown keys at most as a warning and starts without them.";
          }
          cctx.report({
            file: config.file,
            range: entry.keyRange,
            message,
            ...(severity ? { severity } : {}),
            details,
            fixes: renameFixes(ctx, config.file, entry, suggestions),
          });
          continue;
        }
        if (status !== "other-version" || minor === undefined) continue;
        const since = introducedAfter(entry.key, minor);
        if (since === undefined) continue;
        // A newer option whose older spelling this version reads: offer that spelling.
        const older = optionsOf(entry.key)
          .flatMap((o) => o.deprecatedKeys)
          .filter((k) => isOptionKnown(k, minor) === "current");
        cctx.report({
          file: config.file,
          range: entry.keyRange,
          message: fitting(
            `\`${entry.key}\` exists from Flink ${since} on; ${version} ignores it, so this setting does not apply.`,
            `${version} ignores \`${entry.key}\` (from Flink ${since} on), so this setting does not apply.`,
          ),
          details:
            older.length > 0
              ? `Use \`${older[0]}\` for ${version}.`
              : `Upgrade to Flink ${since} or later, or drop the setting.`,
          fixes: renameFixes(ctx, config.file, entry, older.slice(0, 1)),
        });
      }
      reportLogging(cctx, config, logging);
    }
  },
};

/** Keys of a log4j 2 / log4j 1 / logback properties file, which belong in log4j.properties, not here. */
const LOGGING_KEY =
  /^(log4j2?\.|logger\.|appender\.|rootLogger(\.|$)|monitorInterval$|property\.|packages$|status$|dest$)/;

/**
 * Logging settings pasted into a Flink configuration are one mistake, reported once at the first of them, with the
 * others as related information: Flink ignores them all, and the logging configuration is another file.
 */
function reportLogging(ctx: RuleContext, config: FlinkConfig, entries: ConfigEntry[]): void {
  const [first, ...rest] = entries;
  if (!first) return;
  const count = entries.length === 1 ? "this logging setting" : `these ${entries.length} logging settings`;
  ctx.report({
    file: config.file,
    range: first.keyRange,
    message: `Flink ignores ${count}: logging is configured in log4j.properties, not here.`,
    details: `Flink reads its logging configuration from log4j-console.properties / log4j.properties, not from ${config.logicalName ?? "the Flink configuration"}: move the settings there.`,
    related: rest.map((e) => ({
      file: config.file,
      range: e.keyRange,
      message: `Also a logging setting: \`${e.key}\`.`,
    })),
  });
}
