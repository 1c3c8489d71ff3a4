// The MCP client code is a second bundle (dist/protocol.js, esbuild.mjs) loaded with the first
// connection, so activation does not pay for it (issue 15: activation ≤ 10 ms with the v2 client).
// The extension logs each load to its own log ("MCP Prompts"). A first window starts the on-demand
// server once and saves its list; after a reload the tree shows the saved prompt with no server
// started and no load logged since the reload; running the prompt from Run Prompt… then loads it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, readLog, waitForFile } = require('./harness');
const { cacheableServer, pids } = require('./saved-lists');

const SESSION = '.interactive-session';
const LOADED =
  /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) \[info\] Loaded the MCP client code \(dist\/protocol\.js\) in \d+ ms$/gm;

/** Times of the loads logged in any window of this host (log timestamps are local time). */
function loads(runDir) {
  return [...readLog(runDir, 'MCP Prompts.log').matchAll(LOADED)].map(m => new Date(m[1].replace(' ', 'T')).getTime());
}

module.exports = async function lazyProtocol(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-lazy-e2e-'));
  const pidFile = path.join(dir, 'pids');
  const prompts = path.join(dir, 'prompts.json');
  fs.writeFileSync(prompts, JSON.stringify([{ name: 'greet', title: 'Greet the team', description: 'A greeting' }]));
  const servers = {
    lazy: cacheableServer(pidFile, prompts),
  };
  try {
    const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2) } });
    const { page } = ui;
    const tree = page.locator('.pane-body .monaco-list-row');

    // First window: no saved list, so the server starts, which loads the client code.
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    await tree.filter({ hasText: 'Greet the team' }).first().waitFor({ timeout: 120000 });
    await waitForFile(() => loads(ui.host.runDir).length > 0, 'the first window to log loading the client code');
    const started = pids(pidFile).length;

    // Reload: the saved prompt shows, no server starts, and the client code is not loaded.
    // Developer: Reload Window, as a person reloads VS Code (the workbench keeps its open view; a browser
    // F5 can lose that under load, which is the workbench's business, not this test's).
    const reloaded = Date.now();
    await ui.runCommand('Developer: Reload Window');
    // The server row with its saved list, expanded: the saved prompt is on screen.
    await tree.filter({ hasText: 'cached · stdio · 1 prompts' }).first().waitFor({ timeout: 120000 });
    await tree.filter({ hasText: 'Greet the team' }).first().waitFor({ timeout: 120000 });
    await ui.screenshot('cached-tree');
    if (pids(pidFile).length !== started) throw new Error('the server started after the reload');
    const early = loads(ui.host.runDir).filter(t => t >= reloaded);
    if (early.length) throw new Error(`the client code loaded after the reload without a connection: ${early}`);

    // Running the prompt connects, and that loads the client code.
    await ui.runCommand('MCP Prompts: Run Prompt…');
    await page.locator('.quick-input-widget').getByText('Greet the team').first().waitFor({ timeout: 120000 });
    await page.keyboard.type('greet');
    await page.keyboard.press('Enter');
    await ui.waitForText(/greet ran in \d+/, { within: SESSION });
    await waitForFile(
      () => loads(ui.host.runDir).some(t => t >= reloaded),
      'the client code to load for the first connection after the reload',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
