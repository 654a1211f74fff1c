/**
 * Kustomize overlays: the FlinkDeployments `kustomize build` makes of a base and the patches of its overlays.
 *
 * A patch (a `patches` entry with a `path`, a `patchesStrategicMerge` file) is a partial FlinkDeployment, not a
 * deployment of its own: it is merged over the resource it targets, as kustomize does for a custom resource (JSON
 * merge semantics: mappings merged key by key, lists replaced). The result is one deployment per overlay that patches
 * a resource: its fields are the patch's where it sets them, else the resource's (each value keeps its own file and
 * range), its configuration is the patch's, with the resource's `flinkConfiguration` under it. A resource that every
 * overlay reaching it patches is not judged on its own; one that some build uses as it is stays, as does a resource no
 * kustomization uses. A patch whose resource is not in the project (a remote base, another repository) is a
 * deployment whose missing settings may be set there.
 */
import { folderOf, resolvePath } from "../documents/paths";
import type { FileFacts, FlinkDeploymentFacts, KustomizeTarget } from "../model";

interface Built {
  /** The resource as the kustomization's build leaves it. */
  deployment: FlinkDeploymentFacts;
  /** The resource as its own file writes it. */
  resource: FlinkDeploymentFacts;
}

/** The project's FlinkDeployments (and Confluent FlinkApplications) after its kustomizations' patches. */
export function kustomizedDeployments(files: readonly FileFacts[]): FlinkDeploymentFacts[] {
  const own = files.flatMap((f) => f.flinkDeployments);
  const kustomizations = files.filter((f) => f.kustomization !== undefined);
  if (kustomizations.length === 0) return own;
  const byFile = new Map(files.map((f) => [f.file, f]));
  const byFolder = new Map(kustomizations.map((k) => [folderOf(k.file), k]));
  const memo = new Map<FileFacts, Built[]>();
  const building = new Set<FileFacts>();
  const patchDocuments = new Set<FlinkDeploymentFacts>();
  const unmatched: FlinkDeploymentFacts[] = [];
  const referenced = new Set<FileFacts>();

  const build = (k: FileFacts): Built[] => {
    const done = memo.get(k);
    if (done) return done;
    if (building.has(k)) return [];
    building.add(k);
    const spec = k.kustomization ?? { resources: [], patches: [], unreadPatches: [] };
    const dir = folderOf(k.file);
    const out: Built[] = [];
    for (const r of spec.resources) {
      const value = r.value.trim();
      if (/^[a-z][a-z0-9+.-]*:\/\/|^(github\.com|gitlab\.com|bitbucket\.org)\//i.test(value)) continue;
      const path = resolvePath(dir, value);
      const sub = byFolder.get(path);
      if (sub) {
        referenced.add(sub);
        for (const b of build(sub)) out.push({ ...b });
        continue;
      }
      for (const d of byFile.get(path)?.flinkDeployments ?? []) out.push({ deployment: d, resource: d });
    }
    for (const p of spec.patches) {
      const file = byFile.get(resolvePath(dir, p.path.value.trim()));
      if (!file) continue;
      if (file.flinkDeployments.length === 0) {
        // A file of JSON 6902 operations (no object of its own) changes what its target names in ways not read.
        if (file.k8sObjects.length === 0 && p.target) markUnknown(out, p.target, k.file);
        continue;
      }
      for (const patch of file.flinkDeployments) {
        patchDocuments.add(patch);
        const target: KustomizeTarget = {
          kind: p.target?.kind ?? patch.kind,
          name: p.target?.name ?? patch.object.name,
        };
        const hits = out.filter((b) => matches(target, b.deployment));
        for (const b of hits) b.deployment = merged(b.deployment, patch, k.file);
        if (hits.length === 0) unmatched.push(unknownBase(patch, k.file));
      }
    }
    for (const u of spec.unreadPatches) markUnknown(out, u.target, k.file);
    building.delete(k);
    memo.set(k, out);
    return out;
  };

  for (const k of kustomizations) build(k);
  const effective: FlinkDeploymentFacts[] = [];
  const patched = new Set<FlinkDeploymentFacts>();
  const usedAsIs = new Set<FlinkDeploymentFacts>();
  for (const root of kustomizations.filter((k) => !referenced.has(k))) {
    for (const b of build(root)) {
      if (b.deployment === b.resource) usedAsIs.add(b.resource);
      else {
        patched.add(b.resource);
        if (!effective.includes(b.deployment)) effective.push(b.deployment);
      }
    }
  }
  const kept = own.filter((d) => !patchDocuments.has(d) && (!patched.has(d) || usedAsIs.has(d)));
  const lone = unmatched.filter((u) => !effective.some((e) => e.object === u.object));
  return [...kept, ...effective, ...dedupe(lone)];
}

function dedupe(list: FlinkDeploymentFacts[]): FlinkDeploymentFacts[] {
  return list.filter((d, i) => list.findIndex((o) => o.object === d.object) === i);
}

/** Whether a patch's target (kind, and name: exact, or kustomize's regular expression) selects a resource. */
function matches(target: KustomizeTarget | undefined, d: FlinkDeploymentFacts): boolean {
  if (!target) return true;
  if (target.kind !== undefined && target.kind !== d.kind) return false;
  if (target.name === undefined) return true;
  const name = d.object.name ?? "";
  if (target.name === name) return true;
  if (!/[.*+?^$()[\]{}|\\]/.test(target.name)) return false;
  try {
    return new RegExp(`^(?:${target.name})$`).test(name);
  } catch {
    return false;
  }
}

function markUnknown(out: Built[], target: KustomizeTarget | undefined, kustomization: string): void {
  for (const b of out) {
    if (!matches(target, b.deployment)) continue;
    const d = b.deployment;
    b.deployment = { ...d, kustomized: { kustomization, under: d.kustomized?.under ?? [], unknown: true } };
  }
}

/** The fields a patch sets replace the resource's; the rest are the resource's. */
function merged(base: FlinkDeploymentFacts, patch: FlinkDeploymentFacts, kustomization: string): FlinkDeploymentFacts {
  const d: FlinkDeploymentFacts = {
    ...base,
    object: patch.object,
    kind: patch.kind,
    config: patch.config,
    jobArgs: patch.jobArgs.length > 0 ? patch.jobArgs : base.jobArgs,
    flinkConfigurationKey: patch.flinkConfigurationKey,
    // Ranges of the deployment's own file: a job the resource has is the patch's job, at the patch's kind.
    jobKey: patch.jobKey ?? (base.jobKey !== undefined ? patch.object.kindRange : undefined),
    kustomized: {
      kustomization,
      under: [base.config, ...(base.kustomized?.under ?? [])],
      unknown: base.kustomized?.unknown ?? false,
    },
  };
  for (const key of FIELDS) if (patch[key] !== undefined) (d as unknown as Record<string, unknown>)[key] = patch[key];
  return d;
}

const FIELDS = [
  "flinkEnvironment",
  "flinkVersion",
  "image",
  "mode",
  "upgradeMode",
  "savepointTriggerNonce",
  "jobParallelism",
  "taskManagerReplicas",
  "jobManagerReplicas",
  "jarURI",
  "entryClass",
  "volumes",
] as const satisfies readonly (keyof FlinkDeploymentFacts)[];

/** A patch whose resource is not in the project: what it leaves out may be set there. */
function unknownBase(patch: FlinkDeploymentFacts, kustomization: string): FlinkDeploymentFacts {
  return { ...patch, kustomized: { kustomization, under: [], unknown: true } };
}
