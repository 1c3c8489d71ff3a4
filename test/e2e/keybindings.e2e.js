// The keybindings as a person uses them: with a file open in the editor, Ctrl+Shift+Alt+/ opens the
// Run Prompt… picker; the prompt picked there runs; then Ctrl+Shift+Alt+. (Repeat Last Prompt) runs it
// again, which the server confirms (test/fixtures/flow-server.mjs records every request it receives).
// Then a prompt bound to a key in the user's keybindings.json: pressing it runs Greet with team preset,
// so only member is asked for, and the result opens in the editor as the binding says; a binding to a
// prompt the server does not offer says so in one message whose Run Prompt… opens the picker
// (test/fixtures/cacheable.mjs records each prompts/get it receives).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { flowServer, gets: getsOf } = require('./flow-record');
const { cacheableFixture } = require('./saved-lists');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

const PROMPTS = [
  {
    name: 'greet',
    title: 'Greet',
    arguments: [
      { name: 'team', description: 'The team', required: true },
      { name: 'member', description: 'Who to greet', required: true },
    ],
  },
];

/** What a person writes into keybindings.json (Preferences: Open Keyboard Shortcuts (JSON)). */
const KEYBINDINGS = `// Place your key bindings in this file to override the defaults
[
  {
    "key": "ctrl+shift+alt+1",
    "command": "mcpPrompts.runPrompt",
    "args": { "server": "daily", "prompt": "greet", "arguments": { "team": "beta" }, "target": "editor" }
  },
  {
    "key": "ctrl+shift+alt+2",
    "command": "mcpPrompts.runPrompt",
    "args": { "server": "daily", "prompt": "farewell" }
  }
]
`;

module.exports = async function keybindings(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-keys-'));
  const record = path.join(dir, 'requests.jsonl');
  const daily = cacheableFixture(ctx, 'daily', PROMPTS);
  const servers = { flow: flowServer(record, 120), ...JSON.parse(daily.mcpJson).servers };
  try {
    const ui = await openWorkbench(ctx, {
      files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2), 'notes.md': '# Notes\n' },
      userFiles: { 'keybindings.json': KEYBINDINGS },
    });
    const { page } = ui;
    const quick = page.locator(QUICK);
    const gets = () => getsOf(record, 'counted').length;
    await page.locator('[aria-label^="MCP Prompts: 2 running, 0 failing"]').first().waitFor({ timeout: 120000 });

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

    // Back in the file, the person presses the key bound to Greet for team beta.
    await page.locator('.tab').filter({ hasText: 'notes.md' }).first().click();
    await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Control+Shift+Alt+Digit1');
    // Only member is asked for: team came with the binding.
    await quick.getByText('Greet: member (required)').first().waitFor({ timeout: 60000 });
    await ui.screenshot('only-member-asked');
    await page.keyboard.type('bjarne');
    await page.keyboard.press('Enter');
    await waitForFile(() => daily.gets().length === 1, 'the prompts/get of the bound prompt');
    const [got] = daily.gets();
    if (JSON.stringify(got) !== JSON.stringify({ name: 'greet', arguments: { team: 'beta', member: 'bjarne' } }))
      throw new Error(`the server received ${JSON.stringify(got)}`);
    // "target": "editor": the transcript opens as an editor tab.
    await page.locator('.tab').filter({ hasText: 'daily.greet' }).first().waitFor({ timeout: 60000 });

    // A stale binding: one message naming what is wrong, and its Run Prompt… opens the picker.
    await page.locator('.tab').filter({ hasText: 'notes.md' }).first().click();
    await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Control+Shift+Alt+Digit2');
    // No toasts under the harness's --enable-smoke-test-driver: the notification centre lists it.
    await ui.runCommand('Notifications: Show Notifications');
    const message = page
      .locator('.notifications-center .notification-list-item')
      .filter({ hasText: 'MCP Prompts keybinding: daily offers no prompt "farewell".' })
      .first();
    await message.waitFor({ timeout: 60000 });
    // The transcript stays open beside the file: a preview that followed the active editor would now
    // show notes.md instead.
    if (!(await page.locator('.tab').filter({ hasText: 'daily.greet' }).count()))
      throw new Error('the transcript tab gave way to the file clicked after it');
    await ui.screenshot('stale-binding');
    await message.getByRole('button', { name: 'Run Prompt…' }).click();
    await quick.getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
    if (daily.gets().length !== 1) throw new Error('the stale binding asked the server for something');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
