// Playwright helpers for UI tests in the real VS Code (see scripts/host-harness.mjs).
//
// An e2e test is a file test/e2e/<name>.e2e.js exporting `async function (ctx)`; scripts/run-host-tests.mjs
// runs each with runE2E(), which gives it its own fresh host and always cleans up:
//
//   const { openWorkbench } = require('./harness');
//   module.exports = async function (ctx) {
//     const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': '{...}' } });
//     await ui.typeInChat('hello');
//     await ui.waitForText('FAKE-MODEL received');
//     await ui.screenshot('hello');
//   };
//
// Only condition waits (locator.waitFor / waitForFunction), no fixed sleeps; timeouts are generous since CI
// has 2 busy cores. A single file can also run alone: `node test/e2e/<name>.e2e.js`.
const fs = require('fs');
const path = require('path');
const { waitFor } = require('../wait-for');
const { allowServers, consentNames } = require('./consent');

const root = path.resolve(__dirname, '..', '..');
const TIMEOUT = 120000;
let harnessModule;
/** scripts/host-harness.mjs (ESM) loaded once. */
function hostHarness() {
  harnessModule ??= import(path.join(root, 'scripts', 'host-harness.mjs'));
  return harnessModule;
}

const CHAT_INPUT_PART = '.interactive-input-part';
const SESSION = '.interactive-session';
const QUICK_INPUT = '.quick-input-widget';
const CHAT_INPUT_EDITOR = '.interactive-input-part .monaco-editor';

/**
 * Starts a fresh host with our extension under development and the fake model installed, opens the workbench
 * on a fresh workspace and (by default) waits until the chat input shows the model "Fake Echo".
 * Registers its cleanup with ctx.defer when there is one (runE2E); otherwise call ui.close() in finally.
 * @param {object} [ctx]  { name, extensionPath, defer(fn) } from runE2E
 * @param {object} [o]
 * @param {string} [o.extensionPath]     default ctx.extensionPath or the repo root
 * @param {string} [o.workspace]         default a fresh <runDir>/workspace
 * @param {Object<string,string>} [o.files] files to write into the workspace before opening, relative path -> text
 * @param {Object<string,string>} [o.userFiles] files to write into the profile's User folder (next to settings.json)
 * @param {string} [o.workspaceFile]     a .code-workspace file (relative to the workspace) to open instead of the folder
 * @param {object} [o.userSettings]
 * @param {boolean} [o.workspaceTrust]   default false (trust prompt disabled)
 * @param {string[]} [o.allow]            servers whose consent is given, as a person clicks Start Server, before
 *                                        the test goes on (default with trust off: those of .vscode/mcp.json in
 *                                        `files`, see consent.js; with trust on: none)
 * @param {boolean} [o.waitForModel]     default true: wait for "Fake Echo" in the chat input
 * @param {string[]} [o.installExtensions] default [test/fake-model]
 * @param {string[]} [o.extraArgs]        more arguments for the VS Code server (e.g. ['--log', 'trace'])
 */
