import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  formatOfFile,
  parseConfigObject,
  parseConfigText,
  parseEnvFile,
  sanitizeServerId,
} from '../../src/core/config/config';
import { substituteVariables } from '../../src/core/config/substitute-variables';
import { platformOf } from '../../src/core/platform';

test('reads VS Code mcp.json with comments, trailing commas and all transports', () => {
  const config = parseConfigText(
    `{
    // a comment
    "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
    "servers": {
      "My Server": { "type": "stdio", "command": "node", "args": ["a.js"], "env": { "N": 1 }, "cwd": "\${workspaceFolder}", "unknownField": true },
      "remote": { "type": "http", "url": "http://127.0.0.1:1/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      "legacy": { "type": "sse", "url": "http://127.0.0.1:2/sse", "timeout": 5000 },
    },
  }`,
    'workspace',
  );
  assert.deepEqual(
    config.servers.map(s => [s.name, s.id, s.transport.type]),
    [
      ['My Server', 'my-server', 'stdio'],
      ['remote', 'remote', 'http'],
      ['legacy', 'legacy', 'sse'],
    ],
  );
  const stdio = config.servers[0].transport;
  assert.equal(stdio.type, 'stdio');
  if (stdio.type === 'stdio') assert.deepEqual(stdio.env, { N: '1' });
  assert.equal(config.servers[2].timeoutMs, 5000);
  assert.deepEqual(config.inputs, [
    {
      id: 'token',
      type: 'promptString',
      description: 'API token',
      password: true,
      default: undefined,
      options: undefined,
    },
  ]);
});

test('reads Claude Desktop / Cursor mcpServers and infers the type', () => {
  const config = parseConfigObject(
    { mcpServers: { fs: { command: 'npx', args: ['-y', 'x'] }, web: { url: 'https://example.invalid/mcp' } } },
    'import',
  );
  assert.deepEqual(
    config.servers.map(s => s.transport.type),
    ['stdio', 'http'],
  );
  assert.ok(config.servers.every(s => s.source === 'import'));
});

test('wrong types name the server and the field; the entry is skipped, the file still loads', () => {
  const problem = (servers: Record<string, unknown>) => {
    const config = parseConfigObject({ servers }, 'user');
    assert.equal(config.problems.length, 1);
    return config.problems[0];
  };
  const bad = problem({ bad: { command: 42 } });
  assert.ok(
    bad instanceof ConfigError &&
      bad.server === 'bad' &&
      bad.field === 'command' &&
      /"bad".*"command" must be a string/.test(bad.message),
  );
  assert.match(
    problem({ s: { command: 'x', args: 'nope' } }).message,
    /Server "s": "args" must be an array of strings/,
  );
  assert.match(problem({ s: { type: 'ws', url: 'x' } }).message, /Server "s": unknown type "ws"/);
  assert.match(problem({ s: { type: 'http' } }).message, /Server "s": "url" is required/);
  assert.throws(() => parseConfigText('{ "servers": ', 'user', 'broken.json'), /broken\.json: invalid JSON/);
});

test('server ids are sanitised and unique', () => {
  assert.equal(sanitizeServerId('GitHub Tools!'), 'github-tools');
  const config = parseConfigObject({ servers: { 'A b': { command: 'x' }, 'a-b': { command: 'y' } } }, 'user');
  assert.deepEqual(
    config.servers.map(s => s.id),
    ['a-b', 'a-b-2'],
  );
});

test('substitutes env, workspaceFolder, userHome and inputs through the resolver', async () => {
  const config = parseConfigObject(
    {
      inputs: [{ id: 'key', type: 'promptString', password: true }],
      servers: {
        s: {
          command: '${userHome}/bin/srv',
          args: ['--root', '${workspaceFolder}', '--key=${input:key}', '${unknown}'],
          env: { TOKEN: '${env:MY_TOKEN}', KEY: '${input:key}' },
        },
      },
    },
    'workspace',
  );
  const asked: string[] = [];
  const def = await substituteVariables(
    config.servers[0],
    { workspaceFolder: '/ws', platform: platformOf('linux', { MY_TOKEN: 't0k' }, '/home/u') },
    config.inputs,
    async (input, id) => {
      asked.push(`${id}:${input?.password}`);
      return 'secret';
    },
  );
  assert.equal(def.transport.type, 'stdio');
  if (def.transport.type !== 'stdio') return;
  assert.equal(def.transport.command, '/home/u/bin/srv');
  assert.deepEqual(def.transport.args, ['--root', '/ws', '--key=secret', '${unknown}']);
  assert.deepEqual(def.transport.env, { TOKEN: 't0k', KEY: 'secret' });
  assert.deepEqual(asked, ['key:true'], 'an input is asked for once per server');
});

test('a missing input value is an error naming the server', async () => {
  const config = parseConfigObject({ servers: { s: { type: 'http', url: 'http://x/${input:url}' } } }, 'workspace');
  await assert.rejects(
    substituteVariables(config.servers[0], { platform: platformOf('linux', {}, '') }, [], async () => undefined),
    /Server "s": no value for \$\{input:url\}/,
  );
});

test('parses env files', () => {
  assert.deepEqual(parseEnvFile('# c\nA=1\nexport B="two words"\nC=x # trailing\n bad line\n'), {
    A: '1',
    B: 'two words',
    C: 'x',
  });
});

