/** The standalone language server in headless Neovim 0.7 (built-in LSP client, vim.lsp.start_client). */
import { test } from "node:test";
import { requirePrograms, skipE2E } from "./support/prerequisites";
import { checkEditor } from "./support/terminalEditors";

test("Neovim: diagnostics, a code action, re-published diagnostics", { skip: skipE2E }, async (t) => {
  requirePrograms(["nvim", "unshare"]);
  await checkEditor(t, "neovim", (clients) => [
    "nvim",
    "--headless",
    "-u",
    "NONE",
    "-i",
    "NONE",
    "-n",
    "-c",
    `luafile ${clients}/neovim.lua`,
  ]);
});
