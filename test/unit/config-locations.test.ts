// Where servers come from (src/core/config/config-locations.ts) and how those places merge (server-merge.ts):
// the user profile's mcp.json found from the extension's global storage, the other clients' files that
// discovery reads, which of them a workspace may switch on, and who wins a name clash or is disabled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseConfigObject, parseConfigText } from '../../src/core/config/config';
import {
  discoveryFiles,
  discoverySwitches,
  parseDiscoveredText,
  profileFolderOf,
  userPortableFile,
  workspaceFileMcp,
  type DiscoveryFile,
} from '../../src/core/config/config-locations';
import { disableKey, planServers, type ConfigSource } from '../../src/core/config/server-merge';
import { platformOf } from '../../src/core/platform';

const root = path.resolve(__dirname, '..', '..', '..');
const linuxHome = platformOf('linux', {}, '/home/u');
const ctx = { trusted: true, platform: linuxHome, firstFolder: '/ws' };
const stdio = (command: string) => ({ type: 'stdio', command });
const ALL_ON = { claudeDesktop: true, claudeCode: true, cursor: true, windsurf: true };

test('the profile folder is two levels above globalStorage/<extension>: default profile, other profiles, remote, web, Windows', () => {
  const ext = 'globalStorage/mcp-prompts.mcp-prompts';
  assert.equal(profileFolderOf(`/home/u/.config/Code/User/${ext}`), '/home/u/.config/Code/User');
  assert.equal(
    profileFolderOf(`/home/u/.config/Code/User/profiles/-5a1b2c3d/${ext}`),
    '/home/u/.config/Code/User/profiles/-5a1b2c3d',
  );
  // A remote window's storage is under the server's data folder; a web window's is the vscode-userdata path.
  assert.equal(profileFolderOf(`/home/u/.vscode-server/data/User/${ext}/`), '/home/u/.vscode-server/data/User');
  assert.equal(profileFolderOf(`/User/${ext}`), '/User');
  assert.equal(
    profileFolderOf(`C:\\Users\\u\\AppData\\Roaming\\Code\\User\\globalStorage\\mcp-prompts.mcp-prompts`),
    'C:\\Users\\u\\AppData\\Roaming\\Code\\User',
  );
  // Any other layout is not guessed at.
  assert.equal(profileFolderOf('/home/u/storage/mcp-prompts'), undefined);
  assert.equal(profileFolderOf('/globalStorage/'), undefined);
});

