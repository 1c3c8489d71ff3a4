// The MCP Prompts view in Restricted Mode with only workspace servers: the welcome content says why
// nothing runs and offers Manage Workspace Trust; trusting there starts the server and the rows return.
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

module.exports = async function viewWelcomeUntrusted(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const { 'rich-demo': rich } = testServers();
  const ui = await openWorkbench(ctx, {
    workspaceTrust: true,
    installExtensions: [],
    waitForModel: false,
    files: { '.vscode/mcp.json': JSON.stringify({ servers: { 'rich-demo': rich } }, null, 2) },
  });
  const { page } = ui;
  const welcome = page.locator('.welcome-view-content');

  await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
  // Open the view as a person does: its icon in the activity bar.
  await page.locator('.part.activitybar [aria-label^="MCP Prompts"]').first().click({ timeout: 120000 });
  await welcome
    .getByText(/This workspace is in Restricted Mode/)
    .first()
    .waitFor({ timeout: 120000 });
  if ((await welcome.locator('.monaco-button').count()) !== 1)
    throw new Error('the untrusted welcome has more than one button');
  await ui.screenshot('untrusted');

  await welcome.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).first().click();
  const trust = page.getByRole('button', { name: /^Trust$/ }).first();
  await trust.waitFor({ timeout: 60000 });
  await trust.click();
  // Trusted: the server asks for consent once; started, its row replaces the welcome.
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.filter({ hasText: 'Start the MCP server "rich-demo"' }).waitFor({ timeout: 120000 });
  await dialog.getByRole('button', { name: 'Start Server', exact: true }).click();
  await page
    .locator('.pane-body .monaco-list-row .label-name', { hasText: /^rich-demo$/ })
    .first()
    .waitFor({ timeout: 120000 });
  await ui.screenshot('trusted');
};

if (require.main === module) runStandalone(module, __filename);
