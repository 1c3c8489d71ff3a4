// The sidebar at a glance in the real VS Code: a failing server is the first row and the view's badge
// counts it; small servers start expanded, the one whose 23 prompts would push the others off starts
// collapsed; what the user expands and collapses (by clicking the rows) is there again after a reload.
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

module.exports = async function treeGlance(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const servers = { ...testServers(), broken: { type: 'stdio', command: '/nonexistent/mcp-server' } };
  const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2) } });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 6 running, 1 failing"]').first().waitFor({ timeout: 120000 });

  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .monaco-list-row');
  // Running in the first window; after the reload the servers wait on demand, showing their saved lists.
  const paginated = tree.filter({ hasText: /(running|cached) · stdio · 23 prompts/ });
  const richDemo = tree.filter({ hasText: 'rich-demo' }).filter({ hasText: /(running|cached) · stdio · 2 prompts/ });
  const firstPaginatedPrompt = tree.filter({ hasText: 'Paginated prompt number 1 of 23' });
  await tree
    .first()
    .filter({ hasText: /broken\s*failed: broken could not start/ })
    .waitFor({ timeout: 60000 });
  // Nothing to open under it: no twistie.
  if (await tree.first().locator('.monaco-tl-twistie.collapsible').count())
    throw new Error('the failed server without prompts should not be expandable');
  await page.locator('.activitybar .badge-content').filter({ hasText: /^1$/ }).first().waitFor({ timeout: 60000 });
  await paginated.first().waitFor({ timeout: 60000 });
  await tree.filter({ hasText: 'Rich content' }).first().waitFor({ timeout: 60000 });
  await tree.filter({ hasText: 'Pick a framework' }).first().waitFor({ timeout: 60000 });
  if (await firstPaginatedPrompt.count()) throw new Error('paginated (23 prompts) should start collapsed');
  await ui.screenshot('glance');

  // The user opens paginated and closes rich-demo, clicking their rows.
  await paginated.first().click();
  await firstPaginatedPrompt.first().waitFor({ timeout: 60000 });
  await richDemo.first().click();
  await tree.filter({ hasText: 'Rich content' }).first().waitFor({ state: 'detached', timeout: 60000 });

  // After a reload the tree is as they left it.
  await ui.runCommand('Developer: Reload Window');
  // The new window: the servers with saved lists wait to be needed, the broken one failed again.
  await page.locator('[aria-label^="MCP Prompts: 0 running, 1 failing"]').first().waitFor({ timeout: 120000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  await tree
    .first()
    .filter({ hasText: /broken\s*failed: broken could not start/ })
    .waitFor({ timeout: 120000 });
  await paginated.first().waitFor({ timeout: 60000 });
  await firstPaginatedPrompt.first().waitFor({ timeout: 60000 });
  await richDemo.first().waitFor({ timeout: 60000 });
  await tree.filter({ hasText: 'Pick a framework' }).first().waitFor({ timeout: 60000 });
  if (await tree.filter({ hasText: 'Rich content' }).count()) throw new Error('rich-demo should stay collapsed');
  await ui.screenshot('remembered');
};

if (require.main === module) runStandalone(module, __filename);
