// The walkthrough as a newcomer meets it: opened from the palette (Welcome: Open Walkthrough...), each
// step's own button used the way a person uses it, and each step checked by the event it waits for:
// a server found (Add Server… writes one), chat answered by @mcp, a prompt run from the picker, the
// MCP Prompts view shown. Steps 2 and 3 are done in the order 3, 2 because running a prompt with a
// model hands it to chat, which would check step 3 too.
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

const QUICK = '.quick-input-widget';
const WALKTHROUGH = 'Get Started with MCP Prompts';

module.exports = async function walkthrough(ctx) {
  const { fixtureCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const ui = await openWorkbench(ctx, {}); // no server configured; the fake model so chat answers
  const { page } = ui;
  const checked = id => page.locator(`[data-done-step-id$="#${id}"][aria-checked="true"]`).first();
  const unchecked = id => page.locator(`[data-done-step-id$="#${id}"][aria-checked="false"]`).first();
  /** Opens a step by its title, as a person does, and waits until VS Code has expanded and focused it. */
  const openStep = async id => {
    await page.locator(`button.getting-started-step[data-step-id$="#${id}"] .step-title`).first().click();
    await page.waitForFunction(
      sel => document.activeElement?.matches?.(sel),
      `button.getting-started-step.expanded[data-step-id$="#${id}"]`,
      { timeout: 30000 },
    );
  };
  const stepButton = label =>
    page.locator('.gettingStartedContainer .button-container .monaco-button', { hasText: label }).first();
  const rows = page.locator(`${QUICK} .monaco-list-row`);

  await ui.runCommand('Welcome: Open Walkthrough...');
  await page.keyboard.type(WALKTHROUGH);
  await rows.filter({ hasText: WALKTHROUGH }).first().click();
  for (const id of ['findServers', 'runPrompt', 'tryChat', 'browseSidebar'])
    await unchecked(id).waitFor({ timeout: 60000 });
  await ui.screenshot('open');

  // 1. Find your servers (open already, as the first step): none yet; Add Server… with a demo server.
  await stepButton('Add Server…').click();
  await rows.filter({ hasText: 'Command (stdio)' }).first().click();
  await page.locator(QUICK).getByText('Add MCP Server (2/4)').first().waitFor({ timeout: 30000 });
  const rich = fixtureCommand('rich');
  await page.keyboard.type([rich.command, ...rich.args].join(' '));
  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('Add MCP Server (3/4)').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter'); // the suggested name, "run"
  await page.locator(QUICK).getByText('Add MCP Server (4/4)').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter'); // the recommended file, the workspace's .mcp.json
  // Written to the workspace's .mcp.json, it asks before it starts.
  await ui.allowServers(['run']);
  // Add Server… shows the file it wrote; the walkthrough's tab (VS Code names it Welcome) is still there.
  await page.locator('.tab', { hasText: '.mcp.json' }).first().waitFor({ timeout: 30000 });
  await page.locator('.tab', { hasText: 'Welcome' }).first().click();
  await checked('findServers').waitFor({ timeout: 60000 });
  await ui.screenshot('found');
  // Show Found Servers lists it under the file that defines it.
  await stepButton('Show Found Servers').click();
  await rows.filter({ hasText: /^run/ }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('found-servers');
  await page.keyboard.press('Escape');

  // 3. Try it in chat: the button sends @mcp /list; the answer lists the new server's prompts.
  await openStep('tryChat');
  await stepButton('Run @mcp /list in Chat').click();
  await page.locator('.interactive-session').getByText('rich_content').first().waitFor({ timeout: 60000 });
  await checked('tryChat').waitFor({ timeout: 30000 });
  if (!(await unchecked('runPrompt').count())) throw new Error('running a prompt was checked before one ran');
  await ui.screenshot('chat');

  // 2. Run your first prompt: the picker, one click on the prompt.
  await openStep('runPrompt');
  await stepButton('Run Prompt…').click();
  await rows.filter({ hasText: 'Rich content' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('picker');
  await page.keyboard.type('Rich content');
  await page.keyboard.press('Enter');
  await checked('runPrompt').waitFor({ timeout: 30000 });
  await page.locator('.interactive-session').getByText('I can see the image.').first().waitFor({ timeout: 60000 });

  // 4. Browse the sidebar.
  if (!(await unchecked('browseSidebar').count()))
    throw new Error('the sidebar step was checked before the view was shown');
  await openStep('browseSidebar');
  await stepButton('Show the MCP Prompts View').click();
  await page.locator('.pane-body .monaco-list-row', { hasText: 'run' }).first().waitFor({ timeout: 30000 });
  await checked('browseSidebar').waitFor({ timeout: 30000 });
  await ui.screenshot('done');
};

if (require.main === module) runStandalone(module, __filename);
