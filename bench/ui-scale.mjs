// 10. The real UI at 100 and at 10,000 prompts, in the same run: what a person waits for in VS Code
// (code-server 1.139, Chromium), not what the core costs in Node. Ten stdio servers
// (test/fixtures/cacheable.mjs) with 10 or 1,000 prompts each; for each size, a fresh host and:
//   - `@mcp /` in the chat input: from the `/` key to the suggestion list on screen;
//   - Run Prompt… (its keybinding): from the key to the first prompt row; then a prompt's title typed
//     at once: from the first key to the list showing that prompt first;
//   - the sidebar: a click on a collapsed server (10 or 1,000 prompts) to its first prompt row (each
//     server's first opening); End, in the last server open, to its last prompt row.
// Times are taken in the page (keydown to the DOM change), medians of a few tries; the ratio is
// 10,000 / 100. One host at a time on this machine: the run takes /tmp/mcp-host.lock (flock). Without
// the host installed the section says how to run it and is skipped. `npm run bench -- --only=ui-scale`.
/* global window, document, MutationObserver -- Playwright runs the page.evaluate callbacks in the workbench page */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { BENCH, ROOT, median, row } from './lib.mjs';

const LOCK = '/tmp/mcp-host.lock';
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'cacheable.mjs');
const SERVERS = 10;
const SIZES = [100, 10_000];
const require = createRequire(import.meta.url);

/** The prompts of server `s` when the catalog holds `total`: titled `Prompt <n>`, n unique across servers. */
function promptsOf(s, total) {
  const per = total / SERVERS;
  return Array.from({ length: per }, (_, j) => {
    const n = s * per + j;
    return {
      name: `p${n}`,
      title: `Prompt ${n}`,
      description: `Prompt number ${n} of server s${s}: reviews a change for bugs, risks and readability, then suggests tests`,
      arguments: [
        { name: 'topic', description: 'What it is about', required: true },
        { name: 'tone', description: 'How it sounds' },
      ],
    };
  });
}

/**
 * In the page: ms from the next `event` (a keydown of `key`, a mousedown, a wheel) to the first moment
 * `done()` holds, checked on each DOM change.
 */
function armTimer(page, key, done, name = 'time') {
  return page.evaluate(
    ([keySpec, doneSource, timer]) => {
      const isDone = new Function(`return (${doneSource})();`);
      window.__bench ??= {};
      window.__bench[timer] = new Promise((resolve, reject) => {
        let t0;
        let observer;
        const timeout = setTimeout(() => {
          observer?.disconnect();
          reject(new Error(`not done within 60 s after ${keySpec.key ?? keySpec.event}`));
        }, 60000);
        const check = () => {
          if (t0 === undefined || !isDone()) return;
          const ms = performance.now() - t0;
          observer.disconnect();
          clearTimeout(timeout);
          resolve(ms);
        };
        const type = keySpec.event ?? 'keydown';
        let seen = 0;
        const onKey = e => {
          if (keySpec.nth !== undefined) {
            if (++seen < keySpec.nth) return;
          } else if (
            type === 'keydown' &&
            (keySpec.ctrl ? !e.ctrlKey || e.code !== keySpec.code : e.key !== keySpec.key)
          )
            return;
          document.removeEventListener(type, onKey, true);
          t0 = performance.now();
          observer = new MutationObserver(check);
          observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
          check();
        };
        document.addEventListener(type, onKey, true);
      });
    },
    [key, done.toString(), name],
  );
}

const elapsed = (page, name = 'time') => page.evaluate(timer => window.__bench[timer], name);

/** Visible rows of the quick input, as text. */
function quickRowsDone(expected) {
  return `() => {
    const rows = [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].filter(r => r.getClientRects().length);
    ${expected}
  }`;
}

