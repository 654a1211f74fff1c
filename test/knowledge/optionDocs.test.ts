/** Option descriptions (option-docs.json) and links to the Flink documentation. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  commonRank,
  describedKeys,
  describeOption,
  docsAnchor,
  optionDocsLink,
} from "../../server/src/core/knowledge/optionDocs";
import { allOptions, type OptionInfo } from "../../server/src/core/knowledge/options";
import { repoPath } from "../harness/fixtures";

const raw = JSON.parse(readFileSync(repoPath("server", "src", "core", "knowledge", "option-docs.json"), "utf8")) as {
  descriptions: Record<string, string>;
};

/** Words that say nothing on their own. */
const FILLER = new Set(
  "the and for are its with from that this which than when into not one all any how has have per may can out off use used each more most own".split(
    " ",
  ),
);

function option(key: string): OptionInfo {
  const found = allOptions().find((o) => o.key === key);
  assert.ok(found, `${key} is in the catalogue`);
  return found;
}

test("at least 250 options are described, and every described key is a key of the option catalogue", () => {
  const keys = describedKeys();
  assert.ok(keys.length >= 250, `${keys.length} described`);
  const catalogue = new Set(allOptions().map((o) => o.key));
  assert.deepEqual(
    keys.filter((k) => !catalogue.has(k)),
    [],
  );
  assert.deepEqual(Object.keys(raw.descriptions), keys, "describedKeys keeps the file's order");
});

test("the described options cover what users set", () => {
  const count = (re: RegExp) => describedKeys().filter((k) => re.test(k)).length;
  const want: [string, RegExp, number][] = [
    ["checkpointing", /^execution\.checkpointing\.|^state\.checkpoint/, 25],
    ["state backends", /^state\.backend\.(type|incremental|changelog)|^state\.backend$|^state\.changelog\./, 6],
    ["RocksDB", /^state\.backend\.rocksdb\./, 25],
    ["restart strategies", /^restart-strategy/, 12],
    ["high availability", /^high-availability/, 15],
    ["memory", /^(taskmanager|jobmanager)\.memory\./, 20],
    ["parallelism and slots", /parallelism|slot|^jobmanager\.(scheduler|adaptive-scheduler)|^scheduler-mode/, 12],
    ["Kubernetes", /^kubernetes\.(?!operator)/, 40],
    ["operator and autoscaler", /^kubernetes\.operator\.|^job\.autoscaler\./, 25],
    ["network", /^taskmanager\.network\.|^taskmanager\.data\.|^execution\.buffer-timeout/, 12],
    ["metrics reporters", /^metrics\.reporter/, 15],
    ["security and SSL", /^security\.ssl\./, 20],
    ["table and SQL execution", /^table\.(exec|optimizer)\./, 25],
    ["Kafka-relevant: consumer login, idle sources, watermarks", /kerberos\.login|idle-timeout|watermark/, 5],
  ];
  for (const [topic, re, least] of want) assert.ok(count(re) >= least, `${topic}: ${count(re)} < ${least}`);
});

