// Import Servers: secrets written in clear in another client's entries (src/core/config/import-secrets.ts)
// are found, and replaced by `${input:…}` placeholders (with their password inputs) when the user asks, or
// by environment references in a portable file; the portable files keep their shape when written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { literalSecrets, withEnvironmentReferences, withInputPlaceholders } from '../../src/core/config/import-secrets';
import { EMPTY_PORTABLE_JSON, withServers } from '../../src/core/config/config-text';
import { parseConfigObject } from '../../src/core/config/config';

const entries = {
  GitHub: {
    command: 'npx',
    args: ['-y', 'server-github', '--api-key', 'plain-key-123', '--token=abc123', '--verbose'],
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', DEBUG: '1', HOME_DIR: '/home/me' },
  },
  Remote: {
    url: 'https://api.example/mcp',
    headers: { Authorization: 'Bearer sk-live-secret', Accept: 'application/json', 'X-Api-Key': '${env:KEY}' },
  },
  Shaped: { command: 'srv', env: { SOMETHING: 'sk-abcdefghijklmnopqrstuvwxyz' } },
};

test('secrets in clear are found by name or by shape; variables, flags and plain values are not', () => {
  assert.deepEqual(
    literalSecrets(entries).map(s => [s.server, s.field, s.inputId]),
    [
      ['GitHub', 'env GITHUB_PERSONAL_ACCESS_TOKEN', 'github-GITHUB_PERSONAL_ACCESS_TOKEN'],
      ['GitHub', 'args 3', 'github-arg3'],
      ['GitHub', 'args 4', 'github-arg4'],
      ['Remote', 'headers Authorization', 'remote-Authorization'],
      ['Shaped', 'env SOMETHING', 'shaped-SOMETHING'],
    ],
  );
});

test('placeholders replace each secret (a header keeps its scheme, a flag its name) and declare password inputs', () => {
  const { entries: safe, inputs } = withInputPlaceholders(entries, literalSecrets(entries));
  const text = JSON.stringify(safe);
  for (const secret of ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'plain-key-123', 'abc123', 'sk-live-secret'])
    assert.ok(!text.includes(secret), secret);
  const gh = safe.GitHub as { args: string[]; env: Record<string, string> };
  assert.deepEqual(gh.args, [
    '-y',
    'server-github',
    '--api-key',
    '${input:github-arg3}',
    '--token=${input:github-arg4}',
    '--verbose',
  ]);
  assert.equal(gh.env.DEBUG, '1');
  assert.equal(
    (safe.Remote as { headers: Record<string, string> }).headers.Authorization,
    'Bearer ${input:remote-Authorization}',
  );
  assert.ok(inputs.every(i => i.password && i.type === 'promptString'));
  assert.deepEqual(inputs[0], {
    id: 'github-GITHUB_PERSONAL_ACCESS_TOKEN',
    type: 'promptString',
    description: 'GitHub: env GITHUB_PERSONAL_ACCESS_TOKEN',
    password: true,
  });
  assert.equal(
    (entries.GitHub.env as Record<string, string>).GITHUB_PERSONAL_ACCESS_TOKEN.startsWith('ghp_'),
    true,
    'the input is not changed',
  );
  // What is written parses as a configuration whose inputs resolve the placeholders.
  const config = parseConfigObject({ servers: safe, inputs }, 'workspace');
  assert.equal(config.problems.length, 0);
  assert.equal(config.inputs.length, 5);
});

