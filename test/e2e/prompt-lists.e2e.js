// A server with 1,000 prompts in the real UI: `@mcp /` hands VS Code a bounded list, yet a name past it
// typed in full sends on one Enter; Run Prompt… shows the first rows and counts the rest, and a typed
// title finds the prompt; the sidebar's Filter Prompts… shows only the prompts whose words match, from
// a server that is collapsed. The fixture (test/fixtures/cacheable.mjs) records each prompts/get.
// Then saved lists across a window restart, with servers started on demand (cached-after-restart.js).
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { cacheableFixture } = require('./saved-lists');
const cachedAfterRestart = require('./cached-after-restart');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';
const COUNT = 1000;

module.exports = async function promptLists(ctx) {
  const prompts = Array.from({ length: COUNT }, (_, i) => ({
    name: `p${i}`,
    title: `Prompt ${i}`,
    description: `Prompt number ${i}, one of many`,
  }));
  const many = cacheableFixture(ctx, 'many', prompts);
  const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': many.mcpJson } });
  const { page } = ui;
  const quick = page.locator(QUICK);
  const rows = quick.locator('.monaco-list-row');
  const got = async (before, what) => {
    await waitForFile(() => many.gets().length > before, what);
    return many.gets()[before].name;
  };
  await page.locator(`[aria-label^="MCP Prompts: 1 running, 0 failing, ${COUNT} prompts"]`).first().waitFor({
    timeout: 120000,
  });

  // `@mcp /` offers a bounded list; a name typed in full past it sends on one Enter.
  await ui.typeInChat('@mcp /', { send: false });
  await page.locator('.suggest-widget .monaco-list-row').filter({ hasText: '/list' }).first().waitFor({
    timeout: 60000,
  });
  await ui.screenshot('chat-list');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await ui.typeInChat('@mcp /p937');
  if ((await got(0, 'the prompt typed in chat')) !== 'p937') throw new Error('chat ran another prompt');
  await ui.waitForText(/p937 ran in \d+/, { within: SESSION });

  // Run Prompt…: the first rows and a count of the rest; a typed title finds the prompt.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'Prompt 0' }).first().waitFor({ timeout: 60000 });
  // At the end of the list (Ctrl+End): 150 rows (p937, recent, among them), then the count of the rest.
  await page.keyboard.press('Control+End');
  await rows
    .filter({ hasText: `${COUNT + 1 - 150} more prompts: type words` })
    .first()
    .waitFor({ timeout: 60000 });
  await ui.screenshot('picker-bounded');
  await page.keyboard.type('prompt 612');
  await rows.filter({ hasText: 'Prompt 612' }).first().waitFor({ timeout: 60000 });
  await page.keyboard.press('Enter');
  if ((await got(1, 'the prompt typed in the picker')) !== 'p612') throw new Error('the picker ran another prompt');

  // The sidebar: the server starts collapsed (1,000 prompts); the filter finds one by its description.
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .customview-tree .monaco-list-row');
  await tree
    .filter({ hasText: `running · stdio · ${COUNT} prompts` })
    .first()
    .waitFor({ timeout: 60000 });
  await ui.runCommand('MCP Prompts: Filter Prompts…');
  await page.locator(QUICK).getByText('Filter MCP Prompts').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('number 512,');
  await page.keyboard.press('Enter');
  await tree.filter({ hasText: 'Prompt 512' }).first().waitFor({ timeout: 60000 });
  await ui.waitForText('Prompts matching "number 512,": 1');
  // The view redraws after its message changes: wait for the two rows, then name what is shown if they never come.
  const visibleRows = () => tree.evaluateAll(els => els.filter(el => el.getClientRects().length).length);
  const two = await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('.pane-body .customview-tree .monaco-list-row')].filter(
          el => el.getClientRects().length,
        ).length === 2,
      undefined,
      { timeout: 30000 },
    )
    .then(
      () => true,
      () => false,
    );
  if (!two) throw new Error(`the filtered tree shows ${await visibleRows()} rows, not the server and Prompt 512`);
  await ui.screenshot('tree-filtered');
  await ui.runCommand('MCP Prompts: Clear Prompt Filter');
  await page.waitForFunction(
    () => !document.querySelector('.pane-body .tree-explorer-viewlet-tree-view .message:not(.hide)'),
    undefined,
    { timeout: 60000 },
  );
  await cachedAfterRestart(ui);
};

if (require.main === module) runStandalone(module, __filename);
