import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  parseConfigObject,
  parseConfigText,
  parseEnvFile,
  sanitizeServerId,
  substituteVariables,
} from '../../src/core/config/config';
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
