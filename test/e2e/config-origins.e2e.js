// Where servers come from (issue 16), as a person has them: a server added to the user profile's
// mcp.json (written the way "MCP: Add Server → Global" writes it, next to settings.json), one in the
// `mcp` section of the .code-workspace file (under `settings`, where VS Code keeps it) the window opened,
// one in `mcpPrompts.servers` of that workspace's folder settings (.vscode/settings.json: the setting's
// scope, resource, lets VS Code apply a folder value, which a window-scoped setting drops), and one in
// Cursor's ~/.cursor/mcp.json read by discovery under a fake HOME. All run; the profile's prompt runs from
// chat; the tree says where each is defined; a server added to the profile file while the window is open
// appears without a reload, and so does a workspace .cursor/mcp.json; Disable Server from the tree's
// context menu holds it, Enable Server starts it again. Copy Gateway Configuration's entry serves the
// profile's server (test/e2e/gateway.js). Then, in the same window (its JSON-RPC trace on from the start),
// the person adds a server whose token is an input asked in a password box (secret-inputs.js).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, root } = require('./harness');
const { copyGatewayConfiguration } = require('./gateway');
const secretInputs = require('./secret-inputs');

const SESSION = '.interactive-session';

module.exports = async function configOrigins(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const servers = testServers();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-home-'));
  try {
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(
      path.join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { 'cursor-pages': servers.paginated } }, null, 2),
    );
    // VS Code writes mcp.json with tabs, `servers` first and an `inputs` list.
    const profileJson = defined => JSON.stringify({ servers: defined, inputs: [] }, null, '\t');
    const ui = await openWorkbench(ctx, {
      env: { HOME: home },
      userSettings: { 'mcpPrompts.discovery': { cursor: true } },
      userFiles: { 'mcp.json': profileJson({ 'profile-rich': servers['rich-demo'] }) },
      files: {
        // A workspace discovery file (a workspace origin), there when the window opens.
        '.cursor/mcp.json': JSON.stringify({ mcpServers: { 'cursor-ws': servers['rich-demo'] } }),
        '.vscode/settings.json': JSON.stringify({ 'mcpPrompts.servers': { 'folder-rich': servers['rich-demo'] } }),
        'project.code-workspace': JSON.stringify(
          { folders: [{ path: '.' }], settings: { mcp: { servers: { 'ws-completions': servers.completions } } } },
          null,
          2,
        ),
      },
      workspaceFile: 'project.code-workspace',
      extraArgs: ['--log', 'trace'],
      // The workspace's three ask before they start; the profile's and discovery's are the person's own.
      allow: ['ws-completions', 'folder-rich', 'cursor-ws'],
    });
    const { page, host } = ui;
    /** Right-click a row, point at the menu item and press Enter, as a person using the menu does. */
    const chooseFromContextMenu = async (row, label) => {
      await row.click({ button: 'right' });
      const item = page.getByRole('menuitem', { name: label }).first();
      await item.waitFor({ timeout: 30000 });
      await item.hover();
      await page.keyboard.press('Enter');
    };
    await page.locator('[aria-label^="MCP Prompts: 5 running, 0 failing"]').first().waitFor({ timeout: 120000 });

    // The profile's server runs its prompt from chat, as any other.
    await ui.typeInChat('@mcp /profile-rich.rich_content');
    await ui.waitForText('FAKE-MODEL received 4 messages: [user] # Rich content', { within: SESSION });

    // The gateway's entry for Codex serves the profile's server (test/e2e/gateway.js); the notification
    // centre it opened is put away, as a person does, before the tree.
    await copyGatewayConfiguration(ui);
    await ui.runCommand('Notifications: Hide Notifications');
    await page.locator('.notifications-center.visible').waitFor({ state: 'detached', timeout: 30000 });

    // The tree lists each with its origin in the tooltip.
    await ui.runCommand('MCP Prompts: Focus on Prompts View');
    const tree = page.locator('.pane-body .monaco-list-row');
    await tree.filter({ hasText: 'profile-rich' }).filter({ hasText: 'running' }).first().waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'ws-completions' }).filter({ hasText: 'running' }).first().waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'cursor-pages' }).filter({ hasText: 'running' }).first().waitFor({ timeout: 60000 });
    await tree.filter({ hasText: 'folder-rich' }).filter({ hasText: 'running' }).first().waitFor({ timeout: 60000 });
    // Collapsed, every server row is on screen (the list only renders visible rows).
    await tree.filter({ hasText: 'profile-rich' }).first().hover();
    await page.locator('.action-label[aria-label="Collapse All"]:visible').first().click();
    await tree.filter({ hasText: 'profile-rich' }).first().hover();
    await page
      .locator('.monaco-hover, .workbench-hover')
      .filter({ hasText: 'Defined in: user profile mcp.json' })
      .first()
      .waitFor({ timeout: 60000 });
    await ui.screenshot('origins-tooltip');
    await tree.filter({ hasText: 'cursor-pages' }).first().hover();
    await page
      .locator('.monaco-hover, .workbench-hover')
      .filter({ hasText: 'Defined in: Cursor (~/.cursor/mcp.json)' })
      .first()
      .waitFor({ timeout: 60000 });

    // Watched: a server added to the profile's mcp.json while the window is open appears without a reload.
    const profileFile = path.join(host.userDataDir, 'User', 'mcp.json');
    fs.writeFileSync(
      profileFile,
      profileJson({ 'profile-rich': servers['rich-demo'], 'profile-changing': servers.changing }),
    );
    await page.locator('[aria-label^="MCP Prompts: 6 running, 0 failing"]').first().waitFor({ timeout: 120000 });
    await tree.filter({ hasText: 'profile-changing' }).first().waitFor({ timeout: 60000 });

    // Disable from the tree's context menu: the server stays listed, stopped; Enable starts it again.
    await chooseFromContextMenu(tree.filter({ hasText: 'cursor-pages' }).first(), 'Disable Server');
    await tree.filter({ hasText: 'cursor-pages' }).filter({ hasText: 'disabled' }).first().waitFor({ timeout: 60000 });
    await page.locator('[aria-label^="MCP Prompts: 5 running, 0 failing"]').first().waitFor({ timeout: 60000 });
    await ui.screenshot('origins-disabled');
    await chooseFromContextMenu(tree.filter({ hasText: 'cursor-pages' }).first(), 'Enable Server');
    await tree.filter({ hasText: 'cursor-pages' }).filter({ hasText: 'running' }).first().waitFor({ timeout: 60000 });
    await page.locator('[aria-label^="MCP Prompts: 6 running, 0 failing"]').first().waitFor({ timeout: 60000 });
    // The workspace's .cursor/mcp.json is read too, named as such.
    await tree.filter({ hasText: 'cursor-ws' }).first().hover();
    await page
      .locator('.monaco-hover, .workbench-hover')
      .filter({ hasText: 'Defined in: Cursor (.cursor/mcp.json)' })
      .first()
      .waitFor({ timeout: 60000 });
    // Discovery only reads: the Cursor file is as it was.
    assert.deepEqual(
      Object.keys(JSON.parse(fs.readFileSync(path.join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers),
      ['cursor-pages'],
    );
    await secretInputs(ctx, ui, { running: 6, failing: 0 });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module.exports, 'config-origins');
