// The consent a person gives when a window opens on a folder whose .vscode/mcp.json defines servers:
// each asks once, in a modal naming it, before it starts, whether workspace trust is on or switched off
// (src/ui/consent-prompt.ts). Tests that are not about consent start as a person who allows them all
// does: openWorkbench answers "Start Server" for each server of the workspace's .vscode/mcp.json.
const DIALOG = '.monaco-dialog-box';
const TIMEOUT = 120000;

/**
 * The servers of the `files` a test writes that ask for consent when the window opens: those of
 * `.vscode/mcp.json` not turned off and not shadowed by a server of the same name in the profile's
 * `mcp.json` (`userFiles`). Other workspace sources (`.code-workspace`, settings) are named by the test.
 */
function consentNames(files = {}, userFiles = {}) {
  const servers = text => {
    try {
      const parsed = JSON.parse(text ?? '{}');
      return parsed.servers ?? parsed.mcpServers ?? {};
    } catch {
      return {};
    }
  };
  const mine = servers(userFiles['mcp.json']);
  return Object.entries(servers(files['.vscode/mcp.json']))
    .filter(([name, entry]) => !(name in mine) && !entry?.disabled)
    .map(([name]) => name);
}

/**
 * A server's name as the modal shows it: a character that hides text written out as its escape, as
 * src/core/hidden-text.ts writes it (`git\u200bhub`).
 */
function shownName(name) {
  return name.replace(/[\p{Cc}\p{Cf}]/gu, ch => {
    const code = ch.codePointAt(0);
    if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Allows the named servers as a person does: for each consent modal, in the order they come, checks
 * that it names one of them and clicks Start Server. A modal for another server fails the test.
 */
async function allowServers(page, names, { timeout = TIMEOUT } = {}) {
  const waiting = new Set(names.map(shownName));
  const box = page
    .locator(DIALOG)
    .filter({ hasText: /Start the MCP server "/ })
    .first();
  while (waiting.size) {
    await box.waitFor({ timeout });
    const name = /Start the MCP server "([^"]+)"/.exec(await box.innerText())?.[1];
    if (!waiting.delete(name))
      throw new Error(`a consent for "${name}" came while waiting for ${[...waiting].join(', ')}`);
    await box.getByRole('button', { name: 'Start Server', exact: true }).click();
    await page
      .locator(DIALOG)
      .filter({ hasText: `Start the MCP server "${name}"` })
      .waitFor({ state: 'hidden', timeout });
  }
}

module.exports = { consentNames, allowServers };
