// Hostile server text through the real UI: a text part that opens an HTML comment (`<!--`) shows as text,
// and what follows it stays visible, in chat and in the transcript document (markdown preview); /list
// keeps a hostile argument name inside its code span (no heading, no link) and marks a look-alike name,
// as does the Run Prompt picker; a line-wrapped base64 image renders. `@mcp /list` and `@mcp /help`, typed
// in full, send on one Enter although prompts start with those words or match them loosely
// (`list_everything`, `lint_issue_summary_text`, `hostile.missing-content`, `help_desk`, `hello_planet`).
const path = require('node:path');
const { openWorkbench, runStandalone, root, waitForFrameValue } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

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

module.exports = async function hostile(ctx) {
  const { faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const stdio = fault => ({ type: 'stdio', ...faultyCommand(fault) });
  const ui = await openWorkbench(ctx, {
    waitForModel: false,
    files: {
      '.vscode/mcp.json': JSON.stringify(
        { servers: { hostile: stdio('content'), names: stdio('hostile-names'), words: stdio('word-like-names') } },
        null,
        2,
      ),
    },
    userSettings: { 'mcpPrompts.chat.afterGet': 'show' },
  });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 3 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  const sessionText = () => page.evaluate(() => document.querySelector('.interactive-session')?.innerText ?? '');

  // 1. Chat: the comment opener is text, and the part after it is there too.
  await ui.typeInChat('@mcp /hostile.html-comment');
  await ui.waitForText('still here', { within: SESSION });
  await ui.waitForText('<!-- everything after this comment opener is hidden in a preview', { within: SESSION });
  await ui.screenshot('chat-html-comment');

  // 2. The same transcript as a document (markdown preview): the opener shows, nothing after it is hidden.
  // Under the transcript: Continue in Agent and More…; Open as Document is one of More…'s actions.
  await page.locator(`${SESSION} a.monaco-button`).filter({ hasText: 'More…' }).last().click();
  await page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'Open as Document' }).first().click();
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
  const listed = await sessionText();
  for (const name of ['/a_b ', '/a_b-2 ', '/a_b-3 '])
    if (!listed.includes(name)) throw new Error(`${name.trim()} is not in /list: ${listed}`);
  await ui.screenshot('list-hostile-names');

  // 4b. /help and a name that starts with `list`, typed in full: one Enter each runs what was typed.
  await ui.typeInChat('@mcp /help');
  await chatInputEmptied(page);
  await ui.waitForText('runs the prompts of your MCP servers', { within: SESSION });
  await ui.typeInChat('@mcp /list_everything');
  await chatInputEmptied(page);
  await ui.waitForText('ran list_everything', { within: SESSION });
  const ran = (await sessionText()).match(/ran (\w+)/g);
  if (JSON.stringify(ran) !== JSON.stringify(['ran list_everything']))
    throw new Error(`another prompt ran: ${JSON.stringify(ran)}`);
  await ui.screenshot('help-and-list-prefix-one-enter');

  // 5. The picker marks the look-alike name where the user picks it.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await page.locator(QUICK).getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('ploy');
  const row = page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: 'mixes Latin + Cyrillic letters' }).first();
  await row.waitFor({ timeout: 60000 });
  await ui.screenshot('picker-look-alike');
  await page.keyboard.press('Escape');
};

if (require.main === module) runStandalone(module, __filename);
