// What a person does in an open UI test window (typing in chat, the command palette, pictures) and changes
// in its configuration while it is open; test/e2e/harness.js opens the window and gives these to the test.
const fs = require('fs');
const path = require('path');
const { waitFor } = require('../wait-for');
const { allowServers } = require('./consent');

const TIMEOUT = 120000;
const CHAT_INPUT_PART = '.interactive-input-part';
const SESSION = '.interactive-session';
const QUICK_INPUT = '.quick-input-widget';
const CHAT_INPUT_EDITOR = '.interactive-input-part .monaco-editor';

function windowActions(page, H, { name, timings = {} }) {
  /** Counts a picture and the time it took, for the window's timing line. */
  const timed = async take => {
    const started = Date.now();
    try {
      return await take();
    } finally {
      timings.screenshots = (timings.screenshots ?? 0) + 1;
      timings.screenshotMs = (timings.screenshotMs ?? 0) + Date.now() - started;
    }
  };
  const chatInput = () => page.locator(CHAT_INPUT_EDITOR).first();
  const self = {
    /** Shows the chat view (it is open by default; this also works after it was closed). */
    async openChat({ timeout = TIMEOUT } = {}) {
      if (!(await chatInput().isVisible())) await self.runCommand('Chat: Open Chat', { timeout });
      await chatInput().waitFor({ state: 'visible', timeout });
    },
    /** Waits until the chat input's model picker shows `modelName`. */
    async waitForModel(modelName = 'Fake Echo', { timeout = TIMEOUT } = {}) {
      await self.openChat({ timeout });
      await page
        .locator(CHAT_INPUT_PART)
        .getByText(modelName, { exact: true })
        .first()
        .waitFor({ state: 'visible', timeout });
    },
    /**
     * Types into the chat input like a person and (send: true, default) presses Enter once, which must
     * send the request: a suggestion list left open by our completions would swallow it (a defect).
     * Keys go as fast as the page takes them and the last one is held 100 ms, as a hand on a key is:
     * with none held (or 25 ms under load), VS Code's suggest widget could still hold a row from before
     * the last key when Enter came. `delay` holds every key that long instead.
     */
    async typeInChat(text, { send = true, timeout = TIMEOUT, delay } = {}) {
      await self.openChat({ timeout });
      // A person types the next line once the answer before it is complete (Stop has turned back into
      // Send): while a request runs, VS Code's chat does not send on Enter.
      await page.waitForFunction(
        () => !document.querySelector('.interactive-session .chat-response-loading'),
        undefined,
        {
          timeout,
        },
      );
      await self.focusChatInput();
      if (delay) await page.keyboard.type(text, { delay });
      else {
        const keys = [...text];
        await page.keyboard.type(keys.slice(0, -1).join(''));
        // The last key held as long as a person holds one (~100 ms): VS Code's suggest widget answers that key before Enter.
        if (keys.length) await page.keyboard.type(keys.at(-1), { delay: 100 });
      }
      if (send) await page.keyboard.press('Enter');
    },
    /** The chat's text (also the parts scrolled out of view) with every run of white space as one space. */
    async sessionText() {
      const text = await page.evaluate(sel => document.querySelector(sel)?.innerText ?? '', SESSION);
      return text.replace(/\s+/g, ' ');
    },
    /** Waits until the chat's text, as sessionText() gives it (the echo renders as markdown), matches `re`. */
    async waitForSession(re, { timeout = TIMEOUT } = {}) {
      await page.waitForFunction(
        ([source, flags, sel]) =>
          new RegExp(source, flags).test((document.querySelector(sel)?.innerText ?? '').replace(/\s+/g, ' ')),
        [re.source, re.flags, SESSION],
        { timeout },
      );
    },
    /**
     * Clicks into the chat input and makes sure the keyboard is there, as a person sees the cursor: a
     * click that lost the keyboard is made again (at most three). VS Code 1.139's tree view takes the
     * keyboard back when a refresh ends while it still counts itself focused (treeView.ts doRefresh:
     * `this.focused && this.focus(false)`; a blur is counted a task later): the Prompts view, focused
     * before the click, took Ctrl+L meant for the chat as a new server's prompts arrived (CI, `newcomer`).
     */
    async focusChatInput() {
      for (let attempt = 1; ; attempt++) {
        await chatInput().click();
        // Read a task after the click, once VS Code has counted the blur of what had the keyboard before.
        const inChat = await page.evaluate(async sel => {
          await new Promise(resolve => setTimeout(resolve, 0));
          return Boolean(document.activeElement?.closest(sel));
        }, CHAT_INPUT_EDITOR);
        if (inChat) return;
        if (attempt === 3) throw new Error('the chat input lost the keyboard right after a click, three times');
      }
    },
    /** A new, empty chat, as a person starts one: Ctrl+L in the chat input. */
    async newChat({ timeout = 30000 } = {}) {
      await self.openChat();
      await self.focusChatInput();
      await page.keyboard.press('Control+L');
      await page.waitForFunction(
        () => !document.querySelector('.interactive-session .interactive-item-container'),
        undefined,
        { timeout },
      );
    },
    /** Opens a workspace file with Quick Open (Ctrl+P, its name, Enter) and waits until its editor has the focus. */
    async openFile(file, { timeout = 30000 } = {}) {
      await page.keyboard.press('Control+P');
      await page.keyboard.type(file);
      await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: file }).first().waitFor({ timeout });
      await page.keyboard.press('Enter');
      await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout });
    },
    /** Gives the consent a workspace server asks for (one added while the window is open), as a person does. */
    async allowServers(names, { timeout = TIMEOUT } = {}) {
      await allowServers(page, names, { timeout });
    },
    /** Waits until `text` (substring, or a RegExp) is visible anywhere in the workbench; returns the locator. */
    async waitForText(text, { timeout = TIMEOUT, within } = {}) {
      const scope = within ? page.locator(within) : page;
      const locator = scope.getByText(text).first();
      await locator.waitFor({ state: 'visible', timeout });
      return locator;
    },
    /**
     * Opens the command palette (F1) with its ">" prefix and waits until it has focus. A palette that
     * closes before it gets focus is opened again, as a person presses F1 again: VS Code 1.139's tree
     * view takes focus back when a refresh it began while focused ends (treeView.ts, doRefresh:
     * `this.focused && this.focus(false)`; its blur is counted a task later), and the palette closes on
     * focus lost. Seen once in CI, after Focus on Prompts View while the servers' rows were still coming.
     */
    async openCommandPalette({ timeout = TIMEOUT } = {}) {
      const input = page.locator('.quick-input-widget .quick-input-box input');
      const deadline = Date.now() + timeout;
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: Math.max(1, deadline - Date.now()) });
        const outcome = await page.waitForFunction(
          () => {
            if (document.activeElement?.closest?.('.quick-input-widget')) return 'focused';
            const box = document.querySelector('.quick-input-widget .quick-input-box input');
            return box && box.checkVisibility() ? false : 'closed';
          },
          undefined,
          { timeout: Math.max(1, deadline - Date.now()) },
        );
        if ((await outcome.jsonValue()) === 'focused') return input;
        if (attempt === 3) throw new Error('the command palette closed before it got focus, three times');
      }
    },
    /**
     * Run Prompt… from the palette, and the wait a person makes until its picker shows: the picker opens
     * a round trip after the palette closed, and keys typed before it go nowhere.
     */
    async openRunPrompt({ timeout = TIMEOUT } = {}) {
      await self.runCommand('MCP Prompts: Run Prompt…', { timeout });
      await page.locator(QUICK_INPUT).getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
    },
    /**
     * Runs a command as a person does: types its name without the category ("Run Prompt…" for
     * "MCP Prompts: Run Prompt…"; `typed` when a person must type more to tell it apart) and presses Enter.
     * The highlighted row is what Enter runs, so it must be that command: if what was typed highlights
     * another command, that is the defect this reports (with what it shows).
     */
    async runCommand(title, { timeout = TIMEOUT, typed = title.replace(/^[^:]+:\s+/, '') } = {}) {
      await self.openCommandPalette({ timeout });
      await page.keyboard.type(typed);
      const focused = () =>
        page.evaluate(
          () =>
            document.querySelector('.quick-input-widget .monaco-list-row.focused .label-name')?.textContent?.trim() ??
            '',
        );
      try {
        await page.waitForFunction(
          t =>
            document.querySelector('.quick-input-widget .monaco-list-row.focused .label-name')?.textContent?.trim() ===
            t,
          title,
          { timeout: Math.min(timeout, 30000) },
        );
      } catch {
        const shown = await page
          .locator('.quick-input-widget .monaco-list-row .label-name')
          .allTextContents()
          .catch(() => []);
        throw new Error(
          `typing "${typed}" in the command palette highlights ${JSON.stringify(await focused())}, so Enter would run that; rows: ${shown.map(t => JSON.stringify(t.trim())).join(', ') || 'none'}`,
        );
      }
      await page.keyboard.press('Enter');
      // Done when the palette closed, or when the command opened its own quick input (no ">" prefix). An
      // extension's command opens its input a round trip after the palette closed: wait for that input
      // (its title) before typing, as a person waits to see it.
      await page.waitForFunction(
        () => {
          const widget = document.querySelector('.quick-input-widget');
          if (!widget || widget.style.display === 'none') return true;
          const input = widget.querySelector('.quick-input-box input');
          return !input || !input.value.startsWith('>');
        },
        undefined,
        { timeout },
      );
    },
    /**
     * Waits until the open quick input shows exactly `count` rows: what a person sees once a typed filter
     * has narrowed Run Prompt… (our word filter answers a round trip after each key).
     */
    async waitForQuickRows(count, { timeout = TIMEOUT } = {}) {
      await page.waitForFunction(
        n =>
          [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].filter(r => r.getClientRects().length)
            .length === n,
        count,
        { timeout },
      );
    },
    /**
     * Saves .artifacts/screenshots/<test name>-<shot>.png and returns the path, once the quick input is
     * still: one that just opened is fading in, half see-through over the editor. (The rest of the window
     * is not waited for: the chat's own animations would cost about 0.3 s a picture.)
     */
    async screenshot(shot) {
      return timed(async () => {
        await settled(page, QUICK_INPUT, 5000).catch(() => {});
        return H.saveScreenshot(page, `${name}-${shot}`);
      });
    },
    /**
     * The notification centre's item that says `text` (open it with Notifications: Show Notifications):
     * VS Code shows no toasts under the --enable-smoke-test-driver the harness starts it with, so a test
     * reads the centre, with the same buttons as the toast.
     */
    notificationItem(text) {
      return page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first();
    },
    /** The same, of one part of the window only (e.g. the chat for a README picture). */
    async screenshotOf(locator, shot) {
      return timed(async () => {
        await settled(page, QUICK_INPUT, 5000).catch(() => {});
        const file = path.join(H.screenshotsDir, `${name}-${shot}.png`);
        fs.mkdirSync(H.screenshotsDir, { recursive: true });
        await locator.screenshot({ path: file });
        return file;
      });
    },
  };
  return self;
}