async function openWorkbench(ctx = {}, o = {}) {
  const H = await hostHarness();
  const name = ctx.name || 'e2e';
  const extensionPath = o.extensionPath || ctx.extensionPath || root;
  const timings = {};
  const t0 = Date.now();
  // A browser of its own (its clipboard, cache and storage fresh), started while the server starts.
  const browserStarting = H.launchBrowser();
  browserStarting.catch(() => {});
  const host = await H.startHost({
    workspace: o.workspace,
    userSettings: o.userSettings,
    workspaceTrust: !!o.workspaceTrust,
    env: o.env,
    // A reload's message to end the old extension host can be lost in a web window (seen once under
    // load): the server then keeps that host and its MCP servers for the reconnection grace (3 hours).
    extraArgs: ['--reconnection-grace-time', '5', ...(o.extraArgs ?? [])],
    installExtensions: o.installExtensions || [H.fakeModelPath],
    label: name,
  }).catch(async e => {
    await (await browserStarting.catch(() => undefined))?.close();
    throw e;
  });
  timings.serverUp = Date.now() - t0;
  const consoleLines = [];
  const ui = {
    host,
    page: undefined,
    browser: undefined,
    timings,
    consoleLines,
    /** Browser and host down; the workbench console is kept in <runDir>/workbench-console.log. */
    async close() {
      try {
        fs.writeFileSync(path.join(host.runDir, 'workbench-console.log'), consoleLines.join('\n') + '\n');
      } catch {
        /* best effort */
      }
      // Both at once: the page needs no goodbye from the server, nor the server from the page.
      const closing = browserStarting.then(b => b.close()).catch(() => {});
      const closeStarted = Date.now();
      await Promise.all([closing, host.stop()]);
      // Where a window's time went (the run's log shows it per test): start, the test's own steps, the close.
      const s = ms => (ms / 1000).toFixed(1);
      console.log(
        `  | window ${name}: server up ${s(timings.serverUp ?? 0)} s, workbench ${s(timings.workbench ?? 0)} s, ` +
          `model ${s(timings.modelReady ?? 0)} s, open ${s(closeStarted - t0)} s (${timings.screenshots ?? 0} pictures ` +
          `${s(timings.screenshotMs ?? 0)} s), closed in ${s(Date.now() - closeStarted)} s`,
      );
    },
  };
  if (ctx.defer) ctx.defer(() => ui.close());
  try {
    for (const [base, files] of [
      [host.workspace, o.files],
      [path.join(host.userDataDir, 'User'), o.userFiles],
    ]) {
      for (const [rel, text] of Object.entries(files || {})) {
        const file = path.join(base, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
      }
    }
    ui.browser = await browserStarting;
    const { page } = await H.openWorkbench(ui.browser, host, {
      extensionDevelopmentPaths: [extensionPath],
      folder: host.workspace,
      timeout: TIMEOUT,
      workspaceFile: o.workspaceFile && path.join(host.workspace, o.workspaceFile),
    });
    ui.page = page;
    ctx.page = page;
    timings.workbench = Date.now() - t0;
    // The extension host's console reaches the page console in development mode.
    page.on('console', msg => {
      const text = H.formatExtHostLog(msg.type(), [msg.text()]);
      if (text !== null) consoleLines.push(`[${msg.type()}] ${text}`);
    });
    page.on('pageerror', err => consoleLines.push(`[pageerror] ${err.stack || err}`));
    Object.assign(ui, helpers(page, H, { name, timings }), workspaceEdits(ui));
    const allow = o.allow ?? (o.workspaceTrust ? [] : consentNames(o.files, o.userFiles));
    if (allow.length) await allowServers(page, allow);
    if (o.waitForModel !== false) {
      await ui.waitForModel('Fake Echo');
      timings.modelReady = Date.now() - t0;
    }
    return ui;
  } catch (e) {
    if (!ctx.defer) await ui.close();
    throw e;
  }
}

function helpers(page, H, { name, timings = {} }) {
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
      await chatInput().click();
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
    /** A new, empty chat, as a person starts one: Ctrl+L in the chat input. */
    async newChat({ timeout = 30000 } = {}) {
      await self.openChat();
      await chatInput().click();
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

/**
 * Runs one e2e test function with cleanup guaranteed: every host/browser opened through openWorkbench(ctx)
 * is stopped afterwards; on failure a screenshot <name>-failure.png is saved first.
 * @returns {Promise<{ name:string, ok:boolean, error?:Error, ms:number, screenshot?:string }>}
 */
async function runE2E(name, fn, { extensionPath = root } = {}) {
  const deferred = [];
  const ctx = { name, extensionPath, page: undefined, defer: f => deferred.push(f) };
  const t0 = Date.now();
  const result = { name, ok: false, ms: 0 };
  try {
    await fn(ctx);
    result.ok = true;
  } catch (e) {
    result.error = e;
    if (ctx.page) {
      try {
        result.screenshot = await (await hostHarness()).saveScreenshot(ctx.page, `${name}-failure`);
        // CI keeps the log, not the screenshot: the rows on screen say what the page showed instead.
        const rows = await ctx.page
          .locator('.monaco-list-row')
          .evaluateAll(els => els.filter(el => el.offsetParent).map(el => (el.textContent || '').trim().slice(0, 120)));
        console.log(`  | rows on screen: ${JSON.stringify(rows.slice(0, 40))}`);
      } catch {
        /* page gone */
      }
    }
  } finally {
    for (const f of deferred.reverse()) {
      try {
        await f();
      } catch (e) {
        if (result.ok) {
          result.ok = false;
          result.error = e;
        }
      }
    }
    result.ms = Date.now() - t0;
  }
  return result;
}

/** For `node test/e2e/<name>.e2e.js`: runs that one test and exits 0/1. */
function runStandalone(testModule, file) {
  const name = path.basename(file).replace(/\.e2e\.js$/, '');
  runE2E(name, testModule.exports).then(
    r => {
      console.log(
        r.ok ? `ok ${name} (${(r.ms / 1000).toFixed(1)} s)` : `FAIL ${name}: ${r.error && (r.error.stack || r.error)}`,
      );
      process.exit(r.ok ? 0 : 1);
    },
    err => {
      console.log(`FAIL ${name}: ${err && (err.stack || err)}`);
      process.exit(1);
    },
  );
}

/** Files under `dir` whose bytes contain `needle` (e.g. a secret that must not be stored in clear). */
function filesContaining(dir, needle) {
  const hits = [];
  const walk = d => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && fs.statSync(p).size < 64 * 1024 * 1024 && fs.readFileSync(p).includes(needle))
        hits.push(p);
    }
  };
  walk(dir);
  return hits;
}

