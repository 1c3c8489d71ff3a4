// The MCP Prompts view's welcome content, used as a person uses it: with no server configured it says so
// and offers Add Server…; a server added there that cannot start leaves every server failing, and the
// view says so and offers Show Server Log…, which shows why.
const { openWorkbench, runStandalone } = require('./harness');

const QUICK = '.quick-input-widget';

module.exports = async function viewWelcome(ctx) {
  const ui = await openWorkbench(ctx, { installExtensions: [], waitForModel: false });
  const { page } = ui;
  const welcome = page.locator('.welcome-view-content');
  const button = label => welcome.locator('.monaco-button', { hasText: label }).first();

  // Open the view as a person does: its icon in the activity bar.
  await page.locator('.part.activitybar [aria-label^="MCP Prompts"]').first().click({ timeout: 120000 });
  await welcome.getByText('No MCP servers are configured.').first().waitFor({ timeout: 120000 });
  if ((await welcome.locator('.monaco-button').count()) !== 1)
    throw new Error('the no-servers welcome has more than one button');
  await ui.screenshot('no-servers');

  await button('Add Server…').click();
  await page.locator(`${QUICK} .monaco-list-row`, { hasText: 'Command (stdio)' }).first().click();
  await page.locator(QUICK).getByText('Add MCP Server (2/3)').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('mcp-prompts-no-such-program --stdio');
  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('Add MCP Server (3/3)').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter'); // the suggested name

  await welcome.getByText('None of your MCP servers could start.').first().waitFor({ timeout: 120000 });
  if ((await welcome.locator('.monaco-button').count()) !== 1)
    throw new Error('the all-failing welcome has more than one button');
  await ui.screenshot('all-failing');
  await button('Show Server Log…').click();
  // The server's log in the Output panel names the program that could not start.
  await page
    .locator('.part.panel .view-lines')
    .getByText(/mcp-prompts-no-such-program\s+could\s+not\s+start/)
    .first()
    .waitFor({ timeout: 60000 });
  await ui.screenshot('all-failing-log');
};

if (require.main === module) runStandalone(module, __filename);
