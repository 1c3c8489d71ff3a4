// mcpPrompts.servers in a folder's settings of a multi-root workspace (.vscode/settings.json of a folder
// of the opened .code-workspace) is read: the setting's scope (resource) lets VS Code apply a folder
// value, which a window-scoped setting drops.
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

module.exports = async function folderSettings(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const servers = testServers();
  const ui = await openWorkbench(ctx, {
    files: {
      '.vscode/settings.json': JSON.stringify(
        { 'mcpPrompts.servers': { 'folder-rich': servers['rich-demo'] } },
        null,
        2,
      ),
      'project.code-workspace': JSON.stringify({ folders: [{ path: '.' }] }, null, 2),
    },
    workspaceFile: 'project.code-workspace',
  });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .monaco-list-row');
  await tree.filter({ hasText: 'folder-rich' }).filter({ hasText: 'running' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('folder-server');
};

if (require.main === module) runStandalone(module, __filename);
