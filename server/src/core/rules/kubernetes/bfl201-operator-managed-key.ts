import { anchorsUsedOutside } from "../../documents/yaml/anchors";
import type { Fix, RelatedLocation } from "../../findings";
import { FORBIDDEN_KEYS, rejectsKey } from "../../knowledge/operator";
import type { FlinkConfig } from "../../model";
import type { Range } from "../../text";
import { fitting } from "../messages";
import type { Rule, RuleContext } from "../types";
import { operatorRelated } from "./operatorVersion";

/**
 * Deleting the entry is safe, unless it defines a YAML anchor that an alias elsewhere uses: then the alias would
 * point at nothing and the manifest would not load, so the fix is left to a person.
 */
function deleteFix(ctx: RuleContext, file: string, key: string, range: Range): Fix {
  const text = ctx.project.fileFacts(file)?.text ?? "";
  const anchors = anchorsUsedOutside(text, range);
  const edits = [{ range, newText: "" }];
  if (anchors.length === 0) return { title: `Delete ${key}`, safety: "safe", changes: [{ file, edits }] };
  const names = anchors.map((a) => `&${a}`).join(", ");
  return {
    title: `Delete ${key} (it defines the anchor ${names}, which an alias uses: define it elsewhere first)`,
    safety: "unsafe",
    changes: [{ file, edits }],
  };
}

/** Keys the operator's DefaultValidator rejects in spec.flinkConfiguration, by key. */
const MANAGED = new Map(FORBIDDEN_KEYS.map((k) => [k.key, k]));

const MANIFEST = (extra: string) => `apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
  namespace: streaming
spec:
  flinkVersion: v1_19
  flinkConfiguration:
${extra}    taskmanager.numberOfTaskSlots: "2"
  job:
    jarURI: local:///opt/flink/usrlib/orders.jar
`;

export const rule: Rule = {
  meta: {
    code: "BFL201",
    name: "operator-managed-key",
    family: "kubernetes",
    severity: "error",
    description: "A key in a FlinkDeployment's flinkConfiguration that the operator sets itself and rejects.",
    fix: "safe",
    docs: {
      whatItDoes:
        "Reports `kubernetes.namespace` and `kubernetes.cluster-id` (rejected by every operator release from 1.0.0) and `high-availability.cluster-id` (rejected from operator 1.4.0 on) in the `spec.flinkConfiguration` of a FlinkDeployment or of a Confluent Platform FlinkApplication, whose configuration reaches the operator in the FlinkDeployment CMF creates from it. The operator version comes from `operatorVersion` in the project configuration, an operator image tag (`ghcr.io/apache/flink-kubernetes-operator:1.9.0`) or the operator's Helm chart version; with none known, `high-availability.cluster-id` is reported as for current operators.",
      whyItMatters:
        'The Flink Kubernetes Operator derives these keys from the resource\'s namespace and name. Its validator refuses a FlinkDeployment that sets them ("Forbidden Flink config key: kubernetes.namespace"), so the resource is never deployed and only its status shows why.',
      bad: { "flink-deployment.yaml": MANIFEST("    kubernetes.cluster-id: orders-cluster\n") },
      good: { "flink-deployment.yaml": MANIFEST("") },
      whenNotToFire:
        "Standalone configurations (flink-conf.yaml, ConfigMaps): there `kubernetes.cluster-id` is needed and BFL114 asks for it. `high-availability.cluster-id` under an operator older than 1.4.0, whose validator does not list it. FlinkSessionJob configurations are not checked by this rule. The delete fix is safe, except where the entry defines a YAML anchor (`&ns`) that an alias elsewhere in the file uses (`*ns`): deleting it would leave the alias pointing at nothing, so that fix is unsafe and not applied on save.",
      references: [
        "apache/flink-kubernetes-operator DefaultValidator (FORBIDDEN_CONF_KEYS) at release-1.0.0 … release-1.3.1 (namespace and cluster id) and release-1.4.0 … release-1.15.0 (also high-availability.cluster-id)",
        "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/custom-resource/reference/",
      ],
    },
  },
  check(ctx) {
    const operator = ctx.project.operatorVersion;
    const seen = new Set<FlinkConfig>();
    for (const d of ctx.project.flinkDeployments) {
      if (d.kind === "FlinkSessionJob") continue;
      // A kustomize overlay's deployment: the patch's configuration and the patched resource's under it.
      for (const config of [d.config, ...(d.kustomized?.under ?? [])]) {
        if (seen.has(config)) continue;
        seen.add(config);
        checkConfig(ctx, d.kind, config, operator?.version);
      }
    }
  },
};

function checkConfig(ctx: RuleContext, kind: string, config: FlinkConfig, operator: string | undefined): void {
  for (const entry of config.entries) {
    const managed = MANAGED.get(entry.key);
    if (!managed || rejectsKey(managed, operator) === false) continue;
    const related: RelatedLocation[] = [
      {
        file: config.file,
        range: entry.keyRange,
        message: `The operator sets ${entry.key} itself from ${managed.takenFrom}; delete the entry.`,
      },
    ];
    if (managed.since !== "1.0.0") {
      related.push(
        operatorRelated(ctx.project, `Operator ${managed.since} and later reject it; older releases did not.`, {
          file: config.file,
          range: entry.keyRange,
        }),
      );
    }
    ctx.report({
      file: config.file,
      range: entry.keyRange,
      message: fitting(
        `The operator rejects this ${kind} (forbidden key ${entry.key}), so it is never deployed.`,
        `The operator rejects this ${kind} (a forbidden key), so it is never deployed.`,
      ),
      details: `The operator's validator says "Forbidden Flink config key: ${entry.key}".`,
      related,
      fixes: config.inexactRanges ? [] : [deleteFix(ctx, config.file, entry.key, entry.deleteRange)],
    });
  }
}
