// MCP skills and an untrusted workspace: in Restricted Mode a server the workspace defines does not start,
// so none of its skills is listed, shown or read (the fixture writes every request it gets to a file, and
// there is none); once the workspace is trusted and the server allowed, its Skills group appears.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

module.exports = async function skillsUntrusted(ctx) {
  const { skillsCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const wire = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-skills-wire-')), 'wire.log');
  const docs = { type: 'stdio', ...skillsCommand('catalog'), env: { SKILLS_WIRE_LOG: wire } };
  try {
    const ui = await openWorkbench(ctx, {
      workspaceTrust: true,
      installExtensions: [],
      waitForModel: false,
      files: { '.vscode/mcp.json': JSON.stringify({ servers: { docs } }, null, 2) },
    });
    const { page } = ui;
    await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
    await page.locator('.part.activitybar [aria-label^="MCP Prompts"]').first().click({ timeout: 120000 });
    const welcome = page.locator('.welcome-view-content');
    await welcome
      .getByText(/This workspace is in Restricted Mode/)
      .first()
      .waitFor({ timeout: 120000 });
    assert.equal(await page.locator('.pane-body .monaco-list-row').filter({ hasText: 'pdf-forms' }).count(), 0);
    assert.ok(!fs.existsSync(wire), 'the server got no request: nothing of its skills was listed or read');
    await ui.screenshot('untrusted');

    // Trusted and allowed: the server starts and its skills show under it.
    await welcome.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).first().click();
    await page
      .getByRole('button', { name: /^Trust$/ })
      .first()
      .click({ timeout: 60000 });
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.filter({ hasText: 'Start the MCP server "docs"' }).waitFor({ timeout: 120000 });
    await dialog.getByRole('button', { name: 'Start Server', exact: true }).click();
    const tree = page.locator('.pane-body .monaco-list-row');
    await tree.filter({ hasText: 'docs' }).filter({ hasText: '5 skills' }).first().waitFor({ timeout: 120000 });
    await tree.filter({ hasText: 'pdf-forms' }).first().waitFor({ timeout: 60000 });
    assert.match(fs.readFileSync(wire, 'utf8'), /^skills\/list$/m);
    await ui.screenshot('trusted');
  } finally {
    fs.rmSync(path.dirname(wire), { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
