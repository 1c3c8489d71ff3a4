// The flow fixture (test/fixtures/flow-server.mjs) writes every request it receives to a file, one JSON
// line each: the UI tests check what the server received there, not what the window shows.
const fs = require('node:fs');
const path = require('node:path');
const { root, waitForFile } = require('./harness');

const FLOW_SERVER = path.join(root, 'test', 'fixtures', 'flow-server.mjs');

/** A stdio server entry for the fixture, recording into `record`, answering after `delayMs`. */
function flowServer(record, delayMs = 0) {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [FLOW_SERVER],
    env: { FLOW_RECORD: record, FLOW_DELAY_MS: String(delayMs) },
  };
}

/** A `.vscode/mcp.json` text with that server as `flow`. */
function flowMcpJson(record, delayMs = 0) {
  return JSON.stringify({ servers: { flow: flowServer(record, delayMs) } }, null, 2);
}

/** What the server received so far, one object per request. */
function requests(record) {
  if (!fs.existsSync(record)) return [];
  return fs
    .readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l));
}

/** The `prompts/get` requests for prompt `name`. */
function gets(record, name) {
  return requests(record).filter(r => r.method === 'prompts/get' && r.name === name);
}

/** Waits for the `prompts/get` of `name` after the first `before` ones, and returns it. */
async function nextGet(page, record, name, before, what, timeout = 60000) {
  await waitForFile(() => gets(record, name).length > before, what, timeout);
  return gets(record, name)[before];
}

/** The quick input's row whose label (not its preview or description) is exactly `text`. */
function labelRow(page, text) {
  return page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${text}\\s*$`) }) })
    .first();
}

module.exports = { flowServer, flowMcpJson, requests, gets, nextGet, labelRow };