test('a portable file (.mcp.json, mcp-config.json): mcpServers or a bare map, type "local" is stdio, "tools" is ignored', () => {
  assert.equal(formatOfFile('/ws/.mcp.json'), 'portable');
  assert.equal(formatOfFile('C:\\Users\\u\\.copilot\\mcp-config.json'), 'portable');
  assert.equal(formatOfFile('/ws/.vscode/mcp.json'), 'vscode');
  const wrapped = parseConfigText(
    `{ "mcpServers": {
      // Copilot CLI and VS Code 1.140 write this shape
      "local": { "type": "local", "command": "node", "args": ["s.js"], "env": { "A": "1" }, "cwd": "/srv", "tools": ["*"] },
      "web": { "type": "http", "url": "https://e.example/mcp", "headers": { "X": "y" }, "tools": ["*"] },
    } }`,
    'workspace',
    '.mcp.json',
    'portable',
  );
  assert.deepEqual(wrapped.problems, []);
  assert.deepEqual(
    wrapped.servers.map(s => [s.name, s.format, s.transport]),
    [
      [
        'local',
        'portable',
        { type: 'stdio', command: 'node', args: ['s.js'], env: { A: '1' }, envFile: undefined, cwd: '/srv' },
      ],
      ['web', 'portable', { type: 'http', url: 'https://e.example/mcp', headers: { X: 'y' } }],
    ],
  );
  // VS Code reads a .mcp.json without the wrapper as the map of servers itself.
  const bare = parseConfigObject({ only: { command: 'x' } }, 'workspace', '.mcp.json', 'portable');
  assert.deepEqual(
    bare.servers.map(s => s.name),
    ['only'],
  );
  // `local` is read in VS Code's own file too (VS Code 1.140 does), and an unknown type is still named.
  const vscodeFile = parseConfigObject({ servers: { l: { type: 'local', command: 'c' }, w: { type: 'ws' } } }, 'user');
  assert.deepEqual(
    vscodeFile.servers.map(s => [s.name, s.transport.type, s.format]),
    [['l', 'stdio', undefined]],
  );
  assert.match(vscodeFile.problems[0].message, /Server "w": unknown type "ws"/);
});

test("a portable entry with ${input:…} is refused with VS Code's advice, naming the server and the file; the others load", () => {
  const config = parseConfigObject(
    {
      mcpServers: {
        keyed: { type: 'http', url: 'https://e.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
        fine: { type: 'local', command: 'x', env: { TOKEN: '${GITHUB_TOKEN}' } },
      },
      inputs: [{ id: 'token', type: 'promptString', password: true }],
    },
    'user',
    '~/.copilot/mcp-config.json',
    'portable',
  );
  assert.deepEqual(
    config.servers.map(s => s.name),
    ['fine'],
  );
  assert.deepEqual(config.inputs, [], 'a portable file has no inputs');
  assert.equal(config.problems[0].server, 'keyed');
  assert.equal(
    config.problems[0].message,
    'Server "keyed": VS Code input variables such as ${input:token} are not supported in ~/.copilot/mcp-config.json. Use environment variable references instead.',
  );
});

test("a portable entry's ${VAR} and ${VAR:-default} come from the environment where VS Code expands them; VS Code's own variables stay as written", async () => {
  const [def] = parseConfigObject(
    {
      mcpServers: {
        s: {
          type: 'local',
          command: '${TOOLS}/srv',
          args: [
            '--token=${TOKEN}',
            '--mode=${MODE:-fast}',
            '${UNSET}',
            '$TOKEN',
            '${workspaceFolder}',
            '${env:TOKEN}',
          ],
          env: { EMPTY: '${EMPTY:-not used}', K: '${TOKEN}' },
          cwd: '${TOOLS}',
        },
      },
    },
    'workspace',
    '.mcp.json',
    'portable',
  ).servers;
  const platform = platformOf('linux', { TOOLS: '/opt/t', TOKEN: 't0k', EMPTY: '' }, '/home/u');
  const asked: string[] = [];
  const done = await substituteVariables(def, { workspaceFolder: '/ws', platform }, [], async (_i, id) => {
    asked.push(id);
    return 'x';
  });
  assert.deepEqual(done.transport, {
    type: 'stdio',
    command: '/opt/t/srv',
    args: ['--token=t0k', '--mode=fast', '${UNSET}', '$TOKEN', '${workspaceFolder}', '${env:TOKEN}'],
    env: { EMPTY: '', K: 't0k' },
    envFile: undefined,
    cwd: '${TOOLS}',
  });
  assert.deepEqual(asked, []);
  assert.ok(done.fingerprint, 'the definition as written keys its consent and history');
  // Windows: a variable's name in any case, as VS Code resolves it there.
  const [web] = parseConfigObject(
    { mcpServers: { w: { type: 'http', url: 'https://${HOST}/mcp', headers: { A: 'Bearer ${Token}' } } } },
    'user',
    'mcp-config.json',
    'portable',
  ).servers;
  const win = await substituteVariables(
    web,
    { platform: platformOf('win32', { host: 'e.example', TOKEN: 'k' }, 'C:\\Users\\u') },
    [],
  );
  assert.deepEqual(win.transport, { type: 'http', url: 'https://e.example/mcp', headers: { A: 'Bearer k' } });
});
