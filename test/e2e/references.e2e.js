// Chat references as argument values (issue 13), typed as a person does with ONE Enter per request:
// `path=#selection` with a line selected in an editor, the same with VS Code's `#selection` suggestion
// taken (Tab: a real reference in request.references), and `#file:` written alone (it fills the first
// missing argument) and by name for a file outside the workspace. The fixture records every request,
// so each check reads what the server received; the transcript says which argument got which reference.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone } = require('./harness');
const { nextGet: nextGetOf, flowMcpJson } = require('./flow-record');

const NOTES = 'alpha line to review\nbeta line\n';
const PICKED = 'picked by #file\n';
const OUTSIDE = 'outside the workspace ✓\n';

async function sessionText(page, re) {
  await page.waitForFunction(
    r => new RegExp(r).test(document.querySelector('.interactive-session')?.innerText ?? ''),
    re.source,
    { timeout: 60000 },
  );
}

module.exports = async function references(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-refs-'));
  const record = path.join(dir, 'requests.jsonl');
  const outside = path.join(dir, 'outside.txt');
  fs.writeFileSync(outside, OUTSIDE);
  try {
    const ui = await openWorkbench(ctx, {
      files: {
        '.vscode/mcp.json': flowMcpJson(record),
        'notes.txt': NOTES,
        'data/picked.txt': PICKED,
      },
    });
    const { page } = ui;
    const quick = page.locator('.quick-input-widget');
    const nextGet = (before, what) => nextGetOf(page, record, 'echo', before, what, 60000);
    const sorted = o => JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1))));
    const expect = (got, want) => {
      if (sorted(got.args) !== sorted(want))
        throw new Error(`the server received ${JSON.stringify(got.args)}, wanted ${JSON.stringify(want)}`);
    };
    await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

    // A line selected in notes.txt, opened with Go to File.
    await page.keyboard.press('Control+P');
    await page.keyboard.type('notes.txt');
    await quick.locator('.monaco-list-row.focused').filter({ hasText: 'notes.txt' }).waitFor({ timeout: 30000 });
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-line').filter({ hasText: 'alpha line' }).first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');

    // 1. `path=#selection` typed out, one Enter.
    await ui.typeInChat('@mcp /flow.echo path=#selection größe=3');
    expect(await nextGet(0, 'echo with #selection'), { path: 'alpha line to review', größe: '3' });
    await sessionText(page, /path ← selection in notes\.txt, line 1/);
    await ui.screenshot('selection');

    // 2. The same with VS Code's #selection suggestion taken: it arrives as a reference (a Location).
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
    await sessionText(page, /path ← notes\.txt, line 1/);

    // 3. `#file:` alone fills the first missing argument; by name, a file outside the workspace (its full path shown).
    await ui.typeInChat(`@mcp /flow.echo #file:data/picked.txt größe=#file:${outside}`);
    expect(await nextGet(2, 'echo with #file references'), { path: PICKED, größe: OUTSIDE });
    await sessionText(page, /path ← data\/picked\.txt/);
    await sessionText(page, new RegExp(`größe ← ${outside.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    await ui.screenshot('file');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
