/**
 * Beam pipeline flags in the command lines of Kubernetes containers: a Job or CronJob that submits a pipeline
 * (`python -m orders --runner=FlinkRunner --streaming`), a Deployment running a Beam job server client, a Pod. Each
 * `command`/`args` item is scanned like a shell word list; ranges are exact for plain and single-line quoted items.
 */

import type { Node } from "yaml";
import { pushAll } from "../../arrays";
import type { BeamArg } from "../../jobcode/facts";
import type { K8sObject } from "../../model";
import { beamFlags } from "../launchArgs";
import { getIn, getValue, seqItems, type YamlSource } from "../yaml/ast";

/** Where each kind keeps its pod spec. */
const POD_SPEC: Record<string, string[]> = {
  Job: ["spec", "template", "spec"],
  CronJob: ["spec", "jobTemplate", "spec", "template", "spec"],
  Deployment: ["spec", "template", "spec"],
  StatefulSet: ["spec", "template", "spec"],
  DaemonSet: ["spec", "template", "spec"],
  Pod: ["spec"],
};

export function containerBeamArgs(src: YamlSource, root: unknown, object: K8sObject): BeamArg[] {
  const path = POD_SPEC[object.kind];
  if (!path) return [];
  const podSpec = getIn(root, path);
  const out: BeamArg[] = [];
  for (const container of [
    ...seqItems(getValue(podSpec, "containers")),
    ...seqItems(getValue(podSpec, "initContainers")),
  ]) {
    for (const list of ["command", "args"]) {
      for (const item of seqItems(getValue(container, list))) {
        const node = item as Node;
        if (!node?.range || typeof (node as { value?: unknown }).value !== "string") continue;
        const [start, end] = node.range;
        const written = src.text.slice(start, end);
        const value = (node as { value: string }).value;
        const at = written.indexOf(value);
        // Block scalars and escaped strings do not map 1:1 onto the text: such items keep no flags.
        if (at < 0 || value.includes("\n")) continue;
        pushAll(out, beamFlags(value, start + at, src.index, src.file, "kubernetes"));
      }
    }
  }
  return out;
}
