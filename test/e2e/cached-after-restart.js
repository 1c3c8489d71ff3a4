// Saved prompt lists across a window restart (prompt-lists.e2e.js, after the thousand prompts), and servers started on demand (mcpPrompts.startServers
// `onDemand`, the default). The first window starts each server once, saves its list and loads the MCP
// client code (dist/protocol.js, a second bundle: esbuild.mjs), which the extension logs. After a reload
// the tree shows the saved prompts while no server process exists (the fixture writes each start's pid
// to a file: that is the count) and the client code is not loaded. Then a prompt run from the tree, one
// typed in chat and one picked in Run Prompt… each start their own server ("Starting <server>…" in
// chat) and answer from the process just started; the first of them loads the client code.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { readLog, waitForFile } = require('./harness');
const { cacheableServer, pids, savedLists } = require('./saved-lists');
const { processRunning } = require('../processes');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';
const LOADED =
  /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) \[info\] Loaded the MCP client code \(dist\/protocol\.js\) in \d+ ms$/gm;

/** Times of the client code's loads logged in any window of this host (log timestamps are local time). */
function loads(runDir) {
  return [...readLog(runDir, 'MCP Prompts.log').matchAll(LOADED)].map(m => new Date(m[1].replace(' ', 'T')).getTime());
}

/**
 * In the open window `ui` (prompt-lists.e2e.js), whose servers all keep saved lists: the person adds the
 * three servers to the workspace's .vscode/mcp.json, then restarts the window.
 */
module.exports = async function cachedAfterRestart(ui) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cache-e2e-'));
  const side = ['tree', 'chat', 'picker'];
  const pidFile = Object.fromEntries(side.map(s => [s, path.join(dir, `${s}-pids`)]));
  const started = () => Object.fromEntries(side.map(s => [s, pids(pidFile[s]).length]));
  const prompts = path.join(dir, 'prompts.json');
  fs.writeFileSync(
    prompts,
    JSON.stringify([
      { name: 'greet', title: 'Greet the team', description: 'A greeting' },
      { name: 'review', title: 'Review a topic', arguments: [{ name: 'topic', required: true }] },
    ]),
  );
  const standup = path.join(dir, 'standup.json');
  fs.writeFileSync(standup, JSON.stringify([{ name: 'standup', title: 'Daily standup notes' }]));
  const servers = {
    treeside: cacheableServer(pidFile.tree, prompts),
    chatside: cacheableServer(pidFile.chat, prompts),
    pickerside: cacheableServer(pidFile.picker, standup),
  };
  try {
    const { page } = ui;
    const tree = page.locator('.pane-body .monaco-list-row');
    const listsBefore = savedLists(ui.host.runDir).length;
    await ui.addWorkspaceServers(servers);

    // First window: no saved lists, so each server starts once, its list is saved, the client code loads.
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    await tree.filter({ hasText: 'treeside' }).first().waitFor({ timeout: 120000 });
    await waitForFile(() => savedLists(ui.host.runDir).length === listsBefore + 3, 'the three lists saved');
    await waitForFile(() => loads(ui.host.runDir).length > 0, 'the first window to log loading the client code');
    const first = started();
    const firstPids = side.flatMap(s => pids(pidFile[s]));
    if (Object.values(first).some(n => n === 0))
      throw new Error(`the first window did not start every server: ${JSON.stringify(first)}`);

    // Restart the window: the old extension host's servers exit, the new one shows the saved prompts.
    // Developer: Reload Window, as a person reloads VS Code; the Prompts view stays open across it (a
    // browser F5 can lose the open view under load: the workbench's business). Only the new window's
    // rows say "cached".
    const reloaded = Date.now();
    await ui.runCommand('Developer: Reload Window');
    await tree
      .filter({ hasText: 'treeside' })
      .filter({ hasText: 'cached · stdio' })
      .first()
      .waitFor({ timeout: 120000 });
    await tree.filter({ hasText: 'Greet the team' }).first().waitFor({ timeout: 120000 });
    await waitForFile(() => firstPids.every(p => !processRunning(p)), 'the first window’s servers to exit');
    await ui.screenshot('cached-tree');
    if (JSON.stringify(started()) !== JSON.stringify(first))
      throw new Error(`a server started after the restart: ${JSON.stringify({ first, now: started() })}`);
    const early = loads(ui.host.runDir).filter(t => t >= reloaded);
    if (early.length) throw new Error(`the client code loaded after the reload without a connection: ${early}`);

    // Run from the tree: clicking the saved prompt starts its server, which loads the client code, and
    // the answer comes from the process just started.
    await tree.filter({ hasText: 'Greet the team' }).first().click();
    await ui.waitForText(/greet ran in \d+/, { within: SESSION });
    const treeStarted = pids(pidFile.tree).slice(first.tree);
    if (!treeStarted.length) throw new Error('running from the tree started no process');
    await ui.waitForText(new RegExp(`greet ran in (${treeStarted.join('|')})`), { within: SESSION });
    if (started().chat !== first.chat || started().picker !== first.picker)
      throw new Error('another server started with the tree’s');
    await waitForFile(
      () => loads(ui.host.runDir).some(t => t >= reloaded),
      'the client code to load for the first connection after the reload',
    );

    // Typed in chat: the chat server starts on demand ("Starting chatside…"), then answers.
    await ui.typeInChat('@mcp /chatside.review topic=caching');
    await ui.waitForText(/review ran in \d+: topic=caching/, { within: SESSION });
    const chatStarted = pids(pidFile.chat).slice(first.chat);
    if (!chatStarted.length) throw new Error('running from chat started no process');
    await ui.screenshot('started-on-demand');

    // Picked in Run Prompt…: the picker lists the saved prompt while its server is stopped; the prompt
    // picked by name starts it, and the answer comes from the process just started.
    // The thousand prompts fill the picker's first rows: the person types the words first.
    await ui.openRunPrompt();
    await page.keyboard.type('standup');
    await page.locator(QUICK).getByText('Daily standup notes').first().waitFor({ timeout: 120000 });
    if (started().picker !== first.picker) throw new Error('a server started before the prompt was picked');
    await ui.screenshot('picker-saved-list');
    await page.keyboard.press('Enter');
    await waitForFile(() => started().picker > first.picker, 'the picked prompt’s server to start');
    const pickerStarted = pids(pidFile.picker).slice(first.picker);
    await ui.waitForText(new RegExp(`standup ran in (${pickerStarted.join('|')})`), { within: SESSION });
    await ui.screenshot('picker-started-on-demand');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
