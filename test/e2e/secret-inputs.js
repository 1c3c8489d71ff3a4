// Secrets in the real UI (config-origins.e2e.js, after the servers' origins): a `${input:token}` with "password": true in an HTTP server's Authorization
// header is asked once in a password box, kept in SecretStorage (a new connection does not ask again),
// and appears in no file of the run: not in settings, mcp.json, or the server's log with the JSON-RPC
// trace on (the server repeats the token in its answer; the trace shows *** instead). While the box is
// open, other changes to the configuration are read; a value cancelled is reported until Refresh Prompts.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { root, filesContaining, readLog, waitForFile } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

/**
 * The secrets, in the open window `ui` (opened with the JSON-RPC trace on: `--log trace`): the person adds
 * the secure server to the workspace's .vscode/mcp.json beside the servers there, which `others` says
 * (`running` and `failing`: what the status bar counts of them).
 */
module.exports = async function secretInputs(ctx, ui, others) {
  const { startFaultyHttp, faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const token = `tok-${crypto.randomBytes(12).toString('hex')}`;
  const server = await startFaultyHttp('auth', { env: { FAULTY_TOKEN: token } });
  ctx.defer(() => server.close());
  const config = {
    inputs: [{ id: 'token', type: 'promptString', description: 'API token', password: true }],
    servers: { secure: { type: 'http', url: server.url, headers: { Authorization: 'Bearer ${input:token}' } } },
  };
  const { page } = ui;
  const mcpJsonPath = path.join(ui.host.workspace, '.vscode', 'mcp.json');
  const before = fs.existsSync(mcpJsonPath) ? JSON.parse(fs.readFileSync(mcpJsonPath, 'utf8')).servers : {};
  // Each write keeps the servers that were there before.
  const write = c =>
    fs.writeFileSync(mcpJsonPath, JSON.stringify({ ...c, servers: { ...before, ...c.servers } }, null, 2));
  /** The status bar once `running` of the secrets' servers run (the other servers counted in). */
  const status = running =>
    page.locator(`[aria-label^="MCP Prompts: ${others.running + running} running, ${others.failing} failing"]`).first();
  write(config);
  await ui.allowServers(['secure']);

  // Asked once, in a password box titled with the server and the input's description.
  const box = page.locator(`${QUICK} .quick-input-box input[type="password"]`);
  await box.waitFor({ state: 'visible', timeout: 120000 });
  await page.locator(QUICK).getByText('secure: API token').first().waitFor();
  await ui.screenshot('password-box');
  // While the box asks, the configuration is read as usual: a server added meanwhile starts, and the
  // box stays open with the keyboard in it.
  const ok = { type: 'stdio', ...faultyCommand('ok') };
  write({ ...config, servers: { ...config.servers, meanwhile: ok } });
  await ui.allowServers(['meanwhile']);
  await status(1).waitFor({ timeout: 120000 });
  await ui.screenshot('password-box-while-a-server-starts');
  if (!(await box.isVisible())) throw new Error('the box closed when another server was added');
  write(config);
  // With none of its servers left running, the status bar counts only the others.
  await status(0).waitFor({ timeout: 120000 });
  // The keyboard is in the box, where the person types (the sidebar's redraws took it once: view-quiet.ts).
  if (!(await page.evaluate(() => Boolean(document.activeElement?.closest('.quick-input-widget')))))
    throw new Error('the password box lost the keyboard');
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
  await status(1).waitFor({ timeout: 120000 });
  await ui.waitForModel('Fake Echo');
  await ui.typeInChat('@mcp /secure.hello name=Ada');
  await ui.waitForText('Hello, Ada!', { within: SESSION });

  // The trace is on and shows the server's answer, with the token replaced.
  const serverLog = () => readLog(ui.host.runDir, 'MCP Prompts secure.log');
  await waitForFile(
    () => /<- .*Signed in with \*\*\*/.test(serverLog()),
    'the trace with the redacted token in the log',
  );
  const leaks = filesContaining(ui.host.runDir, token);
  if (leaks.length) throw new Error(`the token is stored in clear in: ${leaks.join(', ')}`);

  // Asked once: an edited configuration means a new connection, which takes the token from
  // SecretStorage without asking. (VS Code in the browser keeps secrets in memory unless its embedder
  // provides storage, so a page reload here would ask again; the desktop uses the OS keychain.)
  // The edit keeps the saved prompt list (the timeout is not part of what the list depends on), so
  // with servers started on demand the old connection ends and the new one starts on the next run.
  config.servers.secure.timeout = 20000;
  write(config);
  await status(0).waitFor({ timeout: 120000 });
  await ui.typeInChat('@mcp /secure.hello name=Grace');
  await ui.waitForText('Hello, Grace!', { within: SESSION });
  await waitForFile(
    () => (serverLog().match(/is running: faulty-auth/g) ?? []).length >= 2,
    'a new connection after the edit',
  );
  if (await box.isVisible()) throw new Error('the token was asked for again');
  if (filesContaining(ui.host.runDir, token).length) throw new Error('the token reached a file after the restart');
  await ui.screenshot('reconnected');

  // A value the person cancels (Escape) is reported in the sidebar, not asked again at every read;
  // Refresh Prompts asks again.
  config.inputs.push({ id: 'second', type: 'promptString', description: 'Second key' });
  config.servers.other = { ...ok, env: { KEY: '${input:second}' } };
  write(config);
  await ui.allowServers(['other']);
  const secondBox = page.locator(QUICK).getByText('other: Second key').first();
  await secondBox.waitFor({ timeout: 60000 });
  await page.keyboard.press('Escape');
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  const problemRow = page
    .locator('.pane-body .monaco-list-row')
    .filter({ hasText: 'no value for ${input:second}' })
    .first();
  await problemRow.waitFor({ timeout: 60000 });
  await ui.screenshot('cancelled-value');
  await ui.runCommand('MCP Prompts: Refresh Prompts');
  await secondBox.waitFor({ timeout: 60000 });
  await page.keyboard.type('second-value');
  await page.keyboard.press('Enter');
  await problemRow.waitFor({ state: 'detached', timeout: 60000 });
  await page
    .locator('.pane-body .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: /^other$/ }) })
    .filter({ hasText: 'running' })
    .first()
    .waitFor({ timeout: 60000 });
  await ui.screenshot('value-given-after-refresh');
};