test('an OAuth client secret and secrets in a URL query are found and replaced; the rest of the URL stays', () => {
  const oauth = {
    Hosted: {
      url: 'https://api.example/mcp?api_key=plainkey123&mode=fast&token=tok-abc&key=AIzaSyA1234567890abcdef#top',
      clientId: 'my-client',
      clientSecret: 'cs-literal-123',
    },
    Fine: { url: 'https://api.example/mcp?api_key=${env:KEY}&page=2', clientId: 'c', clientSecret: '${input:cs}' },
  };
  const found = literalSecrets(oauth);
  assert.deepEqual(
    found.map(s => [s.server, s.field, s.inputId]),
    [
      ['Hosted', 'clientSecret', 'hosted-clientSecret'],
      ['Hosted', 'url api_key', 'hosted-api_key'],
      ['Hosted', 'url token', 'hosted-token'],
      ['Hosted', 'url key', 'hosted-key'],
    ],
  );
  const { entries: safe, inputs } = withInputPlaceholders(oauth, found);
  assert.deepEqual(safe.Hosted, {
    url: 'https://api.example/mcp?api_key=${input:hosted-api_key}&mode=fast&token=${input:hosted-token}&key=${input:hosted-key}#top',
    clientId: 'my-client',
    clientSecret: '${input:hosted-clientSecret}',
  });
  assert.deepEqual(safe.Fine, oauth.Fine);
  const config = parseConfigObject({ servers: safe, inputs }, 'workspace');
  assert.equal(config.problems.length, 0);
  assert.equal(config.inputs.length, 4);
  // A parameter given twice is one secret, one input.
  const twice = { S: { url: 'https://api.example/mcp?token=a1&token=b2' } };
  const one = withInputPlaceholders(twice, literalSecrets(twice));
  assert.deepEqual(one.entries.S, { url: 'https://api.example/mcp?token=${input:s-token}&token=${input:s-token}' });
  assert.equal(one.inputs.length, 1);
});

test('for a portable file, which takes no inputs, each secret becomes an environment reference the file reads', () => {
  const { entries: safe, variables } = withEnvironmentReferences(entries, literalSecrets(entries));
  const text = JSON.stringify(safe);
  for (const secret of ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'plain-key-123', 'abc123', 'sk-live-secret'])
    assert.ok(!text.includes(secret), secret);
  assert.deepEqual(variables, [
    'GITHUB_PERSONAL_ACCESS_TOKEN',
    'GITHUB_ARG3',
    'GITHUB_ARG4',
    'REMOTE_AUTHORIZATION',
    'SOMETHING',
  ]);
  const gh = safe.GitHub as { args: string[]; env: Record<string, string> };
  assert.equal(gh.env.GITHUB_PERSONAL_ACCESS_TOKEN, '${GITHUB_PERSONAL_ACCESS_TOKEN}');
  assert.deepEqual(gh.args.slice(3, 5), ['${GITHUB_ARG3}', '--token=${GITHUB_ARG4}']);
  assert.equal(
    (safe.Remote as { headers: Record<string, string> }).headers.Authorization,
    'Bearer ${REMOTE_AUTHORIZATION}',
  );
  // What was written reads back as a portable file with nothing refused, and the values come from the environment.
  const read = parseConfigObject({ mcpServers: safe }, 'workspace', '.mcp.json', 'portable');
  assert.deepEqual(read.problems, []);
});

test("Add Server and Import keep a portable file's shape, indentation and line endings; a new one is VS Code's", () => {
  // The Copilot CLI writes two spaces and, on Windows, CRLF; another client's keys stay.
  const crlf =
    '{\r\n  "custom": true,\r\n  "mcpServers": {\r\n    "a": { "type": "local", "command": "a" }\r\n  }\r\n}\r\n';
  const out = withServers(crlf, { a: { type: 'local', command: 'b', tools: ['*'] } }, [], 'portable');
  assert.equal(out.replace(/\r\n/g, '').includes('\n'), false, `a bare LF in ${JSON.stringify(out)}`);
  assert.match(out, /\r\n {4}"a-2": \{\r\n {6}"type": "local",/);
  assert.match(out, /"custom": true/);
  // A .mcp.json without the wrapper (Claude Code's older shape) gets the entry beside the others.
  const bare = withServers(
    '{\n\t"one": { "command": "x" }\n}\n',
    { two: { type: 'stdio', command: 'y' } },
    [],
    'portable',
    true,
  );
  assert.deepEqual(Object.keys(JSON.parse(bare) as object), ['one', 'two']);
  // An empty or new file is wrapped, with tabs, as VS Code 1.140 creates it; inputs are never written there.
  const fresh = withServers(
    EMPTY_PORTABLE_JSON,
    { s: { type: 'http', url: 'https://e.example/mcp' } },
    [{ id: 'x', type: 'promptString' }],
    'portable',
    true,
  );
  assert.equal(
    fresh,
    '{\n\t"mcpServers": {\n\t\t"s": {\n\t\t\t"type": "http",\n\t\t\t"url": "https://e.example/mcp"\n\t\t}\n\t}\n}\n',
  );
  assert.deepEqual(
    Object.keys(JSON.parse(withServers('{}', { s: { command: 'c' } }, [], 'portable', true)) as object),
    ['mcpServers'],
  );
});
