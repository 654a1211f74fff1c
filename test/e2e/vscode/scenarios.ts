/**
 * What a VS Code user does with the extension, and what they must see. Each scenario gets a fresh copy of its
 * workspace (test/e2e/workspaces/<workspace>) in a fresh workbench, and saves a screenshot of the moment that shows
 * the feature.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distPath } from "../../harness/fixtures";
import { type Problem, problemKey, type Workbench } from "./workbench";

export interface ScenarioContext {
  /** The workspace folder (a fresh copy). */
  folder: string;
  /** Saves a screenshot as `<scenario>.png`. */
  screenshot(): Promise<void>;
}

export interface Scenario {
  workspace: string;
  run(wb: Workbench, ctx: ScenarioContext): Promise<void>;
}

const JAVA = "src/main/java/com/example/orders/OrdersPipeline.java";
const CONFIG_MAP = "k8s/flink-config.yaml";
const DOCS = "https://github.com/beam-flink-lint/beam-flink-lint/blob/main/docs/rules/";

/** The status bar item of the seed project: Flink 1.17, 2 errors, 4 warnings, no information, 4 files. */
const STATUS_SEED = /^Flink 1\.17 · \s*2\s+4\s+0 · 4 files$/;

/** What the seed project shows in the Problems panel when it is opened. */
const SEED_PROBLEMS = [
  "build.gradle 14:58 error BFL301",
  `${CONFIG_MAP} 10:3 warning BFL101`,
  `${CONFIG_MAP} 13:5 warning BFL103`,
  `${CONFIG_MAP} 15:41 warning BFL106`,
  `${JAVA} 14:9 error BFL404`,
  `${JAVA} 25:91 warning BFL401`,
];

const SCALA_JOB = "src/main/scala/com/example/clicks/ClickCounts.scala";
const PYTHON_JOB = "orders/pipeline.py";
const SQL_JOB = "sql/orders-enrichment.sql";

/** Reads a saved file until it is `expected` (the editor writes it asynchronously). */
async function savedText(wb: Workbench, file: string, expected: string): Promise<void> {
  await wb.until(`${file} to be saved with the fix`, async () => {
    const saved = readFileSync(file, "utf8");
    return saved === expected || `saved: ${JSON.stringify(saved)}`;
  });
}

/** The quick fix whose title starts with `prefix`, from the menu at the cursor. */
async function quickFix(wb: Workbench, prefix: string): Promise<string> {
  const titles = await wb.quickFixMenu();
  const title = titles.find((t) => t.startsWith(prefix));
  assert.ok(title, `no quick fix starting with ${JSON.stringify(prefix)}: ${JSON.stringify(titles)}`);
  return title;
}

/** A test for waitForProblems: the panel lists exactly these problems (in any order). */
function exactly(expected: string[]): (problems: Problem[]) => true | string {
  const want = [...expected].sort();
  return (problems) => {
    const got = problems.map(problemKey).sort();
    return JSON.stringify(got) === JSON.stringify(want) || `Problems panel: ${JSON.stringify(got)}`;
  };
}

