/** The standalone language server in Emacs 28 with eglot 1.9, in batch mode. */
import { test } from "node:test";
import { requirePrograms, skipE2E } from "./support/prerequisites";
import { checkEditor } from "./support/terminalEditors";

test("Emacs + eglot: diagnostics, a code action, re-published diagnostics", { skip: skipE2E }, async (t) => {
  requirePrograms(["emacs", "unshare"]);
  await checkEditor(t, "emacs", (clients) => ["emacs", "--batch", "-l", `${clients}/emacs.el`]);
});
