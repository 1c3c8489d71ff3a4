// The remaining commands and input paths in the real UI, in the chat's window (chat.e2e.js) once its story
// is told: Add Server… writes the workspace's .mcp.json and the server starts; Back in the argument input
// returns to the previous step with its value; with `mcpPrompts.chat.afterGet: show` (chosen in the
// Settings editor, then a new chat) the transcript is shown without asking the model until Send to
// Model; "Edit in editor…" takes a multi-line value from an editor; Save Last Result as .prompt.md…
// writes the transcript into the workspace. Send to Model sends the stored result: the server is asked
// for the prompt once (the flow fixture counts its prompts/get calls in the text and in a file).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { root, waitForFile } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

/**
 * The commands, in the open window `ui` whose servers include the completions fixture and the flow fixture
 * recording into `record`; `running` servers run there before Add Server….
 */
module.exports = async function commands(ui, { record, running }) {
  const { FAULTY_MJS } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const { page } = ui;
  const rows = page.locator(`${QUICK} .monaco-list-row`);
  const inputValue = value =>
    page.waitForFunction(
      v => document.querySelector('.quick-input-widget .quick-input-box input')?.value === v,
      value,
      { timeout: 60000 },
    );
  await ui.chooseSetting('mcpPrompts.chat.afterGet', 'After Get', 'show');
  await ui.newChat();

  // Add Server…: kind, command line, name, file (the recommended .mcp.json); the entry lands there and starts.
  await ui.runCommand('MCP Prompts: Add Server…');
  await rows.filter({ hasText: 'Command (stdio)' }).first().click();
  await page.locator(QUICK).getByText('Add MCP Server (2/4)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type(`${process.execPath} ${FAULTY_MJS} ok`);
  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('Add MCP Server (3/4)').first().waitFor({ timeout: 60000 });
  await inputValue('faulty');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('added');
  await page.keyboard.press('Enter');
  // Where VS Code 1.140 writes: the portable files first, this workspace's .mcp.json recommended.
  const where = page.locator(`${QUICK} .monaco-list-row`);
  await where.first().filter({ hasText: '.mcp.json' }).filter({ hasText: 'recommended' }).waitFor({ timeout: 60000 });
  // The harness gives the host a COPILOT_HOME of its own (scripts/host-harness.mjs).
  const expected = [
    '.mcp.json',
    path.join(ui.host.runDir, 'home', '.copilot', 'mcp-config.json'),
    '.vscode/mcp.json',
    'your profile mcp.json',
  ];
  const offered = await where.allInnerTexts();
  assert.equal(offered.length, expected.length, offered.join(' | '));
  offered.forEach((row, i) => assert.ok(row.startsWith(expected[i]), `${row} starts with ${expected[i]}`));
  await ui.screenshot('add-server-where');
  await page.keyboard.press('Enter');
  // A server in the workspace's .mcp.json asks before it starts, as any workspace server does.
  await ui.allowServers(['added']);
  await page
    .locator(`[aria-label^="MCP Prompts: ${running + 1} running, 0 failing"]`)
    .first()
    .waitFor({ timeout: 120000 });
  const rootJson = JSON.parse(fs.readFileSync(path.join(ui.host.workspace, '.mcp.json'), 'utf8'));
  if (
    JSON.stringify(rootJson.mcpServers.added) !==
    JSON.stringify({ type: 'stdio', command: process.execPath, args: [FAULTY_MJS, 'ok'] })
  ) {
    throw new Error(`Add Server wrote ${JSON.stringify(rootJson)}`);
  }
  await ui.screenshot('server-added');

  // Back: step 2 → step 1 shows the value given before; then on to the result.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'Pick a framework' }).first().click();
  await page.locator(QUICK).getByText('language (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('python');
  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('framework (required)').first().waitFor({ timeout: 60000 });
  await page.locator(QUICK).getByRole('button', { name: /^Back/ }).first().click();
  await page.locator(QUICK).getByText('language (required)').first().waitFor({ timeout: 60000 });
  await inputValue('python');
  await ui.screenshot('back-keeps-value');
  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('framework (required)').first().waitFor({ timeout: 60000 });
  await rows.filter({ hasText: 'django' }).first().click();

  // afterGet "show": the transcript, no model answer until Send to Model.
  await ui.waitForText('Use django with python', { within: SESSION });
  const sendButton = page.locator(SESSION).getByRole('button', { name: 'Send to Model' }).last();
  await sendButton.waitFor({ timeout: 60000 });
  if (/FAKE-MODEL received/.test(await page.locator(SESSION).innerText()))
    throw new Error('the model was asked although chat.afterGet is "show"');
  await ui.screenshot('shown-not-sent');
  await sendButton.click();
  await ui.waitForText(/FAKE-MODEL received \d+ messages?:/, { within: SESSION });

  // Send to Model sends what is shown: the server's text counts its prompts/get calls, and it is asked once.
  const countedGets = () =>
    (fs.existsSync(record) ? fs.readFileSync(record, 'utf8') : '')
      .split('\n')
      .filter(l => l.includes('"prompts/get"') && l.includes('"counted"')).length;
  await ui.typeInChat('@mcp /flow.counted');
  await ui.waitForText('COUNTED get #1', { within: SESSION });
  await page.locator(SESSION).getByRole('button', { name: 'Send to Model' }).last().click();
  await ui.waitForText(/FAKE-MODEL received 1 messages: \[user\] COUNTED get #1/, { within: SESSION });
  await ui.screenshot('sent-stored-result');
  if (countedGets() !== 1)
    throw new Error(`Send to Model asked the server again: ${countedGets()} prompts/get of counted`);
  if (/COUNTED get #2/.test(await page.locator(SESSION).innerText()))
    throw new Error('the model got a second prompts/get result');

  // "Edit in editor…": a multi-line value typed in an editor.
  await ui.openRunPrompt();
  // The window's servers offer many prompts: the person types the name and clicks the row.
  await page.keyboard.type('hello');
  await rows.filter({ hasText: 'hello' }).filter({ hasText: 'Greets' }).first().click();
  await page.locator(QUICK).getByText('name (required)').first().waitFor({ timeout: 60000 });
  await page.locator(QUICK).getByRole('button', { name: 'Edit in editor…' }).first().click();
  await page.locator('.tab').filter({ hasText: 'Untitled' }).first().waitFor({ timeout: 60000 });
  // The "Use Text" prompt opens beside the editor, and the editor has the keyboard: a person sees the
  // cursor there and types, with Enter for a new line.
  await rows.filter({ hasText: 'Use Text' }).first().waitFor({ timeout: 60000 });
  await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('Ada\nLovelace');
  await ui.screenshot('edit-in-editor');
  await rows.filter({ hasText: 'Use Text' }).first().click();
  // Two lines of one paragraph: the chat's text, not one element, holds them.
  await ui.waitForSession(/Hello, Ada Lovelace!/, { timeout: 60000 });

  // Save Last Result as .prompt.md…: the save dialog proposes .github/prompts/hello.prompt.md.
  await ui.runCommand('MCP Prompts: Save Last Result as .prompt.md…');
  await inputValue(path.join(ui.host.workspace, '.github', 'prompts', 'hello.prompt.md'));
  await page.keyboard.press('Enter');
  // The dialog offers to create the missing folder (a fresh workspace has no .github/prompts).
  await page.locator(QUICK).getByText('The folder prompts does not exist').first().waitFor({ timeout: 60000 });
  await page.locator(QUICK).getByRole('button', { name: 'OK' }).first().click();
  const saved = path.join(ui.host.workspace, '.github', 'prompts', 'hello.prompt.md');
  // VS Code writes a file by creating it and then writing: an empty file is one still being written.
  await waitForFile(() => fs.existsSync(saved) && fs.statSync(saved).size > 0, saved);
  const text = fs.readFileSync(saved, 'utf8');
  if (!/### 👤 User/.test(text) || !/Hello, Ada\nLovelace!/.test(text))
    throw new Error(`unexpected .prompt.md:\n${text}`);
  await ui.screenshot('saved');
};
