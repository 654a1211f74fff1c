/**
 * Build files over LSP: hover on a Beam version or coordinate in gradle.properties, build.gradle(.kts), a version
 * catalog and a pom shows the resolved version, where it is defined, the known bugs and the Flink runners; an XML
 * suppression with a reason keeps the pom a valid XML document and hides the finding.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { type Hover, HoverRequest, type MarkupContent } from "vscode-languageserver-protocol/node";
import { startServer, type TestClient, workspaceLoaded } from "./lspClient";

const BFL301_BUG =
  "Known bugs:\n- **BFL301** (error) The Flink runner reads every source split twice after a restore (apache/beam#31313, apache/beam#34890); fixed in 2.64.0.";

async function hoverOn(client: TestClient, file: string, line: number, character: number): Promise<Hover | null> {
  const uri = await client.open(file, readFileSync(client.path(file), "utf8"), "plaintext");
  return client.answer(
    client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } }),
  );
}

function markdown(h: Hover | null): string {
  return (h?.contents as MarkupContent | undefined)?.value ?? "";
}

async function loaded(t: Parameters<typeof startServer>[0]): Promise<TestClient> {
  const client = await startServer(t, { fixture: "build-hover", initializationOptions: { debounceMs: 0 } });
  await workspaceLoaded(client);
  return client;
}

test("hover on a version in gradle.properties and on a runner in build.gradle", async (t) => {
  const client = await loaded(t);
  const definition = await hoverOn(client, "gradle-app/gradle.properties", 0, 14);
  assert.deepEqual(definition?.range, { start: { line: 0, character: 12 }, end: { line: 0, character: 18 } });
  assert.equal(
    markdown(definition),
    [
      "**Apache Beam 2.56.0**, defined here.",
      "Used by `beam-sdks-java-io-kafka`, `beam-runners-flink-1.17`.",
      "Flink runners in Beam 2.56.0: 1.14, 1.15, 1.16, 1.17.",
      "Pipelines on Flink 1.16 or older move to Beam 2.56.0 on their current Flink version first, then switch to the 1.17 runner.",
      BFL301_BUG,
    ].join("\n\n"),
  );
  const runner = await hoverOn(client, "gradle-app/build.gradle", 6, 30);
  assert.deepEqual(runner?.range, { start: { line: 6, character: 17 }, end: { line: 6, character: 71 } });
  const text = markdown(runner);
  assert.ok(
    text.startsWith(
      "**Apache Beam 2.56.0**, defined in `gradle.properties` line 1 via `beamVersion (gradle.properties)`.\n\nUsed by `beam-runners-flink-1.17`.\n\n`beam-runners-flink-1.17` runs on a Flink 1.17.x cluster only. The project's cluster runs Flink 1.18 (`k8s/deployment.yaml`).",
    ),
    text,
  );
  assert.ok(text.endsWith(BFL301_BUG), text);
  assert.equal(await hoverOn(client, "gradle-app/build.gradle", 0, 3), null);
});

test("hover in a version catalog (version, library entry) and on the accessor in build.gradle.kts", async (t) => {
  const client = await loaded(t);
  const version = await hoverOn(client, "catalog-app/gradle/libs.versions.toml", 1, 9);
  assert.deepEqual(version?.range, { start: { line: 1, character: 8 }, end: { line: 1, character: 14 } });
  assert.equal(
    markdown(version),
    [
      "**Apache Beam 2.64.0**, defined here.",
      "Used by `beam-runners-flink-1.18`.",
      "`beam-runners-flink-1.18` runs on a Flink 1.18.x cluster only.",
      "Flink runners in Beam 2.64.0: 1.17, 1.18, 1.19.",
      "No known Flink runner bugs of this version on record.",
    ].join("\n\n"),
  );
  const resolved =
    "**Apache Beam 2.64.0**, defined in `gradle/libs.versions.toml` line 2 via `libs.beam.runners.flink (gradle/libs.versions.toml)` → `versions.beam (gradle/libs.versions.toml)`.";
  const library = await hoverOn(client, "catalog-app/gradle/libs.versions.toml", 4, 50);
  assert.deepEqual(library?.range, { start: { line: 4, character: 49 }, end: { line: 4, character: 72 } });
  assert.ok(markdown(library).startsWith(resolved), markdown(library));
  const alias = await hoverOn(client, "catalog-app/gradle/libs.versions.toml", 4, 3);
  assert.deepEqual(alias?.range, { start: { line: 4, character: 0 }, end: { line: 4, character: 18 } });
  const accessor = await hoverOn(client, "catalog-app/build.gradle.kts", 5, 25);
  assert.deepEqual(accessor?.range, { start: { line: 5, character: 19 }, end: { line: 5, character: 42 } });
  assert.ok(markdown(accessor).startsWith(resolved), markdown(accessor));
});

test("hover in a pom: the property, the artifactId and the property reference in the dependency's version", async (t) => {
  const client = await loaded(t);
  const property = await hoverOn(client, "maven-app/pom.xml", 8, 20);
  assert.deepEqual(property?.range, { start: { line: 8, character: 18 }, end: { line: 8, character: 24 } });
  assert.ok(markdown(property).startsWith("**Apache Beam 2.61.0**, defined here."), markdown(property));
  assert.ok(markdown(property).endsWith(BFL301_BUG));
  const fromDependency =
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference as the pom writes it
    "**Apache Beam 2.61.0**, defined in `pom.xml` line 9 via `${beam.version} (pom.xml)`.\n\nUsed by `beam-runners-flink-1.19`.\n\n`beam-runners-flink-1.19` runs on a Flink 1.19.x cluster only.\n\nFlink runners in Beam 2.61.0: 1.17, 1.18, 1.19.";
  const artifact = await hoverOn(client, "maven-app/pom.xml", 14, 25);
  assert.deepEqual(artifact?.range, { start: { line: 14, character: 18 }, end: { line: 14, character: 41 } });
  assert.ok(markdown(artifact).startsWith(fromDependency), markdown(artifact));
  const reference = await hoverOn(client, "maven-app/pom.xml", 15, 20);
  assert.deepEqual(reference?.range, { start: { line: 15, character: 15 }, end: { line: 15, character: 30 } });
  assert.equal(markdown(reference), markdown(artifact));
});

test("an XML suppression with its reason after a colon hides the pom's finding and is not reported unused", async (t) => {
  const client = await loaded(t);
  const pom = readFileSync(client.path("maven-app/pom.xml"), "utf8");
  const uri = await client.open("maven-app/pom.xml", pom, "xml");
  const reported = await client.nextDiagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(
    reported.diagnostics.map((d) => [d.code, d.range.start.line]),
    [["BFL301", 8]],
  );
  const comment = "    <!-- beam-flink-lint-disable-next-line BFL301: upgraded with the platform BOM in Q3 -->\n";
  const line = { line: 8, character: 0 };
  const suppressed = client.nextDiagnostics(uri, (p) => p.version === 2);
  await client.change(uri, 2, [{ range: { start: line, end: line }, text: comment }]);
  assert.deepEqual((await suppressed).diagnostics, []);
});
