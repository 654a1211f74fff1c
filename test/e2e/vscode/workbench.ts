/**
 * The VS Code workbench (served by code-server, shown in headless Chromium) the way a user works it: keyboard
 * shortcuts, the command palette, and what is on screen (Problems panel, editor lines, hovers, status bar).
 */
import type { Page } from "playwright-core";

const WAIT_MS = 30_000;

/** One row of the Problems panel. */
export interface Problem {
  /** Path relative to the workspace folder. */
  file: string;
  /** error, warning or info, from the row's icon. */
  severity: string;
  code: string;
  line: number;
  col: number;
  message: string;
  /** Where the code links to. */
  href: string | null;
}

/** A problem in short, `build.gradle 14:58 error BFL301`, for comparisons with readable differences. */
export function problemKey(p: Problem): string {
  return `${p.file} ${p.line}:${p.col} ${p.severity} ${p.code}`;
}

/** The DOM members the functions run in the page use (the project compiles without the DOM library). */
interface DomNode {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): Iterable<DomNode>;
  classList: { contains(name: string): boolean };
  dataset: Record<string, string | undefined>;
  offsetHeight: number;
  clientHeight: number;
  parentElement: DomNode | null;
  style: { top: string };
  options: { text: string }[];
  selectedIndex: number;
}

/** Monaco shows spaces as U+00A0. */
function plain(text: string | null): string {
  return (text ?? "").replace(/\u00a0/g, " ");
}

export class Workbench {
  /** Whether the panel was made taller, so that the Problems panel shows every row of a fixture project. */
  private panelResized = false;

