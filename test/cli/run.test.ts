/** The command line in-process, for what a fixture cannot bring about: a rule that throws, a colour terminal. */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { type CliIo, runCli } from "../../server/src/cli/run";
import { ALL_RULES } from "../../server/src/core/rules/index";
import type { Rule } from "../../server/src/core/rules/types";
import { copyFixture, PINNED_RULES, removeTemps } from "./helpers";

after(removeTemps);

function capture(cwd: string, color = false): CliIo & { out: string; err: string } {
  const io = {
    cwd,
    color,
    out: "",
    err: "",
    stdout: (text: string) => {
      io.out += text;
    },
    stderr: (text: string) => {
      io.err += text;
    },
  };
  return io;
}

const throwing: Rule = {
  meta: { ...ALL_RULES[0].meta, code: "BFL999", name: "always-throws" },
  check() {
    throw new TypeError("cannot read properties of undefined (reading 'entries')");
  },
};

function withRule<T>(rule: Rule, run: () => T): T {
  const rules = ALL_RULES as Rule[];
  rules.push(rule);
  try {
    return run();
  } finally {
    rules.splice(rules.indexOf(rule), 1);
  }
}

test("a rule that throws: the report still comes, the failure goes to stderr, exit code 2", () => {
  const io = capture(copyFixture("problems"));
  const code = withRule(throwing, () => runCli([...PINNED_RULES, "--rule", "BFL999=error"], io));
  assert.equal(code, 2);
  assert.match(io.out, /✖ 4 problems/);
  assert.equal(
    io.err,
    "beam-flink-lint: internal error in rule BFL999: TypeError: cannot read properties of undefined (reading 'entries') (run with --debug for details)\n",
  );
});

test("--debug shows the stack of a failing rule", () => {
  const io = capture(copyFixture("problems"));
  const code = withRule(throwing, () => runCli([...PINNED_RULES, "--rule", "BFL999=error", "--debug"], io));
  assert.equal(code, 2);
  assert.match(io.err, /^beam-flink-lint: internal error in rule BFL999: TypeError: .*\n\s+at /);
});

test("--exit-zero does not hide a failing rule", () => {
  const io = capture(copyFixture("problems"));
  const code = withRule(throwing, () => runCli([...PINNED_RULES, "--rule", "BFL999=error", "--exit-zero"], io));
  assert.equal(code, 2);
});

test("a failing rule is a tool notification in SARIF", () => {
  const io = capture(copyFixture("problems"));
  withRule(throwing, () => runCli([...PINNED_RULES, "--rule", "BFL999=error", "--format", "sarif"], io));
  const invocation = JSON.parse(io.out).runs[0].invocations[0];
  assert.equal(invocation.executionSuccessful, false);
  assert.match(invocation.toolExecutionNotifications[0].message.text, /^Rule BFL999 failed: TypeError/);
});

test("colours on a terminal: severity and code are painted, the text is unchanged", () => {
  const io = capture(copyFixture("problems"), true);
  runCli(PINNED_RULES, io);
  assert.ok(io.out.includes("\u001b[33mwarning\u001b[0m"));
  const plain = capture(copyFixture("problems"));
  runCli(PINNED_RULES, plain);
  const esc = String.fromCharCode(27);
  assert.equal(io.out.replace(new RegExp(`${esc}\\[\\d+m`, "g"), ""), plain.out);
});
