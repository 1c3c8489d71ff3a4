// The chat surface in the real VS Code: a plain message to the model, `@mcp /` completions, a prompt with
// inline arguments, one whose missing argument is asked for in the quick input with server completions,
// the rich transcript (text, image, audio, resources, link) with the fake model's streamed answer, /list,
// errors, server-everything. Then chat references as argument values (issue 13), typed as a person does
// with ONE Enter per request: `path=#selection` with a line selected in an editor, the same with VS Code's
// `#selection` suggestion taken (Tab: a real reference in request.references), and `#file:` written alone
// (it fills the first missing argument) and by name for a file outside the workspace. The flow fixture
// records every request, so each check reads what the server received; the transcript says which
// argument got which reference. Then the remaining commands (commands.js) in the same window.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, root, selectTopLines, waitForFrameValue } = require('./harness');
const { flowServer, nextGet: nextGetOf } = require('./flow-record');
const commands = require('./commands');

const NOTES = 'alpha line to review\nbeta line\n';
const PICKED = 'picked by #file\n';
const OUTSIDE = 'outside the workspace ✓\n';

const SESSION = '.interactive-session';

/** The test servers and the flow fixture, recording what it receives into `record`. */
async function mcpJson(record) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  return JSON.stringify({ servers: { ...testServers(), flow: flowServer(record) } }, null, 2);
}

/** Clears the chat input (the previous request's text is gone after sending, but not after completion). */
async function clearInput(ui) {
  const { page } = ui;
  await page.keyboard.press('Escape');
  await ui.focusChatInput();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
}

/** The chat list scrolls itself (no native scrolling): wheel up until `target` is inside the list's box. */
async function scrollChatTo(page, target) {
  const list = page.locator(`${SESSION} .interactive-list`).first();
  const box = await list.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 60; i++) {
    const t = await target.boundingBox();
    if (t && t.y >= box.y && t.y + t.height <= box.y + box.height) return;
    await page.mouse.wheel(0, t && t.y > box.y + box.height ? 150 : -150);
    await page.waitForFunction(() => true); // let the list re-render before measuring again
  }
  throw new Error('could not scroll the chat to the element');
}

