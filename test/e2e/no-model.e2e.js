// Without any language model: a prompt run from the palette opens in the transcript editor (markdown
// preview of a read-only document) with roles, the image inline, and links to audio and resources.
const path = require('node:path');
const { openWorkbench, runStandalone, root, waitForFrameValue } = require('./harness');

module.exports = async function noModel(ctx) {
  const { testServers } = await import(path.join(root, 'test', 'workspace.mjs'));
  const { 'rich-demo': rich } = testServers();
  const ui = await openWorkbench(ctx, {
    installExtensions: [], // no fake model: nothing can answer in chat
    waitForModel: false,
    files: { '.vscode/mcp.json': JSON.stringify({ servers: { 'rich-demo': rich } }, null, 2) },
  });
  const { page } = ui;
  await page.locator('[aria-label^="MCP Prompts: 1 running, 0 failing"]').first().waitFor({ timeout: 120000 });
  await ui.runCommand('MCP Prompts: Run Prompt…');
  await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Rich content' }).first().click();
  await page.locator('.tab').filter({ hasText: 'rich-demo.rich_content.md' }).first().waitFor({ timeout: 60000 });
  // The preview renders in a webview iframe: wait for the frame that shows the transcript.
  await waitForFrameValue(
    page,
    () => {
      const img = document.querySelector('img[data-src="0-1/image.png"]');
      const text = document.body?.innerText ?? '';
      return (
        !!img &&
        img.naturalWidth === 64 &&
        !img.src.startsWith('data:') &&
        /User/.test(text) &&
        /Assistant/.test(text) &&
        !!document.querySelector('a[href^="mcp-prompts-media:"], a[data-href^="mcp-prompts-media:"]') &&
        /audio\.wav \(audio\/wav, 1\.0 s/.test(text) &&
        /Demo README/.test(text)
      );
    },
    'the transcript preview with image, roles, audio and link',
  );
  await ui.screenshot('transcript-editor');
};

if (require.main === module) runStandalone(module, __filename);
