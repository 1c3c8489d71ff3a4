// A private saved prompt list (cacheScope `private`) goes with the user's sign-in, in the real UI: the
// user signs in from the tree, the list is saved; after a window reload the tree shows it from the saved
// list; "Sign Out of Server…" from the palette deletes the file and the tree no longer shows the prompt.
const path = require('node:path');
const { openWorkbench, runStandalone, root, waitForFile } = require('./harness');
const { savedLists } = require('./saved-lists');

module.exports = async function savedListSignOut(ctx) {
  const { startOAuthServer } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const server = await startOAuthServer({ args: ['--cache-scope', 'private', '--ttl', '600000'] });
  ctx.defer(() => server.close());
  const config = { servers: { secured: { type: 'http', url: server.url } } };
  const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify(config, null, 2) } });
  const { page } = ui;
  // As in oauth.e2e.js: the browser undoes code-server's /proxy/PORT mapping, which this bare server lacks.
  const unproxy = href => {
    const url = new URL(href);
    const m = /^\/proxy\/(\d+)(\/.*)$/.exec(url.pathname);
    return m ? `http://127.0.0.1:${m[1]}${m[2]}${url.search}` : href;
  };
  await page.context().route(/\/proxy\/\d+\//, async route => {
    const direct = unproxy(route.request().url());
    const response = await route.fetch({ url: direct, maxRedirects: 0 });
    const headers = response.headers();
    if (headers.location) headers.location = unproxy(new URL(headers.location, direct).href);
    await route.fulfill({ response, headers });
  });
  const tree = page.locator('.pane-body .monaco-list-row');
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const signInRow = tree.filter({ hasText: 'secured' }).filter({ hasText: 'sign-in needed' }).first();
  await signInRow.waitFor({ timeout: 120000 });

  // Sign in from the tree row (VS Code may first ask to open the page).
  const popup = page.context().waitForEvent('page', { timeout: 60000 });
  await signInRow.click();
  const open = page.getByRole('button', { name: /^Open$/ }).first();
  if (await Promise.race([popup.then(() => false), open.waitFor({ timeout: 60000 }).then(() => true)]))
    await open.click();
  const authPage = await popup;
  await authPage
    .getByText('Signed in to secured. You can close this page and return to VS Code.')
    .waitFor({ timeout: 60000 });
  await authPage.close();
  await page.bringToFront();
  await waitForFile(page, () => savedLists(ui.host.runDir).length === 1, 'the private list saved');

  // A new window (Developer: Reload Window, as a person reloads VS Code): the server row says its
  // prompts are the saved ones, and it opens expanded with the prompt.
  await ui.runCommand('Developer: Reload Window');
  const prompt = tree.filter({ hasText: 'whoami' }).first();
  await tree.filter({ hasText: 'secured' }).filter({ hasText: 'cached' }).first().waitFor({ timeout: 120000 });
  await prompt.waitFor({ timeout: 60000 });
  await ui.screenshot('private-list-before-sign-out');

  // Sign out: the list leaves the disk and the tree.
  await ui.runCommand('MCP Prompts: Sign Out of Server…');
  await waitForFile(page, () => savedLists(ui.host.runDir).length === 0, 'the private list deleted');
  await tree.filter({ hasText: 'secured' }).filter({ hasText: 'sign-in needed' }).first().waitFor({ timeout: 60000 });
  await prompt.waitFor({ state: 'detached', timeout: 60000 });
  await ui.screenshot('private-list-after-sign-out');
};

if (require.main === module) runStandalone(module, __filename);
