// Hostile server text through the real UI (server-content.e2e.js, after the skills): a text part that opens an HTML comment (`<!--`) shows as text,
// and what follows it stays visible, in chat and in the transcript document (markdown preview); /list
// keeps a hostile argument name inside its code span (no heading, no link) and marks a look-alike name,
// as does the Run Prompt picker; a line-wrapped base64 image renders. `@mcp /list` and `@mcp /help`, typed
// in full, send on one Enter although prompts start with those words or match them loosely
// (`list_everything`, `lint_issue_summary_text`, `hostile.missing-content`, `help_desk`, `hello_planet`).
// Then what a hostile server (test/fixtures/hostile-server.mjs, as `trap`) can make the window do:
// 1. its completion for `code=` is `#file:secret.txt`: taken with Tab and sent with one Enter, the server
//    receives those words, not the contents of secret.txt (the value is written as the invocation rule
//    writes it: quoted);
// 2. its text hides an HTML comment and a remote image behind code spans that cross lines and table
//    cells: saved with "Save Last Result as .prompt.md" and opened as a document (markdown preview), all of
//    it shows as text and the image is never requested;
// 3. its prompt title imitates the picker's status row of a failing server (`$(error) github failed`):
//    the picker shows the words, not an error icon.
// A server named `gіthub` (a Cyrillic "і") is marked as a look-alike in /list and on its sidebar row.
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { root, rowName, waitForFile, waitForFrameValue } = require('./harness');
const { requests } = require('./flow-record');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';
const SECRET = 'TOP-SECRET-CONTENTS-5d1e';

/** The Enter sent the request: the chat input is empty again (a suggestion taken instead leaves the line in it). */
async function chatInputEmptied(page) {
  await page.waitForFunction(
    () => {
      const lines = document.querySelector('.interactive-input-part .monaco-editor .view-lines');
      return lines !== null && lines.textContent.replace(/\u00a0/g, ' ').trim() === '';
    },
    undefined,
    { timeout: 60000 },
  );
}

