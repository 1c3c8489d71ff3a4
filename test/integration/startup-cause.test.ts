// A server that dies at startup is reported with the line of its stderr that says what went wrong, not
// with its last line (Node's "Node.js v20.x"). One PromptError message carries it to every surface: the
// CLI's stderr line, the tree row's tooltip, the notification (commands/feedback.ts shows the message) and
// the error line of the server's log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serverItem } from '../../src/core/view/tree-items';
import { runCli, tempDir, testCatalog } from './helpers';

/** A Node server whose start fails as a real one does offline: a fetch rejected with its cause. */
const CRASH = [
  "console.error('weather: starting on stdio');",
  "const cause = new Error('getaddrinfo EAI_AGAIN api.weather.example');",
  "throw new TypeError('fetch failed', { cause });",
].join('\n');
const crashing = { command: process.execPath, args: ['-e', CRASH] };
const CAUSE = 'stderr: TypeError: fetch failed [cause]: Error: getaddrinfo EAI_AGAIN api.weather.example';

test('core: the error, the log summary and the tree tooltip name the cause, not Node.js v20.x', async () => {
  const t = testCatalog({ weather: crashing });
  try {
    await t.catalog.ready();
    const entry = t.entry('weather');
    const expected = `weather closed the connection during startup (${CAUSE})`;
    assert.equal(entry.listError?.message, expected);
    assert.match(t.stderr('weather'), /^Node\.js v\d+/m, 'the last stderr line is Node\u2019s version line');
    const errors = t
      .log('weather')
      .lines.filter(l => l.level === 'error')
      .map(l => l.message);
    assert.ok(errors.includes(expected), JSON.stringify(errors));
    const row = serverItem(entry);
    assert.ok(row.description?.endsWith(expected), row.description);
    const tooltip = (row.tooltip as Array<{ text?: string }>).map(p => p.text ?? '').join('');
    assert.ok(tooltip.includes(`Error: ${expected}`), tooltip);
  } finally {
    await t.catalog.dispose();
  }
});

test('CLI: one stderr line with the cause', async () => {
  const dir = tempDir('mcp-startup-cause-');
  try {
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { weather: crashing } }));
    const r = await runCli(['get', 'weather.forecast', '--config', config]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `mcp-prompts: weather closed the connection during startup (${CAUSE})\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
