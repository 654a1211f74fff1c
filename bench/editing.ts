/**
 * Editing latency over stdio: for every input, the time from sending didChange to receiving the diagnostics of
 * that version, for this server (and, on YAML inputs, yaml-language-server driven by the same client, edit for
 * edit), next to the floor parser timed on the same text right after each edit, so that all three see the same
 * machine load.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { BenchClient, type ServerSpec } from "./client";
import { digitEdits } from "./edits";
import { IncrementalFloor, isTreeSitterFloor, javaUnits, loadJavaParser, loadTreeSitter, parseFloor } from "./floor";
import type { EditInput } from "./generate";
import { benchFile, distFile } from "./paths";
import { type Summary, summarize } from "./stats";

/**
 * This server; BFL_BENCH_SERVER_FLAGS adds Node flags to its command line, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
 * to profile it under the benchmark's edits (Node refuses --cpu-prof in NODE_OPTIONS).
 */
export function ourServer(settings: Record<string, unknown>): ServerSpec {
  const flags = process.env.BFL_BENCH_SERVER_FLAGS?.split(" ").filter((f) => f !== "") ?? [];
  return { name: "beam-flink-lint", args: [...flags, distFile("server.js")], settings: { beamFlinkLint: settings } };
}

/** yaml-language-server with syntax validation only: no schema store, no schemas, nothing fetched. */
export function yamlServer(validationDelayMs?: number): ServerSpec {
  const yaml = {
    validate: true,
    hover: false,
    completion: false,
    format: { enable: false },
    schemaStore: { enable: false },
    kubernetesCRDStore: { enable: false },
    schemas: {},
  };
  const args = [benchFile("yamlPeer.js")];
  if (validationDelayMs !== undefined) args.push(`--validation-delay=${validationDelayMs}`);
  return {
    name: "yaml-language-server",
    args,
    settings: { yaml, "[yaml]": {}, http: { proxyStrictSSL: false }, editor: { tabSize: 2 } },
  };
}

export interface EditingResult {
  input: EditInput;
  bytes: number;
  lines: number;
  ours: Summary;
  floor: Summary;
  peer?: Summary;
  /** Findings on the file after the last edit. */
  diagnostics: number;
}

export interface EditingOptions {
  warmup: number;
  edits: number;
  seed: number;
}

function folderOf(input: EditInput): string {
  return input.path.split("/")[0];
}

/** Starts a server whose workspace folders are the inputs' top folders and waits for the workspace load. */
export async function startOn(
  spec: ServerSpec,
  root: string,
  inputs: EditInput[],
  loads: number,
): Promise<BenchClient> {
  const client = BenchClient.start(spec);
  await client.initialize([...new Set(inputs.map((i) => join(root, folderOf(i))))]);
  if (loads > 0) await client.progressEnds(loads);
  return client;
}

async function openAndWait(client: BenchClient, uri: string, input: EditInput): Promise<void> {
  const from = client.publications.length;
  await client.open(uri, input.languageId, input.text);
  await client.published(uri, from, 1);
}

/** Sends one change and returns the milliseconds until its diagnostics arrive. */
async function timedEdit(
  client: BenchClient,
  uri: string,
  version: number,
  change: Parameters<BenchClient["change"]>[2][number],
): Promise<number> {
  const from = client.publications.length;
  const start = performance.now();
  await client.change(uri, version, [change]);
  const p = await client.published(uri, from, version);
  return p.at - start;
}

