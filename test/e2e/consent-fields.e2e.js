// The consent dialog of a workspace-defined server shows everything it would send or set, as written:
// a header carrying `${env:GITHUB_TOKEN}` (called out: it reads your environment) and a NODE_OPTIONS env
// that loads a file of the repository into node (shown first). The person reads it, declines both, and
// nothing reaches the listener or starts.
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');

const DIALOG = '.monaco-dialog-box';

module.exports = async function consentFields(ctx) {
  const { faultyCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const tag = crypto.randomBytes(4).toString('hex');
  const requests = [];
  const listener = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  await new Promise(resolve => listener.listen(0, '127.0.0.1', resolve));
  ctx.defer(
    () =>
      new Promise(resolve => {
        listener.closeAllConnections();
        listener.close(resolve);
      }),
  );
  const ok = faultyCommand('ok');
  const mcpJson = {
    servers: {
      'gh-http': {
        type: 'http',
        url: `http://127.0.0.1:${listener.address().port}/mcp`,
        headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' },
      },
      loader: {
        ...ok,
        args: [...ok.args, `loader-${tag}`],
        env: { DEBUG: '1', NODE_OPTIONS: '--require ./planted.js' },
      },
    },
  };
  const ui = await openWorkbench(ctx, {
    workspaceTrust: true,
    waitForModel: false,
    files: { '.vscode/mcp.json': JSON.stringify(mcpJson, null, 2), 'planted.js': 'process.exit(42);\n' },
  });
  const { page } = ui;
  await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
  // Active once its status bar item counts the two held servers' state.
  await page.locator('[aria-label^="MCP Prompts: 0 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  // Every server is the workspace's: the view says so and offers Manage Workspace Trust.
  await ui.runCommand('MCP Prompts: Focus on Prompts View');
  await page.locator('.pane-body').getByRole('button', { name: 'Manage Workspace Trust' }).first().click();
  const trust = page.getByRole('button', { name: /^Trust$/ }).first();
  await trust.waitFor({ timeout: 60000 });
  await trust.click();

  const dialog = page.locator(DIALOG);
  const consent = async (name, shows, shot) => {
    await dialog.filter({ hasText: `Start the MCP server "${name}"` }).waitFor({ timeout: 120000 });
    const text = (await dialog.innerText()).replace(/\u00a0/g, ' ');
    for (const want of shows)
      if (!text.includes(want)) throw new Error(`the consent for ${name} does not show ${want}:\n${text}`);
    await ui.screenshot(shot);
    await dialog.getByRole('button', { name: 'Do Not Start', exact: true }).click();
    await dialog.filter({ hasText: `"${name}"` }).waitFor({ state: 'hidden', timeout: 60000 });
    return text;
  };
  await consent(
    'gh-http',
    [
      'Authorization: Bearer ${env:GITHUB_TOKEN}',
      'It reads from your environment and passes on:',
      'GITHUB_TOKEN (headers Authorization)',
    ],
    'consent-header',
  );
  const loader = await consent(
    'loader',
    [
      'It sets variables that change which code runs:',
      'NODE_OPTIONS=--require ./planted.js',
      `loader-${tag}`,
      'DEBUG=1',
    ],
    'consent-loader',
  );
  // Shown first: the loader variable comes before the command line.
  if (loader.indexOf('NODE_OPTIONS=') > loader.indexOf('Command:'))
    throw new Error(`NODE_OPTIONS is not shown before the command:\n${loader}`);
  if (requests.length) throw new Error(`the listener received ${requests.join(', ')}`);
  const running = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).includes(`loader-${tag}`);
  if (running) throw new Error('the declined server started');
};

if (require.main === module) runStandalone(module, __filename);
