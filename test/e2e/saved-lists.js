// What the saved-list UI tests count: the pids a fixture wrote (one line per start) and the saved prompt
// lists the extension wrote under the host's run folder.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'cacheable.mjs');

/**
 * A stdio entry for test/fixtures/cacheable.mjs: it serves the prompts in `promptsFile` and writes each
 * start's pid to `pidFile` (and, given `getsFile`, each prompts/get it receives there).
 */
function cacheableServer(pidFile, promptsFile, getsFile) {
  return {
    command: process.execPath,
    args: [FIXTURE],
    env: { CACHEABLE_PIDS: pidFile, CACHEABLE_PROMPTS: promptsFile, ...(getsFile ? { CACHEABLE_GETS: getsFile } : {}) },
  };
}

/**
 * A cacheable server for a UI test: `prompts` written to a temporary folder (removed after the test,
 * through ctx.defer), its `.vscode/mcp.json` text with the server as `name`, and the prompts/get
 * requests it received so far, read from its record.
 */
function cacheableFixture(ctx, name, prompts) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-${name}-`));
  ctx.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
  const promptsFile = path.join(dir, 'prompts.json');
  fs.writeFileSync(promptsFile, JSON.stringify(prompts));
  const getsFile = path.join(dir, 'gets.jsonl');
  const servers = { [name]: cacheableServer(path.join(dir, 'pids'), promptsFile, getsFile) };
  return { mcpJson: JSON.stringify({ servers }, null, 2), gets: () => receivedGets(getsFile) };
}

/** The prompts/get requests a cacheable server received: [{ name, arguments }]. */
function receivedGets(getsFile) {
  return fs.existsSync(getsFile)
    ? fs
        .readFileSync(getsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(l => JSON.parse(l))
    : [];
}

function pids(file) {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

/** The saved lists the extension wrote (its global storage is somewhere under the host's run folder). */
function savedLists(dir) {
  const out = [];
  const walk = d => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (path.basename(d) === 'prompt-cache' && /^prompts-.*\.json$/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

module.exports = { cacheableServer, cacheableFixture, pids, savedLists };