  constructor(
    readonly page: Page,
    private readonly folder: string,
  ) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: "domcontentloaded", timeout: WAIT_MS });
    await this.page.waitForSelector(".monaco-workbench .part.editor", { timeout: 60_000 });
  }

  private get keyboard() {
    return this.page.keyboard;
  }

  /** Quick Open (Ctrl+P) with the path relative to the workspace folder. */
  async openFile(relative: string): Promise<void> {
    const name = relative.split("/").pop() as string;
    await this.keyboard.press("Control+P");
    await this.page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: WAIT_MS });
    await this.keyboard.type(relative);
    await this.page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label^="${name}"]`, { timeout: WAIT_MS });
    await this.keyboard.press("Enter");
    await this.page.waitForSelector(`.tab.active[aria-label^="${name}"]`, { timeout: WAIT_MS });
    await this.page.waitForSelector(".part.editor .monaco-editor.focused", { timeout: WAIT_MS });
  }

  /** Go to Line/Column (Ctrl+G), 1-based like the status bar. */
  async goTo(line: number, col: number): Promise<void> {
    await this.keyboard.press("Control+G");
    await this.page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: WAIT_MS });
    await this.keyboard.type(`${line}:${col}`);
    await this.keyboard.press("Enter");
    await this.page.waitForSelector(`[id="status.editor.selection"][aria-label*="Ln ${line}, Col ${col}"]`, {
      timeout: WAIT_MS,
    });
    // The cursor moves before the input box gives the focus back; keys pressed in between go to the box.
    await this.page.waitForSelector(".quick-input-widget", { state: "hidden", timeout: WAIT_MS });
    await this.page.waitForSelector(".part.editor .monaco-editor.focused", { timeout: WAIT_MS });
  }

  /** Moves the keyboard focus back to the editor (the Problems panel takes it when it opens). */
  async focusEditor(): Promise<void> {
    await this.keyboard.press("Control+1");
    await this.page.waitForSelector(".part.editor .monaco-editor.focused", { timeout: WAIT_MS });
  }

  /** Types into the active editor. */
  async type(text: string): Promise<void> {
    await this.focusEditor();
    await this.keyboard.type(text);
  }

  /** Presses keys in the active editor. */
  async press(keys: string): Promise<void> {
    await this.focusEditor();
    await this.keyboard.press(keys);
  }

  /** Runs a command from the palette (F1) by its full title, e.g. `Beam & Flink Lint: Show Output`. */
  async command(title: string): Promise<void> {
    await this.keyboard.press("F1");
    await this.page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: WAIT_MS });
    await this.keyboard.type(title);
    await this.page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label^="${title}"]`, {
      timeout: WAIT_MS,
    });
    await this.keyboard.press("Enter");
  }

  /** The lines of the active editor on screen, by line number (1-based). */
  async visibleLines(): Promise<Map<number, string>> {
    const shown = await this.page.$eval(".part.editor .editor-instance .monaco-editor", (editor: DomNode) => ({
      numbers: [...editor.querySelectorAll(".margin-view-overlays .line-numbers")].map((n) => ({
        top: n.parentElement?.style.top ?? "",
        line: Number(n.textContent),
      })),
      lines: [...editor.querySelectorAll(".view-lines .view-line")].map((l) => ({
        top: l.style.top,
        text: l.textContent,
      })),
    }));
    const lineAt = new Map(shown.numbers.map((n) => [n.top, n.line]));
    const out = new Map<number, string>();
    for (const l of shown.lines) {
      const line = lineAt.get(l.top);
      if (line !== undefined) out.set(line, plain(l.text));
    }
    return out;
  }

  async waitForEditorLine(line: number, expected: string): Promise<void> {
    await this.until(`line ${line} to read ${JSON.stringify(expected)}`, async () => {
      const shown = (await this.visibleLines()).get(line);
      return shown === expected || `line ${line}: ${JSON.stringify(shown)}`;
    });
  }

  /**
   * Opens the Problems panel (Ctrl+Shift+M toggles it, so only when it is not shown). The first time, it is dragged
   * taller: its list only renders the rows that fit.
   */
  async showProblems(): Promise<void> {
    if (!(await this.page.isVisible(".markers-panel"))) await this.keyboard.press("Control+Shift+M");
    await this.page.waitForSelector(".markers-panel", { state: "visible", timeout: WAIT_MS });
    if (this.panelResized) return;
    const box = await this.page.locator(".part.panel").boundingBox();
    if (!box) throw new Error("the panel has no size");
    const x = box.x + box.width / 2;
    await this.page.mouse.move(x, box.y);
    await this.page.mouse.down();
    await this.page.mouse.move(x, box.y - 140, { steps: 5 });
    await this.page.mouse.up();
    this.panelResized = true;
  }

  /**
   * Reads every row of the Problems panel. Its list renders only the rows that fit (related information adds a row
   * per location), so it is scrolled a page at a time and the rows are merged by their index, then scrolled back.
   */
  private async readProblems(): Promise<{ complete: boolean; problems: Problem[] }> {
    const folder = this.folder;
    type Row = { index: number; bottom: number; file?: string; problem?: Problem };
    const seen = new Map<number, Row>();
    let total = 0;
    const complete = () => {
      const last = seen.get(seen.size - 1);
      return [...seen.keys()].every((i) => i < seen.size) && last !== undefined && last.bottom >= total - 2;
    };
    // The panel keeps its scroll position (and reveals a problem near the cursor): read from the top.
    const start = await this.page.locator(".markers-panel .monaco-list").boundingBox();
    if (start) {
      await this.page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
      await this.page.mouse.wheel(0, -100_000);
      await this.page.waitForTimeout(150);
    }
    for (let page = 0; page < 50; page++) {
      const view = await this.page.$eval(
        ".markers-panel .monaco-list",
        (list: DomNode, folder) => {
          const rows = [...list.querySelectorAll(".monaco-list-row")].map((row) => {
            const index = Number(row.dataset.index);
            const bottom = Number.parseFloat(row.style.top || "0") + row.offsetHeight;
            const label = row.querySelector(".resource-label-container .monaco-icon-label");
            if (label)
              return { index, bottom, file: (label.getAttribute("aria-label") ?? "").slice(folder.length + 1) };
            const icon = row.querySelector(".marker-icon");
            if (!icon) return { index, bottom };
            const position = /Ln (\d+), Col (\d+)/.exec(row.querySelector(".marker-line")?.textContent ?? "");
            return {
              index,
              bottom,
              problem: {
                file: "",
                severity: ["error", "warning", "info"].find((s) => icon.classList.contains(s)) ?? "unknown",
                code: row.querySelector(".marker-code")?.textContent ?? "",
                line: Number(position?.[1]),
                col: Number(position?.[2]),
                message: row.querySelector(".marker-message")?.textContent ?? "",
                href: row.querySelector("a.monaco-link")?.getAttribute("href") ?? null,
              },
            };
          });
          const total = list.querySelector(".monaco-list-rows")?.offsetHeight ?? 0;
          return { rows, total, height: list.clientHeight };
        },
        folder,
      );
      total = view.total;
      for (const row of view.rows) seen.set(row.index, row);
      if (complete()) break;
      const box = await this.page.locator(".markers-panel .monaco-list").boundingBox();
      if (!box) break;
      await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await this.page.mouse.wheel(0, Math.max(40, view.height * 0.8));
      await this.page.waitForTimeout(150);
    }
    if (seen.size > 0 && (seen.get(0)?.bottom ?? 0) < total) {
      const box = await this.page.locator(".markers-panel .monaco-list").boundingBox();
      if (box) {
        await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await this.page.mouse.wheel(0, -100_000);
      }
    }
    const problems: Problem[] = [];
    let file = "";
    for (const row of [...seen.values()].sort((x, y) => x.index - y.index)) {
      if (row.file !== undefined) file = row.file;
      else if (row.problem) problems.push({ ...row.problem, file });
    }
    return { complete: complete(), problems };
  }

  /**
   * Waits until the Problems panel satisfies `test` (which returns true, or what is wrong), reading every problem
   * with the file it is listed under.
   */
  async waitForProblems(what: string, test: (problems: Problem[]) => true | string): Promise<Problem[]> {
    let last: Problem[] = [];
    await this.until(what, async () => {
      await this.showProblems();
      const read = await this.readProblems();
      last = read.problems;
      return read.complete ? test(last) : "the Problems panel could not be read to its end";
    });
    return last;
  }

  /** The quick fixes offered at the cursor (Ctrl+.), as their titles; the menu stays open. */
  async quickFixMenu(): Promise<string[]> {
    // A busy machine can drop the first request (the previous menu still closing, the server still answering):
    // ask again a few times before giving up, as a user would.
    const deadline = Date.now() + WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      await this.page.waitForSelector(".action-widget .monaco-list-row", { state: "hidden", timeout: WAIT_MS });
      await this.keyboard.press("Control+.");
      const left = deadline - Date.now();
      const shown = await this.page
        .waitForSelector(".action-widget .monaco-list-row", { state: "visible", timeout: Math.min(8_000, left) })
        .then(() => true)
        .catch(() => false);
      if (shown) break;
      if (Date.now() >= deadline) throw new Error(`no quick fix menu after ${attempt + 1} requests (Ctrl+.)`);
      await this.focusEditor();
    }
    return this.page.$$eval(".action-widget .monaco-list-row.action", (els: DomNode[]) =>
      els.map((e) => e.getAttribute("aria-label") ?? e.textContent ?? ""),
    );
  }

  /** Picks an entry of the open quick fix menu by its title, with the arrow keys and Enter. */
  async choose(title: string): Promise<void> {
    const focused = ".action-widget .monaco-list-row.action.focused";
    for (let i = 0; i < 20; i++) {
      if ((await this.page.getAttribute(focused, "aria-label"))?.startsWith(title)) {
        await this.keyboard.press("Enter");
        await this.page.waitForSelector(".action-widget", { state: "hidden", timeout: WAIT_MS });
        return;
      }
      await this.keyboard.press("ArrowDown");
    }
    throw new Error(`no quick fix titled ${title}`);
  }

  /** Shows the hover at the cursor (Ctrl+K Ctrl+I) and returns its text and links once `test` holds. */
  async hover(test: (text: string) => boolean): Promise<{ text: string; links: { text: string; href: string }[] }> {
    await this.keyboard.press("Control+K");
    await this.keyboard.press("Control+I");
    let shown = { text: "", links: [] as { text: string; href: string }[] };
    await this.until("the hover", async () => {
      shown = await this.page.$$eval(".monaco-hover:not(.hidden) .monaco-hover-content", (els: DomNode[]) => ({
        text: els.map((e) => e.textContent ?? "").join("\n"),
        links: els.flatMap((e) =>
          [...e.querySelectorAll("a")].map((a) => ({
            text: a.textContent ?? "",
            href: a.getAttribute("data-href") ?? a.getAttribute("href") ?? "",
          })),
        ),
      }));
      return test(plain(shown.text)) || `hover: ${JSON.stringify(shown.text)}`;
    });
    return { text: plain(shown.text), links: shown.links };
  }

  /** Opens the suggestions at the cursor (Ctrl+Space) and returns their labels, top first, once `test` holds. */
  async suggestions(test: (labels: string[]) => boolean): Promise<string[]> {
    await this.keyboard.press("Control+Space");
    let labels: string[] = [];
    await this.until("the suggestions", async () => {
      const rows = await this.page.$$eval(".suggest-widget .monaco-list-row", (els: DomNode[]) =>
        [...els]
          .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
          .map((r) => r.querySelector(".label-name")?.textContent ?? ""),
      );
      labels = rows.map(plain);
      return test(labels) || `suggestions: ${JSON.stringify(labels)}`;
    });
    return labels;
  }

  /** The documentation of the focused suggestion (shown beside the list; Ctrl+Space shows it when it is not). */
  async suggestionDetails(test: (text: string) => boolean): Promise<string> {
    let text = "";
    let toggled = false;
    await this.until("the suggestion's documentation", async () => {
      text = plain(
        await this.page.$$eval(".suggest-details-container .suggest-details", (els: DomNode[]) =>
          els.map((e) => e.textContent ?? "").join("\n"),
        ),
      );
      if (test(text)) return true;
      if (!toggled) {
        toggled = true;
        await this.keyboard.press("Control+Space");
      }
      return `documentation: ${JSON.stringify(text)}`;
    });
    return text;
  }

  /** The text and accessible label of a status bar item, by its id, once `test` holds for the text. */
  async statusItem(id: string, test: (text: string) => boolean): Promise<{ text: string; label: string }> {
    let item = { text: "", label: "" };
    await this.until(`status bar item ${id}`, async () => {
      const found = await this.page.$(`.statusbar-item[id="${id}"]`);
      item = {
        text: plain((await found?.textContent()) ?? "").trim(),
        label: (await found?.getAttribute("aria-label")) ?? "",
      };
      return test(item.text) || `status bar item: ${JSON.stringify(item.text)}`;
    });
    return item;
  }

  /** The lines of the Output panel, once `test` holds for them. */
  async outputLines(test: (lines: string[]) => boolean): Promise<string[]> {
    let lines: string[] = [];
    await this.until("the Output panel", async () => {
      const found = await this.page.$$eval(".panel .output-view .view-lines .view-line", (els: DomNode[]) =>
        els.map((e) => ({ top: Number.parseFloat(e.style.top), text: e.textContent })),
      );
      lines = found.sort((a, b) => a.top - b.top).map((l) => plain(l.text));
      return test(lines) || `output: ${JSON.stringify(lines)}`;
    });
    return lines;
  }

  /** The channel the Output panel shows. */
  async outputChannel(): Promise<string> {
    return this.page.$eval(
      ".panel select.monaco-select-box",
      (select: DomNode) => select.options[select.selectedIndex]?.text ?? "",
    );
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path });
  }

  /** Polls `check` (true, or what is wrong) until it holds; fails after WAIT_MS with the last answer. */
  async until(what: string, check: () => Promise<true | string>): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    let last: true | string = "not checked";
    while (Date.now() < deadline) {
      last = await check();
      if (last === true) return;
      await this.page.waitForTimeout(100);
    }
    throw new Error(`timed out waiting for ${what}; ${last}`);
  }
}
