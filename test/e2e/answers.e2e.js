// Argument values from where the user is (issue 13), driven as a person does: open a file with Go to
// File, select a line with the keyboard, run the prompt picker by its typed title, and click the
// "Selected text" / "Active file" / "Path of the active file" / "Clipboard" (after Ctrl+C in the
// editor) / "Pick a file…" (VS Code's own file dialog, the path typed) / "Output of a command…" (a
// command typed, confirmed in the modal) rows of the argument steps. The fixture
// (test/fixtures/flow-server.mjs) records every request, so each check reads what the server received.
// Then typing an argument in Run Prompt… against a server that counts what it is asked
// (test/fixtures/servers/completions.mjs: 300 ms an answer, every request and the most under way at
// once written to a file): a person types "typescript" at five keys a second, each pause longer
// than the input's quiet spell and shorter than the server's answer. The list narrows as they type,
// the server answers the whole word, and it never has two completion requests of the argument under
// way at once (src/core/view/completion-session.ts, which src/ui/argument-step.ts wraps).
// Then the questions servers ask (server-questions.js): the person adds a questions server to the
// workspace's .vscode/mcp.json and answers what it asks.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, root, rowName, runStandalone, selectTopLines, waitForFile } = require('./harness');
const { gets: getsOf, nextGet: nextGetOf, flowServer, labelRow } = require('./flow-record');
const serverQuestions = require('./server-questions');

const QUICK = '.quick-input-widget';
const SESSION = '.interactive-session';
const NOTES = 'alpha line to review\nbeta line for the clipboard\ngamma ünïcode line\n';
const PICKED = 'picked through the dialog\nsecond line ✓\n';

