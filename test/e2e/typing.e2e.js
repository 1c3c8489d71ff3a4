// Typing an argument in Run Prompt… against a server that counts what it is asked
// (test/fixtures/servers/completions.mjs: 300 ms an answer, every request and the most under way at
// once written to a file): a person types "typescript" at five keys a second, each pause longer
// than the input's quiet spell and shorter than the server's answer. The list narrows as they type,
// the server answers the whole word, and it never has two completion requests of the argument under
// way at once (src/core/view/completion-session.ts, which src/ui/argument-step.ts wraps).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, root, runStandalone, waitForFile } = require('./harness');

const QUICK = '.quick-input-widget';
const SESSION = '.interactive-session';

module.exports = async function typing(ctx) {
  const { fixtureCommand } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-typing-'));
  ctx.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
  const statsFile = path.join(dir, 'stats.json');
  const completions = {
    type: 'stdio',
    ...fixtureCommand('completions'),
    env: { COMPLETION_DELAY_MS: '300', COMPLETION_STATS: statsFile },
  };
  const ui = await openWorkbench(ctx, {
    files: { '.vscode/mcp.json': JSON.stringify({ servers: { completions } }, null, 2) },
  });
  const { page } = ui;
  const rows = page.locator(`${QUICK} .monaco-list-row`);
  const stats = argument =>
    fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8'))[argument] : undefined;
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });

  await ui.runCommand('MCP Prompts: Run Prompt…');
  await rows.filter({ hasText: 'Pick a framework' }).first().click();
  await page.locator(QUICK).getByText('language (required)').first().waitFor({ timeout: 60000 });
  // The answer for the empty box lists every language.
  await rows.filter({ hasText: 'rust' }).filter({ hasText: 'suggestion from completions' }).first().waitFor();

  await page.keyboard.type('typescript', { delay: 200 });
  await waitForFile(
    () => stats('language')?.received.includes('typescript') && stats('language').underWay === 0,
    'the server answering "typescript"',
  );
  // What is typed (row 0), and the suggestion narrowed to it: no other language.
  await page.waitForFunction(
    () => {
      const texts = [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].map(r => r.textContent);
      return texts.length === 2 && texts.every(t => t.startsWith('typescript'));
    },
    undefined,
    { timeout: 60000 },
  );
  await ui.screenshot('typed-language');
  const language = stats('language');
  if (language.mostUnderWay !== 1)
    throw new Error(
      `the server had ${language.mostUnderWay} completion requests under way at once: ${language.received}`,
    );
  if (language.received.length > 10) throw new Error(`more requests than keystrokes: ${language.received.join(', ')}`);

  await page.keyboard.press('Enter');
  await page.locator(QUICK).getByText('framework (required)').first().waitFor({ timeout: 60000 });
  // Asked with the language as context: the frameworks of typescript.
  await rows.filter({ hasText: 'nestjs' }).filter({ hasText: 'suggestion from completions' }).first().click();
  await ui.waitForText('Use nestjs with typescript', { within: SESSION });
  await ui.screenshot('result');
  if (stats('framework')?.mostUnderWay !== 1) throw new Error(`framework: ${JSON.stringify(stats('framework'))}`);
};

if (require.main === module) runStandalone(module.exports, __filename);
