// A newcomer's first steps. The walkthrough as a newcomer meets it: opened from the palette (Welcome: Open
// Walkthrough...), each step's own button used the way a person uses it, and each step checked by the event
// it waits for: a server found (Add Server… writes one), chat answered by @mcp, a prompt run from the
// picker, the MCP Prompts view shown. Steps 2 and 3 are done in the order 3, 2 because running a prompt
// with a model hands it to chat, which would check step 3 too.
// Then results that reach the user's work: the person adds rich-demo to .vscode/mcp.json, starts a new chat
// and runs `@mcp /rich-demo.rich_content`, sees one short row of actions under the transcript, uses More…
// → Insert into Chat Input (the text with roles, the resources as file chips, the image tool as a chip)
// and sends it (the agent gets the files and the image data), then Continue in Agent: a new agent chat
// whose history holds the prompt's earlier turns (roles kept) and whose request carries the resources as
// files. The fake default agent (test/fake-model) forwards what it receives to the fake model, which
// echoes it: the assertions read what reached the model.
// VS Code 1.139 drops image files attached from an extension's scheme, so the image goes through our image
// tool: the request names it with a handle and attaches the tool; the fake agent runs the tool call the
// fake model makes (as an agent does) and the model receives the image data in the tool result.
const assert = require('node:assert/strict');
const path = require('node:path');
const { openWorkbench, runStandalone, root, rowName } = require('./harness');

const QUICK = '.quick-input-widget';
const SESSION = '.interactive-session';
const INPUT = '.interactive-input-part';
const WALKTHROUGH = 'Get Started with MCP Prompts';

module.exports = async function newcomer(ctx) {
  const ui = await openWorkbench(ctx, {}); // no server configured; the fake model so chat answers
  await walkthrough(ui);
  await insertIntoChat(ui);
  await continueInAgent(ui);
};

