// OAuth in the real UI: an HTTP server that answers 401 with OAuth metadata shows "sign-in needed" in
// the tree and, when a prompt is run, a Sign In button in chat; it opens the authorization page in the
// browser, the server approves and redirects to our loopback listener (through VS Code's port
// mapping), which exchanges the code, and the server runs. The tokens go to SecretStorage only: no
// file of the run holds the access token, an edited configuration reconnects without another sign-in,
// and Sign Out of Server… forgets them (after which the tree row signs in again). Its prompt list is
// private (cacheScope `private`): saved once signed in, shown from the saved list after a window
// reload, and deleted from the disk and the tree by the sign-out.
// Beside it a hostile OAuth server, whose metadata sends the browser to `command:` (a VS Code command
// link) instead of an https sign-in page: nothing is opened; chat and the tree say why, naming the
// server, and offer no Sign In; VS Code runs no command (no terminal appears) and no tab opens.
const fs = require('node:fs');
const path = require('node:path');
const { runStandalone, hostHarness, filesContaining, root, waitForFile } = require('./harness');
const { openOAuthWorkbench } = require('./oauth-workbench');
const { savedLists } = require('./saved-lists');

/** A screenshot of another page (the browser tab the sign-in opened). */
async function screenshotOf(p, name) {
  return (await hostHarness()).saveScreenshot(p, name);
}

const SESSION = '.interactive-session';

