// The README's pictures: a person's tour of MCP Prompts in the real VS Code with the demo server of
// `npm start` (demo/server.mjs), each picture a step they reach (scripts/readme-images.mjs copies them to
// media/readme/ and makes the GIF from the numbered frames). The sidebar with the server → prompts →
// arguments; the picker; the argument input with the server's completions and the values from the editor
// (a selection in an open file); a commit message from a diff in chat; the server's question mid-prompt;
// then the flow of the GIF: `@mcp /` → a prompt name → argument names → a value completed by the server →
// the transcript → Continue in Agent. Each step waits for what its picture claims.
const fs = require('node:fs');
const path = require('node:path');
const { openWorkbench, runStandalone, root, settled } = require('./harness');
const { demoWorkspaceFiles, selectGreetFunction } = require('./demo-workspace');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';
const SUGGEST = '.suggest-widget .monaco-list-row';
const SHOTS = path.join(root, '.artifacts', 'screenshots');
/** README pictures are smaller than the test default (1400×900), so their text is readable when scaled. */
const VIEWPORT = { width: 1120, height: 720 };

/** The union of the boxes of `locators`, grown by `pad`, inside the viewport. */
async function boxOf(page, locators, pad = 0) {
  const boxes = [];
  for (const l of locators) {
    const b = await l.boundingBox();
    if (!b) throw new Error('an element of the picture is not on screen');
    boxes.push(b);
  }
  const vp = page.viewportSize();
  const x = Math.max(0, Math.min(...boxes.map(b => b.x)) - pad);
  const y = Math.max(0, Math.min(...boxes.map(b => b.y)) - pad);
  const right = Math.min(vp.width, Math.max(...boxes.map(b => b.x + b.width)) + pad);
  const bottom = Math.min(vp.height, Math.max(...boxes.map(b => b.y + b.height)) + pad);
  return { x, y, width: right - x, height: bottom - y };
}

/** Saves .artifacts/screenshots/tour-<name>.png of `clip` (default the whole window) once it is still. */
async function picture(page, name, clip) {
  await settled(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `tour-${name}.png`);
  await page.screenshot({ path: file, clip });
  return file;
}

/** The chat input's text, with the editor's non-breaking spaces as spaces. */
function inputText(page) {
  return page.evaluate(
    () =>
      document
        .querySelector('.interactive-input-part .monaco-editor .view-lines')
        ?.textContent.replace(/\u00a0/g, ' ') ?? '',
  );
}

/** The chat's own column (the maximised chat's Sessions list beside it left out). */
async function chatArea(page) {
  const part = await boxOf(page, [page.locator('.part.auxiliarybar').first()]);
  const input = await boxOf(page, [page.locator('.interactive-input-part').first()]);
  return { ...part, width: Math.min(part.width, input.x + input.width + 14 - part.x) };
}

/** The chat list scrolls itself (no native scrolling): wheel until `target` is near the list's top. */
async function scrollChatTo(page, target) {
  const list = page.locator(`${SESSION} .interactive-list`).first();
  const box = await list.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 80; i++) {
    const t = await target.boundingBox();
    if (t && t.y >= box.y + 40 && t.y <= box.y + 140) return;
    await page.mouse.wheel(0, t && t.y > box.y + 140 ? 60 : -60);
    await page.waitForFunction(() => true); // let the list re-render before measuring again
  }
  throw new Error('could not scroll the chat to the element');
}