test("discovery reads each client's files where that client keeps them, on every platform, only when switched on", () => {
  const linux = discoveryFiles({ platform: linuxHome, folders: ['/ws'] }, ALL_ON);
  assert.deepEqual(
    linux.map(f => [f.source, f.kind, f.path]),
    [
      ['claudeDesktop', 'user', '/home/u/.config/Claude/claude_desktop_config.json'],
      ['claudeCode', 'user', '/home/u/.claude.json'],
      ['cursor', 'user', '/home/u/.cursor/mcp.json'],
      ['cursor', 'workspace', '/ws/.cursor/mcp.json'],
      ['windsurf', 'user', '/home/u/.codeium/windsurf/mcp_config.json'],
    ],
  );
  const mac = discoveryFiles(
    { platform: platformOf('darwin', {}, '/Users/u'), folders: [] },
    { ...ALL_ON, claudeCode: false, cursor: false, windsurf: false },
  );
  assert.deepEqual(
    mac.map(f => f.path),
    ['/Users/u/Library/Application Support/Claude/claude_desktop_config.json'],
  );
  const win = discoveryFiles(
    { platform: platformOf('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u'), folders: [] },
    { ...ALL_ON, claudeCode: false, windsurf: false },
  );
  assert.deepEqual(
    win.map(f => [f.path, ...(f.fallbacks ?? [])]),
    [
      [
        'C:\\Users\\u\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json',
        'C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      ],
      ['C:\\Users\\u\\.cursor\\mcp.json'],
    ],
  );
  const off = discoverySwitches(undefined);
  assert.deepEqual(discoveryFiles({ platform: linuxHome, folders: ['/ws'] }, off), []);
});

test("a hostile workspace cannot switch discovery on: only the user's own value of mcpPrompts.discovery counts", () => {
  const fromWorkspace = { workspaceValue: ALL_ON, workspaceFolderValue: ALL_ON, defaultValue: { cursor: false } };
  assert.deepEqual(discoverySwitches(fromWorkspace), {
    claudeDesktop: false,
    claudeCode: false,
    cursor: false,
    windsurf: false,
  });
  assert.deepEqual(discoverySwitches({ ...fromWorkspace, globalValue: { cursor: true, windsurf: 'yes' } }), {
    claudeDesktop: false,
    claudeCode: false,
    cursor: true,
    windsurf: false,
  });
  // The manifest also keeps it out of workspace settings (application scope).
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  assert.equal(manifest.contributes.configuration.properties['mcpPrompts.discovery'].scope, 'application');
});

const file = (from: DiscoveryFile['source'], kind: DiscoveryFile['kind'] = 'user', folder?: string): DiscoveryFile => ({
  source: from,
  kind,
  path: '/x',
  folder,
});

test('each discovery format parses: Claude Desktop, Claude Code (with per-project servers and disabled names), Cursor, Windsurf (serverUrl, disabled)', () => {
  const desktop = parseDiscoveredText(
    file('claudeDesktop'),
    JSON.stringify({
      mcpServers: { fs: { command: 'npx', args: ['-y', 'fs'], env: { A: '1' } } },
      globalShortcut: 'x',
    }),
    'Claude Desktop',
  );
  assert.deepEqual(
    desktop.config.servers.map(s => [s.name, s.source, s.transport.type]),
    [['fs', 'user', 'stdio']],
  );

  const claudeJson = JSON.stringify({
    numStartups: 3,
    mcpServers: { global: { type: 'stdio', command: 'g' }, remote: { type: 'sse', url: 'https://e.example/sse' } },
    projects: {
      '/ws': { mcpServers: { local: { command: 'l' } }, disabledMcpjsonServers: ['from-mcp-json'] },
      '/elsewhere': { mcpServers: { other: { command: 'o' } } },
    },
  });
  const code = parseDiscoveredText(file('claudeCode'), claudeJson, '~/.claude.json', {
    platform: linuxHome,
    folders: ['/ws'],
  });
  assert.deepEqual(
    code.config.servers.map(s => [s.name, s.transport.type]),
    [
      ['global', 'stdio'],
      ['remote', 'sse'],
      ['local', 'stdio'],
    ],
  );

  const cursor = parseDiscoveredText(
    file('cursor'),
    '// comment\n{ "mcpServers": { "web": { "url": "https://c.example/mcp" }, "off": { "command": "x", "disabled": true } } }',
    'Cursor',
  );
  assert.deepEqual(
    cursor.config.servers.map(s => [s.name, s.transport.type]),
    [
      ['web', 'http'],
      ['off', 'stdio'],
    ],
  );
  assert.deepEqual(cursor.disabled, ['off']);

  const windsurf = parseDiscoveredText(
    file('windsurf'),
    JSON.stringify({
      mcpServers: { remote: { serverUrl: 'https://w.example/mcp' }, gone: { command: 'y', disabled: true } },
    }),
    'Windsurf',
  );
  const remote = windsurf.config.servers.find(s => s.name === 'remote')!;
  assert.equal(remote.transport.type === 'http' && remote.transport.url, 'https://w.example/mcp');
  assert.deepEqual(windsurf.disabled, ['gone']);

  assert.throws(
    () => parseDiscoveredText(file('cursor'), '{ "mcpServers": ', 'Cursor (~/.cursor/mcp.json)'),
    /Cursor \(~\/\.cursor\/mcp\.json\): invalid JSON/,
  );
});

test("a .code-workspace file's mcp section is read at the top level or under settings", () => {
  const top = workspaceFileMcp(
    '{ "folders": [{ "path": "." }], "mcp": { "servers": { "a": { "command": "a" } } } }',
    'x.code-workspace',
  );
  assert.deepEqual(
    parseConfigObject(top, 'workspace').servers.map(s => s.name),
    ['a'],
  );
  const nested = workspaceFileMcp(
    '{ "folders": [], "settings": { "mcp": { "servers": { "b": { "command": "b" } } } } }',
    'x.code-workspace',
  );
  assert.deepEqual(
    parseConfigObject(nested, 'workspace').servers.map(s => s.name),
    ['b'],
  );
  assert.equal(workspaceFileMcp('{ "folders": [] }', 'x.code-workspace'), undefined);
});

function source(
  kind: 'user' | 'workspace',
  label: string,
  servers: Record<string, unknown>,
  extra: Partial<ConfigSource> = {},
): ConfigSource {
  return {
    kind,
    label,
    key: label,
    folder: kind === 'workspace' ? '/ws' : undefined,
    config: parseConfigObject({ servers }, kind, label),
    ...extra,
  };
}

test('planServers: the profile mcp.json is a user origin (wins a clash, runs from home in Restricted Mode); .code-workspace and discovered workspace files are held until trusted', () => {
  const profile = source('user', 'user profile mcp.json', { shared: stdio('mine'), own: stdio('own') });
  const workspaceFile = source('workspace', 'x.code-workspace', { shared: stdio('theirs'), wsfile: stdio('w') });
  const claudeProject = source('workspace', 'Cursor (.cursor/mcp.json)', { repo: stdio('r') });
  const trusted = planServers([workspaceFile, claudeProject, profile], ctx);
  assert.deepEqual(
    trusted.run.map(r => [r.def.name, r.def.origin, r.def.source]),
    [
      ['shared', 'user profile mcp.json', 'user'],
      ['own', 'user profile mcp.json', 'user'],
      ['wsfile', 'x.code-workspace', 'workspace'],
      ['repo', 'Cursor (.cursor/mcp.json)', 'workspace'],
    ],
  );
  assert.deepEqual(
    trusted.held.map(h => [h.def.name, h.origin, h.reason]),
    [['shared', 'x.code-workspace', 'shadowed']],
  );
  const restricted = planServers([workspaceFile, claudeProject, profile], { ...ctx, trusted: false });
  assert.deepEqual(
    restricted.run.map(r => [r.def.name, r.def.defaultCwd]),
    [
      ['shared', '/home/u'],
      ['own', '/home/u'],
    ],
  );
  assert.deepEqual(
    restricted.held.map(h => [h.def.name, h.reason]),
    [
      ['shared', 'shadowed'],
      ['wsfile', 'untrusted'],
      ['repo', 'untrusted'],
    ],
  );
});

test('planServers: a server found again by discovery is quietly not used (no problem); the earlier place wins', () => {
  const settings = source('user', 'user settings', { fs: stdio('a') });
  const desktop = source('user', 'Claude Desktop', { fs: stdio('b'), other: stdio('c') });
  const plan = planServers([settings, desktop], ctx);
  assert.deepEqual(
    plan.run.map(r => [r.def.name, r.source.label]),
    [
      ['fs', 'user settings'],
      ['other', 'Claude Desktop'],
    ],
  );
  assert.deepEqual(plan.problems, []);
  assert.deepEqual(
    plan.held.map(h => [h.def.name, h.origin, h.reason]),
    [['fs', 'Claude Desktop', 'shadowed']],
  );
  assert.match(plan.notes[0].message, /fs from Claude Desktop is not used: fs from user settings is/);
});

test('planServers: servers disabled in their file or by the user stay listed, do not run, and keep their name from a workspace', () => {
  const windsurf = source('user', 'Windsurf', { off: stdio('a'), on: stdio('b') }, { disabled: ['off'] });
  const profile = source('user', 'user profile mcp.json', { mine: stdio('m') });
  const workspace = source('workspace', '.vscode/mcp.json', { mine: stdio('evil') });
  const key = disableKey(profile, 'mine');
  const plan = planServers([profile, windsurf, workspace], { ...ctx, isDisabled: k => k === key });
  assert.deepEqual(
    plan.run.map(r => r.def.name),
    ['on'],
  );
  assert.deepEqual(
    plan.held.map(h => [h.def.name, h.origin, h.reason]),
    [
      ['mine', 'user profile mcp.json', 'disabled'],
      ['off', 'Windsurf', 'disabled'],
      ['mine', '.vscode/mcp.json', 'shadowed'],
    ],
  );
  assert.match(plan.held[1].message, /off is turned off in Windsurf/);
  // The key is per place and name: the same name elsewhere is not disabled with it.
  assert.notEqual(disableKey(profile, 'mine'), disableKey(workspace, 'mine'));
  assert.equal(plan.held[0].def.disableKey, key);
});

test("a user profile mcp.json as VS Code writes it (tabs, inputs, gallery fields) parses as the user's", () => {
  const text =
    '{\n\t"servers": {\n\t\t"memory": {\n\t\t\t"type": "stdio",\n\t\t\t"command": "npx",\n\t\t\t"args": ["-y", "@modelcontextprotocol/server-memory"],\n\t\t\t"gallery": true,\n\t\t\t"version": "1.0.0"\n\t\t}\n\t},\n\t"inputs": []\n}';
  const config = parseConfigText(text, 'user', 'user profile mcp.json');
  assert.deepEqual(
    config.servers.map(s => [s.name, s.source, s.transport.type]),
    [['memory', 'user', 'stdio']],
  );
  assert.deepEqual(config.problems, []);
});

test('the portable files: $COPILOT_HOME/mcp-config.json (else ~/.copilot) on every platform, and each folder root .mcp.json', () => {
  assert.deepEqual(userPortableFile(linuxHome), { kind: 'user', path: '/home/u/.copilot/mcp-config.json' });
  assert.equal(
    userPortableFile(platformOf('linux', { COPILOT_HOME: '/opt/cp' }, '/home/u')).path,
    '/opt/cp/mcp-config.json',
  );
  // Windows: the variable's name in any case, the path with its own separators.
  assert.equal(
    userPortableFile(platformOf('win32', { copilot_home: 'D:\\cp' }, 'C:\\Users\\u')).path,
    'D:\\cp\\mcp-config.json',
  );
  assert.equal(
    userPortableFile(platformOf('win32', {}, 'C:\\Users\\u')).path,
    'C:\\Users\\u\\.copilot\\mcp-config.json',
  );
});

test("planServers in VS Code's order: .vscode/mcp.json before .mcp.json, the profile mcp.json before mcp-config.json; each later one is shown as not used and where the one used is", () => {
  const portable = (kind: 'user' | 'workspace', label: string, servers: Record<string, unknown>) => ({
    kind,
    label,
    key: label,
    folder: kind === 'workspace' ? '/ws' : undefined,
    config: parseConfigObject({ mcpServers: servers }, kind, label, 'portable'),
  });
  const profile = source('user', 'user profile mcp.json', { both: stdio('profile') });
  const copilot = portable('user', '~/.copilot/mcp-config.json', {
    both: { type: 'local', command: 'copilot' },
    mine: { type: 'local', command: 'mine', tools: ['*'] },
  });
  const vscodeJson = source('workspace', '.vscode/mcp.json', { repo: stdio('vscode'), mine: stdio('evil') });
  const rootJson = portable('workspace', '.mcp.json', {
    repo: { type: 'local', command: 'root' },
    only: { command: 'o' },
  });
  const plan = planServers([vscodeJson, rootJson, profile, copilot], ctx);
  assert.deepEqual(
    plan.run.map(r => [r.def.name, r.def.origin, r.def.transport.type === 'stdio' && r.def.transport.command]),
    [
      ['both', 'user profile mcp.json', 'profile'],
      ['mine', '~/.copilot/mcp-config.json', 'mine'],
      ['repo', '.vscode/mcp.json', 'vscode'],
      ['only', '.mcp.json', 'o'],
    ],
  );
  assert.deepEqual(
    plan.held.map(h => [h.def.name, h.origin, h.reason, h.usedFrom]),
    [
      ['both', '~/.copilot/mcp-config.json', 'shadowed', 'user profile mcp.json'],
      // A workspace cannot replace a server you defined, in whichever file.
      ['mine', '.vscode/mcp.json', 'shadowed', undefined],
      ['repo', '.mcp.json', 'shadowed', '.vscode/mcp.json'],
    ],
  );
  assert.deepEqual(plan.problems, []);
  assert.deepEqual(
    plan.notes.map(n => n.message),
    [
      'both from ~/.copilot/mcp-config.json is not used: both from user profile mcp.json is',
      'mine from .vscode/mcp.json is not used: your own definition of mine (~/.copilot/mcp-config.json) is, because a workspace cannot replace a server you defined',
      'repo from .mcp.json is not used: repo from .vscode/mcp.json is',
    ],
  );
  // Untrusted: the workspace's .mcp.json waits like its .vscode/mcp.json; the user's portable server runs from home.
  const restricted = planServers([vscodeJson, rootJson, profile, copilot], { ...ctx, trusted: false });
  assert.deepEqual(
    restricted.run.map(r => [r.def.name, r.def.defaultCwd]),
    [
      ['both', '/home/u'],
      ['mine', '/home/u'],
    ],
  );
  assert.deepEqual(
    restricted.held.filter(h => h.reason === 'untrusted').map(h => [h.def.name, h.origin]),
    [
      ['repo', '.vscode/mcp.json'],
      ['only', '.mcp.json'],
    ],
  );
});
