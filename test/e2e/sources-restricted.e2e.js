// Argument sources in Restricted Mode (issue 13): a repository that is not trusted must not get a
// command run, so "Output of a command…" only says why it cannot be used, asks for no command, and the
// step goes on with a typed value. The prompt comes from a server the user defined (workspace servers
// do not start in Restricted Mode). (Chat is not driven here: VS Code 1.139 offers no model in
// Restricted Mode, so no request reaches a participant.)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, runStandalone, waitForFile } = require('./harness');
const { gets: getsOf, flowServer, labelRow } = require('./flow-record');

const QUICK = '.quick-input-widget';
const REFUSED = 'Not available in Restricted Mode: no command runs in a workspace you have not trusted.';

module.exports = async function sourcesRestricted(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-sources-restricted-'));
  const record = path.join(dir, 'requests.jsonl');
  try {
    const ui = await openWorkbench(ctx, {
      workspaceTrust: true,
      waitForModel: false,
      userSettings: {
        'mcpPrompts.servers': { flow: flowServer(record) },
      },
    });
    const { page } = ui;
    const quick = page.locator(QUICK);
    const row = text => labelRow(page, text);
    const gets = () => getsOf(record, 'echo');
    await page.getByText('Restricted Mode', { exact: true }).first().waitFor({ timeout: 120000 });
    await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

    // 1. The command row says why; choosing it asks for no command and the step stays.
    await ui.runCommand('MCP Prompts: Run Prompt…');
    await quick.getByText('Run MCP Prompt').first().waitFor({ timeout: 30000 });
    await page.keyboard.type('Echo values');
    await page.keyboard.press('Enter');
    await quick.getByText('Echo values: path (required)').first().waitFor({ timeout: 30000 });
    await row('Output of a command…').filter({ hasText: REFUSED }).waitFor({ timeout: 30000 });
    await row('Output of a command…').click();
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
    await waitForFile(() => gets().length > 0, 'echo in Restricted Mode', 60000);
    const got = gets()[0].args;
    if (got.path !== 'typed' || got['größe'] !== '1') throw new Error(`the server received ${JSON.stringify(got)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) runStandalone(module, __filename);
