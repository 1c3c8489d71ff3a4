// What the consent dialog shows of a workspace-defined server (consentDetail, src/core/config/consent.ts):
// every field that will be run, set or sent, as written (variables not filled in); variables that change
// which code runs first; what it reads from the user's environment called out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigObject } from '../../src/core/config/config';
import { consentDetail, consentState, definitionFingerprint, isLoaderVariable } from '../../src/core/config/consent';

const [stdio, http] = parseConfigObject(
  {
    servers: {
      tools: {
        command: 'node',
        args: ['server.js', '--root', '${workspaceFolder}'],
        cwd: '${workspaceFolder}/tools',
        env: {
          DEBUG: '1',
          NODE_OPTIONS: '--require ./planted.js',
          LD_PRELOAD: './evil.so',
          API: '${env:OPENAI_API_KEY}',
        },
        envFile: '.env',
      },
      gh: {
        type: 'http',
        url: 'https://api.example/mcp?u=${env:USER}',
        headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}', 'X-Key': '${input:key}' },
        clientId: 'client-1',
        clientSecret: '${env:GITHUB_TOKEN}',
      },
    },
  },
  'workspace',
).servers;

test('a stdio server: loader variables first, then what it reads from the environment, then every field as written', () => {
  assert.equal(
    consentDetail(stdio),
    [
      '⚠ It sets variables that change which code runs:',
      '    NODE_OPTIONS=--require ./planted.js',
      '    LD_PRELOAD=./evil.so',
      '⚠ It reads from your environment and passes on:',
      '    OPENAI_API_KEY (env API)',
      '',
      'Command: node server.js --root ${workspaceFolder}',
      'Working folder: ${workspaceFolder}/tools',
      'Environment:',
      '    DEBUG=1',
      '    NODE_OPTIONS=--require ./planted.js',
      '    LD_PRELOAD=./evil.so',
      '    API=${env:OPENAI_API_KEY}',
      'Environment file (may set any variable, loaders too): .env',
    ].join('\n'),
  );
});

test('an HTTP server: URL, every header and the OAuth client and its secret as written; ${env:…} in them called out', () => {
  assert.equal(
    consentDetail(http),
    [
      '⚠ It reads from your environment and passes on:',
      '    USER (url)',
      '    GITHUB_TOKEN (headers Authorization)',
      '    GITHUB_TOKEN (clientSecret)',
      '',
      'URL: https://api.example/mcp?u=${env:USER}',
      'Headers:',
      '    Authorization: Bearer ${env:GITHUB_TOKEN}',
      '    X-Key: ${input:key}',
      'OAuth client: client-1',
      'OAuth client secret: ${env:GITHUB_TOKEN}',
    ].join('\n'),
  );
});

test('the consent fingerprint covers the OAuth client: another secret or client id asks again', () => {
  const record = { fingerprint: definitionFingerprint(http), decision: 'allowed' as const };
  assert.equal(consentState(http, record), 'allowed');
  const withTransport = (change: Record<string, string>) => ({ ...http, transport: { ...http.transport, ...change } });
  assert.equal(consentState(withTransport({ clientSecret: '${env:AWS_SECRET_ACCESS_KEY}' }), record), 'ask');
  assert.equal(consentState(withTransport({ clientId: 'client-2' }), record), 'ask');
});

test('the same entry in a portable .mcp.json and in .vscode/mcp.json asks apart: their ${NAME} is not read alike', () => {
  const entry = { command: 'node', args: ['server.js'], env: { TOKEN: '${GITHUB_TOKEN}' } };
  const [vscodeDef] = parseConfigObject({ servers: { s: entry } }, 'workspace', '.vscode/mcp.json').servers;
  const [portableDef] = parseConfigObject({ mcpServers: { s: entry } }, 'workspace', '.mcp.json', 'portable').servers;
  const record = { fingerprint: definitionFingerprint(vscodeDef), decision: 'allowed' as const };
  assert.equal(consentState(vscodeDef, record), 'allowed');
  assert.equal(consentState(portableDef, record), 'ask');
});

test('loader variables: Node, the dynamic linker (DYLD_* too), Python, PATH; whatever the case', () => {
  for (const name of ['NODE_OPTIONS', 'ld_preload', 'DYLD_INSERT_LIBRARIES', 'PYTHONSTARTUP', 'PYTHONPATH', 'PATH'])
    assert.ok(isLoaderVariable(name), name);
  for (const name of ['DEBUG', 'GITHUB_TOKEN', 'NODE_ENV']) assert.ok(!isLoaderVariable(name), name);
});

test('every variable substitution reads is called out, Windows names with parentheses too', () => {
  const [def] = parseConfigObject(
    { servers: { s: { type: 'http', url: 'https://x.example/${env:ProgramFiles(x86)}', headers: {} } } },
    'workspace',
  ).servers;
  assert.match(
    consentDetail(def),
    /^⚠ It reads from your environment and passes on:\n {4}ProgramFiles\(x86\) \(url\)\n/,
  );
});

test('Windows: PATHEXT and ComSpec in a workspace server’s env are shown first, whatever their case, as NODE_OPTIONS is', () => {
  const [def] = parseConfigObject(
    {
      servers: {
        win: {
          command: 'npx',
          args: ['srv'],
          env: { DEBUG: '1', PathExt: '.JS;.EXE', ComSpec: 'C:\\ws\\tools\\sh.exe' },
        },
      },
    },
    'workspace',
  ).servers;
  assert.deepEqual(consentDetail(def).split('\n').slice(0, 4), [
    '⚠ It sets variables that change which code runs:',
    '    PathExt=.JS;.EXE',
    '    ComSpec=C:\\ws\\tools\\sh.exe',
    '',
  ]);
});
