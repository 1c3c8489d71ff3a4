// A saved prompt of a stopped server, run from the picker: the first window starts the server once and
// saves its list; after a window reload no process runs (the fixture writes each start's pid to a
// file: that is the count). A person opens "MCP Prompts: Run Prompt…", types the prompt's name and
// presses Enter: the server starts and the answer comes from the process just started.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { alive, cacheableServer, pids, savedLists } = require('./saved-lists');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

module.exports = async function pickerOnDemand(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-picker-e2e-'));
  const pidFile = path.join(dir, 'pids');
  const prompts = path.join(dir, 'prompts.json');
  fs.writeFileSync(
    prompts,
    JSON.stringify([
      { name: 'standup', title: 'Daily standup notes', description: 'Notes for the standup' },
      { name: 'review', title: 'Review a topic', arguments: [{ name: 'topic', required: true }] },
    ]),
  );
  const servers = { sleepy: cacheableServer(pidFile, prompts) };
  try {
    const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2) } });
    const { page } = ui;

    // First window: no saved list, so the server starts once and its list is saved.
    await waitForFile(() => savedLists(ui.host.runDir).length === 1, 'the list saved');
    const first = pids(pidFile);
    if (!first.length) throw new Error('the first window started no server');

    // Restart the window: the old extension host's server exits, the new one has the saved list only.
    // A person waits for the window to be back (the chat view with its model) before pressing F1.
    await page.reload();
    await page
      .locator('.interactive-input-part')
      .getByText('Fake Echo', { exact: true })
      .first()
      .waitFor({ timeout: 120000 });
    await waitForFile(() => first.every(p => !alive(p)), 'the first window’s server to exit');

    // The picker lists the saved prompt while no process runs.
    await ui.runCommand('MCP Prompts: Run Prompt…');
    await page.locator(QUICK).getByText('Daily standup notes').first().waitFor({ timeout: 120000 });
    if (pids(pidFile).length !== first.length) throw new Error('a server started before the prompt was picked');
    await ui.screenshot('picker-saved-list');
    await page.keyboard.type('standup');
    await page.keyboard.press('Enter');

    // Its server starts on demand and the answer comes from the process just started.
    await waitForFile(() => pids(pidFile).length > first.length, 'the server to start');
    const started = pids(pidFile).slice(first.length);
    await ui.waitForText(new RegExp(`standup ran in (${started.join('|')})`), { within: SESSION });
    await ui.screenshot('picker-started-on-demand');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