module.exports = async function oauth(ctx) {
  const { startOAuthServer } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const hostileServer = await startOAuthServer({
    args: ['--authorization-endpoint', 'command:workbench.action.terminal.new'],
  });
  ctx.defer(() => hostileServer.close());
  const hostile = { type: 'http', url: hostileServer.url };
  const { ui, server } = await openOAuthWorkbench(ctx, ['--cache-scope', 'private', '--ttl', '600000'], { hostile });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 0 running, 2 failing"]').first().waitFor({ timeout: 120000 });

  // The hostile server first, while this is the only tab: a refusal naming it, no Sign In, nothing opened.
  const refusal =
    'hostile: the sign-in address command:workbench.action.terminal.new is refused: only https addresses (or http to this computer) are opened';
  await ui.typeInChat('@mcp /hostile.whoami');
  await ui.waitForText(refusal, { within: SESSION });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const hostileRow = page.locator('.pane-body .monaco-list-row').filter({ hasText: 'hostile' }).first();
  await hostileRow.waitFor({ timeout: 60000 });
  await ui.screenshot('refused');
  if (await page.locator(SESSION).getByRole('button', { name: 'Sign In' }).count())
    throw new Error('chat offers a Sign In for a refused address');
  if (/sign-in needed/.test(await hostileRow.innerText()))
    throw new Error(`the tree offers a sign-in: ${await hostileRow.innerText()}`);
  if (await page.locator('.terminal-wrapper, .xterm').count()) throw new Error('a terminal was opened');
  if (page.context().pages().length !== 1)
    throw new Error(
      `a tab was opened: ${page
        .context()
        .pages()
        .map(p => p.url())
        .join(', ')}`,
    );
  if (/authorized /.test(hostileServer.stderr()))
    throw new Error(`the authorization endpoint was reached:\n${hostileServer.stderr()}`);

  const row = page
    .locator('.pane-body .monaco-list-row')
    .filter({ hasText: 'secured' })
    .filter({ hasText: 'sign-in needed' })
    .first();
  await row.waitFor({ timeout: 60000 });
  await ui.screenshot('sign-in-needed');

  // In chat the failure offers Sign In; it opens the authorization page in the browser (VS Code may
  // first ask to open it), which approves and redirects back to our listener.
  await ui.typeInChat('@mcp /secured.whoami');
  await ui.waitForText('secured needs you to sign in', { within: SESSION });
  await ui.screenshot('chat-sign-in');
  /** Clicks `target` and returns the browser tab it opens, confirming VS Code's "Open" question if asked. */
  const openedBy = async target => {
    const popup = page.context().waitForEvent('page', { timeout: 60000 });
    await target.click();
    const open = page.getByRole('button', { name: /^Open$/ }).first();
    if (await Promise.race([popup.then(() => false), open.waitFor({ timeout: 60000 }).then(() => true)]))
      await open.click();
    return popup;
  };
  const authPage = await openedBy(page.locator(SESSION).getByRole('button', { name: 'Sign In' }).last());
  // The browser lands on our loopback listener, which says so in plain text.
  await authPage
    .getByText('Signed in to secured. You can close this page and return to VS Code.')
    .waitFor({ timeout: 60000 });
  await screenshotOf(authPage, 'oauth-signed-in-page');
  await authPage.close();
  await page.locator('[aria-label^="MCP Prompts: 1 running, 1 failing"]').first().waitFor({ timeout: 120000 });
  await page.bringToFront();
  await ui.typeInChat('@mcp /secured.whoami');
  await ui.waitForText(/Signed in as OAuth client [0-9a-f-]{36}/, { within: SESSION });
  await ui.screenshot('signed-in');

  // The access token is in no file: not in settings, logs or workspace state.
  const token = /token issued (\S+)/.exec(server.stderr())?.[1];
  if (!token) throw new Error(`the server issued no token:\n${server.stderr()}`);
  const leaks = filesContaining(ui.host.runDir, token);
  if (leaks.length) throw new Error(`the access token is stored in clear in: ${leaks.join(', ')}`);
  // Signed in, its private prompt list is saved.
  await waitForFile(() => savedLists(ui.host.runDir).length === 1, 'the private list saved');

  // A new connection (edited configuration) uses the stored token: no second sign-in.
  const config = { servers: { secured: { type: 'http', url: server.url, timeout: 20000 }, hostile } };
  fs.writeFileSync(path.join(ui.host.workspace, '.vscode', 'mcp.json'), JSON.stringify(config, null, 2));
  await ui.typeInChat('@mcp /secured.whoami');
  const answers = page.locator(SESSION).getByText(/Signed in as OAuth client/);
  // Two answers of the server's own (each line it sends starts so; the model's echo of one starts "[user]").
  await page.waitForFunction(
    () =>
      (document.querySelector('.interactive-session')?.innerText.match(/^Signed in as OAuth client/gm) ?? []).length >=
      2,
    undefined,
    { timeout: 120000 },
  );
  if ((server.stderr().match(/authorized /g) ?? []).length !== 1)
    throw new Error(`signed in more than once:\n${server.stderr()}`);
  await answers.first().waitFor();

  // A new window (Developer: Reload Window, as a person reloads VS Code): the server row says its
  // prompts are the saved ones, and it opens expanded with the prompt.
  await ui.runCommand('Developer: Reload Window');
  const tree = page.locator('.pane-body .monaco-list-row');
  // The prompt's row under its server (the chat's rows and Recently used name it too).
  const prompt = tree.filter({ hasText: 'Says which OAuth client is calling' }).first();
  await tree.filter({ hasText: 'secured' }).filter({ hasText: 'cached' }).first().waitFor({ timeout: 120000 });
  await prompt.waitFor({ timeout: 60000 });
  await ui.screenshot('private-list-before-sign-out');

  // Sign Out from the palette: the tokens are forgotten, the private list leaves the disk and the tree,
  // and the server asks for a sign-in again.
  await ui.runCommand('MCP Prompts: Sign Out of Server…');
  // Two HTTP servers: it asks which.
  await page.locator('.quick-input-widget').getByText('Sign out of which server?').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('secured');
  await page.keyboard.press('Enter');
  await waitForFile(() => savedLists(ui.host.runDir).length === 0, 'the private list deleted');
  await row.waitFor({ timeout: 60000 });
  await prompt.waitFor({ state: 'detached', timeout: 60000 });
  await ui.screenshot('private-list-after-sign-out');
  await page.locator('[aria-label^="MCP Prompts: 0 running, 2 failing"]').first().waitFor({ timeout: 120000 });
  // The tree row signs in too: it opens the authorization page again.
  const second = await openedBy(row);
  await second
    .getByText('Signed in to secured. You can close this page and return to VS Code.')
    .waitFor({ timeout: 60000 });
  await second.close();
  await page.locator('[aria-label^="MCP Prompts: 1 running, 1 failing"]').first().waitFor({ timeout: 120000 });
};

if (require.main === module) runStandalone(module, __filename);
