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
  if (!isK8sDocument(doc)) return undefined;
  const docRange = doc.range ?? [0, src.text.length, src.text.length];
  return readK8sObjectAt(src, doc.contents, [docRange[0], docRange[1]], documentIndex);
}

/**
 * The objects a document wraps: the `items` of a `List` (what `kubectl get -o yaml` writes) and the `objects` of an
 * OpenShift `Template`. Each is read as an object of its own, spanning its own mapping; the wrapper stays an object.
 */
export function wrappedObjects(
  src: YamlSource,
  root: unknown,
  wrapper: K8sObject,
): { object: K8sObject; node: unknown }[] {
  const list = wrapperItems(root, wrapper);
  const out: { object: K8sObject; node: unknown }[] = [];
  list.forEach((node, item) => {
    const range = isMap(node) ? (node as { range?: [number, number, number] | null }).range : undefined;
    if (!range || getPair(node, "kind") === undefined || getPair(node, "apiVersion") === undefined) return;
    const object = readK8sObjectAt(src, node, [range[0], range[1]], wrapper.documentIndex, item);
    if (object) out.push({ object, node });
  });
  return out;
}

function wrapperItems(root: unknown, wrapper: K8sObject): unknown[] {
  const api = wrapper.apiVersion ?? "";
  if (wrapper.kind.endsWith("List")) return seqItems(getIn(root, ["items"]));
  if (wrapper.kind === "Template" && (api === "v1" || api.startsWith("template.openshift.io/")))
    return seqItems(getIn(root, ["objects"]));
  return [];
}

/** What an object's configuration ids start with: its document, and its place in a List or Template. */
export function objectKey(object: Pick<K8sObject, "documentIndex" | "item">): string {
  return object.item === undefined ? String(object.documentIndex) : `${object.documentIndex}.${object.item}`;
}

function readK8sObjectAt(
  src: YamlSource,
  root: unknown,
  span: [number, number],
  documentIndex: number,
  item?: number,
): K8sObject | undefined {
  const kindPair = getPair(root, "kind");
  const kind = scalarText(kindPair?.value);
  if (!kindPair || kind === undefined) return undefined;
  const kindNode = kindPair.value as Node | null;
  const kindRange = kindNode?.range
    ? src.range(kindNode.range[0], src.trimEnd(kindNode.range[0], kindNode.range[1]))
    : src.range(span[0], span[0]);
  const object: K8sObject = {
    file: src.file,
    documentIndex,
    apiVersion: scalarText(getPair(root, "apiVersion")?.value),
    kind,
    name: scalarText(getIn(root, ["metadata", "name"])),
    range: src.range(span[0], src.trimEnd(span[0], span[1])),
    kindRange,
  };
  if (item !== undefined) object.item = item;
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