test("each description is one sentence of the product's own, not the catalogue's facts restated", () => {
  for (const [key, text] of Object.entries(raw.descriptions)) {
    assert.ok(!/[\r\n]/.test(text), `${key}: one line`);
    assert.ok(text.length >= 20 && text.length <= 160, `${key}: ${text.length} characters`);
    assert.match(text, /^[A-Z`]/, `${key} starts like a sentence`);
    assert.match(text, /[.)]$/, `${key} ends like a sentence`);
    const o = option(key);
    // What the catalogue itself says about the option: key, type, default, values, old keys.
    const own = [o.key, o.type, o.default ?? "", ...(o.enumValues ?? []), ...o.aliases].join(" ").toLowerCase();
    assert.notEqual(text.toLowerCase(), own, key);
    assert.ok(!text.includes(o.key), `${key}: the description does not repeat the key`);
    const ownWords = new Set(own.split(/[^a-z0-9]+/));
    const newWords = text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2 && !ownWords.has(w) && !FILLER.has(w));
    assert.ok(newWords.length >= 3, `${key}: says more than the catalogue (${JSON.stringify(newWords)})`);
  }
});

test("deprecated and fallback keys share the description of their option; others have none", () => {
  assert.equal(describeOption("state.backend.fs.checkpointdir"), describeOption("execution.checkpointing.dir"));
  assert.match(describeOption("execution.checkpointing.interval") ?? "", /^How often a checkpoint starts/);
  assert.equal(describeOption("no.such.key"), undefined);
  assert.equal(describeOption("state.backend.rocksdb.metrics.num-snapshots"), undefined);
  assert.equal(commonRank("execution.checkpointing.interval"), 0);
  assert.ok((commonRank("state.backend.type") ?? 0) < (commonRank("state.backend.rocksdb.localdir") ?? 0));
  assert.equal(commonRank("state.backend.rocksdb.metrics.num-snapshots"), undefined);
});

test("anchors are the ids Flink's docs give option keys (AnchorJS 3.1: 64 characters, `<name>` kept)", () => {
  // Each of these anchors is linked to from published pages (Flink's own docs and third-party pages).
  assert.equal(docsAnchor("execution.checkpointing.interval"), "execution-checkpointing-interval");
  assert.equal(docsAnchor("taskmanager.numberOfTaskSlots"), "taskmanager-numberoftaskslots");
  assert.equal(docsAnchor("metrics.reporter.<name>.factory.class"), "metrics-reporter-<name>-factory-class");
  assert.equal(
    docsAnchor("execution.batch.adaptive.auto-parallelism.avg-data-volume-per-task"),
    "execution-batch-adaptive-auto-parallelism-avg-data-volume-per-ta",
  );
  assert.equal(
    docsAnchor("high-availability.zookeeper.client.simulated-session-expiration-percent"),
    "high-availability-zookeeper-client-simulated-session-expiration",
    "a cut that ends on a separator drops it",
  );
});

test("links go to the option in the docs of the project's Flink version, else the newest docs that have it", () => {
  const interval = option("execution.checkpointing.interval");
  const base = "https://nightlies.apache.org/flink/flink-docs-";
  assert.deepEqual(optionDocsLink(interval, "1.19"), {
    url: `${base}release-1.19/docs/deployment/config/#execution-checkpointing-interval`,
    minor: "1.19",
    kind: "release",
  });
  assert.equal(
    optionDocsLink(interval, "1.19.2").url,
    `${base}release-1.19/docs/deployment/config/#execution-checkpointing-interval`,
  );
  assert.equal(
    optionDocsLink(interval, "1.14").url,
    `${base}release-1.14/docs/deployment/config/#execution-checkpointing-interval`,
    "older releases have the same layout back to 1.13",
  );
  for (const minor of [undefined, "1.12", "9.9"]) {
    assert.deepEqual(
      optionDocsLink(interval, minor),
      { url: `${base}stable/docs/deployment/config/#execution-checkpointing-interval`, kind: "stable" },
      `Flink ${minor}`,
    );
  }
  // Removed in 2.0: the last release that had it.
  assert.equal(
    optionDocsLink(option("state.backend"), "2.0").url,
    `${base}release-1.16/docs/deployment/config/#state-backend`,
  );
  assert.equal(
    optionDocsLink(option("akka.ask.timeout")).url,
    `${base}release-1.17/docs/deployment/config/#akka-ask-timeout`,
  );
  // Not yet in the project's version: the latest release.
  assert.equal(
    optionDocsLink(option("execution.checkpointing.dir"), "1.18").url,
    `${base}stable/docs/deployment/config/#execution-checkpointing-dir`,
  );
  assert.equal(
    optionDocsLink(option("table.exec.state.ttl"), "1.20").url,
    `${base}release-1.20/docs/dev/table/config/#table-exec-state-ttl`,
  );
  assert.equal(
    optionDocsLink(option("sql-client.execution.result-mode"), "1.20").url,
    `${base}release-1.20/docs/dev/table/sqlclient/#sql-client-execution-result-mode`,
  );
  assert.equal(
    optionDocsLink(option("metrics.reporter.<name>.factory.class"), "2.0").url,
    `${base}release-2.0/docs/deployment/config/#metrics-reporter-%3Cname%3E-factory-class`,
  );
  assert.equal(
    optionDocsLink(option("historyserver.archive.load.mode")).url,
    `${base}master/docs/deployment/config/#historyserver-archive-load-mode`,
    "only in the development line",
  );
  assert.deepEqual(optionDocsLink(option("kubernetes.operator.reconcile.interval"), "1.19"), {
    url: "https://nightlies.apache.org/flink/flink-kubernetes-operator-docs-stable/docs/operations/configuration/#kubernetes-operator-reconcile-interval",
    kind: "operator",
  });
});

test("every option of the catalogue has a well-formed link", () => {
  for (const o of allOptions()) {
    for (const minor of [undefined, "1.15", "1.19", "2.1"]) {
      const link = optionDocsLink(o, minor);
      assert.match(
        link.url,
        /^https:\/\/nightlies\.apache\.org\/flink\/[a-z0-9.-]+\/docs\/[a-z_/-]+\/#[a-z0-9%A-F_-]+$/,
      );
    }
  }
});
