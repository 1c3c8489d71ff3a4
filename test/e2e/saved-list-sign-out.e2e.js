// A private saved prompt list (cacheScope `private`) goes with the user's sign-in, in the real UI: the
// user signs in from the tree, the list is saved; after a window reload the tree shows it from the saved
// list; "Sign Out of Server…" from the palette deletes the file and the tree no longer shows the prompt.
const { runStandalone, waitForFile } = require('./harness');
const { openOAuthWorkbench } = require('./oauth-workbench');
const { savedLists } = require('./saved-lists');

module.exports = async function savedListSignOut(ctx) {
  const { ui } = await openOAuthWorkbench(ctx, ['--cache-scope', 'private', '--ttl', '600000']);
  const { page } = ui;
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
  await waitForFile(() => savedLists(ui.host.runDir).length === 1, 'the private list saved');

  // A new window (Developer: Reload Window, as a person reloads VS Code): the server row says its
  // prompts are the saved ones, and it opens expanded with the prompt.
  await ui.runCommand('Developer: Reload Window');
  const prompt = tree.filter({ hasText: 'whoami' }).first();
  await tree.filter({ hasText: 'secured' }).filter({ hasText: 'cached' }).first().waitFor({ timeout: 120000 });
  await prompt.waitFor({ timeout: 60000 });
  await ui.screenshot('private-list-before-sign-out');

  // Sign out: the list leaves the disk and the tree.
  await ui.runCommand('MCP Prompts: Sign Out of Server…');
  await waitForFile(() => savedLists(ui.host.runDir).length === 0, 'the private list deleted');
  await tree.filter({ hasText: 'secured' }).filter({ hasText: 'sign-in needed' }).first().waitFor({ timeout: 60000 });
  await prompt.waitFor({ state: 'detached', timeout: 60000 });
  await ui.screenshot('private-list-after-sign-out');
};

if (require.main === module) runStandalone(module, __filename);