/** A TCP listener that counts connections: an image fetched over http or https connects to it first. */
async function connectionCounter() {
  const seen = { count: 0 };
  const server = net.createServer(socket => {
    seen.count++;
    socket.destroy();
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    seen,
    close: () => new Promise(resolve => server.close(resolve)),
  };
}

/** In the open window `ui` (server-content.e2e.js), where `running` servers run already. */
module.exports = async function hostileServers(ctx, ui, { running }) {
  const { faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const stdio = fault => ({ type: 'stdio', ...faultyCommand(fault) });
  const hostileText = await import(path.join(root, 'test', 'fixtures', 'lib', 'hostile-text.mjs'));
  const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-hostile-')), 'requests.jsonl');
  ctx.defer(() => fs.rmSync(path.dirname(record), { recursive: true, force: true }));
  const pixel = await connectionCounter();
  ctx.defer(() => pixel.close());
  const trap = {
    type: 'stdio',
    command: process.execPath,
    args: [path.join(root, 'test', 'fixtures', 'hostile-server.mjs')],
    env: { HOSTILE_RECORD: record, HOSTILE_PIXEL_URL: `https://127.0.0.1:${pixel.port}/pixel.png` },
  };
  const { page } = ui;
  // The transcript shown, not sent (chat.afterGet "show", chosen in the Settings editor), in a new chat;
  // then the person adds the servers, with a secret file beside them.
  await ui.chooseSetting('mcpPrompts.chat.afterGet', 'After Get', 'show');
  await ui.newChat();
  fs.writeFileSync(path.join(ui.host.workspace, 'secret.txt'), `${SECRET}\n`);
  await ui.addWorkspaceServers({
    hostile: stdio('content'),
    names: stdio('hostile-names'),
    words: stdio('word-like-names'),
    trap,
    'g\u0456thub': stdio('duplicate-names'),
  });
  await page
    .locator(`[aria-label^="MCP Prompts: ${running + 5} running, 0 failing"]`)
    .first()
    .waitFor({ timeout: 120000 });

  // 1. Chat: the comment opener is text, and the part after it is there too.
  await ui.typeInChat('@mcp /hostile.html-comment');
  await ui.waitForText('still here', { within: SESSION });
  await ui.waitForText('<!-- everything after this comment opener is hidden in a preview', { within: SESSION });
  await ui.screenshot('chat-html-comment');

  // 2. The same transcript as a document (markdown preview): the opener shows, nothing after it is hidden.
  // Under the transcript: Continue in Agent and More…; Open as Document is one of More…'s actions.
  await page.locator(`${SESSION} a.monaco-button`).filter({ hasText: 'More…' }).last().click();
  await rowName(page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'Open as Document' }).first()).click();
  // Only the preview's own frame (the workbench frame shows the chat's copy of the same text).
  const preview = await waitForFrameValue(
    page,
    () => {
      if (window === window.top) return undefined;
      const headings = [...document.querySelectorAll('h1, h3')].map(h => h.textContent);
      return headings.some(h => h.includes('html-comment')) && headings.some(h => h.includes('User'))
        ? document.body.innerText
        : undefined;
    },
    'the transcript in the markdown preview',
  );
  if (
    !preview.includes('<!-- everything after this comment opener is hidden in a preview') ||
    !preview.includes('still here')
  ) {
    throw new Error(`the preview hides text: ${JSON.stringify(preview)}`);
  }
  await ui.screenshot('preview-html-comment');

  // 3. A base64 image wrapped at 76 columns renders (1×1 PNG).
  await ui.typeInChat('@mcp /hostile.wrapped-image');
  const img = page.locator(`${SESSION} img[src^="data:image/png;base64,"]`).last();
  await img.waitFor({ timeout: 60000 });
  await page.waitForFunction(el => el.complete && el.naturalWidth === 1, await img.elementHandle(), { timeout: 60000 });

  // 4. /list: the hostile argument name stays inside its code span; the look-alike name is marked.
  // Typed in full with one Enter, it sends: no row of a longer or loosely matching name takes the Enter.
  await ui.typeInChat('@mcp /list');
  await chatInputEmptied(page);
  await ui.waitForText(/mixes Latin \+ Cyrillic letters/, { within: SESSION });
  const list = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('.interactive-session .interactive-item-container')];
    const row = rows.reverse().find(r => r.textContent.includes('Fake heading'));
    if (!row) return { found: false };
    return {
      found: true,
      headings: [...row.querySelectorAll('h1, h2, h3, h4, h5, h6')].map(h => h.textContent.trim()),
      links: [...row.querySelectorAll('a')]
        .map(a => a.getAttribute('href') ?? a.getAttribute('data-href') ?? '')
        .filter(h => h.includes('evil')),
      inCode: [...row.querySelectorAll('code')].some(c =>
        c.textContent.includes('### Fake heading [click me](https://evil.example/)'),
      ),
    };
  });
  if (!list.found) throw new Error('the /list response was not found');
  if (list.headings.some(h => h.includes('Fake heading')) || list.links.length || !list.inCode)
    throw new Error(`the argument name escaped its code span: ${JSON.stringify(list)}`);
  // The three names that sanitise alike are all listed, each under its own invocation.
  const listed = await ui.sessionText();
  for (const name of ['/a_b ', '/a_b-2 ', '/a_b-3 '])
    if (!listed.includes(name)) throw new Error(`${name.trim()} is not in /list: ${listed}`);
  // The look-alike server name is marked at its heading.
  if (!listed.includes('g\u0456thub ⚠️ mixes Latin + Cyrillic letters: it may imitate another name'))
    throw new Error(`the look-alike server name is not marked in /list: ${listed}`);
  await ui.screenshot('list-hostile-names');

  // 4b. /help and a name that starts with `list`, typed in full: one Enter each runs what was typed.
  await ui.typeInChat('@mcp /help');
  await chatInputEmptied(page);
  await ui.waitForText('runs the prompts of your MCP servers', { within: SESSION });
  await ui.typeInChat('@mcp /list_everything');
  await chatInputEmptied(page);
  await ui.waitForText('ran list_everything', { within: SESSION });
  const ran = (await ui.sessionText()).match(/ran (\w+)/g);
  if (JSON.stringify(ran) !== JSON.stringify(['ran list_everything']))
    throw new Error(`another prompt ran: ${JSON.stringify(ran)}`);
  await ui.screenshot('help-and-list-prefix-one-enter');

  // 5. The picker marks the look-alike name where the user picks it.
  await ui.openRunPrompt();
  await page.keyboard.type('ploy');
  const row = page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'mixes Latin + Cyrillic letters' }).first();
  await row.waitFor({ timeout: 60000 });
  await ui.screenshot('picker-look-alike');
  await page.keyboard.press('Escape');

  // 5b. The sidebar marks the look-alike server name on its row.
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  await page
    .locator('.pane-body .monaco-list-row')
    .filter({ hasText: 'g\u0456thub' })
    .filter({ hasText: '⚠ mixes Latin + Cyrillic letters: it may imitate another name' })
    .first()
    .waitFor({ timeout: 60000 });
  await ui.screenshot('tree-look-alike-server');

  // 6. trap's completion is taken (Tab) and the line sent with one Enter.
  await ui.typeInChat('@mcp /trap.review code=', { send: false });
  const suggest = page.locator('.suggest-widget .monaco-list-row');
  await suggest.filter({ hasText: hostileText.REFERENCE_VALUES[0] }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('reference-completion');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await waitForFile(
    () => requests(record).some(r => r.method === 'prompts/get' && r.name === 'review'),
    'the prompts/get of review',
  );
  const got = requests(record).find(r => r.method === 'prompts/get' && r.name === 'review');
  if (got.args.code !== hostileText.REFERENCE_VALUES[0])
    throw new Error(
      `the server received ${JSON.stringify(got.args)}, not the words ${hostileText.REFERENCE_VALUES[0]}`,
    );
  await ui.waitForText(`REVIEW code=«${hostileText.REFERENCE_VALUES[0]}»`, { within: SESSION });
  await ui.screenshot('reference-sent-as-words');

  // 7. Text that hides a comment and an image behind code spans, saved as a .prompt.md file.
  await ui.typeInChat('@mcp /trap.hidden_text');
  await ui.waitForText(hostileText.VISIBLE_END, { within: SESSION });
  await ui.runCommand('MCP Prompts: Save Last Result as .prompt.md…');
  const saved = path.join(ui.host.workspace, '.github', 'prompts', 'hidden_text.prompt.md');
  await page.waitForFunction(
    () =>
      /hidden_text\.prompt\.md$/.test(
        document.querySelector(`.quick-input-widget .quick-input-box input`)?.value ?? '',
      ),
    undefined,
    { timeout: 60000 },
  );
  await page.keyboard.press('Enter');
  // The web window's file dialog asks to create the folder .github/prompts: a person says OK.
  await page
    .locator(QUICK)
    .getByText('does not exist. Would you like to create it?')
    .first()
    .waitFor({ timeout: 60000 });
  await page.locator(`${QUICK} .monaco-button`).filter({ hasText: /^OK$/ }).first().click();
  // Written by creating the file, then writing: an empty file is still being written.
  await waitForFile(() => fs.existsSync(saved) && fs.statSync(saved).size > 0, 'the saved .prompt.md file');
  const markdown = fs.readFileSync(saved, 'utf8');
  const MarkdownIt = require('markdown-it');
  const walk = tokens => tokens.flatMap(t => [t, ...(t.children ? walk(t.children) : [])]);
  const raw = walk(new MarkdownIt({ html: true, linkify: true }).parse(markdown, {})).filter(t =>
    /^(html_block|html_inline|image)$/.test(t.type),
  );
  if (raw.length)
    throw new Error(`the saved file renders raw HTML or an image: ${JSON.stringify(raw.map(t => t.content))}`);

  // ... and the same transcript as a document (the markdown preview): everything shows, nothing is fetched.
  await page.locator(`${SESSION} a.monaco-button`).filter({ hasText: 'More…' }).last().click();
  await rowName(page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'Open as Document' }).first()).click();
  // Only the preview's own frame, once the end of the text is there (an expression: the frame gets no arguments).
  const hiddenPreview = await waitForFrameValue(
    page,
    `window !== window.top && document.body.innerText.includes(${JSON.stringify(hostileText.VISIBLE_END)}) &&
      { text: document.body.innerText, images: [...document.querySelectorAll('img')].map(i => i.src) }`,
    'the transcript in the markdown preview',
  );
  if (!hiddenPreview.text.includes(hostileText.HIDDEN_MARK))
    throw new Error(`the preview hides ${hostileText.HIDDEN_MARK}: ${hiddenPreview.text}`);
  if (hiddenPreview.images.length) throw new Error(`the preview has images: ${hiddenPreview.images.join(', ')}`);
  await ui.screenshot('hidden-text-shown');
  if (pixel.seen.count) throw new Error(`the remote image was requested ${pixel.seen.count} times`);

  // 8. A prompt title that imitates the picker's row of a failing server shows its words, not an icon.
  await ui.openRunPrompt();
  await page.keyboard.type('github failed');
  const statusRow = page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'github failed' }).first();
  await statusRow.waitFor({ timeout: 60000 });
  const shown = await statusRow.evaluate(el => ({
    label: (el.querySelector('.label-name')?.textContent ?? '').replace(/\u200b/g, ''),
    icons: [...el.querySelectorAll('.codicon')].map(i => i.className),
    detail: el.querySelector('.quick-input-list-label-meta, .monaco-icon-label-container + *')?.textContent ?? '',
  }));
  await ui.screenshot('status-title-as-words');
  if (!shown.label.includes(hostileText.STATUS_TITLE) || shown.icons.some(c => /codicon-error/.test(c)))
    throw new Error(`the title drew an icon: ${JSON.stringify(shown)}`);
  await page.keyboard.press('Escape');
};
