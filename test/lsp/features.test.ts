/** Hover and completion over LSP, with the project's Flink version from its .beam-flink-lint.yaml. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  type CompletionItem,
  CompletionRequest,
  CompletionResolveRequest,
  type Hover,
  HoverRequest,
  type MarkupContent,
} from "vscode-languageserver-protocol/node";
import { startServer, type TestClient, workspaceLoaded } from "./lspClient";

const VERSION_SOURCE = "Version: Flink 1.19 from flinkVersion in the project configuration (.beam-flink-lint.yaml).";

async function hover(client: TestClient, uri: string, line: number, character: number): Promise<Hover | null> {
  return client.answer(
    client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } }),
  );
}

function markdown(h: Hover | null): string {
  return (h?.contents as MarkupContent | undefined)?.value ?? "";
}

async function openConf(t: Parameters<typeof startServer>[0]) {
  const client = await startServer(t, { fixture: "features", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  const uri = await client.open("flink-conf.yaml", readFileSync(client.path("flink-conf.yaml"), "utf8"), "flink-conf");
  await client.nextDiagnostics(uri, (p) => p.version === 1);
  return { client, uri };
}

test("hover on a key: what it does, type, default, versions, its docs of the project's version, and the value Flink uses", async (t) => {
  const { client, uri } = await openConf(t);
  const h = await hover(client, uri, 0, 5);
  assert.deepEqual(h?.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 29 } });
  assert.equal(
    markdown(h),
    [
      "**`taskmanager.numberOfTaskSlots`** · Integer",
      "How many parallel slots one TaskManager offers.",
      "Default: `1`",
      "Available: all supported Flink versions",
      "[Flink 1.19 documentation](https://nightlies.apache.org/flink/flink-docs-release-1.19/docs/deployment/config/#taskmanager-numberoftaskslots)",
      "Effective value: `8`, set on line 6; this line does not apply",
      VERSION_SOURCE,
    ].join("\n\n"),
  );
  assert.match(markdown(await hover(client, uri, 5, 0)), /Effective value: `8` \(this line, 6\)/);
});

test("hover on a deprecated key names its replacement and where the effective value comes from", async (t) => {
  const { client, uri } = await openConf(t);
  const text = markdown(await hover(client, uri, 2, 3));
  assert.ok(
    text.startsWith(
      "`state.backend` is a deprecated key: use `state.backend.type`. Flink reads it only when `state.backend.type` is not set.",
    ),
    text,
  );
  assert.match(text, /\*\*`state\.backend\.type`\*\* · String/);
  assert.match(text, /Available: since Flink 1\.17/);
  assert.match(text, /Effective value: `hashmap`, set on line 4 via `state\.backend\.type`; this line does not apply/);
});

test("hover on an enum option lists its values; hover on a value says nothing", async (t) => {
  const { client, uri } = await openConf(t);
  assert.match(markdown(await hover(client, uri, 4, 10)), /Values: `EXACTLY_ONCE`, `AT_LEAST_ONCE`/);
  assert.equal(await hover(client, uri, 4, 35), null);
});

test("hover on a rule code in a suppression comment describes the rule", async (t) => {
  const { client, uri } = await openConf(t);
  const h = await hover(client, uri, 6, 37);
  assert.deepEqual(h?.range, { start: { line: 6, character: 36 }, end: { line: 6, character: 42 } });
  assert.match(markdown(h), /^\*\*BFL105\*\* · duplicate-key\n\n/);
  assert.match(
    markdown(h),
    /\[Documentation\]\(https:\/\/github\.com\/beam-flink-lint\/beam-flink-lint\/blob\/main\/docs\/rules\/BFL105\.md\)$/,
  );
});

test("completion offers the keys of the project's Flink version with their type, and enum values after 'key: '", async (t) => {
  const { client, uri } = await openConf(t);
  await client.change(uri, 2, [
    {
      range: { start: { line: 8, character: 0 }, end: { line: 8, character: 0 } },
      text: "execution.checkpointing.inter\nexecution.checkpointing.mode: AT",
    },
  ]);
  const keys = (await client.answer(
    client.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 8, character: 29 },
    }),
  )) as { items: CompletionItem[] };
  const interval = keys.items.find((i) => i.label === "execution.checkpointing.interval");
  assert.deepEqual(
    { detail: interval?.detail, textEdit: interval?.textEdit },
    {
      detail: "Duration · no default",
      textEdit: {
        range: { start: { line: 8, character: 0 }, end: { line: 8, character: 29 } },
        newText: "execution.checkpointing.interval: ",
      },
    },
  );
  const byRank = [...keys.items].sort((a, b) => ((a.sortText ?? "") < (b.sortText ?? "") ? -1 : 1));
  assert.deepEqual(
    byRank.slice(0, 2).map((i) => i.label),
    ["execution.checkpointing.interval", "execution.checkpointing.interval-during-backlog"],
  );
  const labels = new Set(keys.items.map((i) => i.label));
  assert.ok(labels.has("state.backend.type"), "an option of 1.19");
  assert.ok(!labels.has("state.backend"), "an option removed before 1.19 (now a deprecated key)");
  assert.ok(!labels.has("akka.ask.timeout"), "an option removed before 1.19");
  const resolved = await client.answer(
    client.conn.sendRequest(CompletionResolveRequest.type, interval as CompletionItem),
  );
  const doc = (resolved.documentation as MarkupContent).value.split("\n\n");
  assert.equal(doc[0], "**`execution.checkpointing.interval`** · Duration");
  assert.match(doc[1], /^How often a checkpoint starts\./);
  assert.equal(
    doc[doc.length - 1],
    "[Flink 1.19 documentation](https://nightlies.apache.org/flink/flink-docs-release-1.19/docs/deployment/config/#execution-checkpointing-interval)",
  );

  const values = (await client.answer(
    client.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 9, character: 32 },
    }),
  )) as { items: CompletionItem[] };
  assert.deepEqual(
    values.items.map((i) => [i.label, i.textEdit]),
    ["EXACTLY_ONCE", "AT_LEAST_ONCE"].map((v) => [
      v,
      { range: { start: { line: 9, character: 30 }, end: { line: 9, character: 32 } }, newText: v },
    ]),
  );
});
