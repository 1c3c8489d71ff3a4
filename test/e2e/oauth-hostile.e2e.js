// A hostile OAuth server in the real UI: its metadata sends the browser to `command:` (a VS Code
// command link) instead of an https sign-in page. Nothing is opened: chat and the tree say why, naming
// the server, and offer no Sign In; VS Code runs no command (no terminal appears) and no tab opens.
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

const SESSION = '.interactive-session';

module.exports = async function oauthHostile(ctx) {
  const { startOAuthServer } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const server = await startOAuthServer({
    args: ['--authorization-endpoint', 'command:workbench.action.terminal.new'],
  });
  ctx.defer(() => server.close());
  const config = { servers: { hostile: { type: 'http', url: server.url } } };
  const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify(config, null, 2) } });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 0 running, 1 failing"]').first().waitFor({ timeout: 120000 });

  const refusal =
    'hostile: the sign-in address command:workbench.action.terminal.new is refused: only https addresses (or http to this computer) are opened';
  await ui.typeInChat('@mcp /hostile.whoami');
  await ui.waitForText(refusal, { within: SESSION });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const row = page.locator('.pane-body .monaco-list-row').filter({ hasText: 'hostile' }).first();
  await row.waitFor({ timeout: 60000 });
  await ui.screenshot('refused');
  if (await page.locator(SESSION).getByRole('button', { name: 'Sign In' }).count())
    throw new Error('chat offers a Sign In for a refused address');
  if (/sign-in needed/.test(await row.innerText()))
    throw new Error(`the tree offers a sign-in: ${await row.innerText()}`);
  if (await page.locator('.terminal-wrapper, .xterm').count()) throw new Error('a terminal was opened');
  if (page.context().pages().length !== 1)
    throw new Error(
      `a tab was opened: ${page
        .context()
        .pages()
        .map(p => p.url())
        .join(', ')}`,
    );
  if (/authorized /.test(server.stderr()))
    throw new Error(`the authorization endpoint was reached:\n${server.stderr()}`);
};

if (require.main === module) runStandalone(module, __filename);