/** The text of the extension log file `name` (e.g. "MCP Prompts slow.log") in a host's run dir; '' until it exists. */
function readLog(runDir, name) {
  const found = [];
  const walk = d => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === name) found.push(p);
    }
  };
  walk(path.join(runDir, 'user-data', 'logs'));
  return found.map(f => fs.readFileSync(f, 'utf8')).join('\n');
}

/**
 * Opens `file` with Go to File and selects its first `lines` lines with the keyboard, as a person does:
 * a click on the line showing `clickText` (the editor is there), Ctrl+Home, Shift+Down, Shift+End.
 */
async function selectTopLines(page, file, clickText, lines = 1) {
  const quick = page.locator('.quick-input-widget');
  await page.keyboard.press('Control+P');
  await quick.locator('.quick-input-box input').waitFor({ state: 'visible', timeout: 30000 });
  await page.keyboard.type(file);
  await quick.locator('.monaco-list-row.focused').filter({ hasText: file }).waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-line').filter({ hasText: clickText }).first().click();
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < lines; i++) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+End');
}

/** A condition on files (they have no events to wait for), polled every 100 ms (some walk the run folder). */
function waitForFile(predicate, what, timeout = 60000) {
  return waitFor(predicate, what, timeout, 100);
}

/**
 * Polls every frame of the page (webviews such as the markdown and media previews are iframes) until
 * `fn`, evaluated in a frame, returns something other than undefined, null or false; returns that value.
 */
function waitForFrameValue(page, fn, what, timeout = 60000) {
  return waitFor(
    async () => {
      for (const frame of page.frames()) {
        const value = await frame.evaluate(fn).catch(() => undefined);
        if (value !== undefined && value !== null && value !== false) return value;
      }
      return undefined;
    },
    what,
    timeout,
    250,
  );
}

module.exports = {
  openWorkbench,
  runE2E,
  runStandalone,
  hostHarness,
  root,
  filesContaining,
  readLog,
  selectTopLines,
  settled,
  waitForFile,
  waitForFrameValue,
};
