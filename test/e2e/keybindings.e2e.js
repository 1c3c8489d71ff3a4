// The keybindings as a person uses them: with a file open in the editor, Ctrl+Shift+Alt+/ opens the
// Run Prompt… picker; the prompt picked there runs; then Ctrl+Shift+Alt+. (Repeat Last Prompt) runs it
// again, which the server confirms (test/fixtures/flow-server.mjs records every request it receives).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { flowMcpJson, gets: getsOf } = require('./flow-record');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

module.exports = async function keybindings(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-keys-'));
  const record = path.join(dir, 'requests.jsonl');
  try {
    const ui = await openWorkbench(ctx, {
      files: { '.vscode/mcp.json': flowMcpJson(record, 120), 'notes.md': '# Notes\n' },
    });
    const { page } = ui;
    const quick = page.locator(QUICK);
    const gets = () => getsOf(record, 'counted').length;
    await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

    // A file open in the editor, its text focused, as when a person is at work.
    await ui.openFile('notes.md');

    await page.keyboard.press('Control+Shift+Alt+Slash');
    await quick.getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
    await quick.locator('.monaco-list-row').filter({ hasText: 'Counted' }).first().waitFor({ timeout: 30000 });
    await ui.screenshot('picker');
    await page.keyboard.type('Counted');
    await page.keyboard.press('Enter');
    await waitForFile(() => gets() === 1, 'the prompt picked after the Run Prompt… keybinding', 30000);
    await ui.waitForText('COUNTED get #1', { within: SESSION });

    await page.keyboard.press('Control+Shift+Alt+Period');
    await waitForFile(() => gets() === 2, 'the Repeat Last Prompt keybinding', 30000);
    await ui.waitForText('COUNTED get #2', { within: SESSION });
    await ui.screenshot('repeated');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
