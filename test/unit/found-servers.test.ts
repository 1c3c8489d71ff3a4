// "Show Found Servers" (src/core/view/found-servers.ts): what the configuration read found, grouped by
// where it is defined, the discovery sources that are off, and the ways to add more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigObject } from '../../src/core/config/config';
import type { HeldEntry } from '../../src/core/config/server-merge';
import { foundServerRows, type FoundInput } from '../../src/core/view/found-servers';
import type { ServerView } from '../../src/core/view/tree-items';

const OFF = { claudeDesktop: false, claudeCode: false, cursor: false, windsurf: false };

function server(name: string, origin: string): ServerView {
  const def = { ...parseConfigObject({ servers: { [name]: { command: 'node' } } }, 'user', origin).servers[0], origin };
  return {
    id: def.id,
    def,
    prompts: [],
    loading: false,
    warnings: [],
    connection: { state: { kind: 'running', info: { transport: 'stdio' } } },
  };
}

function held(name: string, origin: string): HeldEntry {
  const def = parseConfigObject({ servers: { [name]: { command: 'node' } } }, 'workspace', origin).servers[0];
  return {
    def,
    origin,
    reason: 'untrusted',
    message: `${name} from ${origin} does not start until you trust this workspace`,
  };
}

const rows = (input: Partial<FoundInput>) =>
  foundServerRows({ servers: [], held: [], problems: [], discovery: OFF, ...input }).map(r =>
    r.separator ? `--${r.label}` : `${r.label}${r.description ? ` (${r.description})` : ''} → ${r.action.kind}`,
  );

test('servers grouped under the file that defines them; a server leads to its log', () => {
  const found = rows({
    servers: [
      server('a', 'user profile mcp.json'),
      server('b', '.vscode/mcp.json'),
      server('c', 'user profile mcp.json'),
    ],
    discovery: { ...OFF, cursor: true },
  });
  assert.deepEqual(
    found.slice(0, 5).map(r => r.replace(/ \(.*\)/, '')),
    ['--user profile mcp.json', 'a → log', 'c → log', '--.vscode/mcp.json', 'b → log'],
  );
  // Only the sources that are off are listed as not read, with the way to switch them on.
  assert.deepEqual(found.slice(5, 7), [
    '--Not read (switched off in mcpPrompts.discovery)',
    'Claude Desktop, Claude Code, Windsurf (Switch on…) → discovery',
  ]);
  assert.deepEqual(found.slice(-2), ['Add Server… → addServer', 'Import Servers… → importServers']);
});

test('a server held back by Restricted Mode leads to its own action (Manage Workspace Trust), a problem is listed', () => {
  const input: FoundInput = {
    servers: [],
    held: [held('ws', '.vscode/mcp.json')],
    problems: [{ origin: 'user settings', message: 'user settings: "servers" must be an object' }],
    discovery: OFF,
  };
  const found = foundServerRows(input);
  const ws = found.find(r => r.label === 'ws');
  assert.deepEqual(ws?.action, { kind: 'command', command: 'workbench.trust.manage', arguments: undefined });
  assert.equal(ws?.description, 'not started: workspace not trusted');
  assert.ok(rows(input).includes('user settings: "servers" must be an object → none'));
});

test('nothing found says so, and offers Add Server… and Import Servers…', () => {
  const found = rows({ discovery: { claudeDesktop: true, claudeCode: true, cursor: true, windsurf: true } });
  assert.deepEqual(found, [
    'No MCP servers are configured. → none',
    '--',
    'Add Server… → addServer',
    'Import Servers… → importServers',
  ]);
});
