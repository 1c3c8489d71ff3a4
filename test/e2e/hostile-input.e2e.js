// What a hostile server (test/fixtures/hostile-server.mjs) can make the window do, driven as a person:
// 1. its completion for `code=` is `#file:secret.txt`: taken with Tab and sent with one Enter, the server
//    receives those words, not the contents of secret.txt (the value is written as the invocation rule
//    writes it: quoted);
// 2. its text hides an HTML comment and a remote image behind code spans that cross lines and table
//    cells: saved with "Save Last Result as .prompt.md" and opened as a document (markdown preview), all of
//    it shows as text and the image is never requested;
// 3. its prompt title imitates the picker's status row of a failing server (`$(error) github failed`):
//    the picker shows the words, not an error icon.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { openWorkbench, runStandalone, root, waitForFile, waitForFrameValue } = require('./harness');
const { requests } = require('./flow-record');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';
const SECRET = 'TOP-SECRET-CONTENTS-5d1e';

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

module.exports = async function hostileInput(ctx) {
  const hostile = await import(path.join(root, 'test', 'fixtures', 'lib', 'hostile-text.mjs'));
  const record = path.join(fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'mcp-hostile-')), 'requests.jsonl');
  const pixel = await connectionCounter();
  ctx.defer(() => pixel.close());
  const ui = await openWorkbench(ctx, {
    files: {
      '.vscode/mcp.json': JSON.stringify(
        {
          servers: {
            hostile: {
              type: 'stdio',
              command: process.execPath,
              args: [path.join(root, 'test', 'fixtures', 'hostile-server.mjs')],
              env: { HOSTILE_RECORD: record, HOSTILE_PIXEL_URL: `https://127.0.0.1:${pixel.port}/pixel.png` },
            },
          },
        },
        null,
        2,
      ),
      'secret.txt': `${SECRET}\n`,
    },
    userSettings: { 'mcpPrompts.chat.afterGet': 'show' },
  });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

  // 1. The server's completion is taken (Tab) and the line sent with one Enter.
  await ui.typeInChat('@mcp /hostile.review code=', { send: false });
  const suggest = page.locator('.suggest-widget .monaco-list-row');
  await suggest.filter({ hasText: hostile.REFERENCE_VALUES[0] }).first().waitFor({ timeout: 60000 });
  await ui.screenshot('reference-completion');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await waitForFile(
    () => requests(record).some(r => r.method === 'prompts/get' && r.name === 'review'),
    'the prompts/get of review',
  );
  const got = requests(record).find(r => r.method === 'prompts/get' && r.name === 'review');
  if (got.args.code !== hostile.REFERENCE_VALUES[0])
    throw new Error(`the server received ${JSON.stringify(got.args)}, not the words ${hostile.REFERENCE_VALUES[0]}`);
  await ui.waitForText(`REVIEW code=«${hostile.REFERENCE_VALUES[0]}»`, { within: SESSION });
  await ui.screenshot('reference-sent-as-words');

  // 2. Text that hides a comment and an image behind code spans, saved as a .prompt.md file.
  await ui.typeInChat('@mcp /hostile.hidden_text');
  await ui.waitForText(hostile.VISIBLE_END, { within: SESSION });
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
  await waitForFile(() => fs.existsSync(saved), 'the saved .prompt.md file');
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
  await page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'Open as Document' }).first().click();
  // Only the preview's own frame, once the end of the text is there (an expression: the frame gets no arguments).
  const preview = await waitForFrameValue(
    page,
    `window !== window.top && document.body.innerText.includes(${JSON.stringify(hostile.VISIBLE_END)}) &&
      { text: document.body.innerText, images: [...document.querySelectorAll('img')].map(i => i.src) }`,
    'the transcript in the markdown preview',
  );
  if (!preview.text.includes(hostile.HIDDEN_MARK))
    throw new Error(`the preview hides ${hostile.HIDDEN_MARK}: ${preview.text}`);
  if (preview.images.length) throw new Error(`the preview has images: ${preview.images.join(', ')}`);
  await ui.screenshot('hidden-text-shown');
  if (pixel.seen.count) throw new Error(`the remote image was requested ${pixel.seen.count} times`);

  // 3. A prompt title that imitates the picker's row of a failing server shows its words, not an icon.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await page.locator(QUICK).getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('github failed');
  const row = page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'github failed' }).first();
  await row.waitFor({ timeout: 60000 });
  const shown = await row.evaluate(el => ({
    label: (el.querySelector('.label-name')?.textContent ?? '').replace(/\u200b/g, ''),
    icons: [...el.querySelectorAll('.codicon')].map(i => i.className),
    detail: el.querySelector('.quick-input-list-label-meta, .monaco-icon-label-container + *')?.textContent ?? '',
  }));
  await ui.screenshot('status-title-as-words');
  if (!shown.label.includes(hostile.STATUS_TITLE) || shown.icons.some(c => /codicon-error/.test(c)))
    throw new Error(`the title drew an icon: ${JSON.stringify(shown)}`);
  await page.keyboard.press('Escape');
};

if (require.main === module) runStandalone(module, __filename);
