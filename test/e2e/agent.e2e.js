// Results that reach the user's work: a person runs `@mcp /rich-demo.rich_content`, sees one short row of
// actions under the transcript, uses More… → Insert into Chat Input (the text with roles, the resources as
// file chips, the image tool as a chip) and sends it (the agent gets the files and the image data), then
// Continue in Agent: a new agent chat whose history holds the prompt's earlier turns
// (roles kept) and whose request carries the resources as files. The fake default agent (test/fake-model)
// forwards what it receives to the fake model, which echoes it: the assertions read what reached the model.
// VS Code 1.139 drops image files attached from an extension's scheme, so the image goes through our image
// tool: the request names it with a handle and attaches the tool; the fake agent runs the tool call the
// fake model makes (as an agent does) and the model receives the image data in the tool result.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { openWorkbench, runStandalone, root, waitForFile } = require('./harness');

const SESSION = '.interactive-session';
const INPUT = '.interactive-input-part';

module.exports = async function agent(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const ui = await openWorkbench(ctx, {
    files: { '.vscode/mcp.json': JSON.stringify({ servers: { 'rich-demo': testServers()['rich-demo'] } }, null, 2) },
  });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

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
  await quick.locator('.monaco-list-row').filter({ hasText: 'Insert into Chat Input' }).first().click();
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
  await ui.runCommand('Preferences: Open User Settings');
  await page.locator('.settings-editor .suggest-input-container .monaco-editor').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('mcpPrompts.chat.afterGet');
  const setting = page.locator('.settings-editor .setting-item-contents').filter({ hasText: 'After Get' }).first();
  await setting.locator('select, .monaco-select-box').first().click({ timeout: 60000 });
  await page
    .locator('.monaco-select-box-dropdown-container .option-text')
    .filter({ hasText: /^agent$/ })
    .first()
    .click();
  const settingsFile = path.join(ui.host.userDataDir, 'User', 'settings.json');
  await waitForFile(
    () => /"mcpPrompts\.chat\.afterGet":\s*"agent"/.test(fs.readFileSync(settingsFile, 'utf8')),
    'chat.afterGet "agent" in the user settings',
  );
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
};

if (require.main === module) runStandalone(module, __filename);
