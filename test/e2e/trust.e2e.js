// Workspace trust through the real UI. A repository that is not trusted defines an HTTP server aimed at a
// real local listener, a stdio server, a server in its workspace settings and one with the name of a
// server of the user: in Restricted Mode the listener receives nothing, no workspace process starts, the
// user's servers run and the tree says why each other one does not. An argument's "Output of a
// command…" source only says why it cannot be used there (the repository must not get a command run),
// asks for no command, and the step goes on with a typed value. After trusting, each workspace server
// asks for consent in a modal naming it, what it runs or where it connects, and its origin; one is
// allowed, one declined (and allowed later from the tree). The user's server keeps its name against the
// workspace's, and a password input never reaches the log.
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, root, readLog, waitForFile, filesContaining } = require('./harness');
const { gets: getsOf, flowServer, labelRow } = require('./flow-record');
const { recordingListener } = require('./listener');

const QUICK = '.quick-input-widget';
const DIALOG = '.monaco-dialog-box';
const REFUSED = 'Not available in Restricted Mode: no command runs in a workspace you have not trusted.';

module.exports = async function trust(ctx) {
  const { faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const tag = crypto.randomBytes(4).toString('hex');
  const stdio = marker => {
    const c = faultyCommand('ok');
    return { type: 'stdio', command: c.command, args: [...c.args, `${marker}-${tag}`] };
  };
  const pids = marker =>
    execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter(l => l.includes(`${marker}-${tag}`))
      .map(l => Number(l.trim().split(/\s+/)[0]));
  const processes = marker => pids(marker).length;
  const listen = await recordingListener(ctx);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-trust-'));
  ctx.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
  const record = path.join(dir, 'requests.jsonl');
  const password = `pw-${crypto.randomBytes(8).toString('hex')}`;
  const mcpJson = {
    inputs: [{ id: 'key', type: 'promptString', description: 'API key', password: true }],
    servers: {
      'ws-http': {
        type: 'http',
        url: `${listen.url}/mcp?home=\${userHome}&path=\${env:PATH}`,
        headers: { Authorization: 'Bearer ${input:key}' },
      },
      'ws-stdio': stdio('ws-stdio'),
      shared: stdio('ws-shared'),
    },
  };
  const ui = await openWorkbench(ctx, {
    workspaceTrust: true,
    waitForModel: false,
    files: {
      '.vscode/mcp.json': JSON.stringify(mcpJson, null, 2),
      '.vscode/settings.json': JSON.stringify(
        { 'mcpPrompts.servers': { 'ws-setting': { type: 'http', url: `${listen.url}/setting` } } },
        null,
        2,
      ),
    },
    userSettings: {
      'mcpPrompts.servers': { 'user-ok': stdio('user-ok'), shared: stdio('user-shared'), flow: flowServer(record) },
    },
  });
  const { page } = ui;
  const tree = page.locator('.pane-body .monaco-list-row');
  const row = (name, text) =>
    tree
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) })
      .filter({ hasText: text })
      .first();

  // Restricted Mode: the user's three servers run; nothing of the workspace starts or connects.
  await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
  await page.locator('[aria-label^="MCP Prompts: 3 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  for (const name of ['ws-http', 'ws-stdio'])
    await row(name, 'not started: workspace not trusted').waitFor({ timeout: 60000 });
  await row('user-ok', 'running · stdio').waitFor({ timeout: 60000 });
  // The name clash: the user's "shared" runs, the workspace's is shown as not used.
  await row('shared', 'running · stdio').waitFor({ timeout: 60000 });
  await row('shared', 'not used: your own server of this name is used').waitFor({ timeout: 60000 });
  await ui.screenshot('restricted-tree');
  // Seen in VS Code 1.139: the workspace value of a setting declared in restrictedConfigurations is not
  // given to the extension at all in Restricted Mode (neither get() nor inspect()), so ws-setting is not
  // even listed until the workspace is trusted.
  if (await tree.filter({ hasText: 'ws-setting' }).count()) throw new Error('ws-setting is listed in Restricted Mode');
  if (listen.requests.length)
    throw new Error(`the listener received requests in Restricted Mode: ${JSON.stringify(listen.requests)}`);
  for (const marker of ['ws-stdio', 'ws-shared'])
    if (processes(marker)) throw new Error(`${marker} started in Restricted Mode`);
  if (processes('user-ok') !== 1 || processes('user-shared') !== 1) throw new Error('the user servers are not running');
  // The user's own server runs from the home folder, not from the untrusted folder.
  const cwd = fs.readlinkSync(`/proc/${pids('user-ok')[0]}/cwd`);
  if (cwd !== fs.realpathSync(os.homedir()))
    throw new Error(`user-ok runs in ${cwd} in Restricted Mode, not in the home folder`);
  // The user server's log says why it is the one used.
  await waitForFile(
    () =>
      /shared from \.vscode\/mcp\.json is not used: your own definition of shared \(user settings\) is, because a workspace cannot replace a server you defined/.test(
        readLog(ui.host.runDir, 'MCP Prompts shared.log'),
      ),
    'the reason in the log of shared',
  );

  // A prompt of the user's own server, run from the palette: the command source says why it cannot be
  // used; choosing it asks for no command, and the step stays for a typed value. (Chat is not driven in
  // Restricted Mode: VS Code 1.139 offers no model there, so no request reaches a participant.)
  const quick = page.locator(QUICK);
  await ui.openRunPrompt();
  await page.keyboard.type('Echo values');
  await page.keyboard.press('Enter');
  await quick.getByText('Echo values: path (required)').first().waitFor({ timeout: 30000 });
  const commandRow = labelRow(page, 'Output of a command…');
  await commandRow.filter({ hasText: REFUSED }).waitFor({ timeout: 30000 });
  await commandRow.click();
  await page.waitForFunction(
    t => document.querySelector('.quick-input-widget .quick-input-box input')?.placeholder === t,
    REFUSED,
    { timeout: 30000 },
  );
  await ui.screenshot('command-refused');
  if (await quick.locator('.quick-input-title', { hasText: 'Output of a command' }).count())
    throw new Error('a command was asked for in Restricted Mode');
  await page.keyboard.type('typed');
  await page.keyboard.press('Enter');
  await quick.getByText('Echo values: größe (required)').first().waitFor({ timeout: 30000 });
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  const gets = () => getsOf(record, 'echo');
  await waitForFile(() => gets().length > 0, 'echo in Restricted Mode', 60000);
  const got = gets()[0].args;
  if (got.path !== 'typed' || got['größe'] !== '1') throw new Error(`the server received ${JSON.stringify(got)}`);

  // Trust the workspace from the tree: each workspace server asks for consent, one modal at a time.
  await row('ws-http', 'not started').click();
  const trustButton = page.getByRole('button', { name: /^Trust$/ }).first();
  await trustButton.waitFor({ timeout: 60000 });
  await trustButton.click();
  const dialog = page.locator(DIALOG);
  const consent = async (name, origin, shows, answer, shot) => {
    await dialog
      .filter({ hasText: `Start the MCP server "${name}" defined in ${origin}?` })
      .waitFor({ timeout: 120000 });
    const text = await dialog.innerText();
    if (!text.includes(shows)) throw new Error(`the consent for ${name} does not show ${shows}: ${text}`);
    if (shot) await ui.screenshot(shot);
    await dialog.getByRole('button', { name: answer, exact: true }).click();
    await dialog.filter({ hasText: `"${name}"` }).waitFor({ state: 'hidden', timeout: 60000 });
  };
  await consent(
    'ws-http',
    '.vscode/mcp.json',
    `${listen.url}/mcp?home=\${userHome}&path=\${env:PATH}`,
    'Start Server',
    'consent-http',
  );
  await consent('ws-stdio', '.vscode/mcp.json', `ws-stdio-${tag}`, 'Do Not Start', 'consent-stdio');
  await consent('ws-setting', 'workspace settings', `${listen.url}/setting`, 'Start Server');
  // Nothing reached the listener before the consent; now ws-http asks its password input.
  const box = page.locator(`${QUICK} .quick-input-box input[type="password"]`);
  await box.waitFor({ state: 'visible', timeout: 120000 });
  await page.locator(QUICK).getByText('ws-http: API key').first().waitFor();
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await waitForFile(
    () => listen.requests.some(r => r.url.startsWith('/mcp') && r.authorization === `Bearer ${password}`),
    'ws-http at the listener with its password',
  );
  await waitForFile(() => listen.requests.some(r => r.url === '/setting'), 'ws-setting at the listener');
  // The trust editor is still open behind: close it as a person does.
  const modal = page.locator('.monaco-modal-editor-block');
  if (await modal.isVisible()) {
    await page.keyboard.press('Escape');
    if (await modal.isVisible())
      await modal.locator('.action-label.codicon-close, .action-label[aria-label^="Close"]').first().click();
    await modal.waitFor({ state: 'hidden', timeout: 60000 });
  }
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  await row('ws-stdio', 'not started: you declined — click to allow').waitFor({ timeout: 60000 });
  await row('ws-http', 'answered HTTP 500').waitFor({ timeout: 60000 });
  await row('shared', 'not used: your own server of this name is used').waitFor({ timeout: 60000 });
  await ui.screenshot('trusted-tree');
  if (processes('ws-stdio')) throw new Error('the declined server started');
  if (processes('ws-shared')) throw new Error('the shadowed workspace server started');
  // The password reached the server but no log line: the Starting line shows the URL, the error its cause.
  const httpLog = readLog(ui.host.runDir, 'MCP Prompts ws-http.log');
  if (!/Starting ws-http \(http:\/\/127\.0\.0\.1:\d+\/mcp\?home=/.test(httpLog))
    throw new Error(`no Starting line in the ws-http log:\n${httpLog}`);
  const leaks = filesContaining(ui.host.runDir, password);
  if (leaks.length) throw new Error(`the password is in: ${leaks.join(', ')}`);

  // Allowed later from the tree: the same modal, and this time the server starts.
  await row('ws-stdio', 'click to allow').click();
  await consent('ws-stdio', '.vscode/mcp.json', `ws-stdio-${tag}`, 'Start Server');
  await row('ws-stdio', 'running · stdio').waitFor({ timeout: 60000 });
  await waitForFile(() => processes('ws-stdio') === 1, 'ws-stdio running');
  await page.locator('[aria-label^="MCP Prompts: 4 running, 2 failing"]').first().waitFor({ timeout: 120000 });
  await ui.screenshot('allowed-later');
};

if (require.main === module) runStandalone(module, __filename);
