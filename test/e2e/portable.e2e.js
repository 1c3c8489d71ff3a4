// Servers where VS Code 1.140 keeps them, and the skill for chats @mcp does not reach (issue: reach).
// A person whose only workspace server is in the repository's .mcp.json (written the way the Copilot CLI
// writes it: "type": "local", "tools") and whose only own server is in their portable
// $COPILOT_HOME/mcp-config.json opens the repository untrusted: their own server runs, the repository's
// waits for trust; trusted, it asks for consent like any workspace server, then runs; the tree says where
// each is defined. In chat the `/` list offers the extension's skill /mcp-prompts beside the repository's
// own skill; the agent (the tests' fake model) given /mcp-prompts reads the skill, lists the prompts and
// gets one with the person's values, which the confirmation shows before anything is sent. A second server
// of the repository, ws-flow, the person declines when trusting: the agent neither sees nor runs it.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');
const { flowServer, requests } = require('./flow-record');

const SESSION = '.interactive-session';

module.exports = async function portable(ctx) {
  const copilotHome = fs.mkdtempSync(path.join(os.tmpdir(), 'copilot-home-'));
  ctx.defer?.(() => fs.rmSync(copilotHome, { recursive: true, force: true }));
  const record = path.join(copilotHome, 'flow.jsonl');
  const declinedRecord = path.join(copilotHome, 'ws-flow.jsonl');
  const demo = {
    type: 'local',
    command: process.execPath,
    args: [path.join(root, 'demo', 'server.mjs')],
    tools: ['*'],
  };
  fs.writeFileSync(
    path.join(copilotHome, 'mcp-config.json'),
    JSON.stringify({ mcpServers: { flow: { ...flowServer(record), type: 'local', tools: ['*'] } } }, null, 2),
  );
  const ui = await openWorkbench(ctx, {
    workspaceTrust: true,
    waitForModel: false,
    env: { COPILOT_HOME: copilotHome },
    files: {
      '.mcp.json': JSON.stringify({ mcpServers: { demo, 'ws-flow': flowServer(declinedRecord) } }, null, 2),
      '.github/skills/release-check/SKILL.md':
        '---\nname: release-check\ndescription: Checks a release before it ships\n---\n\nCheck the release.\n',
    },
  });
  const { page } = ui;
  await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
  await page.locator('[aria-label^="MCP Prompts: 1 running"]').first().waitFor({ timeout: 120000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const row = (name, text) =>
    page
      .locator('.pane-body .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) })
      .filter({ hasText: text })
      .first();
  await row('demo', 'not started: workspace not trusted').waitFor({ timeout: 60000 });
  await row('ws-flow', 'not started: workspace not trusted').waitFor({ timeout: 60000 });
  // Hovered once its listing is in: the row is redrawn when its prompts come, and a redrawn row drops its hover.
  await row('flow', 'running · stdio · 3 prompts').hover();
  await page
    .locator('.monaco-hover, .workbench-hover')
    .filter({ hasText: `Defined in: ${path.join(copilotHome, 'mcp-config.json')}` })
    .first()
    .waitFor({ timeout: 60000 });
  await ui.screenshot('restricted');

  // Trusted: each of the repository's servers asks, naming its file; the person starts demo and declines ws-flow.
  await row('demo', 'not started: workspace not trusted').click();
  await page
    .getByRole('button', { name: /^Trust$/ })
    .first()
    .click();
  const dialog = page.locator('.monaco-dialog-box');
  const asked = new Set();
  while (asked.size < 2) {
    const box = dialog.filter({ hasText: /Start the MCP server "(demo|ws-flow)" defined in \.mcp\.json\?/ }).first();
    await box.waitFor({ timeout: 60000 });
    const name = /Start the MCP server "([^"]+)"/.exec(await box.innerText())[1];
    if (asked.has(name)) throw new Error(`consent for ${name} was asked twice`);
    asked.add(name);
    if (name === 'demo') await ui.screenshot('consent');
    await box.getByRole('button', { name: name === 'demo' ? 'Start Server' : 'Do Not Start', exact: true }).click();
    await dialog.filter({ hasText: `Start the MCP server "${name}"` }).waitFor({ state: 'hidden', timeout: 60000 });
  }
  const modal = page.locator('.monaco-modal-editor-block');
  if (await modal.isVisible())
    await modal.locator('.action-label.codicon-close, .action-label[aria-label^="Close"]').first().click();
  await page.locator('[aria-label^="MCP Prompts: 2 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await row('ws-flow', 'you declined').waitFor({ timeout: 60000 });
  // Hovered once its listing is in, as above (the row is redrawn when its prompts come, dropping its hover).
  await row('demo', 'running · stdio · 4 prompts').hover();
  await page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Defined in: .mcp.json' }).first().waitFor();
  await ui.screenshot('trusted');

  // The skill beside the repository's own skill in the chat's `/` list.
  await ui.waitForModel('Fake Echo');
  await ui.typeInChat('/', { send: false });
  const offered = page.locator('.suggest-widget .monaco-list-row');
  await offered.filter({ hasText: 'mcp-prompts' }).first().waitFor({ timeout: 60000 });
  await offered.filter({ hasText: 'release-check' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('slash-list');
  // The person asks through the skill; their request holds the values (see test/fake-model).
  const code = 'x = 1';
  const values = { prompt: 'demo.code_review', arguments: { code, language: 'python' } };
  await page.keyboard.type(`mcp-prompts review my code ${JSON.stringify(values)}`);
  await page.keyboard.press('Enter');
  // The agent lists the prompts, then asks for code_review: the confirmation shows every value.
  const ask = page
    .locator(`${SESSION} .chat-confirmation-widget2`)
    .filter({ hasText: 'Get the prompt code_review from the MCP server demo?' })
    .last();
  await ask.waitFor({ timeout: 120000 });
  const more = ask.getByText('Show More', { exact: true });
  if (await more.isVisible()) await more.click();
  const shown = (await ask.innerText()).replace(/\s+/g, ' ');
  assert.ok(shown.includes(`code: ${code}`), shown);
  assert.match(shown, /language: python/);
  await ask.scrollIntoViewIfNeeded();
  await ui.screenshot('skill-confirmation');
  await ask
    .locator('.chat-confirmation-widget-buttons a.monaco-text-button')
    .filter({ hasText: /^Allow Once$/ })
    .click();
  await ui.waitForSession(/<tool-call mcpPrompts_getPrompt [^>]*> \[user\] <tool-result /);
  const text = await ui.sessionText();
  const echo = text.slice(text.lastIndexOf('FAKE-MODEL received'));
  // The skill reached the model whole, from the extension; the model followed it: list, then get.
  assert.match(echo, /<skill [^>]*\/skills\/mcp-prompts\/SKILL\.md> --- name: mcp-prompts/);
  assert.match(
    echo,
    /<tool-call mcpPrompts_list \{\}> \[user\] <tool-result The MCP prompts the user's servers offer, as JSON\./,
  );
  assert.match(echo, /\{"server":"flow","name":"echo"/, 'the user file server is listed too');
  assert.ok(
    echo.includes(`<tool-call mcpPrompts_getPrompt ${JSON.stringify(values)}> [user] <tool-result `),
    echo.slice(-600),
  );
  assert.match(echo, /The following was returned by the MCP server "demo" \(prompt demo\.code_review\)/);
  assert.doesNotMatch(echo, /ws-flow/, 'the declined server is not listed');
  await ui.screenshot('skill-followed');
  // Nothing was asked of the user's own server.
  assert.deepEqual(
    requests(record).filter(r => r.method === 'prompts/get'),
    [],
  );
  await declinedServer(ui, declinedRecord);
};

/** The server the person declined: the agent asked for it by name neither lists nor runs it. */
async function declinedServer(ui, declinedRecord) {
  await ui.typeInChat(
    `call mcpPrompts_list {"server":"ws-flow"} then call mcpPrompts_getPrompt ${JSON.stringify({ server: 'ws-flow', prompt: 'counted' })}`,
  );
  await ui.waitForSession(/<tool-call mcpPrompts_getPrompt [^>]*> \[user\] <tool-result <tool-error [^>]*>>/);
  const text = await ui.sessionText();
  const held = text.slice(text.lastIndexOf('FAKE-MODEL received'));
  assert.match(
    held,
    /<tool-call mcpPrompts_list \{"server":"ws-flow"\}> \[user\] <tool-result No MCP server "ws-flow" \(the servers: flow, demo\)>/,
  );
  assert.match(
    held,
    /<tool-error \w+: The prompt was not run: No MCP server "ws-flow" \(the servers: flow, demo\) Call mcpPrompts_list \(mcpPromptList\) to see the prompts/,
  );
  assert.deepEqual(requests(declinedRecord), [], 'the declined server received nothing (it never started)');
  await ui.screenshot('declined-server');
}

if (require.main === module) runStandalone(module, __filename);