async function measureSize(H, total, reps, shots) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-ui-scale-${total}-`));
  const servers = {};
  for (let s = 0; s < SERVERS; s++) {
    const file = path.join(dir, `s${s}.json`);
    fs.writeFileSync(file, JSON.stringify(promptsOf(s, total)));
    servers[`s${s}`] = { command: process.execPath, args: [FIXTURE], env: { CACHEABLE_PROMPTS: file } };
  }
  const deferred = [];
  const ctx = { name: `ui-scale-${total}`, extensionPath: ROOT, defer: f => deferred.push(f) };
  try {
    return await measureIn(H, ctx, servers, total, reps, shots);
  } catch (err) {
    if (ctx.page)
      await H.hostHarness()
        .then(h => h.saveScreenshot(ctx.page, `${ctx.name}-failure`))
        .catch(() => {});
    throw err;
  } finally {
    for (const f of deferred.reverse()) await f().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One size's measurements in a fresh host with `servers`. */
async function measureIn(H, ctx, servers, total, reps, shots) {
  {
    const ui = await H.openWorkbench(ctx, {
      files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2), 'notes.md': '# Notes\n' },
    });
    const { page } = ui;
    await page
      .locator(`[aria-label^="MCP Prompts: ${SERVERS} running, 0 failing, ${total} prompts"]`)
      .first()
      .waitFor({ timeout: 300000 });
    const out = { chat: [], pickerOpen: [], pickerFilter: [], pickerLastKey: [], expand: [], end: [] };
    const chatInput = page.locator('.interactive-input-part .monaco-editor').first();

    for (let i = 0; i < reps; i++) {
      // `@mcp /`: the list of prompt names.
      await chatInput.click();
      await page.keyboard.type('@mcp ', { delay: 25 });
      await armTimer(page, { key: '/' }, () => {
        const rows = [...document.querySelectorAll('.suggest-widget .monaco-list-row')];
        return rows.some(r => r.getClientRects().length && /\/(p\d|list|help)/.test(r.textContent));
      });
      await page.keyboard.type('/');
      out.chat.push(await elapsed(page));
      if (i === 0) shots.push(await ui.screenshot('chat-list'));
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');

      // Run Prompt… by its keybinding, then a title typed at once.
      const target = `Prompt ${Math.floor(total * 0.987) - i}`;
      await armTimer(
        page,
        { code: 'Slash', ctrl: true },
        new Function(`return ${quickRowsDone('return rows.some(r => /^Prompt \\d/.test(r.textContent.trim()));')}`)(),
      );
      await page.keyboard.press('Control+Shift+Alt+Slash');
      out.pickerOpen.push(await elapsed(page));
      // From the first key (typed at once: VS Code gets every keystroke before the last answer), and
      // from the last key (what a person typing at their pace waits for after it).
      const shows = new Function(
        `return ${quickRowsDone(`return document.querySelector('.quick-input-widget .quick-input-box input')?.value === ${JSON.stringify(target)} && rows[0]?.querySelector('.label-name')?.textContent.trim() === ${JSON.stringify(target)};`)}`,
      )();
      await armTimer(page, { nth: 1 }, shows, 'first');
      await armTimer(page, { nth: target.length }, shows, 'last');
      await page.keyboard.type(target);
      out.pickerFilter.push(await elapsed(page, 'first'));
      out.pickerLastKey.push(await elapsed(page, 'last'));
      if (i === 0) shots.push(await ui.screenshot('picker-filtered'));
      await page.keyboard.press('Escape');
    }

    // The sidebar: a collapsed server opened (its first opening), then scrolled to its last prompt.
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    const per = total / SERVERS;
    const titled = title =>
      new Function(
        `return () => [...document.querySelectorAll('.pane-body .monaco-list-row')].some(r => r.querySelector('.label-name')?.textContent.trim() === ${JSON.stringify(title)})`,
      )();
    const serverRowOf = s => page.locator(`.pane-body .monaco-list-row[aria-label^="s${s} "]`).first();
    const expanded = (s, value) =>
      page.waitForFunction(
        ([sel, v]) => document.querySelector(sel)?.getAttribute('aria-expanded') === v,
        [`.pane-body .monaco-list-row[aria-label^="s${s} "]`, String(value)],
        { timeout: 60000 },
      );
    for (let i = 0; i < reps; i++) {
      const s = SERVERS - 1 - i;
      const serverRow = serverRowOf(s);
      await serverRow.waitFor({ timeout: 60000 });
      await armTimer(page, { event: 'mousedown' }, titled(`Prompt ${s * per}`));
      await serverRow.click();
      out.expand.push(await elapsed(page));
      // Closed again: the next server opens for the first time, the last one (s9) stays the tree's end.
      await serverRow.click();
      await expanded(s, false);
    }
    // The last server open, focus in the tree: End goes to its last prompt, Home back to the top.
    const last = SERVERS - 1;
    await serverRowOf(last).click();
    await expanded(last, true);
    for (let i = 0; i < reps; i++) {
      await page.keyboard.press('Home');
      await armTimer(page, { key: 'End' }, titled(`Prompt ${last * per + per - 1}`));
      await page.keyboard.press('End');
      out.end.push(await elapsed(page));
    }
    shots.push(await ui.screenshot('sidebar-end'));
    return out;
  }
}

/** In the lock: the extension built, then each size in its own host. */
async function childMain(resultFile, reps) {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'ignore' });
  const H = require(path.join(ROOT, 'test', 'e2e', 'harness.js'));
  const result = { reps, sizes: {}, screenshots: [] };
  for (const total of SIZES) result.sizes[total] = await measureSize(H, total, reps, result.screenshots);
  fs.writeFileSync(resultFile, JSON.stringify(result));
}

function hostInstalled() {
  const cache = process.env.MCP_PROMPTS_HOST_CACHE || path.join(ROOT, '.vscode-test');
  return fs.existsSync(path.join(cache, 'cs', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js'));
}

export async function run({ quick = false } = {}) {
  if (!hostInstalled())
    return {
      rows: [],
      notes: [
        'skipped: no VS Code host here; `npm run host:setup` installs it (or set MCP_PROMPTS_HOST_CACHE to one), then `npm run bench -- --only=ui-scale`',
      ],
    };
  const reps = quick ? 2 : 5;
  const resultFile = path.join(os.tmpdir(), `mcp-ui-scale-${process.pid}.json`);
  fs.rmSync(resultFile, { force: true });
  const code = await new Promise((resolve, reject) => {
    const child = spawn(
      'flock',
      [LOCK, process.execPath, path.join(BENCH, 'ui-scale.mjs'), '--child', resultFile, String(reps)],
      { stdio: ['ignore', 'inherit', 'inherit'], env: process.env },
    );
    child.on('error', reject);
    child.on('exit', c => resolve(c));
  });
  if (!fs.existsSync(resultFile)) throw new Error(`the host run wrote no result (exit code ${code})`);
  const r = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  fs.rmSync(resultFile, { force: true });
  const [small, big] = SIZES.map(n => r.sizes[n]);
  const m = (side, key) => median(side[key]);
  const spreadOf = (side, key) => `${Math.min(...side[key]).toFixed(0)}–${Math.max(...side[key]).toFixed(0)} ms`;
  const context = key => `10,000: ${spreadOf(big, key)}; 100: ${spreadOf(small, key)}`;
  return {
    rows: [
      row(
        '`@mcp /` list shows, 10,000 vs 100 prompts',
        m(big, 'chat'),
        m(small, 'chat'),
        'ms',
        { ratio: 1.5 },
        context('chat'),
      ),
      row('`@mcp /` list shows at 10,000 prompts', m(big, 'chat'), undefined, 'ms', { abs: 300 }),
      row(
        'Run Prompt… opens (first prompt row), 10,000 vs 100',
        m(big, 'pickerOpen'),
        m(small, 'pickerOpen'),
        'ms',
        { ratio: 1.5 },
        context('pickerOpen'),
      ),
      row(
        'Run Prompt…: a title typed, list shows that prompt first, 10,000 vs 100',
        m(big, 'pickerFilter'),
        m(small, 'pickerFilter'),
        'ms',
        { ratio: 1.5 },
        context('pickerFilter'),
      ),
      row(
        'Run Prompt…: from the last key of that title to the list, 10,000 vs 100',
        m(big, 'pickerLastKey'),
        m(small, 'pickerLastKey'),
        'ms',
        { ratio: 1.5 },
        context('pickerLastKey'),
      ),
      row(
        'sidebar: open a server, 1,000 vs 10 prompts (click to its first prompt row)',
        m(big, 'expand'),
        m(small, 'expand'),
        'ms',
        undefined,
        context('expand'),
      ),
      row(
        "sidebar: End to an open server's last prompt, at 1,000 prompts",
        m(big, 'end'),
        undefined,
        'ms',
        undefined,
        `at 10: ${m(small, 'end').toFixed(0)} ms (all on screen already)`,
      ),
    ],
    notes: [
      `${SERVERS} stdio servers × 10 and × 1,000 prompts, a fresh host each; median of ${r.reps} tries, timed in the page from the key to the DOM change`,
      `screenshots: ${r.screenshots.map(f => path.relative(ROOT, f)).join(', ')}`,
    ],
    data: r,
  };
}

if (process.argv[2] === '--child') {
  childMain(process.argv[3], Number(process.argv[4])).then(
    () => process.exit(0),
    err => {
      console.error(err instanceof Error ? err.stack : String(err));
      process.exit(1);
    },
  );
}
