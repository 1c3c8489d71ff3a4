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
const { windowActions, workspaceEdits, rowName, settled, waitForFile, TIMEOUT } = require('./window-actions');
const { profileSteps, reportSteps } = require('./step-profile');

const root = path.resolve(__dirname, '..', '..');
let harnessModule;
/** scripts/host-harness.mjs (ESM) loaded once. */
function hostHarness() {
  harnessModule ??= import(path.join(root, 'scripts', 'host-harness.mjs'));
  return harnessModule;
}

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
      reportSteps(name);
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
    profileSteps(page);
    timings.workbench = Date.now() - t0;
    // The extension host's console reaches the page console in development mode.
    page.on('console', msg => {
      const text = H.formatExtHostLog(msg.type(), [msg.text()]);
      if (text !== null) consoleLines.push(`[${msg.type()}] ${text}`);
    });
    page.on('pageerror', err => consoleLines.push(`[pageerror] ${err.stack || err}`));
    Object.assign(ui, windowActions(page, H, { name, timings }), workspaceEdits(ui));
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

/** What a failure's log line tells beside the rows: where the keyboard is, the open box, the status bar, notifications. */
function stateOnScreen() {
  const shown = el => Boolean(el && el.getClientRects().length);
  const describe = el =>
    el && [el.tagName, el.getAttribute('aria-label'), el.className].filter(Boolean).join(' ').slice(0, 160);
  const quick = document.querySelector('.quick-input-widget');
  const texts = selector =>
    [...document.querySelectorAll(selector)].filter(shown).map(el => (el.textContent || '').trim().slice(0, 160));
  return {
    focus: describe(document.activeElement),
    focusParent: describe(document.activeElement?.closest('[role="tree"], .quick-input-widget, .monaco-editor, .part')),
    quickInput: shown(quick)
      ? texts('.quick-input-title, .quick-input-message, .quick-input-list .monaco-list-row').join(' / ').slice(0, 300)
      : 'closed',
    statusBar: [...document.querySelectorAll('.statusbar-item[aria-label^="MCP Prompts"]')].map(el =>
      el.getAttribute('aria-label'),
    ),
    notifications: texts('.notification-list-item-message'),
  };
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
        console.log(`  | state on screen: ${JSON.stringify(await ctx.page.evaluate(stateOnScreen))}`);
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
  rowName,
  selectTopLines,
  settled,
  waitForFile,
  waitForFrameValue,
};
