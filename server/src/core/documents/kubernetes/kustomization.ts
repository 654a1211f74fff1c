/**
 * Kustomization files (`kustomization.yaml`, `kustomization.yml`, `Kustomization`): the resources `kustomize build`
 * starts from and the patches it applies to them. Only what the merge of patches into Flink resources needs is read
 * (workspace/kustomize.ts); everything else of the file (generators, images, name prefixes) is left alone.
 */
import type { Kustomization, KustomizeTarget } from "../../model";
import type { Range } from "../../text";
import { getIn, getValue, scalarText, seqItems, type YamlDocument, type YamlSource } from "../yaml/ast";

const NAMES = new Set(["kustomization.yaml", "kustomization.yml", "Kustomization"]);

export function isKustomizationName(name: string): boolean {
  return NAMES.has(name);
}

export function readKustomization(src: YamlSource, docs: YamlDocument[]): Kustomization | undefined {
  const root = docs[0]?.contents;
  if (!root || typeof root !== "object") return undefined;
  const kustomization: Kustomization = { resources: [], patches: [], unreadPatches: [] };
  for (const key of ["resources", "bases", "components"]) {
    for (const item of seqItems(getValue(root, key))) {
      const path = src.locatedString(item);
      if (path && path.value.trim() !== "") kustomization.resources.push(path);
    }
  }
  for (const item of seqItems(getValue(root, "patches"))) {
    const target = targetOf(getValue(item, "target"));
    const path = src.locatedString(getValue(item, "path"));
    const inline = getValue(item, "patch");
    if (path && path.value.trim() !== "") kustomization.patches.push(target ? { path, target } : { path });
    else if (inline !== undefined) unread(kustomization, src, inline, target ?? inlineTarget(scalarText(inline)));
  }
  for (const item of seqItems(getValue(root, "patchesStrategicMerge"))) {
    const path = src.locatedString(item);
    if (!path) continue;
    // An item is a path, or the patch itself written inline (a block scalar holding YAML).
    if (/[\n:]/.test(path.value)) unread(kustomization, src, item, inlineTarget(path.value));
    else if (path.value.trim() !== "") kustomization.patches.push({ path });
  }
  for (const item of seqItems(getValue(root, "patchesJson6902")))
    unread(kustomization, src, item, targetOf(getValue(item, "target")));
  return kustomization;
}

function unread(k: Kustomization, src: YamlSource, node: unknown, target: KustomizeTarget | undefined): void {
  const range = rangeOf(src, node);
  if (!range) return;
  k.unreadPatches.push(target ? { target, range } : { range });
}

function rangeOf(src: YamlSource, node: unknown): Range | undefined {
  const r = (node as { range?: [number, number, number] } | null)?.range;
  return r ? src.range(r[0], src.trimEnd(r[0], r[1])) : undefined;
}

function targetOf(node: unknown): KustomizeTarget | undefined {
  if (node === undefined) return undefined;
  return targetFrom(scalarText(getValue(node, "kind")), scalarText(getIn(node, ["name"])));
}

function targetFrom(kind: string | undefined, name: string | undefined): KustomizeTarget | undefined {
  if (kind === undefined && name === undefined) return undefined;
  const target: KustomizeTarget = {};
  if (kind !== undefined) target.kind = kind;
  if (name !== undefined) target.name = name;
  return target;
}

/** The kind and name an inline strategic-merge patch names (`kind: FlinkDeployment`, `metadata: name: …`). */
function inlineTarget(text: string | undefined): KustomizeTarget | undefined {
  if (!text) return undefined;
  const kind = /^kind:[ \t]*["']?([A-Za-z0-9]+)/m.exec(text)?.[1];
  const name = /^metadata:[ \t]*\r?\n(?:[ \t][^\r\n]*\r?\n)*?[ \t]+name:[ \t]*["']?([^\s"'#]+)/m.exec(text)?.[1];
  return targetFrom(kind, name);
}
