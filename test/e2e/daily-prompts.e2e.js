// The prompts a person runs every day, in the real UI: two prompts run from Run Prompt… are the first
// rows the next time it opens, newest first, the one run with values showing them (its Run again button
// runs it with them, asking nothing; Enter on it asks, as on any row); a prompt pinned with its row's button is the first row after a window
// reload, and heads the sidebar's Pinned group; "review python" typed in the picker finds Code review by
// the words of its description. The fixture (test/fixtures/cacheable.mjs) records each prompts/get it
// receives: the checks read what the server got.
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
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

function expect(got, want) {
  if (got !== want) throw new Error(`the server received ${got}, expected ${want}`);
}

module.exports = async function dailyPrompts(ctx) {
  const daily = cacheableFixture(ctx, 'daily', PROMPTS);
  const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': daily.mcpJson } });
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
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

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
};

if (require.main === module) runStandalone(module, __filename);