export async function measureEditing(
  root: string,
  inputs: EditInput[],
  options: EditingOptions,
  progress: (line: string) => void,
): Promise<EditingResult[]> {
  loadJavaParser();
  await loadTreeSitter();
  const ours = await startOn(ourServer({ debounceMs: 0 }), root, inputs, 1);
  const yamlInputs = inputs.filter((i) => i.yaml);
  const peer = yamlInputs.length > 0 ? await startOn(yamlServer(0), root, yamlInputs, 0) : undefined;
  const results: EditingResult[] = [];
  try {
    for (const input of inputs) {
      const uri = pathToFileURL(join(root, input.path)).href;
      const withPeer = input.yaml ? peer : undefined;
      await openAndWait(ours, uri, input);
      if (withPeer) await openAndWait(withPeer, uri, input);
      const edits = digitEdits(input.text, options.warmup + options.edits, options.seed);
      const samples = { ours: [] as number[], floor: [] as number[], peer: [] as number[] };
      // tree-sitter languages: the tree an editor keeps, parsed whole before the first edit (not timed).
      const incremental = isTreeSitterFloor(input.floor) ? new IncrementalFloor(input.floor, input.text) : undefined;
      for (let i = 0; i < edits.length; i++) {
        const e = edits[i];
        const version = i + 2;
        const ourMs = await timedEdit(ours, uri, version, e.change);
        const peerMs = withPeer ? await timedEdit(withPeer, uri, version, e.change) : undefined;
        const units = input.floor === "java" ? javaUnits(e.text) : undefined;
        const start = performance.now();
        if (incremental) incremental.reparse(e);
        else parseFloor(input.floor, input.path, e.text, units);
        const floorMs = performance.now() - start;
        if (i < options.warmup) continue;
        samples.ours.push(ourMs);
        samples.floor.push(floorMs);
        if (peerMs !== undefined) samples.peer.push(peerMs);
      }
      incremental?.dispose();
      const last = ours.publications.filter((p) => p.params.uri === uri).pop();
      await ours.close(uri);
      if (withPeer) await withPeer.close(uri);
      const result: EditingResult = {
        input,
        bytes: Buffer.byteLength(input.text),
        lines: input.text.split("\n").length,
        ours: summarize(samples.ours),
        floor: summarize(samples.floor),
        peer: withPeer ? summarize(samples.peer) : undefined,
        diagnostics: last?.params.diagnostics.length ?? 0,
      };
      results.push(result);
      progress(
        `${input.name}: ours p50 ${result.ours.p50.toFixed(1)} p95 ${result.ours.p95.toFixed(1)} ms, floor p50 ${result.floor.p50.toFixed(1)} ms` +
          (result.peer
            ? `, yaml-language-server p50 ${result.peer.p50.toFixed(1)} p95 ${result.peer.p95.toFixed(1)} ms`
            : ""),
      );
    }
  } finally {
    await ours.stop();
    await peer?.stop();
  }
  return results;
}

export interface DebouncedResult {
  input: EditInput;
  ours: Summary;
  peer?: Summary;
}

/** What a user sees with the defaults: the 200 ms debounce (ours) and the fixed 200 ms delay (the peer's). */
export async function measureDefaultDebounce(
  root: string,
  inputs: EditInput[],
  options: EditingOptions,
  progress: (line: string) => void,
): Promise<DebouncedResult[]> {
  const ours = await startOn(ourServer({}), root, inputs, 1);
  const yamlInputs = inputs.filter((i) => i.yaml);
  const peer = yamlInputs.length > 0 ? await startOn(yamlServer(), root, yamlInputs, 0) : undefined;
  const results: DebouncedResult[] = [];
  try {
    for (const input of inputs) {
      const uri = pathToFileURL(join(root, input.path)).href;
      const withPeer = input.yaml ? peer : undefined;
      await openAndWait(ours, uri, input);
      if (withPeer) await openAndWait(withPeer, uri, input);
      const edits = digitEdits(input.text, options.warmup + options.edits, options.seed + 1);
      const ourSamples: number[] = [];
      const peerSamples: number[] = [];
      for (let i = 0; i < edits.length; i++) {
        const ourMs = await timedEdit(ours, uri, i + 2, edits[i].change);
        const peerMs = withPeer ? await timedEdit(withPeer, uri, i + 2, edits[i].change) : undefined;
        if (i < options.warmup) continue;
        ourSamples.push(ourMs);
        if (peerMs !== undefined) peerSamples.push(peerMs);
      }
      await ours.close(uri);
      if (withPeer) await withPeer.close(uri);
      const result = { input, ours: summarize(ourSamples), peer: withPeer ? summarize(peerSamples) : undefined };
      results.push(result);
      progress(`${input.name} (default debounce): ours p50 ${result.ours.p50.toFixed(0)} ms`);
    }
  } finally {
    await ours.stop();
    await peer?.stop();
  }
  return results;
}
