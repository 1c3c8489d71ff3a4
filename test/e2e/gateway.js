// Copy Gateway Configuration as a person uses it: typed into the palette, "Codex" typed into the quick pick
// and Enter; the clipboard then holds Codex's entry for `mcp-prompts serve`, with node, the CLI beside the
// extension and the profile's mcp.json. The entry is then started as Codex would start it, and the official
// SDK client lists through it the prompts of the server configured in the profile. A step of
// config-origins.e2e.js, whose window has such a profile (one server, the `rich` fixture), not a window of its own.
const assert = require('node:assert/strict');
const path = require('node:path');
const { root } = require('./harness');
const { waitFor } = require('../wait-for');

const QUICK = '.quick-input-widget';

/** Copies Codex's entry from the palette and lists, through the entry started, the profile's `rich` server. */
async function copyGatewayConfiguration(ui) {
  const { page } = ui;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });

  await ui.runCommand('MCP Prompts: Copy Gateway Configuration');
  await page.locator(`${QUICK} .monaco-list-row`, { hasText: 'OpenAI Codex' }).waitFor({ state: 'visible' });
  await page.keyboard.type('Codex');
  await ui.waitForQuickRows(1);
  await ui.screenshot('pick-client');
  await page.keyboard.press('Enter');

  // Read from the page as often as it takes: waitForFunction takes a promise for a truthy answer.
  const copied = await waitFor(async () => {
    const text = await page.evaluate(() => navigator.clipboard.readText());
    return text.startsWith('[mcp_servers.mcp-prompts]') && text;
  }, "Codex's entry on the clipboard");
  const args = JSON.parse(/^args = (\[.*\])$/m.exec(copied)?.[1] ?? 'null');
  assert.match(copied, /^command = "node"$/m);
  assert.equal(args[0], path.join(root, 'dist', 'cli.js'));
  assert.deepEqual(args.slice(1, 3), ['serve', '--config']);
  assert.match(args[3], /[\\/]User[\\/]mcp\.json$/);
  assert.match(copied, /^default_tools_approval_mode = "prompt"$/m);
  // The harness's VS Code shows no toasts (--enable-smoke-test-driver): the notification centre lists it.
  await ui.runCommand('Notifications: Show Notifications');
  await ui
    .notificationItem('Copied the MCP Prompts gateway for OpenAI Codex: add it to ~/.codex/config.toml.')
    .waitFor({ timeout: 60000 });
  await ui.screenshot('copied');

  // The entry works: started as the client starts it, it serves the prompts of the profile's server.
  const { Client } = require('@modelcontextprotocol/client');
  const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
  const client = new Client({ name: 'gateway-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
  try {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map(p => p.name),
      ['rich_content', 'code_review'],
    );
  } finally {
    await client.close();
  }
}

module.exports = { copyGatewayConfiguration };
