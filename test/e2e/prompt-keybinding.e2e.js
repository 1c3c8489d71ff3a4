// A prompt bound to a key in the user's keybindings.json, in the real UI: pressing it runs Greet with
// team preset, so only member is asked for, and the result opens in the editor as the binding says; a
// binding to a prompt the server does not offer says so in one message whose Run Prompt… opens the
// picker. The fixture (test/fixtures/cacheable.mjs) records each prompts/get it receives.
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { cacheableFixture } = require('./saved-lists');

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

module.exports = async function promptKeybinding(ctx) {
  const daily = cacheableFixture(ctx, 'daily', PROMPTS);
  const ui = await openWorkbench(ctx, {
    files: { '.vscode/mcp.json': daily.mcpJson, 'notes.md': '# Notes\n' },
    userFiles: { 'keybindings.json': KEYBINDINGS },
  });
  const { page } = ui;
  const quick = page.locator(QUICK);
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

  // At work in a file, the person presses the key bound to Greet for team beta.
  await ui.openFile('notes.md');
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
  await ui.screenshot('stale-binding');
  await message.getByRole('button', { name: 'Run Prompt…' }).click();
  await quick.getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
  if (daily.gets().length !== 1) throw new Error('the stale binding asked the server for something');
};

if (require.main === module) runStandalone(module, __filename);
