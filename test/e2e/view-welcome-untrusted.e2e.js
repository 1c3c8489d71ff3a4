// The MCP Prompts view in Restricted Mode with only workspace servers: the welcome content says why
// nothing runs and offers Manage Workspace Trust. No server the workspace defines starts, so none of
// its skills is listed, shown or read (the skills fixture writes every request it gets to a file, and
// there is none). Trusting there asks consent for each server; allowed, they start, their rows return
// and the skills server's Skills group appears.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

module.exports = async function viewWelcomeUntrusted(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const { skillsCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const { 'rich-demo': rich } = testServers();
  const wire = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-skills-wire-')), 'wire.log');
  ctx.defer(() => fs.rmSync(path.dirname(wire), { recursive: true, force: true }));
  const docs = { type: 'stdio', ...skillsCommand('catalog'), env: { SKILLS_WIRE_LOG: wire } };
  const ui = await openWorkbench(ctx, {
    workspaceTrust: true,
    installExtensions: [],
    waitForModel: false,
    files: { '.vscode/mcp.json': JSON.stringify({ servers: { 'rich-demo': rich, docs } }, null, 2) },
  });
  const { page } = ui;
  const welcome = page.locator('.welcome-view-content');
  const tree = page.locator('.pane-body .monaco-list-row');

  await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
  // Open the view as a person does: its icon in the activity bar.
  await page.locator('.part.activitybar [aria-label^="MCP Prompts"]').first().click({ timeout: 120000 });
  await welcome
    .getByText(/This workspace is in Restricted Mode/)
    .first()
    .waitFor({ timeout: 120000 });
  if ((await welcome.locator('.monaco-button').count()) !== 1)
    throw new Error('the untrusted welcome has more than one button');
  assert.equal(await tree.filter({ hasText: 'pdf-forms' }).count(), 0);
  assert.ok(!fs.existsSync(wire), 'the skills server got no request: nothing of its skills was listed or read');
  await ui.screenshot('untrusted');

  await welcome.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).first().click();
  const trust = page.getByRole('button', { name: /^Trust$/ }).first();
  await trust.waitFor({ timeout: 60000 });
  await trust.click();
  // Trusted: each server asks for consent once; started, their rows replace the welcome.
  const dialog = page.locator('.monaco-dialog-box');
  const asked = new Set();
  while (asked.size < 2) {
    const box = dialog.filter({ hasText: /Start the MCP server "(rich-demo|docs)"/ }).first();
    await box.waitFor({ timeout: 120000 });
    const name = /Start the MCP server "([^"]+)"/.exec(await box.innerText())[1];
    if (asked.has(name)) throw new Error(`consent for ${name} was asked twice`);
    asked.add(name);
    await box.getByRole('button', { name: 'Start Server', exact: true }).click();
    await dialog.filter({ hasText: `Start the MCP server "${name}"` }).waitFor({ state: 'hidden', timeout: 60000 });
  }
  await page
    .locator('.pane-body .monaco-list-row .label-name', { hasText: /^rich-demo$/ })
    .first()
    .waitFor({ timeout: 120000 });
  await tree.filter({ hasText: 'docs' }).filter({ hasText: '5 skills' }).first().waitFor({ timeout: 120000 });
  await tree.filter({ hasText: 'pdf-forms' }).first().waitFor({ timeout: 60000 });
  assert.match(fs.readFileSync(wire, 'utf8'), /^skills\/list$/m);
  await ui.screenshot('trusted');
};

if (require.main === module) runStandalone(module, __filename);