module.exports = async function chat(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-refs-'));
  ctx.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
  const record = path.join(dir, 'requests.jsonl');
  const outside = path.join(dir, 'outside.txt');
  fs.writeFileSync(outside, OUTSIDE);
  const ui = await openWorkbench(ctx, {
    files: { '.vscode/mcp.json': await mcpJson(record), 'notes.txt': NOTES, 'data/picked.txt': PICKED },
  });
  const { page } = ui;

  // Our status bar item says when every server is up (the one without a number is VS Code's own MCP).
  await page.locator('[aria-label^="MCP Prompts: 7 running, 0 failing"]').first().waitFor({ timeout: 120000 });

  // 0. A plain message (no participant) reaches the selected model, the deterministic Fake Echo, and its
  // streamed answer is rendered: what every answer below is read from.
  await ui.typeInChat('hello from the chat test');
  await ui.waitForText('FAKE-MODEL received 1 messages: [user] hello from the chat test', { within: SESSION });

  // 1. Completion of prompt names while typing after `@mcp /`.
  await ui.typeInChat('@mcp /rich', { send: false });
  const suggest = page.locator('.suggest-widget .monaco-list-row');
  await suggest.filter({ hasText: '/rich_content' }).first().waitFor({ timeout: 120000 });
  await suggest.filter({ hasText: '/rich-demo.rich_content' }).first().waitFor();
  await ui.screenshot('completions');
  await clearInput(ui);
  // /list and /help are offered while typing (by our completion, not as static participant commands).
  await ui.typeInChat('@mcp /li', { send: false });
  await suggest.filter({ hasText: '/list' }).first().waitFor({ timeout: 60000 });
  await clearInput(ui);

  // ... then argument names (a name taken from the list with Enter goes on to them), then values
  // from completion/complete.
  await ui.typeInChat('@mcp /pick_fr', { send: false });
  await suggest.filter({ hasText: '/pick_framework' }).first().waitFor({ timeout: 60000 });
  await page.keyboard.press('Enter');
  await suggest.filter({ hasText: 'language=' }).first().waitFor({ timeout: 60000 });
  await page.waitForFunction(
    () =>
      /@mcp \/pick_framework $/.test(
        document
          .querySelector('.interactive-input-part .monaco-editor .view-lines')
          ?.textContent.replace(/\u00a0/g, ' ') ?? '',
      ),
    undefined,
    { timeout: 60000 },
  );
  await suggest.filter({ hasText: 'framework=' }).first().waitFor();
  await page.keyboard.type('language=py');
  await suggest.filter({ hasText: 'python' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('argument-value-completions');
  await clearInput(ui);

  // 2. Inline arguments (named and quoted), then the fake model's answer streamed below the transcript.
  await ui.typeInChat('@mcp /code_review language=python code="print(42)"');
  await ui.waitForText('Please review this python:', { within: SESSION });
  await ui.waitForText(/FAKE-MODEL received 1 messages: \[user\] Please review this python/, { within: SESSION });
  await ui.screenshot('inline-args');

  // 3. A missing required argument is asked for; the items come from completion/complete with context.
  await ui.typeInChat('@mcp /pick_framework language=python');
  const quick = page.locator('.quick-input-widget');
  await quick.getByText('framework (required)').first().waitFor({ timeout: 120000 });
  const rows = quick.locator('.monaco-list-row');
  for (const fw of ['django', 'fastapi', 'flask']) await rows.filter({ hasText: fw }).first().waitFor();
  await ui.screenshot('quick-input');
  await rows.filter({ hasText: 'fastapi' }).first().click();
  await ui.waitForText('Use fastapi with python', { within: SESSION });

  // 4. Every content type, roles kept; the image renders inline from a data: URI.
  await ui.typeInChat('@mcp /rich_content');
  await ui.waitForText('audio.wav', { within: SESSION });
  await ui.waitForText('— audio/wav · 1.0 s · 15.7 KB', { within: SESSION });
  const img = page.locator(`${SESSION} img[src^="data:image/png;base64,"]`).first();
  await img.waitFor({ timeout: 60000 });
  const size = await img.evaluate(el => [el.naturalWidth, el.naturalHeight]);
  assert.deepEqual(size, [64, 64], 'the PNG decoded in the browser');
  await ui.waitForText(/— text\/markdown · \d+ B · file:\/\/\/demo\/notes\.md/, { within: SESSION });
  await ui.waitForText('— application/octet-stream · 8 B · file:///demo/data.bin', { within: SESSION });
  await ui.waitForText(/— Demo README · The README of the demo server.* · demo:\/\/docs\/readme/, { within: SESSION });
  await ui.waitForText('For the assistant only:', { within: SESSION });
  await ui.waitForText('FAKE-MODEL received 4 messages: [user] # Rich content', { within: SESSION });
  // The image went to the model as image data (the echo sits inside a code block, so read the text).
  await ui.waitForSession(/<image image\/png \d+ bytes>/, { timeout: 60000 });
  // For the screenshot only: the chat list may re-render the last item while it is being scrolled to.
  for (let i = 0; ; i++) {
    try {
      await page.locator(`${SESSION} .interactive-item-container`).last().scrollIntoViewIfNeeded({ timeout: 20000 });
      break;
    } catch (e) {
      if (i >= 4 || !/not attached/.test(e.message)) throw e;
    }
  }
  await ui.screenshot('rich-transcript');

  // Opening the embedded resource shows it read-only as a document.
  const anchor = page.locator(SESSION).getByText('notes.md', { exact: true }).last();
  await scrollChatTo(page, anchor);
  await anchor.dispatchEvent('click'); // the sticky request header can cover it (see the audio anchor below)
  await page.locator('.tab').filter({ hasText: 'notes.md' }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('resource-opened');

  // The audio anchor opens VS Code's media preview, which plays the bytes served from memory
  // (mcp-prompts-media:, nothing written to disk): the player knows the clip's 1.0 s duration.
  const audioAnchor = page.locator(SESSION).getByText('audio.wav', { exact: true }).last();
  await scrollChatTo(page, audioAnchor);
  // The chat's sticky request header can cover the anchor: deliver the click to the anchor itself.
  await audioAnchor.dispatchEvent('click');
  await page.locator('.tab').filter({ hasText: 'audio.wav' }).first().waitFor({ timeout: 60000 });
  const duration = await waitForFrameValue(
    page,
    () => {
      const a = document.querySelector('audio');
      return a && a.readyState >= 1 ? a.duration : undefined;
    },
    'the audio preview to load the clip',
  );
  if (Math.abs(duration - 1) > 0.05) throw new Error(`the audio preview did not load the clip (duration ${duration})`);
  await ui.screenshot('audio-preview');

  // 5. /list groups every prompt by server; typed in full, one Enter sends it (no suggestion takes it).
  await ui.typeInChat('@mcp /list');
  // Each server is a heading of its own.
  await page.locator(SESSION).getByRole('heading', { name: 'rich-demo', exact: true }).first().waitFor();
  await ui.waitForSession(/\/rich_content/);
  await ui.waitForSession(/\/args-prompt\scity\*,\sstate/);
  await ui.waitForSession(/\/p23\stopic/);
  await ui.screenshot('list-one-enter');

  // 6. Errors name the cause and leave the chat working.
  await ui.typeInChat('@mcp /no_such_prompt');
  await ui.waitForText('No prompt named "no_such_prompt"', { within: SESSION });
  await ui.typeInChat('@mcp /everything.args-prompt city=Berlin');
  await ui.waitForText("What's weather in Berlin?", { within: SESSION });
  // server-everything's completable prompt: `name` is completed from the department given inline.
  await ui.typeInChat('@mcp /everything.completable-prompt department=Engineering');
  await quick.getByText('name (required)').first().waitFor({ timeout: 120000 });
  await rows.filter({ hasText: 'Alice' }).first().click();
  await ui.waitForText('Please promote Alice to the head of the Engineering team.', { within: SESSION });
  await ui.typeInChat('@mcp /everything.resource-prompt resourceType=Text resourceId=1');
  await ui.waitForText('This prompt includes the Text resource with id: 1.', { within: SESSION });
  await ui.typeInChat('@mcp /everything.simple-prompt');
  await ui.waitForText('This is a simple prompt without arguments.', { within: SESSION });
  await ui.screenshot('everything-and-errors');

  const nextGet = (before, what) => nextGetOf(page, record, 'echo', before, what, 60000);
  const sorted = o => JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1))));
  const expect = (got, want) => {
    if (sorted(got.args) !== sorted(want))
      throw new Error(`the server received ${JSON.stringify(got.args)}, wanted ${JSON.stringify(want)}`);
  };

  // A line selected in notes.txt, opened with Go to File.
  await selectTopLines(page, 'notes.txt', 'alpha line');

  // 7. `path=#selection` typed out, one Enter.
  await ui.typeInChat('@mcp /flow.echo path=#selection größe=3');
  expect(await nextGet(0, 'echo with #selection'), { path: 'alpha line to review', größe: '3' });
  await ui.waitForSession(/path ← selection in notes\.txt, line 1/);
  await ui.screenshot('selection');

  // 8. The same with VS Code's #selection suggestion taken: it arrives as a reference (a Location).
  await ui.typeInChat('@mcp /flow.echo größe=4 path=#selec', { send: false });
  await page
    .locator('.suggest-widget .monaco-list-row')
    .filter({ hasText: '#selection' })
    .first()
    .waitFor({ timeout: 30000 });
  await page.keyboard.press('Tab');
  await page
    .locator('.interactive-input-part')
    .getByText(/#file:notes\.txt:1-1/)
    .first()
    .waitFor({ timeout: 30000 });
  await ui.screenshot('selection-reference');
  await page.keyboard.press('Enter');
  expect(await nextGet(1, 'echo with the #selection reference'), { path: 'alpha line to review', größe: '4' });
  await ui.waitForSession(/path ← notes\.txt, line 1/);

  // 9. `#file:` alone fills the first missing argument; by name, a file outside the workspace (its full path shown).
  await ui.typeInChat(`@mcp /flow.echo #file:data/picked.txt größe=#file:${outside}`);
  expect(await nextGet(2, 'echo with #file references'), { path: PICKED, größe: OUTSIDE });
  await ui.waitForSession(/path ← data\/picked\.txt/);
  await ui.waitForSession(new RegExp(`größe ← ${outside.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  await ui.screenshot('file');
  await commands(ui, { record, running: 7 });
};

if (require.main === module) runStandalone(module, __filename);
