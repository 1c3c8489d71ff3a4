// MCP skills in the sidebar and the picker of the real VS Code, on test/fixtures/skills.mjs: a Skills group
// under each server that has skills (none under the server without the extension); Inspect from the tree
// (a click on a skill): a read-only preview headed by the server, every file with its size, SKILL.md as
// source; a tampered skill refused on Inspect with one message naming the server and the file, and nothing
// of it on screen; Run Prompt… lists the skills marked as skills, and a row's button inspects one; the chat
// input completes `@mcp /docs.` with the skills, and /list names them.
const assert = require('node:assert/strict');
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

const QUICK = '.quick-input-widget';

/** The servers of test/fixtures/skills.mjs: docs (skills and prompts), tricky (tampered), plain (no skills). */
async function skillServers() {
  const { skillsCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const stdio = variant => ({ type: 'stdio', ...skillsCommand(variant) });
  return { docs: stdio('catalog'), tricky: stdio('tampered'), plain: stdio('plain') };
}

/** The text of the active editor (its lines in view; the editor draws spaces as no-break spaces). */
async function editorText(page) {
  return (await page.locator('.editor-instance .monaco-editor .view-lines').first().innerText()).replace(
    /\u00a0/g,
    ' ',
  );
}

async function waitForEditor(page, re) {
  await page.waitForFunction(
    r =>
      new RegExp(r).test(
        (document.querySelector('.editor-instance .monaco-editor .view-lines')?.innerText ?? '').replace(
          /\u00a0/g,
          ' ',
        ),
      ),
    re.source,
    { timeout: 60000 },
  );
}

module.exports = async function skills(ctx) {
  const servers = await skillServers();
  const ui = await openWorkbench(ctx, {
    files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2) },
    // Lines read whole from the editor (markdown wraps by default).
    userSettings: { '[markdown]': { 'editor.wordWrap': 'off' } },
  });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 3 running, 0 failing"]').first().waitFor({ timeout: 120000 });

  // 1. The Skills group: under docs (3 prompts, 5 skills) and tricky (6 skills offered), not under plain.
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .monaco-list-row');
  await tree
    .filter({ hasText: 'docs' })
    .filter({ hasText: 'running · stdio · 3 prompts · 5 skills' })
    .first()
    .waitFor();
  await tree.filter({ hasText: 'tricky' }).filter({ hasText: '0 prompts · 6 skills' }).first().waitFor();
  await tree.filter({ hasText: 'plain' }).filter({ hasText: 'running · stdio · 1 prompts' }).first().waitFor();
  await tree.filter({ hasText: 'pdf-forms' }).first().waitFor({ timeout: 60000 });
  const groups = page.locator('.pane-body .monaco-list-row .label-name').filter({ hasText: /^Skills$/ });
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.pane-body .monaco-list-row .label-name')].filter(e => e.textContent === 'Skills')
        .length === 2,
    undefined,
    { timeout: 60000 },
  );
  assert.equal(await groups.count(), 2, 'a Skills group under docs and under tricky, none under plain');
  await ui.screenshot('tree');

  // 2. A click on a skill inspects it: a read-only preview in an editor named for the skill and its server.
  await tree.filter({ hasText: 'pdf-forms' }).first().click();
  await page.locator('.tab').filter({ hasText: 'pdf-forms (docs).md' }).first().waitFor({ timeout: 60000 });
  await waitForEditor(page, /Skill "pdf-forms" of the MCP server "docs"/);
  const preview = await editorText(page);
  for (const line of [
    'Read-only preview: inspecting sent nothing of this skill to a model.',
    'Asks for tools (shown, never granted): Bash(python3 scripts/fill.py:*) Read',
    'Files: 3, ',
    'references/FORMS.md — 59 B',
    'scripts/fill.py — 42 B',
    'name: pdf-forms',
    'PDF-FORMS-SKILL-BODY',
  ])
    assert.ok(preview.includes(line), `the preview shows ${JSON.stringify(line)}:\n${preview}`);
  // Read-only: typing changes nothing.
  await page.locator('.editor-instance .monaco-editor').first().click();
  await page.keyboard.type('typed');
  assert.ok(!(await editorText(page)).includes('typed'), 'the preview cannot be edited');
  await ui.screenshot('inspect');

  // 3. A tampered skill: one message naming the server and the file; nothing of it opens or shows.
  await tree.filter({ hasText: 'digest-lie' }).first().click();
  // VS Code shows no toasts under the smoke-test driver this harness starts it with: read the centre.
  await ui.runCommand('Notifications: Show Notifications');
  const refused = page
    .locator('.notifications-center .notification-list-item')
    .filter({
      hasText: 'tricky: the skill "digest-lie" was refused: SKILL.md does not match the digest its server listed',
    })
    .first();
  await refused.waitFor({ timeout: 60000 });
  await refused.getByRole('button', { name: 'Show Log' }).waitFor();
  assert.equal(await page.locator('.tab').filter({ hasText: 'digest-lie' }).count(), 0, 'no preview opened');
  assert.equal(await page.getByText(/DIGEST-LIE-/).count(), 0, 'nothing of the file on screen');
  await ui.screenshot('tampered-inspect');
  await ui.runCommand('Notifications: Hide Notifications');

  // 4. Run Prompt… lists the skills, marked as skills; one beside a prompt of its name is server.skill:name.
  await ui.runCommand('MCP Prompts: Run Prompt…');
  const rows = page.locator(`${QUICK} .monaco-list-row`);
  await rows.filter({ hasText: '/docs.pdf-forms · skill' }).first().waitFor({ timeout: 60000 });
  await rows.filter({ hasText: '/docs.skill:greet · skill' }).first().waitFor();
  await rows.filter({ hasText: '/greet' }).first().waitFor(); // the prompt greet keeps the plain name
  await ui.screenshot('picker');
  // The row's button inspects the skill.
  await page.keyboard.type('code-review');
  await ui.waitForQuickRows(2); // the skill, and edit_skill whose description names code-review
  const review = rows.filter({ hasText: '/docs.code-review · skill' }).first();
  await review.hover();
  await review.locator('.action-label[aria-label="Inspect Skill"]').click();
  await page.locator('.tab').filter({ hasText: 'code-review (docs).md' }).first().waitFor({ timeout: 60000 });
  await waitForEditor(page, /references\/CHECKLIST\.md — 69 B/);
  await ui.screenshot('picker-inspect');

  // 5. Load Skill into Chat from the tree: the chat input gets `@mcp /docs.pdf-forms ` for the request;
  //    sent, the modal asks first (Cancel: nothing is loaded).
  const pdfRow = tree.filter({ hasText: 'pdf-forms' }).first();
  await pdfRow.hover();
  await pdfRow.locator('.action-label[aria-label="Load Skill into Chat"]').click();
  await page.waitForFunction(
    () =>
      document
        .querySelector('.interactive-input-part .monaco-editor .view-lines')
        ?.textContent.replace(/\u00a0/g, ' ') === '@mcp /docs.pdf-forms ',
    undefined,
    { timeout: 60000 },
  );
  await ui.screenshot('tree-load');
  await page.keyboard.type('Fill the form for Ada');
  await page.keyboard.press('Enter');
  const dialog = page
    .locator('.monaco-dialog-box')
    .filter({ hasText: 'Load the skill "pdf-forms" from the MCP server "docs"?' });
  await dialog.waitFor({ timeout: 120000 });
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await ui.waitForText('The skill pdf-forms was not loaded.', { within: '.interactive-session' });

  // 6. In chat: `@mcp /docs.` offers the skills, marked as skills; /list names them after each server's prompts.
  await ui.typeInChat('@mcp /docs.pdf', { send: false });
  const suggest = page.locator('.suggest-widget .monaco-list-row');
  await suggest.filter({ hasText: '/docs.pdf-forms' }).filter({ hasText: 'skill of docs' }).first().waitFor();
  await ui.screenshot('completion');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await ui.typeInChat('@mcp /list');
  await page.waitForFunction(
    () =>
      /\/docs\.skill:greet skill — Greet people the way the team does/.test(
        (document.querySelector('.interactive-session')?.innerText ?? '').replace(/\s+/g, ' '),
      ),
    undefined,
    { timeout: 60000 },
  );
  await ui.screenshot('list');
};

if (require.main === module) runStandalone(module, __filename);
