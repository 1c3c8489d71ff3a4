// The MCP Prompts view's welcome content, used as a person uses it: with no server configured it says so
// and offers Add Server…; a server added there that cannot start leaves every server failing, and the
// view says so and offers Show Server Log…, which shows why. Then, without any language model (none is
// installed in this window), the person puts a working server in the .mcp.json Add Server wrote instead: a prompt run
// from the palette opens in the transcript editor (markdown preview of a read-only document) with
// roles, the image inline, and links to audio and resources. Workspace trust is switched off in this
// window, and still every server of the workspace's file asks before it starts: one planted beside the
// working one is declined and never runs.
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { openWorkbench, runStandalone, root, rowName, waitForFrameValue } = require('./harness');

const QUICK = '.quick-input-widget';

module.exports = async function viewWelcome(ctx) {
  // No fake model: nothing can answer in chat.
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
  await rowName(page.locator(`${QUICK} .monaco-list-row`, { hasText: 'Command (stdio)' }).first()).click();
  await page.locator(QUICK).getByText('Add MCP Server (2/4)').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('mcp-prompts-no-such-program --stdio');
  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('Add MCP Server (3/4)').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter'); // the suggested name
  await page.locator(QUICK).getByText('Add MCP Server (4/4)').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter'); // the recommended file, the workspace's .mcp.json
  // It is in the workspace's .mcp.json: it asks before it starts.
  await ui.allowServers(['mcp-prompts-no-such-program']);

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

  // A working server in place of the failing one, and a planted one beside it (a `git pull` brought both).
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const { faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const { 'rich-demo': rich } = testServers();
  const marker = `planted-${crypto.randomBytes(4).toString('hex')}`;
  const ok = faultyCommand('ok');
  const planted = { type: 'stdio', command: ok.command, args: [...ok.args, marker] };
  fs.writeFileSync(
    path.join(ui.host.workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { 'rich-demo': rich, planted } }, null, 2),
  );
  await ui.allowServers(['rich-demo']);
  // Trust is off, and the planted server still asks, naming what it would run; the person declines.
  const dialog = page.locator('.monaco-dialog-box').filter({ hasText: 'Start the MCP server "planted"' });
  await dialog.getByText(marker).first().waitFor({ timeout: 120000 });
  await ui.screenshot('trust-off-consent');
  await dialog.getByRole('button', { name: 'Do Not Start', exact: true }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 60000 });
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  if (execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).includes(marker))
    throw new Error('the declined server started');
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rowName(
    page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Rich content' }).first(),
  ).click();
  await page.locator('.tab').filter({ hasText: 'rich-demo.rich_content.md' }).first().waitFor({ timeout: 60000 });
  // The preview renders in a webview iframe: wait for the frame that shows the transcript.
  await waitForFrameValue(
    page,
    () => {
      const img = document.querySelector('img[data-src="0-1/image.png"]');
      const text = document.body?.innerText ?? '';
      return (
        !!img &&
        img.naturalWidth === 64 &&
        !img.src.startsWith('data:') &&
        /User/.test(text) &&
        /Assistant/.test(text) &&
        !!document.querySelector('a[href^="mcp-prompts-media:"], a[data-href^="mcp-prompts-media:"]') &&
        /audio\.wav \(audio\/wav, 1\.0 s/.test(text) &&
        /Demo README/.test(text)
      );
    },
    'the transcript preview with image, roles, audio and link',
  );
  await ui.screenshot('transcript-editor');
};

if (require.main === module) runStandalone(module, __filename);