/**
 * Where a person clicks a list row: its name. The pointer rests where the last click was, and VS Code's
 * hover of that row's description (shown for every quick-pick description) can lie over the middle of the
 * row below; a click at a row's middle then waits for a hover that stays as long as the pointer does.
 */
function rowName(row) {
  return row.locator('.label-name').first();
}

/** What a person changes in an open window's configuration: the workspace's servers, a setting. */
function workspaceEdits(ui) {
  return {
    /**
     * Adds `servers` to the workspace's .vscode/mcp.json, as a person edits the file beside the servers
     * already there, and gives the consent each asks before it starts.
     */
    async addWorkspaceServers(servers, { timeout = TIMEOUT } = {}) {
      const file = path.join(ui.host.workspace, '.vscode', 'mcp.json');
      const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
      config.servers = { ...config.servers, ...servers };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(config, null, 2));
      await allowServers(ui.page, Object.keys(servers), { timeout });
    },
    /**
     * Chooses `value` for the drop-down setting `key` (shown with the title `title`) in the Settings
     * editor, as a person does, and waits until the user settings hold it.
     */
    async chooseSetting(key, title, value) {
      const { page } = ui;
      await ui.runCommand('Preferences: Open User Settings');
      await page
        .locator('.settings-editor .suggest-input-container .monaco-editor')
        .first()
        .waitFor({ timeout: 60000 });
      await page.keyboard.type(key);
      const setting = page.locator('.settings-editor .setting-item-contents').filter({ hasText: title }).first();
      await setting.locator('select, .monaco-select-box').first().click({ timeout: 60000 });
      await page
        .locator('.monaco-select-box-dropdown-container .option-text')
        .filter({ hasText: new RegExp(`^${value}$`) })
        .first()
        .click();
      const settingsFile = path.join(ui.host.userDataDir, 'User', 'settings.json');
      const saved = new RegExp(`"${key.replace(/\./g, '\\.')}":\\s*"${value}"`);
      await waitForFile(
        () => saved.test(fs.readFileSync(settingsFile, 'utf8')),
        `${key} "${value}" in the user settings`,
      );
    },
  };
}

/** Waits until no CSS animation or transition runs inside `selector` (the quick input fades rows in). */
async function settled(page, selector = 'body', timeout = 30000) {
  await page.waitForFunction(
    sel =>
      document
        .getAnimations()
        .filter(a => a.playState === 'running' && a.effect?.target?.closest?.(sel))
        .every(a => a.effect?.getComputedTiming?.().iterations === Infinity),
    selector,
    { timeout },
  );
}

/** A condition on files (they have no events to wait for), polled every 100 ms (some walk the run folder). */
function waitForFile(predicate, what, timeout = 60000) {
  return waitFor(predicate, what, timeout, 100);
}

module.exports = { windowActions, workspaceEdits, rowName, settled, waitForFile, TIMEOUT };
