// Questions from servers (elicitation) in the real window (answers.e2e.js), as a person answers them: in chat (the
// line typed and sent with one Enter) and from the palette's Run Prompt…; declined with the Decline
// row; cancelled with Escape. The `questions` fixture appends the action it received to a file, so
// every check reads what the server got. A question inside completion steps in front of the
// argument input, which comes back afterwards. A URL question shows the address and is declined.
// A server that answers -32042 (a page to open first) is retried after the user opened it and said done.
// Completion in the chat input shows no question, nor does a listing nobody started (a list change
// while Run Prompt… is open): the picker stays as typed.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { root, rowName, waitForFile } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';
const RUN = path.join(root, 'test', 'fixtures', 'run.mjs');

/**
 * The questions, in the open window `ui`, whose .vscode/mcp.json gets the questions server; `running` is
 * the number of servers running once it has started (those already there and q).
 */
module.exports = async function serverQuestions(ui, { running }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-questions-'));
  const record = path.join(dir, 'answers.txt');
  const pidFile = path.join(dir, 'server.pid');
  try {
    // The person adds the server to the workspace's .vscode/mcp.json, beside those already there.
    await ui.addWorkspaceServers({
      q: {
        type: 'stdio',
        command: process.execPath,
        args: [RUN, 'questions'],
        env: { QUESTIONS_RECORD: record, QUESTIONS_PID_FILE: pidFile, QUESTIONS_ON_LIST: 'signal' },
      },
    });
    const { page } = ui;
    const quick = page.locator(QUICK);
    const answers = () => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean) : []);
    const nextAnswer = async (before, what) => {
      await waitForFile(() => answers().length > before, what, 30000);
      return answers()[before];
    };
    const expect = (got, want) => {
      if (got !== want) throw new Error(`the server received ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    };
    const questionShown = () =>
      quick.getByText('q asks: Which name shall I use? (prompt "ask_name")').first().waitFor({ timeout: 30000 });
    await page
      .locator(`[aria-label^="MCP Prompts: ${running} running, 0 failing"]`)
      .first()
      .waitFor({ timeout: 120000 });

    // 1. In chat: one Enter sends the line; the request waits for the answer; a too-short name is
    //    refused in place; the answer reaches the server and the transcript says what was asked.
    let before = answers().length;
    await ui.typeInChat('@mcp /q.ask_name');
    await questionShown();
    await ui.waitForText('Waiting for your answer from q…', { within: SESSION });
    await page.keyboard.type('G');
    await quick.getByText('Name needs at least 2 characters').first().waitFor({ timeout: 30000 });
    await ui.screenshot('chat-question-invalid');
    await page.keyboard.press('Enter');
    await page.keyboard.type('race');
    await page.keyboard.press('Enter');
    await quick.getByText('Send to q').first().waitFor({ timeout: 30000 });
    await ui.screenshot('chat-question-review');
    await page.keyboard.press('Enter');
    expect(await nextAnswer(before, 'the chat answer'), 'ask_name: action=accept content={"name":"Grace"}');
    await ui.waitForText('q asked: Which name shall I use? — you answered: Name = Grace', { within: SESSION });
    await ui.waitForText('ask_name: action=accept', { within: SESSION });
    await ui.screenshot('chat-answered');

    // 2. From the palette: Run Prompt…, the prompt's title, Enter; the same question.
    before = answers().length;
    await ui.openRunPrompt();
    await page.keyboard.type('Ask for a name');
    await page.keyboard.press('Enter');
    await questionShown();
    await page.keyboard.type('Picker');
    await page.keyboard.press('Enter');
    await quick.getByText('Send to q').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    expect(await nextAnswer(before, 'the picker answer'), 'ask_name: action=accept content={"name":"Picker"}');

    // 3. Declined: the review step's Decline row, clicked.
    before = answers().length;
    await ui.typeInChat('@mcp /q.ask_name');
    await questionShown();
    await page.keyboard.type('Zed');
    await page.keyboard.press('Enter');
    const decline = quick.locator('.monaco-list-row').filter({ hasText: 'Decline' }).first();
    await decline.waitFor({ timeout: 30000 });
    await ui.screenshot('decline-row');
    await decline.click();
    expect(await nextAnswer(before, 'the decline'), 'ask_name: action=decline');
    await ui.waitForText('q asked: Which name shall I use? — you declined', { within: SESSION });

    // 4. Escape: cancel.
    before = answers().length;
    await ui.typeInChat('@mcp /q.ask_name');
    await questionShown();
    await page.keyboard.press('Escape');
    expect(await nextAnswer(before, 'the cancel'), 'ask_name: action=cancel');
    await ui.waitForText('q asked: Which name shall I use? — cancelled', { within: SESSION });
    await ui.screenshot('cancelled');

    // 5. A question inside completion: it steps in front of the argument input, which comes back
    //    with the suggestions the answer shaped.
    before = answers().length;
    await ui.openRunPrompt();
    await page.keyboard.type('pick_color');
    await page.keyboard.press('Enter');
    await quick.getByText('q asks: Light or dark colours? (completion of "color")').first().waitFor({ timeout: 30000 });
    await page.keyboard.type('dark');
    await page.keyboard.press('Enter');
    await quick.getByText('Send to q').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    expect(
      await nextAnswer(before, 'the answer inside completion'),
      'complete: action=accept content={"shade":"dark"}',
    );
    const navy = quick.locator('.monaco-list-row').filter({ hasText: 'navy' }).first();
    await navy.waitFor({ timeout: 30000 });
    await ui.screenshot('completion-after-question');
    await navy.click();
    await ui.waitForText('color navy');

    // 6. URL mode: the full address and its host are shown; nothing opens unless the user agrees.
    before = answers().length;
    await ui.openRunPrompt();
    await page.keyboard.type('open_url');
    await page.keyboard.press('Enter');
    // Its only argument is optional: Enter on the empty line skips it.
    await quick.getByText('open_url: url (optional').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    await quick.getByText('q asks: Connect your account (prompt "open_url")').first().waitFor({ timeout: 30000 });
    await quick.getByText('https://example.com/connect?e=1').first().waitFor({ timeout: 30000 });
    await quick.getByText('Open example.com').first().waitFor({ timeout: 30000 });
    await ui.screenshot('url-question');
    await rowName(quick.locator('.monaco-list-row').filter({ hasText: 'Decline' }).first()).click();
    expect(await nextAnswer(before, 'the URL decline'), 'open_url: action=decline');

    // 7. -32042 (URL elicitation required): the server answers the run with a page to open first. The
    //    question names the server and the page; Open shows the page in a browser tab (only after the
    //    click); "Done — retry" runs the prompt again, and it succeeds.
    // The browser-hosted workbench sends loopback addresses through its port proxy (/proxy/PORT/...).
    const site = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Account connected. You can return to VS Code.');
    });
    await new Promise(resolve => site.listen(0, '127.0.0.1', () => resolve(undefined)));
    try {
      const port = /** @type {import('node:net').AddressInfo} */ (site.address()).port;
      before = answers().length;
      await ui.typeInChat(`@mcp /q.connect_first url=http://127.0.0.1:${port}/connect`);
      expect(await nextAnswer(before, 'the -32042 answer'), 'connect_first: required c-1');
      await quick
        .getByText('q asks: Connect your account first (prompt "connect_first")')
        .first()
        .waitFor({ timeout: 30000 });
      await quick.getByText(`http://127.0.0.1:${port}/connect`).first().waitFor({ timeout: 30000 });
      await ui.waitForText('Waiting for your answer from q…', { within: SESSION });
      await ui.screenshot('url-required-question');
      const popup = page.context().waitForEvent('page', { timeout: 60000 });
      await quick
        .locator('.monaco-list-row')
        .filter({ hasText: `Open 127.0.0.1:${port}` })
        .first()
        .click();
      // VS Code may first ask whether to open an outside address.
      const openButton = page.getByRole('button', { name: /^Open$/ }).first();
      if (await Promise.race([popup.then(() => false), openButton.waitFor({ timeout: 60000 }).then(() => true)]))
        await openButton.click();
      const tab = await popup;
      const opened = tab.url();
      if (!opened.endsWith(`127.0.0.1:${port}/connect`) && !opened.endsWith(`/proxy/${port}/connect`))
        throw new Error(`the browser opened ${opened}, expected http://127.0.0.1:${port}/connect`);
      await tab.close();
      const retry = quick
        .locator('.monaco-list-row')
        .filter({ hasText: 'Done — retry prompt "connect_first"' })
        .first();
      await retry.waitFor({ timeout: 30000 });
      await ui.screenshot('url-required-wait');
      await retry.click();
      await ui.waitForText('connect_first: connected after 1 required', { within: SESSION });
      await ui.waitForText('q asked: Connect your account first (open 127.0.0.1', { within: SESSION });
      await ui.screenshot('url-required-retried');
    } finally {
      site.close();
    }

    // 8. Completion in the chat input shows no question: the server asks one during the completion
    //    after `tone=`; it is cancelled (the log says why) and what the person types stays in the line.
    before = answers().length;
    await ui.typeInChat('@mcp /q.tone tone=warm');
    await ui.waitForText('tone warm', { within: SESSION });
    if (!answers().slice(before).includes('tone: action=cancel'))
      throw new Error(`the server did not hear cancel for its question: ${JSON.stringify(answers().slice(before))}`);
    await ui.screenshot('chat-completion-no-question');

    // 9. A list change while Run Prompt… is open: the server's re-list asks a question, which nothing the
    //    person did started: it is cancelled (the server hears cancel), and the picker stays as typed.
    await ui.openRunPrompt();
    await page.keyboard.type('Ask for');
    before = answers().length;
    process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGUSR2');
    expect(await nextAnswer(before, 'the question of the re-list'), 'list: action=cancel');
    if (await quick.getByText('q asks:').count()) throw new Error('a question of a listing nobody started was shown');
    await quick.getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
    const typed = await quick.locator('.quick-input-box input').first().inputValue();
    if (typed !== 'Ask for') throw new Error(`the picker shows "${typed}", expected "Ask for"`);
    await quick.locator('.monaco-list-row').filter({ hasText: 'Ask for a name' }).first().waitFor({ timeout: 30000 });
    await ui.screenshot('picker-after-background-question');
    // The prompt run from the picker is the person's: its question shows.
    await page.keyboard.press('Enter');
    before = answers().length;
    await questionShown();
    await page.keyboard.type('Back');
    await page.keyboard.press('Enter');
    await quick.getByText('Send to q').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    expect(await nextAnswer(before, 'the run from the picker'), 'ask_name: action=accept content={"name":"Back"}');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
