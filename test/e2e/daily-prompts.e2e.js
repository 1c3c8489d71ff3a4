// The prompts a person runs every day, in the real UI: two prompts run from Run Prompt… are the first
// rows the next time it opens, newest first, the one run with values showing them (its Run again button
// runs it with them, asking nothing; Enter on it asks, as on any row); a prompt pinned with its row's button is the first row after a window
// reload, and heads the sidebar's Pinned group; "review python" typed in the picker finds Code review by
// the words of its description. The fixture (test/fixtures/cacheable.mjs) records each prompts/get it
// receives: the checks read what the server got.
// Then the keybindings, with a file open in the editor: Ctrl+Shift+Alt+/ opens the Run Prompt… picker;
// the prompt picked there runs; then Ctrl+Shift+Alt+. (Repeat Last Prompt) runs it again, which the
// server confirms (test/fixtures/flow-server.mjs records every request it receives). Then a prompt bound
// to a key in the user's keybindings.json: pressing it runs Greet with team preset, so only member is
// asked for, and the result opens in the editor as the binding says; a binding to a prompt the server
// does not offer says so in one message whose Run Prompt… opens the picker.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { flowServer, gets: getsOf } = require('./flow-record');
const { cacheableFixture } = require('./saved-lists');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

/** The daily fixture's prompts: two with arguments, two without. */
const PROMPTS = [
  {
    name: 'greet',
    title: 'Greet',
    description: 'Greets a member of a team',
    arguments: [
      { name: 'team', description: 'The team', required: true },
      { name: 'member', description: 'Who to greet', required: true },
    ],
  },
  { name: 'standup', title: 'Standup notes', description: 'Notes for the daily standup' },
  {
    name: 'code_review',
    title: 'Code review',
    description: 'Reviews a Python module for bugs and style',
    arguments: [{ name: 'code', description: 'The code', required: true }],
  },
  { name: 'commit', title: 'Commit message', description: 'Writes a commit message in the review style of the team' },
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

function expect(got, want) {
  if (got !== want) throw new Error(`the server received ${got}, expected ${want}`);
}

module.exports = async function dailyPrompts(ctx) {
  const daily = cacheableFixture(ctx, 'daily', PROMPTS);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-keys-'));
  ctx.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
  const record = path.join(dir, 'requests.jsonl');
  const servers = { ...JSON.parse(daily.mcpJson).servers, flow: flowServer(record, 120) };
  const ui = await openWorkbench(ctx, {
    files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2), 'notes.md': '# Notes\n' },
    userFiles: { 'keybindings.json': KEYBINDINGS },
  });
  const { page } = ui;
  const quick = page.locator(QUICK);
  const rows = quick.locator('.monaco-list-row');
  /** The picker's rows as a person reads them: label, then what follows it (description, group name). */
  const shown = () =>
    rows.evaluateAll(els =>
      els.filter(el => el.getClientRects().length).map(el => (el.textContent || '').replace(/\s+/g, ' ').trim()),
    );
  /** Waits for the next prompts/get (after the first `before`) and returns it as `name {arguments}`. */
  const nextGet = async (before, what) => {
    await waitForFile(() => daily.gets().length > before, what);
    const got = daily.gets()[before];
    return `${got.name} ${JSON.stringify(got.arguments)}`;
  };
  await page.locator('[aria-label^="MCP Prompts: 2 running, 0 failing"]').first().waitFor({ timeout: 120000 });

  // Two runs: Standup notes (no arguments), then Greet with team=beta member=bjarne.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'Standup notes' }).first().waitFor({ timeout: 60000 });
  await page.keyboard.type('standup');
  await page.keyboard.press('Enter');
  expect(await nextGet(0, 'Standup notes'), 'standup {}');
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'Greet' }).first().waitFor({ timeout: 60000 });
  await page.keyboard.type('greet');
  await page.keyboard.press('Enter');
  await quick.getByText('Greet: team (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('beta');
  await page.keyboard.press('Enter');
  await quick.getByText('Greet: member (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('bjarne');
  await page.keyboard.press('Enter');
  expect(await nextGet(1, 'Greet'), 'greet {"team":"beta","member":"bjarne"}');
  await ui.waitForText(/greet ran in \d+: team=beta member=bjarne/, { within: SESSION });

  // Reopened: the two come first, newest first, under "recently used"; Greet shows its values.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'team=beta member=bjarne' }).first().waitFor({ timeout: 60000 });
  const [first, second] = await shown();
  if (!/^Greet\s*\/greet team=beta member=bjarne.*recently used/.test(first) || !/^Standup notes/.test(second))
    throw new Error(`the recent prompts are not first, newest first: ${JSON.stringify((await shown()).slice(0, 4))}`);
  await ui.screenshot('recent-first');
  // The first row's Run again button runs Greet with its values: no argument is asked for.
  const recentGreet = rows.first();
  await recentGreet.hover();
  await recentGreet.getByRole('button', { name: 'Run again with team=beta member=bjarne' }).click();
  expect(await nextGet(2, 'the recent Greet run again'), 'greet {"team":"beta","member":"bjarne"}');
  if (await quick.getByText('Greet: team (required)').isVisible()) throw new Error('the re-run asked for team again');
  await ui.waitForText(/greet ran in \d+: team=beta member=bjarne/, { within: SESSION });
  // Enter on that row asks for the arguments, as on any row.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'team=beta member=bjarne' }).first().waitFor({ timeout: 60000 });
  await page.keyboard.press('Enter');
  await quick.getByText('Greet: team (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('gamma');
  await page.keyboard.press('Enter');
  await quick.getByText('Greet: member (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('ada');
  await page.keyboard.press('Enter');
  expect(await nextGet(3, 'the recent Greet chosen'), 'greet {"team":"gamma","member":"ada"}');
  await ui.waitForText(/greet ran in \d+: team=gamma member=ada/, { within: SESSION });

  // Pin Commit message with its row's button; the button then unpins.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  const commit = rows.filter({ hasText: 'Commit message' }).first();
  await commit.waitFor({ timeout: 60000 });
  await commit.hover();
  await commit.getByRole('button', { name: 'Pin' }).click();
  await commit.getByRole('button', { name: 'Unpin' }).waitFor({ state: 'attached', timeout: 30000 });
  await ui.screenshot('pinned-in-picker');
  // And on with the day: the person runs it from the open picker.
  await page.keyboard.type('commit message');
  await page.keyboard.press('Enter');
  expect(await nextGet(4, 'Commit message'), 'commit {}');
  await ui.waitForText(/commit ran in \d+/, { within: SESSION });

  // After a window reload: Commit message is the first row, in the pinned group; the recent ones follow.
  await ui.runCommand('Developer: Reload Window');
  await page.locator('[aria-label^="MCP Prompts: 0 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  // The new window has restored its chat (which takes the focus once) when its model shows.
  await ui.waitForModel();
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'Commit message' }).first().waitFor({ timeout: 60000 });
  const afterReload = await shown();
  if (!/^Commit message.*pinned/.test(afterReload[0]) || !/recently used/.test(afterReload[1]))
    throw new Error(`the pinned prompt is not first after the reload: ${JSON.stringify(afterReload.slice(0, 4))}`);
  await ui.screenshot('pinned-after-reload');

  // "review python": Code review, found by its description ("Reviews a Python module…"), and run.
  await page.keyboard.type('review python');
  const onlyCodeReview = async () => {
    const now = await shown();
    return now.length === 1 && /^Code review\b/.test(now[0]);
  };
  const deadline = Date.now() + 60000;
  while (!(await onlyCodeReview())) {
    if (Date.now() > deadline) throw new Error(`"review python" shows ${JSON.stringify(await shown())}`);
    await page.waitForTimeout(100); // polling interval of a bounded condition wait
  }
  await ui.screenshot('review-python');
  await page.keyboard.press('Enter');
  await quick.getByText('Code review: code (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('x = 1');
  await page.keyboard.press('Enter');
  expect(await nextGet(5, 'Code review'), 'code_review {"code":"x = 1"}');

  // The sidebar: Pinned, then Recently used, on top of the servers.
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .customview-tree .monaco-list-row');
  await tree.filter({ hasText: 'Pinned' }).first().waitFor({ timeout: 60000 });
  const treeRows = await tree.evaluateAll(els => els.map(el => (el.textContent || '').replace(/\s+/g, ' ').trim()));
  if (!/^Pinned/.test(treeRows[0]) || !/^Commit message/.test(treeRows[1]) || !/^Recently used/.test(treeRows[2]))
    throw new Error(`the sidebar does not start with the pinned prompt: ${JSON.stringify(treeRows.slice(0, 6))}`);
  await ui.screenshot('sidebar-groups');
  await keybindings(ui, daily, record);
};

/** The keybindings, pressed with a file open in the editor, its text focused, as when a person is at work. */
async function keybindings(ui, daily, record) {
  const { page } = ui;
  const quick = page.locator(QUICK);
  const gets = () => getsOf(record, 'counted').length;
  await ui.openFile('notes.md');

  await page.keyboard.press('Control+Shift+Alt+Slash');
  await quick.getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
  // The day's prompts fill the picker; the person types the name and sees the one row.
  await page.keyboard.type('Counted');
  await ui.waitForQuickRows(1, { timeout: 30000 });
  await quick.locator('.monaco-list-row').filter({ hasText: 'Counted' }).first().waitFor({ timeout: 30000 });
  await ui.screenshot('picker');
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
  const before = daily.gets().length;
  await page.keyboard.press('Control+Shift+Alt+Digit1');
  // Only member is asked for: team came with the binding.
  await quick.getByText('Greet: member (required)').first().waitFor({ timeout: 60000 });
  await ui.screenshot('only-member-asked');
  await page.keyboard.type('bjarne');
  await page.keyboard.press('Enter');
  await waitForFile(() => daily.gets().length === before + 1, 'the prompts/get of the bound prompt');
  const got = daily.gets()[before];
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
  const message = ui.notificationItem('MCP Prompts keybinding: daily offers no prompt "farewell".');
  await message.waitFor({ timeout: 60000 });
  // The transcript stays open beside the file: a preview that followed the active editor would now
  // show notes.md instead.
  if (!(await page.locator('.tab').filter({ hasText: 'daily.greet' }).count()))
    throw new Error('the transcript tab gave way to the file clicked after it');
  await ui.screenshot('stale-binding');
  await message.getByRole('button', { name: 'Run Prompt…' }).click();
  await quick.getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
  if (daily.gets().length !== before + 1) throw new Error('the stale binding asked the server for something');
}

if (require.main === module) runStandalone(module, __filename);
