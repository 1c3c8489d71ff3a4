// Secrets in the real UI: a `${input:token}` with "password": true in an HTTP server's Authorization
// header is asked once in a password box, kept in SecretStorage (a new connection does not ask again),
// and appears in no file of the run: not in settings, mcp.json, or the server's log with the JSON-RPC
// trace on (the server repeats the token in its answer; the trace shows *** instead).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

const SESSION = '.interactive-session';
const QUICK = '.quick-input-widget';

/** Files under `dir` whose bytes contain `needle`. */
function filesContaining(dir, needle) {
  const hits = [];
  const walk = d => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && fs.statSync(p).size < 64 * 1024 * 1024 && fs.readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}

module.exports = async function secrets(ctx) {
  const { startFaultyHttp } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const token = `tok-${crypto.randomBytes(12).toString('hex')}`;
  const server = await startFaultyHttp('auth', { env: { FAULTY_TOKEN: token } });
  ctx.defer(() => server.close());
  const config = {
    inputs: [{ id: 'token', type: 'promptString', description: 'API token', password: true }],
    servers: { secure: { type: 'http', url: server.url, headers: { Authorization: 'Bearer ${input:token}' } } },
  };
  const ui = await openWorkbench(ctx, { extraArgs: ['--log', 'trace'], waitForModel: false, files: { '.vscode/mcp.json': JSON.stringify(config, null, 2) } });
  const { page } = ui;

  // Asked once, in a password box titled with the server and the input's description.
  const box = page.locator(`${QUICK} .quick-input-box input[type="password"]`);
  await box.waitFor({ state: 'visible', timeout: 120000 });
  await page.locator(QUICK).getByText('secure: API token').first().waitFor();
  await ui.screenshot('password-box');
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await ui.waitForModel('Fake Echo');
  await ui.typeInChat('@mcp /secure.hello name=Ada');
  await ui.waitForText('Hello, Ada!', { within: SESSION });

  // The trace is on and shows the server's answer, with the token replaced.
  const logs = path.join(ui.host.runDir, 'user-data', 'logs');
  const serverLog = () => {
    const found = [];
    const walk = d => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name === 'MCP Prompts secure.log') found.push(p); } };
    walk(logs);
    return found.map(f => fs.readFileSync(f, 'utf8')).join('\n');
  };
  const deadline = Date.now() + 60000;
  while (!/<- .*Signed in with \*\*\*/.test(serverLog())) {
    if (Date.now() > deadline) throw new Error(`the trace with the redacted token did not appear in the log:\n${serverLog().slice(0, 2000)}`);
    await page.waitForTimeout(250); // polling interval of a bounded condition wait (the log is a file)
  }
  const leaks = filesContaining(ui.host.runDir, token);
  if (leaks.length) throw new Error(`the token is stored in clear in: ${leaks.join(', ')}`);

  // Asked once: an edited configuration starts a new connection, which takes the token from
  // SecretStorage without asking. (VS Code in the browser keeps secrets in memory unless its embedder
  // provides storage, so a page reload here would ask again; the desktop uses the OS keychain.)
  config.servers.secure.timeout = 20000;
  fs.writeFileSync(path.join(ui.host.workspace, '.vscode', 'mcp.json'), JSON.stringify(config, null, 2));
  const started = () => (serverLog().match(/is running: faulty-auth/g) ?? []).length;
  const until = Date.now() + 60000;
  while (started() < 2) {
    if (Date.now() > until) throw new Error('the edited configuration did not start a new connection');
    await page.waitForTimeout(250); // polling interval of a bounded condition wait (the log is a file)
  }
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await ui.typeInChat('@mcp /secure.hello name=Grace');
  await ui.waitForText('Hello, Grace!', { within: SESSION });
  if (await box.isVisible()) throw new Error('the token was asked for again');
  if (filesContaining(ui.host.runDir, token).length) throw new Error('the token reached a file after the restart');
  await ui.screenshot('reconnected');
};

if (require.main === module) runStandalone(module, __filename);
