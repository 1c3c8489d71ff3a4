// Faults and security through the real UI: an untrusted workspace holds back its servers (the tree
// says why and leads to Manage Workspace Trust) while a user-level server works; after trusting and
// consenting to each workspace server,
// a server that cannot start shows its cause in the tree, hostile server text stays inert in chat, and
// the arguments of a failed run are offered again by "Edit Arguments and Retry…" in chat and by "Try
// Again…" on the notification of a run in the editor, Show Log opens the server's log; Escape in the argument
// input and the chat's stop button cancel (the server receives notifications/cancelled), and a window
// reload with a request pending leaves no server process behind.
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');
const { openWorkbench, runStandalone, root, readLog, rowName, waitForFile, waitForFrameValue } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

module.exports = async function faults(ctx) {
  const { faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  // Each server's command line ends with this run's tag: the processes counted below are this window's,
  // not those of the integration tests running beside it (they start the same fixture).
  const tag = `faults-${crypto.randomBytes(4).toString('hex')}`;
  const stdio = fault => {
    const { command, args } = faultyCommand(fault);
    return { type: 'stdio', command, args: [...args, tag] };
  };
  const ui = await openWorkbench(ctx, {
    workspaceTrust: true,
    waitForModel: false,
    files: {
      '.vscode/mcp.json': JSON.stringify(
        {
          servers: {
            flaky: stdio('fail-once'),
            hostile: stdio('content'),
            slow: stdio('hang-on-get'),
            gone: { type: 'stdio', command: 'mcp-prompts-no-such-command' },
          },
        },
        null,
        2,
      ),
    },
    // The reload below checks that every running server is replaced: start them all, not on demand.
    userSettings: { 'mcpPrompts.servers': { 'user-ok': stdio('ok') }, 'mcpPrompts.startServers': 'onStartup' },
  });
  const { page } = ui;

  // A new folder opens in Restricted Mode: the workspace's servers are held back, the user's run.
  await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const tree = page.locator('.pane-body .monaco-list-row');
  for (const name of ['flaky', 'hostile', 'slow', 'gone'])
    await tree
      .filter({ hasText: name })
      .filter({ hasText: 'not started: workspace not trusted' })
      .first()
      .waitFor({ timeout: 60000 });
  // The user-level server runs and lists its prompts in Restricted Mode.
  await tree
    .filter({ hasText: 'user-ok' })
    .filter({ hasText: 'running · stdio · 2 prompts' })
    .first()
    .waitFor({ timeout: 60000 });
  await ui.screenshot('untrusted-tree');

  // The held-back server leads to Manage Workspace Trust; trusting starts the servers.
  await tree.filter({ hasText: 'flaky' }).filter({ hasText: 'not started' }).first().click();
  const trust = page.getByRole('button', { name: /^Trust$/ }).first();
  await trust.waitFor({ timeout: 60000 });
  await ui.screenshot('manage-trust');
  await trust.click();
  // Each workspace server asks for consent once, naming what it runs (test/e2e/trust.e2e.js covers declining).
  const consent = page.locator('.monaco-dialog-box');
  for (const name of ['flaky', 'hostile', 'slow', 'gone']) {
    await consent
      .filter({ hasText: `Start the MCP server "${name}" defined in .vscode/mcp.json?` })
      .waitFor({ timeout: 120000 });
    if (name === 'flaky') await ui.screenshot('consent');
    await consent.getByRole('button', { name: 'Start Server', exact: true }).click();
    await consent.filter({ hasText: `"${name}"` }).waitFor({ state: 'hidden', timeout: 60000 });
  }
  await page.locator('[aria-label^="MCP Prompts: 4 running, 1 failing"]').first().waitFor({ timeout: 120000 });
  // The trust editor opens as a modal: close it.
  const modal = page.locator('.monaco-modal-editor-block');
  await page.keyboard.press('Escape');
  if (await modal.isVisible())
    await modal.locator('.action-label.codicon-close, .action-label[aria-label^="Close"]').first().click();
  await modal.waitFor({ state: 'hidden', timeout: 60000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  await tree
    .filter({ hasText: 'gone' })
    .filter({ hasText: 'could not start: command not found (mcp-prompts-no-such-command)' })
    .first()
    .waitFor({ timeout: 60000 });
  await ui.screenshot('trusted-tree');
  await ui.waitForModel('Fake Echo');

  // Hostile text from a server: shown, never live (no command: link, no HTML elements).
  await ui.typeInChat('@mcp /hostile.hostile-text');
  await ui.waitForText('still here', { within: SESSION });
  const hostile = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('.interactive-session .interactive-item-container')];
    const row = rows.find(r => r.textContent.includes('still here'));
    if (!row) return { found: false };
    return {
      found: true,
      commandLinks: row.querySelectorAll('a[href^="command:"], a[data-href^="command:"]').length,
      images: row.querySelectorAll('img[src="x"]').length,
      scripts: row.querySelectorAll('script').length,
      text: row.textContent,
    };
  });
  if (!hostile.found) throw new Error('the hostile-text response was not found');
  if (hostile.commandLinks || hostile.images || hostile.scripts)
    throw new Error(`server text became live: ${JSON.stringify(hostile)}`);
  await ui.screenshot('hostile-text');

  // A failed run keeps its arguments: the retry starts from them, and this time the server answers.
  await ui.typeInChat('@mcp /flaky.hello name=Ada');
  await ui.waitForText('flaky failed on prompt "hello": temporarily unavailable', { within: SESSION });
  await ui.screenshot('failed-with-retry');
  // Show Log on the failed response opens that server's log in the Output panel.
  await page.locator(SESSION).getByRole('button', { name: 'Show Log' }).last().click();
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.part.panel .view-lines')].some(
        v => /Starting\s+flaky\b/.test(v.textContent) && /flaky\s+is\s+running/.test(v.textContent),
      ),
    undefined,
    { timeout: 60000 },
  );
  await ui.screenshot('show-log');
  await page.locator(SESSION).getByRole('button', { name: 'Edit Arguments and Retry…' }).last().click();
  const input = page.locator(`${QUICK} .quick-input-box input`);
  await input.waitFor({ state: 'visible', timeout: 60000 });
  await page.waitForFunction(
    () => document.querySelector('.quick-input-widget .quick-input-box input')?.value === 'Ada',
    undefined,
    { timeout: 60000 },
  );
  await ui.screenshot('retry-prefilled');
  await page.keyboard.press('Enter');
  await ui.waitForText('Hello, Ada!', { within: SESSION });
  await ui.screenshot('retried');

  // Run in the editor from the palette: the failure is a notification naming the server and the cause,
  // with Try Again… (the arguments kept) and Show Log. A restart gives flaky a new process that fails once.
  const flakyLog = () => readLog(ui.host.runDir, 'MCP Prompts flaky.log');
  const flakyStarts = () => (flakyLog().match(/flaky is running/g) ?? []).length;
  const startsBefore = flakyStarts();
  await ui.runCommand('MCP Prompts: Restart Server…');
  await rowName(page.locator(QUICK).locator('.monaco-list-row').filter({ hasText: 'flaky' }).first()).click();
  await waitForFile(() => flakyStarts() > startsBefore, 'flaky running again after Restart Server');
  await ui.runCommand('MCP Prompts: Run in Editor…');
  await page.locator(QUICK).getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('flaky.hello');
  await rowName(page.locator(`${QUICK} .monaco-list-row`).filter({ hasText: '/flaky.hello' }).first()).click();
  await page.locator(QUICK).getByText('name (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.type('Bo');
  await page.keyboard.press('Enter');
  // The notification centre lists it with the same buttons as its toast. VS Code shows no toasts at all
  // when started with --enable-smoke-test-driver, as this harness is, so the test reads the centre.
  await ui.runCommand('Notifications: Show Notifications');
  const failure = ui.notificationItem('flaky failed on prompt "hello": temporarily unavailable');
  await failure.waitFor({ timeout: 60000 });
  await failure.getByRole('button', { name: 'Show Log' }).waitFor({ timeout: 60000 });
  await ui.screenshot('failed-notification');
  await failure.getByRole('button', { name: 'Try Again…' }).click();
  await page.waitForFunction(
    () => document.querySelector('.quick-input-widget .quick-input-box input')?.value === 'Bo',
    undefined,
    { timeout: 60000 },
  );
  await page.keyboard.press('Enter');
  // The retry runs in the editor again, like the run that failed (not in chat).
  await page.locator('.tab').filter({ hasText: 'flaky.hello' }).first().waitFor({ timeout: 60000 });
  await waitForFrameValue(
    page,
    () => /Hello, Bo!/.test(document.body?.innerText ?? ''),
    'the retried run\'s "Hello, Bo!" in the transcript editor',
  );
  await ui.runCommand('Notifications: Hide Notifications');
  await page.locator('.notifications-center').first().waitFor({ state: 'hidden', timeout: 60000 });
  await ui.screenshot('retried-in-editor');

  // Escape in the argument input: nothing is sent, the chat says so.
  await ui.typeInChat('@mcp /slow.hello');
  await page.locator(QUICK).getByText('name (required)').first().waitFor({ timeout: 60000 });
  await page.keyboard.press('Escape');
  await ui.waitForText(/^Cancelled\.$/, { within: SESSION });

  // The chat's stop button while the server does not answer: the request is cancelled at the server.
  await ui.typeInChat('@mcp /slow.hello name=Zed');
  const log = () => readLog(ui.host.runDir, 'MCP Prompts slow.log');
  await waitForFile(() => /not answering prompts\/get \(id (\d+)\)/.test(log()), 'the request at the server');
  const id = /not answering prompts\/get \(id (\d+)\)/.exec(log())[1];
  await page
    .locator(
      '.interactive-input-part a.action-label[aria-label^="Cancel"], .interactive-input-part a.action-label[aria-label^="Stop"]',
    )
    .first()
    .click({ timeout: 60000 });
  await waitForFile(() => log().includes(`cancelled ${id}`), 'notifications/cancelled at the server');
  await ui.screenshot('cancelled');

  // A window reload while a request hangs: the old extension host's servers all exit, the new one
  // starts its own; no process is left behind.
  await ui.typeInChat('@mcp /slow.hello name=Reload');
  await waitForFile(
    () => (log().match(/not answering prompts\/get/g) ?? []).length >= 2,
    'the second request at the server',
  );
  await page.reload();
  await page.locator('[aria-label^="MCP Prompts: 4 running, 1 failing"]').first().waitFor({ timeout: 120000 });
  const servers = () =>
    execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
      .split('\n')
      .filter(l => l.includes('faulty.mjs') && l.includes(tag)).length;
  await waitForFile(() => servers() === 4, 'exactly one process per server (flaky, hostile, slow, user-ok)');
};

if (require.main === module) runStandalone(module, __filename);
