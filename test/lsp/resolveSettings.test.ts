/** Settings as the server reads them: editor values over initialization options over defaults, setting by setting. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_SETTINGS } from "../../server/src/lsp/protocol";
import { engineOptions, maxFileBytes, resolveSettings } from "../../server/src/lsp/settings";

test("each setting comes from the editor, else the initialization options, else the default", () => {
  const s = resolveSettings({ run: "onSave", debounceMs: 50 }, { debounceMs: 0, maxFileSizeMB: 1, enable: false });
  assert.deepEqual(s, { ...DEFAULT_SETTINGS, run: "onSave", debounceMs: 50, maxFileSizeMB: 1, enable: false });
  assert.deepEqual(resolveSettings(null, undefined), DEFAULT_SETTINGS);
});

test("values of the wrong type or range are ignored, not fatal", () => {
  const s = resolveSettings(
    {
      enable: "yes",
      run: "sometimes",
      debounceMs: -5,
      maxFileSizeMB: "big",
      flinkVersion: 1.19,
      rules: { customizations: [{ rule: "BFL101" }, { rule: "BFL102", severity: "error" }, "BFL103"] },
    },
    undefined,
  );
  assert.deepEqual(s, { ...DEFAULT_SETTINGS, rules: { customizations: [{ rule: "BFL102", severity: "error" }] } });
});

test("customizations become severity overrides; vscode-eslint spellings are understood, unknown ones dropped", () => {
  const s = resolveSettings(
    {
      flinkVersion: " 1.19 ",
      rules: {
        customizations: [
          { rule: "BFL1*", severity: "warn" },
          { rule: "BFL101", severity: "Information" },
          { rule: "BFL102", severity: "loud" },
        ],
      },
    },
    undefined,
  );
  assert.deepEqual(engineOptions(s), {
    assumedFlinkVersion: "1.19",
    severityOverrides: [
      { rule: "BFL1*", severity: "warning" },
      { rule: "BFL101", severity: "info" },
    ],
  });
  assert.equal(engineOptions(DEFAULT_SETTINGS).assumedFlinkVersion, undefined);
});

test("the size limit is in MB, and 0 turns it off", () => {
  assert.equal(maxFileBytes({ ...DEFAULT_SETTINGS, maxFileSizeMB: 2 }), 2 * 1024 * 1024);
  assert.equal(maxFileBytes({ ...DEFAULT_SETTINGS, maxFileSizeMB: 0 }), Number.POSITIVE_INFINITY);
});
