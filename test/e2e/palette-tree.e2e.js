// The command-palette picker and the sidebar in the real VS Code:
// - at a glance: a failing server is the first row and the view's badge counts it; small servers start
//   expanded, the one whose 23 prompts would push the others off starts collapsed;
// - run a prompt from the palette with a quick-input step answered by a completion item, and from the
//   tree; watch the tree follow a list_changed and a crashing server (restarts keep failing while the
//   fixture refuses to start), then restart it from the palette;
// - what the user expands and collapses (by clicking the rows) is there again after a reload.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, root, rowName } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

module.exports = async function paletteTree(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-crash-')), 'refuse-start');
  const servers = { ...testServers(), broken: { type: 'stdio', command: '/nonexistent/mcp-server' } };
  servers.crashing.env = { CRASHING_MARKER: marker };
  try {
    const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify({ servers }, null, 2) } });
    const { page } = ui;
    await page.locator('[aria-label^="MCP Prompts: 6 running, 1 failing"]').first().waitFor({ timeout: 120000 });
    const tree = page.locator('.pane-body .monaco-list-row');
    // Running in the first window; after the reload the servers wait on demand, showing their saved lists.
    const paginated = tree.filter({ hasText: /(running|cached) · stdio · 23 prompts/ });
    const richDemo = tree.filter({ hasText: 'rich-demo' }).filter({ hasText: /(running|cached) · stdio · 2 prompts/ });
    const firstPaginatedPrompt = tree.filter({ hasText: 'Paginated prompt number 1 of 23' });
    const broken = tree.first().filter({ hasText: /broken\s*failed: broken could not start/ });

    // At a glance: the failing server first, counted on the view's badge; the big server collapsed.
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    await broken.waitFor({ timeout: 60000 });
    // Nothing to open under it: no twistie.
    if (await tree.first().locator('.monaco-tl-twistie.collapsible').count())
      throw new Error('the failed server without prompts should not be expandable');
    await page.locator('.activitybar .badge-content').filter({ hasText: /^1$/ }).first().waitFor({ timeout: 60000 });
    await paginated.first().waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'Rich content' }).first().waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'Pick a framework' }).first().waitFor({ timeout: 60000 });
    if (await firstPaginatedPrompt.count()) throw new Error('paginated (23 prompts) should start collapsed');
    await ui.screenshot('glance');

    // Palette → picker grouped by server → argument steps with completions → result in chat.
    await ui.runCommand('MCP Prompts: Run Prompt…');
    const rows = page.locator(`${QUICK} .monaco-list-row`);
    await rows.filter({ hasText: 'Rich content' }).first().waitFor({ timeout: 60000 });
    await ui.screenshot('picker');
    await page.keyboard.type('Pick a framework');
    // The one prompt, and the failing server's row, which the picker keeps under any filter.
    await ui.waitForQuickRows(2);
    await rows.filter({ hasText: 'Pick a framework' }).first().click();
    await page.locator(QUICK).getByText('language (required)').first().waitFor({ timeout: 60000 });
    await page.keyboard.type('py');
    await rows
      .filter({ hasText: /^python/ })
      .first()
      .waitFor({ timeout: 60000 });
    await ui.screenshot('argument-completion');
    await rows
      .filter({ hasText: /^python/ })
      .first()
      .click();
    await page.locator(QUICK).getByText('framework (required)').first().waitFor({ timeout: 60000 });
    await rows.filter({ hasText: 'django' }).first().click();
    await ui.waitForText('Use django with python', { within: SESSION });

    // The sidebar: servers with live status → prompts.
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    await tree
      .filter({ hasText: 'rich-demo' })
      .filter({ hasText: 'running · stdio · 2 prompts' })
      .first()
      .waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'Rich content' }).first().waitFor();
    await ui.screenshot('tree');

    // Run from the tree: clicking a prompt runs it, the argument step answered by a completion item.
    await tree.filter({ hasText: 'Pick a framework' }).first().click();
    await page.locator(QUICK).getByText('language (required)').first().waitFor({ timeout: 60000 });
    await page.keyboard.type('ru');
    await rows.filter({ hasText: /^rust/ }).first().click();
    await page.locator(QUICK).getByText('framework (required)').first().waitFor({ timeout: 60000 });
    await rows.filter({ hasText: 'axum' }).first().click();
    await ui.waitForText('Use axum with rust', { within: SESSION });

    // list_changed from the server shows up in the tree without a reload.
    await ui.typeInChat('@mcp /changing.grow');
    await ui.waitForText('Added gamma_1', { within: SESSION });
    await tree.filter({ hasText: 'changing' }).filter({ hasText: '5 prompts' }).first().waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'gamma_1' }).first().waitFor({ timeout: 60000 });

    // Collapse the tree so every server row is on screen (the list only renders visible rows).
    await page.locator('.monaco-list-row').filter({ hasText: 'rich-demo' }).first().hover();
    await page.locator('.action-label[aria-label="Collapse All"]:visible').first().click();
    await tree.filter({ hasText: 'crashing' }).filter({ hasText: 'running' }).first().waitFor({ timeout: 60000 });

    // A crash: the chat says so, the tree shows the error on that server and keeps the others.
    await ui.typeInChat('@mcp /crashing.crash');
    await ui.waitForText(/crashing closed the connection during prompt "crash"/, { within: SESSION });
    await tree
      .filter({ hasText: 'crashing' })
      .filter({ hasText: /failed: crashing/ })
      .first()
      .waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'rich-demo' }).filter({ hasText: 'running' }).first().waitFor();
    await page.locator('[aria-label*="MCP Prompts: 5 running, 2 failing"]').first().waitFor({ timeout: 60000 });
    await ui.screenshot('crashed');

    // Let it start again and restart it from the palette.
    fs.rmSync(marker, { force: true });
    await ui.runCommand('MCP Prompts: Restart Server…');
    await rowName(page.locator(QUICK).locator('.monaco-list-row').filter({ hasText: 'crashing' }).first()).click();
    await tree
      .filter({ hasText: 'crashing' })
      .filter({ hasText: 'running · stdio · 2 prompts' })
      .first()
      .waitFor({ timeout: 60000 });
    await ui.screenshot('restarted');

    // The user opens paginated and completions again (Collapse All closed them), and looks into
    // rich-demo and closes it, clicking their rows.
    await paginated.first().click();
    await firstPaginatedPrompt.first().waitFor({ timeout: 60000 });
    await tree
      .filter({ hasText: /completions\s*running · stdio/ })
      .first()
      .click();
    await tree.filter({ hasText: 'Pick a framework' }).first().waitFor({ timeout: 60000 });
    await richDemo.first().click();
    await tree.filter({ hasText: 'Rich content' }).first().waitFor({ timeout: 60000 });
    await richDemo.first().click();
    await tree.filter({ hasText: 'Rich content' }).first().waitFor({ state: 'detached', timeout: 60000 });

    // After a reload the tree is as they left it.
    await ui.runCommand('Developer: Reload Window');
    // The new window: the servers with saved lists wait to be needed, the broken one failed again.
    await page.locator('[aria-label^="MCP Prompts: 0 running, 1 failing"]').first().waitFor({ timeout: 120000 });
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    // Below the prompts run in this window now (Recently used comes first).
    await tree
      .filter({ hasText: /broken\s*failed: broken could not start/ })
      .first()
      .waitFor({ timeout: 120000 });
    await paginated.first().waitFor({ timeout: 60000 });
    await firstPaginatedPrompt.first().waitFor({ timeout: 60000 });
    await richDemo.first().waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'Pick a framework' }).first().waitFor({ timeout: 60000 });
    if (await tree.filter({ hasText: 'Rich content' }).count()) throw new Error('rich-demo should stay collapsed');
    await ui.screenshot('remembered');
  } finally {
    fs.rmSync(path.dirname(marker), { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
