// The palette picker while a server keeps changing its prompt list (flow.e2e.js, its last part): a row appears and disappears above
// the ones a person clicks. VS Code maps an accepted row by its index in the list the extension set
// last, so the picker keeps the rows it shows in place; every click must run the prompt clicked. A row
// whose prompt went away stays, marked, and clicking it says so instead of running something else.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { root, waitForFile } = require('./harness');

const QUICK = '.quick-input-widget';
const ROUNDS = 12;

/** In the open window `ui` (flow.e2e.js), where `running` servers run already: the person adds churn. */
module.exports = async function pickerChurn(ui, { running }) {
  const { fixtureCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-churn-'));
  const logFile = path.join(dir, 'received.log');
  const stopFile = path.join(dir, 'stop');
  const received = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '').split('\n').filter(Boolean);
  try {
    const churn = {
      type: 'stdio',
      ...fixtureCommand('churn'),
      env: { CHURN_LOG: logFile, CHURN_STOP: stopFile, CHURN_MS: '250' },
    };
    await ui.addWorkspaceServers({ churn });
    const { page } = ui;
    await page
      .locator(`[aria-label^="MCP Prompts: ${running + 1} running, 0 failing"]`)
      .first()
      .waitFor({ timeout: 120000 });

    const rows = page.locator(`${QUICK} .monaco-list-row`);
    /**
     * Waits until the flicker row is on screen. New rows come at the end of the list, under the prompts
     * run before (recently used), and the list stays scrolled where it is when one comes: a person
     * looks at the end again (Ctrl+End) until it shows.
     */
    const untilFlickerShown = async () => {
      const deadline = Date.now() + 60000;
      while (!(await page.locator(QUICK).getByText('flicker').first().isVisible())) {
        if (Date.now() > deadline) throw new Error('the flicker row never showed at the end of the picker');
        await page.keyboard.press('Control+End');
        await page.waitForTimeout(100); // polling interval of a bounded condition wait
      }
    };
    /** How many rows the open picker holds (each row on screen says, aria-setsize), and whether one says flicker went. */
    const listState = () =>
      page.evaluate(() => {
        const shown = [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].filter(
          r => r.getClientRects().length,
        );
        return {
          size: Number(shown[0]?.getAttribute('aria-setsize') ?? 0),
          dropped: shown.some(r => /flicker \(no longer offered\)/.test(r.textContent ?? '')),
        };
      });
    const mismatches = [];
    for (let round = 0; round < ROUNDS; round++) {
      const target = `target_${(round % 6) + 1}`;
      await ui.runCommand('MCP Prompts: Run Prompt…');
      await rows.filter({ hasText: 'The stable prompt' }).first().waitFor({ timeout: 60000 });
      // Let the list change under the open picker before clicking (the server flips it every 250 ms):
      // flicker came (one more row, at the end) or went (its row, on screen, says so). The state is
      // read before looking at the end: a flicker row that came after the look would sit below the
      // rows on screen, and when it went its marked row would stay there, unseen.
      const before = await listState();
      // The prompts run before come first (recently used): the server's own rows, flicker among them,
      // are at the end, where a person looks (the list draws only the rows on screen).
      await page.keyboard.press('Control+End');
      await page.waitForFunction(
        size => {
          const shown = [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].filter(
            r => r.getClientRects().length,
          );
          return shown.some(
            r =>
              Number(r.getAttribute('aria-setsize')) !== size ||
              /flicker \(no longer offered\)/.test(r.textContent ?? ''),
          );
        },
        before.dropped ? -1 : before.size,
        { timeout: 60000 },
      );
      // A row that came meanwhile went below the end: the end again.
      await page.keyboard.press('Control+End');
      const row = rows.filter({ hasText: `The stable prompt ${target}` }).first();
      await row.waitFor({ timeout: 60000 });
      if (round === 0) await ui.screenshot('picker');
      await row.click();
      await waitForFile(() => received().length > round, `prompts/get number ${round + 1}`);
      const got = received()[round];
      if (got !== `get ${target}`) mismatches.push(`round ${round + 1}: clicked ${target}, server received "${got}"`);
      await ui.waitForText(`This is ${got.slice(4)}`, { within: '.interactive-session' });
    }
    await ui.screenshot('after-clicks');
    if (mismatches.length)
      throw new Error(`${mismatches.length} of ${ROUNDS} clicks ran another prompt:\n${mismatches.join('\n')}`);

    // The flicker row, shown and then dropped by the server while the picker is open, stays marked;
    // clicking it names the server that dropped it and asks the server for nothing.
    await ui.runCommand('MCP Prompts: Run Prompt…');
    await rows.filter({ hasText: 'target_6' }).first().waitFor({ timeout: 60000 });
    await untilFlickerShown();
    fs.writeFileSync(stopFile, '');
    const dropped = rows.filter({ hasText: 'flicker (no longer offered)' }).first();
    await dropped.waitFor({ timeout: 60000 });
    await ui.screenshot('dropped-row');
    await dropped.click();
    // No toasts under the harness's --enable-smoke-test-driver: the notification centre lists it.
    await ui.runCommand('Notifications: Show Notifications');
    await ui
      .notificationItem('The prompt "flicker" is no longer offered by the server churn.')
      .waitFor({ timeout: 60000 });
    await ui.screenshot('dropped-clicked');
    const all = received();
    if (all.length !== ROUNDS)
      throw new Error(`clicking the dropped row sent prompts/get: ${all.slice(ROUNDS).join(', ')}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
