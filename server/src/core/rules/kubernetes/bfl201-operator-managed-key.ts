import type { Rule } from "../types";

/** Keys the operator's DefaultValidator rejects in spec.flinkConfiguration, and where it takes them from. */
const MANAGED: Record<string, string> = {
  "kubernetes.namespace": "the FlinkDeployment's namespace",
  "kubernetes.cluster-id": "the FlinkDeployment's name",
  "high-availability.cluster-id": "the FlinkDeployment's name (when high availability is on)",
};

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
        "Reports `kubernetes.namespace`, `kubernetes.cluster-id` and `high-availability.cluster-id` in the `spec.flinkConfiguration` of a FlinkDeployment.",
      whyItMatters:
        'The Flink Kubernetes Operator derives these keys from the resource\'s namespace and name. Its validator refuses a FlinkDeployment that sets them ("Forbidden Flink config key: kubernetes.namespace"), so the resource is never deployed and only its status shows why.',
      bad: { "flink-deployment.yaml": MANIFEST("    kubernetes.cluster-id: orders-cluster\n") },
      good: { "flink-deployment.yaml": MANIFEST("") },
      whenNotToFire:
        "Standalone configurations (flink-conf.yaml, ConfigMaps): there `kubernetes.cluster-id` is needed and BFL114 asks for it. FlinkSessionJob configurations are not checked by this rule.",
      references: [
        "apache/flink-kubernetes-operator DefaultValidator (FORBIDDEN_CONF_KEYS)",
        "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/custom-resource/reference/",
      ],
    },
  },
  check(ctx) {
    for (const d of ctx.project.flinkDeployments) {
      if (d.kind !== "FlinkDeployment") continue;
      for (const entry of d.config.entries) {
        const source = MANAGED[entry.key];
        if (!source) continue;
        ctx.report({
          file: d.config.file,
          range: entry.keyRange,
          message: `The operator rejects this FlinkDeployment ("Forbidden Flink config key: ${entry.key}"), so it is never deployed: the operator sets ${entry.key} itself from ${source}. Delete the entry.`,
          fixes: d.config.inexactRanges
            ? []
            : [
                {
                  title: `Delete ${entry.key}`,
                  safety: "safe",
                  changes: [{ file: d.config.file, edits: [{ range: entry.deleteRange, newText: "" }] }],
                },
              ],
        });
      }
    }
  },
};