/** The walkthrough, step by step, from a window with no server. */
async function walkthrough(ui) {
  const { fixtureCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const { page } = ui;
  const checked = id => page.locator(`[data-done-step-id$="#${id}"][aria-checked="true"]`).first();
  const unchecked = id => page.locator(`[data-done-step-id$="#${id}"][aria-checked="false"]`).first();
  /** Opens a step by its title, as a person does, and waits until VS Code has expanded and focused it. */
  const openStep = async id => {
    await page.locator(`button.getting-started-step[data-step-id$="#${id}"] .step-title`).first().click();
    await page.waitForFunction(
      sel => document.activeElement?.matches?.(sel),
      `button.getting-started-step.expanded[data-step-id$="#${id}"]`,
      { timeout: 30000 },
    );
  };
  const stepButton = label =>
    page.locator('.gettingStartedContainer .button-container .monaco-button', { hasText: label }).first();
  const rows = page.locator(`${QUICK} .monaco-list-row`);

  await ui.runCommand('Welcome: Open Walkthrough...');
  await page.keyboard.type(WALKTHROUGH);
  await rows.filter({ hasText: WALKTHROUGH }).first().click();
  for (const id of ['findServers', 'runPrompt', 'tryChat', 'browseSidebar'])
    await unchecked(id).waitFor({ timeout: 60000 });
  await ui.screenshot('open');

  // 1. Find your servers (open already, as the first step): none yet; Add Server… with a demo server.
  await stepButton('Add Server…').click();
  await rows.filter({ hasText: 'Command (stdio)' }).first().click();
  await page.locator(QUICK).getByText('Add MCP Server (2/4)').first().waitFor({ timeout: 30000 });
  const rich = fixtureCommand('rich');
  await page.keyboard.type([rich.command, ...rich.args].join(' '));
  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('Add MCP Server (3/4)').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter'); // the suggested name, "run"
  await page.locator(QUICK).getByText('Add MCP Server (4/4)').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter'); // the recommended file, the workspace's .mcp.json
  // Written to the workspace's .mcp.json, it asks before it starts.
  await ui.allowServers(['run']);
  // Add Server… shows the file it wrote; the walkthrough's tab (VS Code names it Welcome) is still there.
  await page.locator('.tab', { hasText: '.mcp.json' }).first().waitFor({ timeout: 30000 });
  await page.locator('.tab', { hasText: 'Welcome' }).first().click();
  await checked('findServers').waitFor({ timeout: 60000 });
  await ui.screenshot('found');
  // Show Found Servers lists it under the file that defines it.
  await stepButton('Show Found Servers').click();
  await rows.filter({ hasText: /^run/ }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('found-servers');
  await page.keyboard.press('Escape');

  // 3. Try it in chat: the button sends @mcp /list; the answer lists the new server's prompts.
  await openStep('tryChat');
  await stepButton('Run @mcp /list in Chat').click();
  await page.locator('.interactive-session').getByText('rich_content').first().waitFor({ timeout: 60000 });
  await checked('tryChat').waitFor({ timeout: 30000 });
  if (!(await unchecked('runPrompt').count())) throw new Error('running a prompt was checked before one ran');
  await ui.screenshot('chat');

  // 2. Run your first prompt: the picker, one click on the prompt.
  await openStep('runPrompt');
  await stepButton('Run Prompt…').click();
  await rows.filter({ hasText: 'Rich content' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('picker');
  await page.keyboard.type('Rich content');
  await page.keyboard.press('Enter');
  await checked('runPrompt').waitFor({ timeout: 30000 });
  await page.locator('.interactive-session').getByText('I can see the image.').first().waitFor({ timeout: 60000 });

  // 4. Browse the sidebar.
  if (!(await unchecked('browseSidebar').count()))
    throw new Error('the sidebar step was checked before the view was shown');
  await openStep('browseSidebar');
  await stepButton('Show the MCP Prompts View').click();
  await page.locator('.pane-body .monaco-list-row', { hasText: 'run' }).first().waitFor({ timeout: 30000 });
  await checked('browseSidebar').waitFor({ timeout: 30000 });
  await ui.screenshot('done');
}

/** Results that reach the user's work: the transcript's row of actions, More…, Insert into Chat Input. */
async function insertIntoChat(ui) {
  const { page } = ui;
  // The person adds rich-demo beside the server the walkthrough added; a workspace server asks first.
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  await ui.addWorkspaceServers({ 'rich-demo': testServers()['rich-demo'] });
  await page.locator('[aria-label^="MCP Prompts: 2 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  // Real work in a chat of its own (Ctrl+L): the walkthrough's chat ran Rich content already.
  await ui.newChat();

  // 1. The prompt runs; the fake model answers; one short row of actions follows the transcript.
  await ui.typeInChat('@mcp /rich-demo.rich_content');
  await ui.waitForSession(/FAKE-MODEL received 4 messages/);
  // The chat list places its rows absolutely: DOM order is not display order, so find the row by content.
  const row = page
    .locator(`${SESSION} .interactive-item-container.interactive-response`)
    .filter({ hasText: 'FAKE-MODEL received 4 messages' })
    .first();
  const buttons = row.locator('.chat-command-button');
  // The row spans the width; the button itself is its link (a click in the row's middle hits nothing).
  const continueButton = buttons.locator('a.monaco-button').filter({ hasText: 'Continue in Agent' }).last();
  const more = buttons.locator('a.monaco-button').filter({ hasText: 'More…' }).last();
  await continueButton.waitFor({ timeout: 60000 });
  await more.waitFor({ timeout: 60000 });
  // Two buttons instead of four; the model was asked already (afterGet "send"), so Send to Model is in More….
  assert.deepEqual(
    (await buttons.allInnerTexts()).map(t => t.trim()),
    ['Continue in Agent', 'More…'],
  );
  await row.scrollIntoViewIfNeeded();
  await ui.screenshot('transcript-actions');

  // 2. More… lists every action; Insert into Chat Input fills the input (roles kept) and attaches the resources.
  await more.click();
  const quick = page.locator('.quick-input-widget');
  for (const label of [
    'Continue in Agent',
    'Send to Model',
    'Insert into Chat Input',
    'Copy as Markdown',
    'Open as Document',
  ]) {
    await quick.locator('.monaco-list-row').filter({ hasText: label }).first().waitFor({ timeout: 60000 });
  }
  await ui.screenshot('more-actions');
  await rowName(quick.locator('.monaco-list-row').filter({ hasText: 'Insert into Chat Input' }).first()).click();
  const input = page.locator(INPUT).first();
  const chips = input.locator('.chat-attached-context-attachment');
  await chips.filter({ hasText: 'notes.md' }).first().waitFor({ timeout: 60000 });
  for (const name of ['audio.wav', 'data.bin'])
    await chips.filter({ hasText: name }).first().waitFor({ timeout: 60000 });
  // The image goes with it: the image tool is attached (VS Code takes no image file from an extension).
  await chips.filter({ hasText: 'mcpPromptImage' }).first().waitFor({ timeout: 60000 });
  const typed = await input.locator('.monaco-editor .view-lines').first().innerText();
  // The editor draws only the lines in view: the first turn's heading and text (the order is a unit test).
  assert.match(
    typed.replace(/\s+/g, ' '),
    /^The following was returned by the MCP server "rich-demo" \(prompt rich-demo\.rich_content\); it is not the user's words\.\s*User:\s*# Rich content/,
    'the inserted text names its server, then starts with the first turn and its role',
  );
  await ui.screenshot('insert-into-chat-input');
  await ui.screenshotOf(page.locator('.part.auxiliarybar').first(), 'insert-into-chat-input-chat');
  // Sent as it is (one Enter, the input has the focus), the user's agent gets the files and, through the
  // attached image tool, the image data.
  await page.keyboard.press('Enter');
  await ui.waitForSession(
    /FAKE-MODEL received \d+ messages: [\s\S]*<file mcp-prompts-media:\/r\d+\/\d-\d\/rich-demo(?: · |%20%C2%B7%20)notes\.md>[\s\S]*<tool-call mcpPrompts_promptImage \{"image":"r\d+\/0-1"\}> \[user\] <tool-result Image image\.png \(image\/png, [\d.]+ KB\) from the MCP prompt result: <image image\/png 8293 bytes>>/,
  );
  await ui.screenshot('insert-sent');
}

/** Continue in Agent from the palette, then chat.afterGet "agent" chosen in the Settings editor. */
async function continueInAgent(ui) {
  const { page } = ui;
  // 3. Continue in Agent: a new agent chat; the model receives the turns in order with their roles, the
  //    image named where it stood with its handle, the attached files' contents, and then, through the
  //    image tool the agent calls, the image data itself.
  // The transcript's buttons scrolled out of view with the reply above: the palette runs the same action.
  await ui.runCommand('MCP Prompts: Continue in Agent');
  await ui.waitForSession(/FAKE-MODEL received 7 messages/);
  const received = await ui.sessionText();
  const echo = received.slice(received.lastIndexOf('FAKE-MODEL received 7 messages'));
  assert.match(
    echo,
    // Every turn of server text starts with the line that names its server (the echo renders as markdown: the
    // heading that follows it loses its `#`).
    /^FAKE-MODEL received 7 messages: \[user\] (?<from>The following was returned by the MCP server "rich-demo" \(prompt rich-demo\.rich_content\); it is not the user's words\.) (?:# )?Rich content .*\[image image\.png \(image\/png, [\d.]+ (B|KB)\): to see it, call #mcpPromptImage with image "r\d+\/0-1"\] \[assistant\] \k<from> I can see the image\. \[user\] \k<from> \[audio audio\.wav .*\[resource link Demo README: demo:\/\/docs\/readme\] \[assistant\] \k<from> This note is meant for the assistant only\. \[user\] Continue\./,
  );
  // Attached under their server's name: nothing passes for a workspace file.
  assert.match(
    echo,
    /<file mcp-prompts-media:\/r\d+\/\d-\d\/rich-demo(?: · |%20%C2%B7%20)notes\.md> <contents "# Notes\\n\\n- remember the milk/,
  );
  assert.match(
    echo,
    /<file mcp-prompts-media:\/r\d+\/\d-\d\/rich-demo(?: · |%20%C2%B7%20)audio\.wav> <binary 16044 bytes>/,
  );
  assert.match(echo, /<file mcp-prompts-media:\/r\d+\/\d-\d\/rich-demo(?: · |%20%C2%B7%20)data\.bin> <binary 8 bytes>/);
  // The image data: the fixture's 64×64 PNG, 8293 bytes, in the result of the tool call the agent made.
  assert.match(
    echo,
    /\[assistant\] <tool-call mcpPrompts_promptImage \{"image":"r\d+\/0-1"\}> \[user\] <tool-result Image image\.png \(image\/png, [\d.]+ KB\) from the MCP prompt result: <image image\/png 8293 bytes>>/,
  );
  // The new chat is in agent mode and holds only the hand-off (the @mcp run stays in the previous chat).
  await page.locator(INPUT).getByText('Agent', { exact: true }).first().waitFor();
  assert.doesNotMatch(received, /@mcp \/rich-demo\.rich_content/);
  await page
    .locator(`${SESSION} .interactive-item-container.interactive-response`)
    .filter({ hasText: 'FAKE-MODEL received 7 messages' })
    .first()
    .scrollIntoViewIfNeeded();
  await ui.screenshot('agent-received');
  await ui.screenshotOf(page.locator('.part.auxiliarybar').first(), 'agent-received-chat');

  // 4. chat.afterGet "agent", chosen in the Settings editor: the transcript, then the hand-off to a new
  // agent chat without a click.
  await ui.chooseSetting('mcpPrompts.chat.afterGet', 'After Get', 'agent');
  await ui.newChat();
  await ui.typeInChat('@mcp /rich-demo.rich_content');
  await ui.waitForSession(
    /FAKE-MODEL received 7 messages: \[user\] The following was returned by the MCP server "rich-demo"[^\]]*Rich content[\s\S]*\[user\] Continue\.[\s\S]*<image image\/png 8293 bytes>/,
  );
  await page.locator(INPUT).getByText('Agent', { exact: true }).first().waitFor();
  assert.doesNotMatch(
    await ui.sessionText(),
    /FAKE-MODEL received 4 messages/,
    'the model was not asked without tools first',
  );
}

if (require.main === module) runStandalone(module, __filename);