module.exports = async function tour(ctx) {
  const ui = await openWorkbench(ctx, { files: demoWorkspaceFiles() });
  const { page } = ui;
  await page.setViewportSize(VIEWPORT);
  const quick = page.locator(QUICK);
  const rows = quick.locator('.monaco-list-row');
  const row = label => rows.filter({ hasText: label }).first();
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

  // 1. The sidebar: the server with its state → prompts → a prompt's arguments (its twistie opens them;
  //    a click on the row itself would run it).
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .monaco-list-row');
  await tree.filter({ hasText: 'demo' }).filter({ hasText: 'running · stdio · 4 prompts' }).first().waitFor();
  const codeReview = tree.filter({ hasText: 'Code review' }).first();
  await codeReview.locator('.monaco-tl-twistie').click();
  for (const argument of [/^code/, /^language/, /^focus/])
    await tree.filter({ hasText: argument }).first().waitFor({ timeout: 30000 });
  // A person widens the sidebar to read the rows: its border is a sash to drag.
  const sidebar = page.locator('.part.sidebar').first();
  const side = await sidebar.boundingBox();
  await page.mouse.move(side.x + side.width + 1, side.y + side.height / 2);
  await page.mouse.down();
  await page.mouse.move(side.x + side.width + 160, side.y + side.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction(w => document.querySelector('.part.sidebar').offsetWidth > w + 100, side.width);
  await page.mouse.move(VIEWPORT.width - 5, VIEWPORT.height / 2); // no hover highlight in the picture
  await tree.filter({ hasText: 'Write tests' }).first().waitFor();
  // Down to the lowest row (a list places its rows absolutely: DOM order is not display order).
  const bottom = await page.evaluate(() =>
    Math.max(
      ...[...document.querySelectorAll('.part.sidebar .pane-body .monaco-list-row')].map(
        r => r.getBoundingClientRect().bottom,
      ),
    ),
  );
  const wide = await boxOf(page, [sidebar]);
  await picture(page, 'sidebar', { ...wide, height: Math.min(wide.height, bottom + 24 - wide.y) });

  await ui.runCommand('View: Close Primary Side Bar');

  // 2. Open greet.py as a person does (Go to File) and select the function with the keyboard.
  await selectGreetFunction(page);

  // 3. The picker: every prompt with its server and arguments. The pointer rests on the empty editor below
  //    the code, where no row or hover of the picture is.
  await page.mouse.move(VIEWPORT.width * 0.4, VIEWPORT.height - 80);
  await ui.openRunPrompt();
  for (const title of ['Code review', 'Commit message', 'Explain the selection', 'Write tests'])
    await row(title).waitFor();
  await picture(page, 'picker', await boxOf(page, [quick]));

  // 4. The argument input: the selection is offered for `code`; for `language` the server's completions
  //    come with the values from the editor. `focus`, optional, is skipped with Enter.
  await page.keyboard.type('Code review');
  await page.keyboard.press('Enter');
  await quick.getByText('Code review: code (required)').first().waitFor({ timeout: 30000 });
  await row('Selected text').click();
  await quick
    .getByText(/Code review: language/)
    .first()
    .waitFor({ timeout: 30000 });
  for (const value of ['python', 'typescript']) await row(value).waitFor({ timeout: 30000 });
  await row('Active file').waitFor({ timeout: 30000 });
  const input = await boxOf(page, [quick]);
  await picture(page, 'argument-input', { x: 0, y: 0, width: VIEWPORT.width, height: input.y + input.height + 16 });
  await row('python').click();
  await quick
    .getByText(/Code review: focus/)
    .first()
    .waitFor({ timeout: 30000 });
  await row('security').waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter');
  await ui.waitForSession(
    /FAKE-MODEL received 1 messages: \[user\] Please review this python code\. .*def greet\(name\)/,
  );

  // The chat gets the window for the rest: no editor, no explorer, the chat maximised.
  // "Close All Editors" alone highlights Git: Close All Unmodified Editors.
  await ui.runCommand('View: Close All Editors', { typed: 'View: Close All Editors' });
  await ui.runCommand('View: Toggle Maximized Secondary Side Bar');

  // 5. A commit message from a diff in chat: `#file:` fills the required argument, the transcript names it,
  //    the diff arrives as a diff, then the model's answer.
  await ui.newChat();
  await ui.typeInChat('@mcp /commit_message style=conventional #file:changes.diff');
  await ui.waitForText(/changes ← changes\.diff/, { within: SESSION });
  await ui.waitForText('The change, as a diff:', { within: SESSION });
  await ui.waitForSession(/FAKE-MODEL received 1 messages: \[user\] Write a commit message for the change below\./);
  await scrollChatTo(
    page,
    page
      .locator(SESSION)
      .getByText(/changes ← changes\.diff/)
      .first(),
  );
  await page.mouse.move(VIEWPORT.width - 5, VIEWPORT.height / 2);
  await picture(page, 'chat-transcript', await chatArea(page));

  // 6. The server's question while its prompt runs: asked in the quick input, the request waits.
  await ui.newChat();
  await ui.typeInChat('@mcp /write_tests #file:greet.py');
  await quick
    .getByText(
      'demo asks: Which test framework shall the tests use (the code looks like python)? (prompt "write_tests")',
    )
    .first()
    .waitFor();
  await ui.waitForText('Waiting for your answer from demo…', { within: SESSION });
  await row('pytest').waitFor({ timeout: 30000 });
  await row('unittest').waitFor({ timeout: 30000 });
  // The question's input is centred in the window, wider than the chat: the picture is the window's width.
  const waiting = page.locator(SESSION).getByText('Waiting for your answer from demo…').first();
  const question = await boxOf(page, [quick, waiting], 24);
  await picture(page, 'question', { x: 0, y: 0, width: VIEWPORT.width, height: question.y + question.height });
  await row('pytest').click();
  await quick.getByText('Send to demo').first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter');
  await ui.waitForText(/demo asked: Which test framework .* — you answered: Test framework = pytest/, {
    within: SESSION,
  });
  await ui.waitForSession(/FAKE-MODEL received 1 messages: \[user\] Write unit tests with pytest for the code below\./);

  // 7. The GIF's frames: `@mcp /` → the prompt → its arguments → a value completed → the transcript →
  //    Continue in Agent, in a new chat. Frames of an earlier run go first (the GIF takes them all).
  for (const f of fs.existsSync(SHOTS) ? fs.readdirSync(SHOTS) : [])
    if (/^tour-frame-/.test(f)) fs.rmSync(path.join(SHOTS, f));
  await ui.newChat();
  let frame = 0;
  const shoot = async what => picture(page, `frame-${String(++frame).padStart(2, '0')}-${what}`, await chatArea(page));
  const suggest = page.locator(SUGGEST);
  await shoot('empty');
  await ui.typeInChat('@mcp /', { send: false, delay: 60 });
  await suggest.filter({ hasText: '/code_review' }).first().waitFor({ timeout: 60000 });
  await shoot('prompt-names');
  await page.keyboard.type('code_r', { delay: 60 });
  await suggest.filter({ hasText: '/code_review' }).first().waitFor({ timeout: 60000 });
  await shoot('prompt-typed');
  await page.keyboard.press('Enter');
  await suggest.filter({ hasText: 'language=' }).first().waitFor({ timeout: 60000 });
  await page.waitForFunction(
    () =>
      /@mcp \/code_review $/.test(
        document
          .querySelector('.interactive-input-part .monaco-editor .view-lines')
          ?.textContent.replace(/\u00a0/g, ' ') ?? '',
      ),
    undefined,
    { timeout: 60000 },
  );
  await shoot('argument-names');
  await page.keyboard.type('language=py', { delay: 60 });
  await suggest.filter({ hasText: 'python' }).first().waitFor({ timeout: 60000 });
  await shoot('value-completion');
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    () =>
      /language=python\s*$/.test(
        document
          .querySelector('.interactive-input-part .monaco-editor .view-lines')
          ?.textContent.replace(/\u00a0/g, ' ') ?? '',
      ),
    undefined,
    { timeout: 60000 },
  );
  await shoot('value-taken');
  const typed = await inputText(page);
  await page.keyboard.type(`${/\s$/.test(typed) ? '' : ' '}code="print(greet('Ada'))"`, { delay: 30 });
  await shoot('line-typed');
  await page.keyboard.press('Enter');
  await ui.waitForSession(/FAKE-MODEL received 1 messages: \[user\] Please review this python code/);
  const response = page
    .locator(`${SESSION} .interactive-item-container.interactive-response`)
    .filter({ hasText: 'FAKE-MODEL received 1 messages' })
    .first();
  const continueButton = response
    .locator('.chat-command-button a.monaco-button')
    .filter({ hasText: 'Continue in Agent' });
  await continueButton.first().waitFor({ timeout: 60000 });
  await continueButton.first().scrollIntoViewIfNeeded();
  await shoot('transcript');
  await continueButton.first().hover();
  await shoot('continue-in-agent');
  await continueButton.first().click();
  await ui.waitForSession(/FAKE-MODEL received \d+ messages: \[user\] Please review this python code/);
  await page.locator('.interactive-input-part').getByText('Agent', { exact: true }).first().waitFor();
  // The agent's answer is complete when its feedback buttons appear.
  await page
    .locator(`${SESSION} .interactive-item-container.interactive-response`)
    .filter({ hasText: 'Fake Default Agent' })
    .last()
    .locator('.codicon-thumbsup')
    .first()
    .waitFor({ timeout: 60000 });
  await page.mouse.move(VIEWPORT.width - 5, VIEWPORT.height / 2);
  await shoot('agent');
};

if (require.main === module) runStandalone(module, __filename);
