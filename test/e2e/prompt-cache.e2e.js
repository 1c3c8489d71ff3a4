// Saved prompt lists across a window restart, and servers started on demand (mcpPrompts.startServers
// `onDemand`, the default). The first window starts each server once and saves its list; after a reload
// the tree shows the saved prompts while no server process exists (the fixture writes each start's pid
// to a file: that is the count). Then a prompt run from the tree and one typed in chat each start their
// server, show "Starting <server>…" in chat, and answer from the process just started.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { alive, cacheableServer, pids, savedLists } = require('./saved-lists');

const SESSION = '.interactive-session';

module.exports = async function promptCache(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cache-e2e-'));
  const pidFile = { tree: path.join(dir, 'tree-pids'), chat: path.join(dir, 'chat-pids') };
  const prompts = path.join(dir, 'prompts.json');
  fs.writeFileSync(
    prompts,
    JSON.stringify([
      { name: 'greet', title: 'Greet the team', description: 'A greeting' },
      { name: 'review', title: 'Review a topic', arguments: [{ name: 'topic', required: true }] },
    ]),
  );
  const servers = {
    treeside: cacheableServer(pidFile.tree, prompts),
    chatside: cacheableServer(pidFile.chat, prompts),
  };
  try {
    const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2) } });
    const { page } = ui;
    const tree = page.locator('.pane-body .monaco-list-row');

    // First window: no saved lists, so each server starts once and its list is saved.
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    await tree.filter({ hasText: 'treeside' }).first().waitFor({ timeout: 120000 });
    await waitForFile(() => savedLists(ui.host.runDir).length === 2, 'both lists saved');
    const first = { tree: pids(pidFile.tree).length, chat: pids(pidFile.chat).length };
    const firstPids = [...pids(pidFile.tree), ...pids(pidFile.chat)];
    if (!first.tree || !first.chat) throw new Error(`the first window started no server: ${JSON.stringify(first)}`);

    // Restart the window: the old extension host's servers exit, the new one shows the saved prompts.
    // Developer: Reload Window, as a person reloads VS Code; the Prompts view stays open across it (a
    // browser F5 can lose the open view under load: the workbench's business). Only the new window's
    // rows say "cached".
    await ui.runCommand('Developer: Reload Window');
    await tree
      .filter({ hasText: 'treeside' })
      .filter({ hasText: 'cached · stdio' })
      .first()
      .waitFor({ timeout: 120000 });
    await tree.filter({ hasText: 'Greet the team' }).first().waitFor({ timeout: 120000 });
    await waitForFile(() => firstPids.every(p => !alive(p)), 'the first window’s servers to exit');
    await ui.screenshot('cached-tree');
    const restarted = { tree: pids(pidFile.tree).length, chat: pids(pidFile.chat).length };
    if (restarted.tree !== first.tree || restarted.chat !== first.chat)
      throw new Error(`a server started after the restart: ${JSON.stringify({ first, restarted })}`);

    // Run from the tree: clicking the saved prompt starts its server and the answer comes from it.
    await tree.filter({ hasText: 'Greet the team' }).first().click();
    await ui.waitForText(/greet ran in \d+/, { within: SESSION });
    const treeStarted = pids(pidFile.tree).slice(first.tree);
    if (!treeStarted.length) throw new Error('running from the tree started no process');
    await ui.waitForText(new RegExp(`greet ran in (${treeStarted.join('|')})`), { within: SESSION });
    if (pids(pidFile.chat).length !== first.chat) throw new Error('the other server started too');

    // Typed in chat: the other server starts on demand ("Starting chatside…"), then answers.
    await ui.typeInChat('@mcp /chatside.review topic=caching');
    await ui.waitForText(/review ran in \d+: topic=caching/, { within: SESSION });
    const chatStarted = pids(pidFile.chat).slice(first.chat);
    if (!chatStarted.length) throw new Error('running from chat started no process');
    await ui.screenshot('started-on-demand');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