export const SCENARIOS: Record<string, Scenario> = {
  /** A Beam job on the Flink runner: build file, KafkaIO code and a ConfigMap with flink-conf.yaml. */
  "seed-problems": {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile("build.gradle");
      const problems = await wb.waitForProblems("the seed project's problems", exactly(SEED_PROBLEMS));
      for (const p of problems) assert.equal(p.href, `${DOCS}${p.code}.md`, `${problemKey(p)} links to its page`);
      const bfl301 = problems.find((p) => p.code === "BFL301");
      assert.match(bfl301?.message ?? "", /^Beam 2\.56\.0 has a known bug in the Flink runner/);
      assert.equal(await wb.page.getAttribute('[id="status.problems"]', "aria-label"), "Errors: 2, Warnings: 4");
      await wb.focusEditor();
      await ctx.screenshot();
      await wb.page.waitForSelector(".part.editor .squiggly-error", { timeout: 10_000 });
    },
  },

  /** The lightbulb's "Upgrade Beam" fix in build.gradle. */
  "quick-fix-BFL301": {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile("build.gradle");
      await wb.waitForProblems("BFL301", (ps) => ps.some((p) => p.code === "BFL301") || "no BFL301");
      await wb.goTo(14, 58);
      const titles = await wb.quickFixMenu();
      assert.ok(titles.includes("Upgrade Beam to 2.64.0"), `quick fixes: ${JSON.stringify(titles)}`);
      await ctx.screenshot();
      await wb.choose("Upgrade Beam to 2.64.0");
      await wb.waitForEditorLine(14, "    runtimeOnly 'org.apache.beam:beam-runners-flink-1.17:2.64.0'");
      await wb.waitForProblems("BFL301 to go", exactly(SEED_PROBLEMS.filter((p) => !p.endsWith("BFL301"))));
    },
  },

  /** Opening the folder is enough: the server analyses the workspace in the background, no file is opened. */
  "analysis-on-open": {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.waitForProblems("the seed project's problems without opening a file", exactly(SEED_PROBLEMS));
      assert.equal(await wb.page.locator(".part.editor .monaco-editor").count(), 0, "no editor is open");
      await ctx.screenshot();
    },
  },

  /**
   * editor.codeActionsOnSave with source.fixAll.beamFlinkLint applies the safe fixes, and only those: the rename
   * (safe: the project pins Flink 1.18), not the unit of the bare duration (choosing ms or s is choosing an intent).
   */
  "fix-on-save": {
    workspace: "fix-on-save",
    async run(wb, ctx) {
      await wb.openFile("flink-conf.yaml");
      await wb.waitForProblems(
        "the findings of flink-conf.yaml",
        exactly([
          "flink-conf.yaml 3:1 warning BFL103",
          "flink-conf.yaml 7:37 warning BFL106",
          "flink-conf.yaml 8:25 error BFL114",
          "flink-conf.yaml 9:1 warning BFL102",
        ]),
      );
      await wb.press("Control+End");
      await wb.type("# reviewed");
      await wb.press("Control+S");
      const expected = [
        "jobmanager.rpc.address: flink-jobmanager",
        "taskmanager.numberOfTaskSlots: 4",
        "state.backend.type: rocksdb",
        "state.checkpoints.dir: s3://flink-state/checkpoints",
        "execution.checkpointing.interval: 30 s",
        "restart-strategy.type: fixed-delay",
        "restart-strategy.fixed-delay.delay: 10",
        "high-availability.type: kubernetes",
        "taskmanager.memory.proces.size: 4096m",
        "# reviewed",
      ];
      await wb.until("the saved file to hold the safe fixes", async () => {
        const saved = readFileSync(join(ctx.folder, "flink-conf.yaml"), "utf8");
        return saved === expected.join("\n") || `saved: ${JSON.stringify(saved)}`;
      });
      const shown = await wb.visibleLines();
      assert.deepEqual(
        expected.map((_, i) => shown.get(i + 1)),
        expected,
      );
      await wb.waitForProblems(
        "only the findings with unsafe fixes to stay",
        exactly([
          "flink-conf.yaml 7:37 warning BFL106",
          "flink-conf.yaml 8:25 error BFL114",
          "flink-conf.yaml 9:1 warning BFL102",
        ]),
      );
      await ctx.screenshot();
    },
  },

  /**
   * The BFL301 quick fix on the runner's version moves every Beam artifact of the build to the fixed release, not
   * the runner alone: afterwards no Beam finding is left in the build file (no BFL305 mixed versions either).
   */
  "beam-upgrade": {
    workspace: "seed",
    async run(wb, ctx) {
      const original = readFileSync(join(ctx.folder, "build.gradle"), "utf8");
      await wb.openFile("build.gradle");
      await wb.waitForProblems("the seed project's problems", exactly(SEED_PROBLEMS));
      await wb.focusEditor();
      await wb.goTo(14, 58);
      const title = await quickFix(wb, "Upgrade Beam to 2.64.0");
      await ctx.screenshot();
      await wb.choose(title);
      await wb.waitForEditorLine(11, "    implementation 'org.apache.beam:beam-sdks-java-core:2.64.0'");
      await wb.waitForEditorLine(12, "    implementation 'org.apache.beam:beam-sdks-java-io-kafka:2.64.0'");
      await wb.waitForEditorLine(14, "    runtimeOnly 'org.apache.beam:beam-runners-flink-1.17:2.64.0'");
      await wb.waitForProblems(
        "BFL301 to go, and no other Beam finding to come",
        exactly(SEED_PROBLEMS.filter((p) => !p.startsWith("build.gradle "))),
      );
      await wb.press("Control+S");
      await savedText(wb, join(ctx.folder, "build.gradle"), original.replaceAll(":2.56.0'", ":2.64.0'"));
    },
  },

  /** A checkpoint interval typed into the ConfigMap changes what the Java file's finding says. */
  "cross-file": {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile(JAVA);
      await wb.waitForProblems("the seed project's problems", exactly(SEED_PROBLEMS));
      await wb.openFile(CONFIG_MAP);
      await wb.press("Control+End");
      await wb.type("    execution.checkpointing.interval: 1 min");
      await wb.waitForProblems(
        "BFL404 in the Java file to become a warning and BFL101 to go",
        exactly([
          "build.gradle 14:58 error BFL301",
          `${CONFIG_MAP} 13:5 warning BFL103`,
          `${CONFIG_MAP} 15:41 warning BFL106`,
          `${JAVA} 14:9 warning BFL404`,
          `${JAVA} 25:91 warning BFL401`,
        ]),
      );
      await ctx.screenshot();
    },
  },

  /**
   * Hover over a deprecated key: what the option does, its facts and its page in the docs of the detected Flink
   * version, the finding, and the finding's code linking to its page.
   */
  hover: {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile(CONFIG_MAP);
      await wb.waitForProblems("BFL103", (ps) => ps.some((p) => p.code === "BFL103") || "no BFL103");
      await wb.goTo(13, 8);
      const hover = await wb.hover((text) => text.includes("Default:") && text.includes("BFL103"));
      assert.match(hover.text, /state\.backend is a deprecated key: use state\.backend\.type/);
      assert.match(hover.text, /state\.backend\.type · String/);
      assert.match(hover.text, /Default: none/);
      assert.match(hover.text, /Where working state lives: hashmap \(JVM heap\) or rocksdb \(local disk\)\./);
      assert.ok(
        hover.links.some((l) => l.text === "BFL103" && l.href === `${DOCS}BFL103.md`),
        `links: ${JSON.stringify(hover.links)}`,
      );
      assert.ok(
        hover.links.some(
          (l) =>
            l.text === "Flink 1.17 documentation" &&
            l.href ===
              "https://nightlies.apache.org/flink/flink-docs-release-1.17/docs/deployment/config/#state-backend-type",
        ),
        `links: ${JSON.stringify(hover.links)}`,
      );
      await ctx.screenshot();
    },
  },

  /**
   * `beam-flink-lint --write-baseline` run in the workspace (as in a terminal): the editor hides every problem the
   * baseline records, and a problem typed afterwards is shown.
   */
  baseline: {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile(CONFIG_MAP);
      await wb.waitForProblems("the seed project's problems", exactly(SEED_PROBLEMS));
      const cli = spawnSync(process.execPath, [distPath("cli.js"), "--write-baseline"], {
        cwd: ctx.folder,
        encoding: "utf8",
      });
      assert.equal(cli.status, 0, cli.stderr);
      assert.match(cli.stderr, /recorded 6 findings in \.beam-flink-lint-baseline\.json/);
      await wb.until("the problems the baseline records to go", async () => {
        const label = await wb.page.getAttribute('[id="status.problems"]', "aria-label");
        return label === "No Problems" || `status bar: ${label}`;
      });
      await wb.press("Control+End");
      await wb.type("    rest.port=8081");
      await wb.waitForProblems("only the new problem", exactly([`${CONFIG_MAP} 16:5 warning BFL100`]));
      await ctx.screenshot();
    },
  },

  /** Completion of a half-typed key offers the state backend type first, documented. */
  completion: {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile(CONFIG_MAP);
      await wb.waitForProblems("the ConfigMap's problems", (ps) => ps.some((p) => p.code === "BFL103") || "no BFL103");
      await wb.press("Control+End");
      await wb.type("    state.back");
      const rows = await wb.suggestions((labels) => labels[0] === "state.backend.type");
      assert.ok(
        rows.slice(1, 4).every((l) => l.startsWith("state.backend.")),
        `suggestions: ${JSON.stringify(rows)}`,
      );
      const details = await wb.suggestionDetails((text) => text.includes("Where working state lives"));
      assert.match(details, /Flink 1\.17 documentation/);
      await ctx.screenshot();
      await wb.press("Enter");
      await wb.waitForEditorLine(16, "    state.backend.type: ");
    },
  },

  /**
   * The Scala DataStream job of examples/ (no checkpointing, a `flatMap` cut to one subtask): its findings next to
   * the cluster's, and the checkpointing fix written in Scala, after which the cluster's BFL101 says the code
   * checkpoints.
   */
  "scala-job": {
    workspace: "examples/scala-clickstream-job",
    async run(wb, ctx) {
      const original = readFileSync(join(ctx.folder, SCALA_JOB), "utf8");
      await wb.openFile(SCALA_JOB);
      const problems = await wb.waitForProblems(
        "the Scala job's problems",
        exactly([
          "build.gradle 13:60 info BFL306",
          "conf/flink-conf.yaml 1:1 warning BFL101",
          "conf/flink-conf.yaml 4:1 warning BFL103",
          `${SCALA_JOB} 12:42 warning BFL501`,
          `${SCALA_JOB} 19:22 warning BFL503`,
          `${SCALA_JOB} 24:8 warning BFL502`,
        ]),
      );
      const bfl502 = problems.find((p) => p.code === "BFL502");
      assert.match(
        bfl502?.message ?? "",
        /^8 subtasks of addSource \(setParallelism\(8\)\) feed this single flatMap subtask/,
      );
      await wb.focusEditor();
      await wb.goTo(24, 8);
      assert.ok((await wb.quickFixMenu()).includes("Remove setParallelism(1)"));
      await wb.press("Escape");
      await wb.goTo(12, 42);
      const title = await quickFix(wb, "Checkpoint every");
      await ctx.screenshot();
      await wb.choose(title);
      await wb.waitForEditorLine(13, "    env.enableCheckpointing(60000)");
      await wb.waitForProblems(
        "BFL501 to go and BFL101 to say the job checkpoints",
        exactly([
          "build.gradle 13:60 info BFL306",
          "conf/flink-conf.yaml 1:1 info BFL101",
          "conf/flink-conf.yaml 4:1 warning BFL103",
          `${SCALA_JOB} 20:22 warning BFL503`,
          `${SCALA_JOB} 25:8 warning BFL502`,
        ]),
      );
      await wb.press("Control+S");
      const lines = original.split("\n");
      lines.splice(12, 0, "    env.enableCheckpointing(60000)");
      await savedText(wb, join(ctx.folder, SCALA_JOB), lines.join("\n"));
    },
  },

  /**
   * The Flink SQL script of examples/: its findings in the Problems panel, the checkpointing fix written as a SET
   * statement (the tables' offsets then get committed), and the deprecated sink option replaced.
   */
  "sql-script": {
    workspace: "examples/flink-sql-kafka-job",
    async run(wb, ctx) {
      await wb.openFile(SQL_JOB);
      await wb.waitForProblems(
        "the SQL script's problems",
        exactly([
          `${SQL_JOB} 5:6 warning BFL102`,
          `${SQL_JOB} 6:31 info BFL106`,
          `${SQL_JOB} 8:14 warning BFL603`,
          `${SQL_JOB} 18:26 error BFL602`,
          `${SQL_JOB} 23:14 warning BFL603`,
          `${SQL_JOB} 44:4 warning BFL601`,
          `${SQL_JOB} 44:22 error BFL604`,
          `${SQL_JOB} 44:22 error BFL604`,
          `${SQL_JOB} 44:22 warning BFL604`,
        ]),
      );
      await wb.focusEditor();
      await wb.goTo(8, 14);
      const title = await quickFix(wb, "Add SET 'execution.checkpointing.interval'");
      await ctx.screenshot();
      await wb.choose(title);
      await wb.waitForEditorLine(4, "SET 'execution.checkpointing.interval' = '1 min';");
      await wb.waitForProblems(
        "BFL603 and the sink's checkpointing error to go",
        exactly([
          `${SQL_JOB} 6:6 warning BFL102`,
          `${SQL_JOB} 7:31 info BFL106`,
          `${SQL_JOB} 19:26 error BFL602`,
          `${SQL_JOB} 45:4 warning BFL601`,
          `${SQL_JOB} 45:22 error BFL604`,
          `${SQL_JOB} 45:22 warning BFL604`,
        ]),
      );
      await wb.goTo(45, 4);
      await wb.choose(await quickFix(wb, "Replace with 'sink.delivery-guarantee'"));
      await wb.waitForEditorLine(45, "  'sink.delivery-guarantee' = 'exactly-once'");
      await wb.waitForProblems("BFL601 to go", (ps) => {
        const codes = ps.map((p) => p.code).sort();
        return (
          JSON.stringify(codes) === JSON.stringify(["BFL102", "BFL106", "BFL602", "BFL604", "BFL604"]) ||
          `codes: ${codes}`
        );
      });
    },
  },

  /** The Beam Python pipeline of examples/: its findings, and the missing group.id added to its consumer config. */
  "python-pipeline": {
    workspace: "examples/beam-python-pipeline",
    async run(wb, ctx) {
      const original = readFileSync(join(ctx.folder, PYTHON_JOB), "utf8");
      await wb.openFile(PYTHON_JOB);
      await wb.waitForProblems(
        "the pipeline's problems",
        exactly([
          `${PYTHON_JOB} 19:15 error BFL404`,
          `${PYTHON_JOB} 33:17 error BFL402`,
          "requirements.txt 1:19 error BFL308",
        ]),
      );
      await wb.focusEditor();
      await wb.goTo(33, 17);
      const title = await quickFix(wb, "Add group.id");
      await ctx.screenshot();
      await wb.choose(title);
      await wb.goTo(12, 1);
      await wb.waitForEditorLine(12, '    "group.id": "orders-consumer",');
      await wb.waitForProblems(
        "BFL402 to go",
        exactly([`${PYTHON_JOB} 20:15 error BFL404`, "requirements.txt 1:19 error BFL308"]),
      );
      await wb.press("Control+S");
      const lines = original.split("\n");
      lines.splice(11, 0, '    "group.id": "orders-consumer",');
      await savedText(wb, join(ctx.folder, PYTHON_JOB), lines.join("\n"));
    },
  },

  /**
   * The status bar shows the detected Flink version and the counts of errors, warnings and information (each after
   * its icon, which the item's text renders as an empty glyph); Show Output and Restart Language Server work.
   */
  "status-and-commands": {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile("build.gradle");
      // Until the workspace folder is read, the project is the open file alone.
      const item = await wb.statusItem("beam-flink-lint.beam-flink-lint", (text) => STATUS_SEED.test(text));
      assert.match(item.label, /Flink 1\.17 from the Beam Flink runner artifact \(build\.gradle\)/);
      await wb.command("Beam & Flink Lint: Show Output");
      const started = (lines: string[]) => lines.filter((l) => l.includes("Beam & Flink Lint server started")).length;
      await wb.outputLines((lines) => started(lines) === 1);
      assert.equal(await wb.outputChannel(), "Beam & Flink Lint");
      await wb.command("Beam & Flink Lint: Restart Language Server");
      // The panel shows its last lines only: the restart is the old process's exit followed by a new start.
      await wb.outputLines((lines) => lines.some((l) => l.includes("Server process exited")) && started(lines) >= 1);
      await wb.statusItem("beam-flink-lint.beam-flink-lint", (text) => STATUS_SEED.test(text));
      await ctx.screenshot();
      await wb.waitForProblems("the problems after the restart", exactly(SEED_PROBLEMS));
    },
  },

  /**
   * `beamFlinkLint.trace.server` turned on in the workspace settings, with the Output channel at its default log
   * level: the messages to and from the server appear in the Output panel.
   */
  trace: {
    workspace: "seed",
    async run(wb, ctx) {
      await wb.openFile("build.gradle");
      await wb.waitForProblems("the seed project's problems", exactly(SEED_PROBLEMS));
      await wb.command("Beam & Flink Lint: Show Output");
      const traced = (lines: string[]) => lines.some((l) => /Sending notification 'textDocument\/didChange'/.test(l));
      mkdirSync(join(ctx.folder, ".vscode"), { recursive: true });
      writeFileSync(
        join(ctx.folder, ".vscode", "settings.json"),
        JSON.stringify({ "beamFlinkLint.trace.server": "messages" }),
      );
      // The settings file is read asynchronously: type until an edit is traced.
      await wb.until("an edit to be traced in the Output panel", async () => {
        await wb.press("Control+End");
        await wb.type("\n");
        await wb.command("Beam & Flink Lint: Show Output");
        const lines = await wb.outputLines(() => true);
        return traced(lines) || `output: ${JSON.stringify(lines.slice(-5))}`;
      });
      await ctx.screenshot();
    },
  },
};
