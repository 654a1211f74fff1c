import type { Fix } from "../../findings";
import type { Suppression } from "../../suppressions";
import type { Rule } from "../types";

function what(s: Suppression): string {
  return s.scope === "object" ? "annotation" : "comment";
}

function quoted(codes: string[]): string {
  return codes.map((c) => `'${c}'`).join(", ");
}

function messageFor(suppression: Suppression, unknown: string[], used: boolean): { message: string; details: string } {
  const kind = what(suppression);
  if (unknown.length === 0) {
    const target = suppression.rules.length > 0 ? ` of ${quoted(suppression.rules)}` : "";
    return {
      message: `No finding${target} is reported where this ${kind} applies, so it hides nothing.`,
      details: `Remove the ${kind} before it hides a real problem.`,
    };
  }
  const names = quoted(unknown);
  const one = unknown.length === 1;
  const verb = one ? "is not a rule code or name" : "are not rule codes or names";
  return used
    ? {
        message: `${names} ${verb}, so this ${kind} hides nothing for ${one ? "it" : "them"}.`,
        details: "Correct the code or drop it from the list.",
      }
    : {
        message: `${names} ${verb} and this ${kind} hides no finding.`,
        details: `Correct the code or remove the ${kind}.`,
      };
}

export const rule: Rule = {
  meta: {
    code: "BFL001",
    name: "unused-suppression",
    family: "meta",
    severity: "info",
    description: "A suppression comment or annotation that hides no finding, or names a code that is not a rule.",
    fix: "safe",
    docs: {
      whatItDoes:
        "Reports `beam-flink-lint-disable-next-line`, `-disable-line` and `-disable-file` comments and `beam-flink-lint.io/disable` annotations that hid no finding in this run, and those that list a code or name no rule has.",
      whyItMatters:
        "A suppression outlives the problem it was written for: after the setting is corrected or the Flink version moves on, it stays in the file and silently hides the next real problem on that line, such as a checkpoint interval Flink no longer reads. A mistyped code (`BFL10` for `BFL100`) hides nothing at all while looking as if it did.",
      bad: {
        "flink-conf.yaml":
          "# beam-flink-lint-disable-next-line BFL100 -- our launcher rewrites this line\ntaskmanager.numberOfTaskSlots: 4\n",
      },
      good: { "flink-conf.yaml": "taskmanager.numberOfTaskSlots: 4\n" },
      whenNotToFire:
        "A suppression that hid at least one finding in this run. Findings of this rule cannot themselves be suppressed. With `--no-inline-config` suppressions are ignored altogether, so none is reported. A suppression of a rule that is turned off hides nothing and is reported.",
      references: [
        "ESLint reportUnusedDisableDirectives",
        "Ruff RUF100 (unused noqa)",
        "hadolint/hadolint#747 (ignoring inline suppressions in CI)",
      ],
    },
  },
  phase: "post",
  check(ctx) {
    const s = ctx.suppressions;
    if (!s) return;
    for (const suppression of s.all) {
      const unknown = suppression.rules.filter((r) => !s.isRule(r));
      const used = s.used.has(suppression);
      if (used && unknown.length === 0) continue;
      const kind = what(suppression);
      const { message, details } = messageFor(suppression, unknown, used);
      // A comment is removed as a whole. An annotation is not: its range is its value, and removing only that
      // would leave an empty annotation behind.
      const removable = !used && suppression.scope !== "object";
      const removal: Fix = {
        title: `Remove the unused suppression ${kind}`,
        safety: "safe",
        changes: [{ file: suppression.file, edits: [{ range: suppression.removeRange, newText: "" }] }],
      };
      ctx.report({
        file: suppression.file,
        range: suppression.range,
        message,
        details,
        tags: ["unnecessary"],
        fixes: removable ? [removal] : [],
      });
    }
  },
};
