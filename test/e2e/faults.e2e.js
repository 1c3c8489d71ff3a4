// Faults and security through the real UI: an untrusted workspace holds back its stdio servers (the
// tree says why and leads to Manage Workspace Trust) while a user-level server works; after trusting,
// a server that cannot start shows its cause in the tree, hostile server text stays inert in chat, and
// the arguments of a failed run are offered again by "Edit Arguments and Retry…".
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

module.exports = async function faults(ctx) {
  const { faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const stdio = fault => ({ type: 'stdio', ...faultyCommand(fault) });
  const ui = await openWorkbench(ctx, {
    workspaceTrust: true,
    waitForModel: false,
    files: {
      '.vscode/mcp.json': JSON.stringify({ servers: { flaky: stdio('fail-once'), hostile: stdio('content'), gone: { type: 'stdio', command: 'mcp-prompts-no-such-command' } } }, null, 2),
    },
    userSettings: { 'mcpPrompts.servers': { 'user-ok': stdio('ok') } },
  });
  const { page } = ui;

  // A new folder opens in Restricted Mode: the workspace's stdio servers are held back, nothing else.
  await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .monaco-list-row');
  for (const name of ['flaky', 'hostile', 'gone']) await tree.filter({ hasText: name }).filter({ hasText: 'not started: workspace not trusted' }).first().waitFor({ timeout: 60000 });
  // The user-level server runs and lists its prompts in Restricted Mode.
  await tree.filter({ hasText: 'user-ok' }).filter({ hasText: 'running · stdio · 2 prompts' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('untrusted-tree');

  // The held-back server leads to Manage Workspace Trust; trusting starts the servers.
  await tree.filter({ hasText: 'flaky' }).filter({ hasText: 'not started' }).first().click();
  const trust = page.getByRole('button', { name: /^Trust$/ }).first();
  await trust.waitFor({ timeout: 60000 });
  await ui.screenshot('manage-trust');
  await trust.click();
  await page.locator('[aria-label^="MCP Prompts: 3 running, 1 failing"]').first().waitFor({ timeout: 120000 });
  // The trust editor opens as a modal: close it.
  const modal = page.locator('.monaco-modal-editor-block');
  await page.keyboard.press('Escape');
  if (await modal.isVisible()) await modal.locator('.action-label.codicon-close, .action-label[aria-label^="Close"]').first().click();
  await modal.waitFor({ state: 'hidden', timeout: 60000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  await tree.filter({ hasText: 'gone' }).filter({ hasText: 'could not start: command not found (mcp-prompts-no-such-command)' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('trusted-tree');
  await ui.waitForModel('Fake Echo');

  // Hostile text from a server: shown, never live (no command: link, no HTML elements).
  await ui.typeInChat('@mcp /hostile.hostile-text');
  await ui.waitForText('still here', { within: SESSION });
  const hostile = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('.interactive-session .interactive-item-container')];
    const row = rows.find(r => r.textContent.includes('still here'));
    if (!row) return { found: false };
    return {
      found: true,
      commandLinks: row.querySelectorAll('a[href^="command:"], a[data-href^="command:"]').length,
      images: row.querySelectorAll('img[src="x"]').length,
      scripts: row.querySelectorAll('script').length,
      text: row.textContent,
    };
  });
  if (!hostile.found) throw new Error('the hostile-text response was not found');
  if (hostile.commandLinks || hostile.images || hostile.scripts) throw new Error(`server text became live: ${JSON.stringify(hostile)}`);
  await ui.screenshot('hostile-text');

  // A failed run keeps its arguments: the retry starts from them, and this time the server answers.
  await ui.typeInChat('@mcp /flaky.hello name=Ada');
  await ui.waitForText('flaky failed on prompt "hello": temporarily unavailable', { within: SESSION });
  await ui.screenshot('failed-with-retry');
  await page.locator(SESSION).getByRole('button', { name: 'Edit Arguments and Retry…' }).last().click();
  const input = page.locator(`${QUICK} .quick-input-box input`);
  await input.waitFor({ state: 'visible', timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('.quick-input-widget .quick-input-box input')?.value === 'Ada', undefined, { timeout: 60000 });
  await ui.screenshot('retry-prefilled');
  await page.keyboard.press('Enter');
  await ui.waitForText('Hello, Ada!', { within: SESSION });
  await ui.screenshot('retried');
};

if (require.main === module) runStandalone(module, __filename);
