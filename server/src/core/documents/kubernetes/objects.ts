/** Kubernetes objects as such: kind, name, the document they span, and the rule-disabling annotation. */
import { isMap, type Node } from "yaml";
import type { K8sObject, Located } from "../../model";
import { getIn, getPair, scalarText, seqItems, type YamlDocument, type YamlSource } from "../yaml/ast";

export const DISABLE_ANNOTATION = "beam-flink-lint.io/disable";

/** A document whose top level has `apiVersion` and `kind`. */
export function isK8sDocument(doc: YamlDocument): boolean {
  const root = doc.contents;
  return isMap(root) && getPair(root, "kind") !== undefined && getPair(root, "apiVersion") !== undefined;
}

export function readK8sObject(src: YamlSource, doc: YamlDocument, documentIndex: number): K8sObject | undefined {
  const root = doc.contents;
  const kindPair = getPair(root, "kind");
  const kind = scalarText(kindPair?.value);
  if (!kindPair || kind === undefined || !isK8sDocument(doc)) return undefined;
  const docRange = doc.range ?? [0, src.text.length, src.text.length];
  const kindNode = kindPair.value as Node | null;
  const kindRange = kindNode?.range
    ? src.range(kindNode.range[0], src.trimEnd(kindNode.range[0], kindNode.range[1]))
    : src.range(docRange[0], docRange[0]);
  const object: K8sObject = {
    file: src.file,
    documentIndex,
    apiVersion: scalarText(getPair(root, "apiVersion")?.value),
    kind,
    name: scalarText(getIn(root, ["metadata", "name"])),
    range: src.range(docRange[0], src.trimEnd(docRange[0], docRange[1])),
    kindRange,
  };
  const disabled = disabledRules(src, getIn(root, ["metadata", "annotations", DISABLE_ANNOTATION]));
  if (disabled) object.disabledRules = disabled;
  if (kind === "PersistentVolumeClaim") {
    const modes = seqItems(getIn(root, ["spec", "accessModes"]))
      .map((m) => scalarText(m))
      .filter((m): m is string => m !== undefined);
    if (modes.length > 0) object.accessModes = modes;
  }
  return object;
}

function disabledRules(src: YamlSource, node: unknown): Located<string[]> | undefined {
  const text = src.locatedString(node);
  if (!text) return undefined;
  const codes = text.value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return { ...text, value: codes };
}