module.exports = async function answers(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-sources-'));
  const record = path.join(dir, 'requests.jsonl');
  const { fixtureCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const statsFile = path.join(dir, 'stats.json');
  const completions = {
    type: 'stdio',
    ...fixtureCommand('completions'),
    env: { COMPLETION_DELAY_MS: '300', COMPLETION_STATS: statsFile },
  };
  try {
    const ui = await openWorkbench(ctx, {
      files: {
        '.vscode/mcp.json': JSON.stringify({ servers: { flow: flowServer(record), completions } }, null, 2),
        'notes.txt': NOTES,
        'data/picked.txt': PICKED,
      },
    });
    const { page } = ui;
    const quick = page.locator(QUICK);
    const row = text => labelRow(page, text);
    const choose = text => rowName(row(text)).click();
    const gets = () => getsOf(record, 'echo');
    const nextGet = (before, what) => nextGetOf(page, record, 'echo', before, what, 30000);
    await page.locator('[aria-label^="MCP Prompts: 2 running, 0 failing"]').first().waitFor({ timeout: 120000 });

    // Open notes.txt as a person does (Go to File) and select its first line with the keyboard.
    await selectTopLines(page, 'notes.txt', 'alpha line');
    const editor = page.locator('.editor-instance .monaco-editor').first();

    const runEcho = async () => {
      await ui.openRunPrompt();
      await page.keyboard.type('Echo values');
      await page.keyboard.press('Enter');
      await quick.getByText('Echo values: path (required)').first().waitFor({ timeout: 30000 });
    };

    // 1. Selected text for path, Active file (its contents) for größe: clicked rows.
    const before = gets().length;
    await runEcho();
    await row('Selected text').waitFor({ timeout: 30000 });
    await ui.screenshot('rows');
    await choose('Selected text');
    await quick.getByText('Echo values: größe (required)').first().waitFor({ timeout: 30000 });
    await choose('Active file');
    const first = await nextGet(before, 'echo with the selection and the active file');
    if (JSON.stringify(first.args) !== JSON.stringify({ path: 'alpha line to review', größe: NOTES }))
      throw new Error(`the server received ${JSON.stringify(first.args)}`);

    // 2. Next time the argument's last source comes first (marked) and reads the selection anew; the
    // Path row gives the file's path. The test browser grants no clipboard read yet: no step reads the
    // clipboard in a browser window (a read would show VS Code's "Unable to read" message and hold the
    // step), its row only says it reads when chosen.
    await editor.locator('.view-line').filter({ hasText: 'beta line' }).first().click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await runEcho();
    const firstRow = quick.locator('.monaco-list-row[data-index="1"]');
    await firstRow.filter({ hasText: 'Selected text' }).filter({ hasText: 'last used' }).waitFor({ timeout: 30000 });
    await ui.screenshot('last-used');
    await choose('Selected text');
    await quick.getByText('Echo values: größe (required)').first().waitFor({ timeout: 30000 });
    // The row shows the path within the workspace folder, as VS Code's pickers do; the whole path is sent.
    const pathRow = await row('Path of the active file').textContent();
    if (!pathRow.includes('notes.txt') || pathRow.includes(ui.host.workspace))
      throw new Error(`the path row shows ${JSON.stringify(pathRow)}, wanted notes.txt within the workspace`);
    await choose('Path of the active file');
    const second = await nextGet(before + 1, "echo with the new selection and the active file's path");
    const want = { path: 'beta line for the clipboard', größe: path.join(ui.host.workspace, 'notes.txt') };
    if (JSON.stringify(second.args) !== JSON.stringify(want))
      throw new Error(`the server received ${JSON.stringify(second.args)}, wanted ${JSON.stringify(want)}`);
    // The person reads the answer in chat, then opens the notifications. VS Code closes the list when its
    // last notification ends, and the run's "Getting…" progress stays at least 0.8 s (VS Code 1.139's
    // progress service); a list that closed before it was seen is opened again, as a person does (three
    // times at most).
    await ui.waitForText(/FAKE-MODEL received 1 messages: \[user\] ECHO path=«beta line for the clipboard»/, {
      within: SESSION,
    });
    const center = page.locator('.notifications-center');
    for (let attempt = 1; ; attempt++) {
      await ui.runCommand('Notifications: Show Notifications');
      const seen = await center.waitFor({ timeout: 10000 }).then(
        () => true,
        () => false,
      );
      if (seen) break;
      if (attempt === 3) throw new Error('the notification list closed three times before it was seen');
    }
    const refused = await center.getByText("Unable to read from the browser's clipboard").count();
    if (refused) throw new Error(`the argument steps read the clipboard: ${refused} "Unable to read" message(s)`);
    // The person closes the list once the run's progress has ended; a list that ended empty VS Code has
    // closed itself, and then offers no Hide Notifications (seen once in CI).
    await center
      .getByText(/^Getting /)
      .first()
      .waitFor({ state: 'hidden', timeout: 30000 });
    if (await center.isVisible()) await ui.runCommand('Notifications: Hide Notifications');

    // 3. Clipboard, the browser now allowed to read it: chosen while it holds no text, the step stays and
    // says so in its box; the person leaves, copies a line with Ctrl+C in the editor (a real clipboard
    // write) and chooses it again. Then Pick a file… through VS Code's file dialog, the path typed.
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await runEcho();
    await row('Clipboard').filter({ hasText: 'read when you choose it' }).waitFor({ timeout: 30000 });
    await ui.screenshot('clipboard-row');
    await choose('Clipboard');
    await page.waitForFunction(
      () =>
        document.querySelector('.quick-input-widget .quick-input-box input')?.placeholder ===
        'The clipboard holds no text.',
      undefined,
      { timeout: 30000 },
    );
    await quick.getByText('Echo values: path (required)').first().waitFor({ timeout: 30000 });
    await ui.screenshot('clipboard-empty');
    await page.keyboard.press('Escape');
    await quick.waitFor({ state: 'hidden', timeout: 30000 });
    await editor.locator('.view-line').filter({ hasText: 'gamma' }).first().click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Control+C');
    await runEcho();
    await choose('Clipboard');
    await quick.getByText('Echo values: größe (required)').first().waitFor({ timeout: 30000 });
    await choose('Pick a file…');
    // The simple file dialog opens in the workspace folder with its path in the box: type the rest.
    const dialogInput = quick.locator('.quick-input-box input');
    await page.waitForFunction(
      w => document.querySelector('.quick-input-widget .quick-input-box input')?.value?.startsWith(w),
      ui.host.workspace,
      { timeout: 30000 },
    );
    await dialogInput.press('End');
    await page.keyboard.type('data/picked.txt');
    // A person presses Enter once the list has caught up with the path: before, the dialog's highlighted
    // row is still the folder `data`, and Enter on a folder row opens it (VS Code's simple file dialog,
    // onDidAccept) instead of taking the file typed (seen once under load).
    await quick.locator('.monaco-list-row').filter({ hasText: 'picked.txt' }).first().waitFor({ timeout: 30000 });
    await ui.screenshot('pick-file');
    await page.keyboard.press('Enter');
    const third = await nextGet(before + 2, 'echo with the clipboard and the picked file');
    const want3 = { path: 'gamma ünïcode line', größe: PICKED };
    if (JSON.stringify(third.args) !== JSON.stringify(want3))
      throw new Error(`the server received ${JSON.stringify(third.args)}, wanted ${JSON.stringify(want3)}`);

    // 4. Output of a command…: typed, shown in the consent modal, run on "Run" in the workspace folder.
    await runEcho();
    await choose('Output of a command…');
    await quick.locator('.quick-input-title', { hasText: 'Output of a command' }).first().waitFor({ timeout: 30000 });
    // The input and the modal name the shell the command runs in (cmd.exe on Windows: docs/platforms.md).
    await quick
      .getByText(/^A command for \/bin\/sh to run in workspace/)
      .first()
      .waitFor({ timeout: 30000 });
    const command = 'head -n 2 notes.txt; pwd';
    await page.keyboard.type(command);
    await page.keyboard.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText(command, { exact: true }).waitFor({ timeout: 30000 });
    await dialog.getByText(/with \/bin\/sh\?$/).waitFor({ timeout: 30000 });
    await ui.screenshot('command-consent');
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await quick.getByText('Echo values: größe (required)').first().waitFor({ timeout: 30000 });
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    const fourth = await nextGet(before + 3, 'echo with the output of a command');
    const want4 = {
      path: `alpha line to review\nbeta line for the clipboard\n${fs.realpathSync(ui.host.workspace)}`,
      größe: '10',
    };
    if (JSON.stringify(fourth.args) !== JSON.stringify(want4))
      throw new Error(`the server received ${JSON.stringify(fourth.args)}, wanted ${JSON.stringify(want4)}`);

    // 5. A failing command loses nothing: its message shows and the same step is back, size still given later.
    await runEcho();
    await choose('Output of a command…');
    await quick.locator('.quick-input-title', { hasText: 'Output of a command' }).first().waitFor({ timeout: 30000 });
    await page.keyboard.type('cat missing.txt');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await ui.waitForText(/cat missing\.txt exited with code 1: cat: missing\.txt/);
    await quick.getByText('Echo values: path (required)').first().waitFor({ timeout: 30000 });
    await row('Output of a command…').waitFor({ timeout: 30000 });
    await ui.screenshot('command-failed');
    await page.keyboard.type('typed instead');
    await page.keyboard.press('Enter');
    await quick.getByText('Echo values: größe (required)').first().waitFor({ timeout: 30000 });
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    const fifth = await nextGet(before + 4, 'echo after the failed command');
    if (JSON.stringify(fifth.args) !== JSON.stringify({ path: 'typed instead', größe: '5' }))
      throw new Error(`the server received ${JSON.stringify(fifth.args)}`);
    await ui.screenshot('done');

    const rows = page.locator(`${QUICK} .monaco-list-row`);
    const stats = argument =>
      fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8'))[argument] : undefined;

    // Typing "typescript" at five keys a second against the completions server.
    await ui.runCommand('MCP Prompts: Run Prompt…');
    await rows.filter({ hasText: 'Pick a framework' }).first().click();
    await page.locator(QUICK).getByText('language (required)').first().waitFor({ timeout: 60000 });
    // The answer for the empty box lists every language.
    await rows.filter({ hasText: 'rust' }).filter({ hasText: 'suggestion from completions' }).first().waitFor();

    await page.keyboard.type('typescript', { delay: 200 });
    await waitForFile(
      () => stats('language')?.received.includes('typescript') && stats('language').underWay === 0,
      'the server answering "typescript"',
    );
    // What is typed (row 0), and the suggestion narrowed to it: no other language.
    await page.waitForFunction(
      () => {
        const texts = [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].map(r => r.textContent);
        return texts.length === 2 && texts.every(t => t.startsWith('typescript'));
      },
      undefined,
      { timeout: 60000 },
    );
    await ui.screenshot('typed-language');
    const language = stats('language');
    if (language.mostUnderWay !== 1)
      throw new Error(
        `the server had ${language.mostUnderWay} completion requests under way at once: ${language.received}`,
      );
    if (language.received.length > 10)
      throw new Error(`more requests than keystrokes: ${language.received.join(', ')}`);

    await page.keyboard.press('Enter');
    await page.locator(QUICK).getByText('framework (required)').first().waitFor({ timeout: 60000 });
    // Asked with the language as context: the frameworks of typescript.
    await rows.filter({ hasText: 'nestjs' }).filter({ hasText: 'suggestion from completions' }).first().click();
    await ui.waitForText('Use nestjs with typescript', { within: SESSION });
    await ui.screenshot('typed-result');
    if (stats('framework')?.mostUnderWay !== 1) throw new Error(`framework: ${JSON.stringify(stats('framework'))}`);

    await serverQuestions(ui, { running: 3 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
