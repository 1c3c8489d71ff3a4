// The portable server files VS Code 1.140 writes (docs/vscode-versions.md) with real fixture servers: a
// folder's root .mcp.json and the user's $COPILOT_HOME/mcp-config.json, read by the CLI where VS Code
// reads them and by `--config`; `"type": "local"`; `${input:…}` refused with VS Code's advice; `${VAR}`
// environment references reaching the server; VS Code's precedence; and, on the extension's merge, the
// workspace's .mcp.json waiting for trust and consent exactly as its .vscode/mcp.json.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../src/core/catalog/catalog';
import { parseConfigText } from '../../src/core/config/config';
import { substituteVariables } from '../../src/core/config/substitute-variables';
import { consentState, definitionFingerprint, describeLaunch } from '../../src/core/config/consent';
import { planServers, type ConfigSource } from '../../src/core/config/server-merge';
import { platformOf } from '../../src/core/platform';
import { childPidsMatching, launch, runCli, tempDir, type Launch } from './helpers';

let L: Launch;
let dir: string;
const FLOW_SERVER = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'flow-server.mjs');

before(async () => {
  L = await launch();
  dir = tempDir('mcp-prompts-portable-');
});

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder with the given files (paths relative to it), and an empty COPILOT_HOME unless one is written. */
function folder(name: string, files: Record<string, unknown>): string {
  const at = path.join(dir, name);
  for (const [file, value] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(at, file)), { recursive: true });
    fs.writeFileSync(path.join(at, file), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  }
  fs.mkdirSync(at, { recursive: true });
  return at;
}

/** An entry as VS Code 1.140's Add Server and the Copilot CLI write it. */
const local = (fixture: string, extra: Record<string, unknown> = {}) => ({
  type: 'local',
  ...L.fixtureCommand(fixture),
  tools: ['*'],
  ...extra,
});

test('the CLI without --config reads .vscode/mcp.json, .mcp.json and $COPILOT_HOME/mcp-config.json, says so, and in VS Code order', async () => {
  const project = folder('project', {
    '.vscode/mcp.json': { servers: { shared: L.fixtureCommand('old-protocol'), vscode: L.fixtureCommand('rich') } },
    // The Copilot CLI writes a portable file with CRLF and two spaces.
    '.mcp.json': JSON.stringify({ mcpServers: { shared: local('completions'), root: local('paginated') } }, null, 2)
      .split('\n')
      .join('\r\n'),
    'copilot/mcp-config.json': { mcpServers: { mine: local('changing'), root: local('rich') } },
  });
  const env = { COPILOT_HOME: path.join(project, 'copilot') };
  const r = await runCli(['list', '--json'], { cwd: project, env });
  assert.equal(r.code, 0, r.stderr);
  const copilotFile = path.join(project, 'copilot', 'mcp-config.json');
  assert.deepEqual(r.stderr.trimEnd().split('\n'), [
    `mcp-prompts: servers from ${path.join('.vscode', 'mcp.json')}, .mcp.json, ${copilotFile}`,
    // The first of the workspace's files wins; your own server of a name wins over the workspace's.
    `mcp-prompts: shared from .mcp.json is not used: shared from ${path.join('.vscode', 'mcp.json')} is`,
    `mcp-prompts: root from .mcp.json is not used: your own definition of root (${copilotFile}) is, because a workspace cannot replace a server you defined`,
  ]);
  const rows = JSON.parse(r.stdout) as { server: string; from: string; name: string }[];
  assert.deepEqual(
    [...new Set(rows.map(row => `${row.server} ${row.from}`))],
    [`mine ${copilotFile}`, `root ${copilotFile}`, 'shared .vscode/mcp.json', 'vscode .vscode/mcp.json'],
  );
  // `shared` is old-protocol's (the .vscode/mcp.json one), `root` is rich (the user's), not paginated.
  assert.ok(rows.some(row => row.server === 'shared' && row.name === 'legacy_greeting'));
  assert.ok(rows.some(row => row.server === 'root' && row.name === 'rich_content'));
  assert.ok(!rows.some(row => row.name.startsWith('p0')));

  // The text list names each server's file too.
  const text = await runCli(['list'], { cwd: project, env });
  assert.equal(text.code, 0, text.stderr);
  assert.ok(text.stdout.split('\n').includes(`mine  (${copilotFile})`), text.stdout);
  assert.ok(text.stdout.split('\n').includes('shared  (.vscode/mcp.json)'), text.stdout);

  // A folder with none of them: one line that says where the CLI looked.
  const empty = folder('empty', {});
  const none = await runCli(['list'], { cwd: empty, env: { COPILOT_HOME: path.join(empty, 'none') } });
  assert.equal(none.code, 2);
  assert.equal(
    none.stderr,
    `mcp-prompts: no servers here: none of ${path.join('.vscode', 'mcp.json')}, .mcp.json, ${path.join(empty, 'none', 'mcp-config.json')} exists (or name one with --config FILE)\n`,
  );
});

test('a folder whose only servers are in .mcp.json: "type": "local" runs, ${VAR} reaches the server, ${input:…} is refused naming the server and the file', async () => {
  const record = path.join(dir, 'records');
  fs.mkdirSync(record, { recursive: true });
  const project = folder('only-root', {
    '.mcp.json': {
      mcpServers: {
        flow: {
          type: 'local',
          command: process.execPath,
          args: [FLOW_SERVER],
          env: { FLOW_RECORD: '${RECORDS}/flow.jsonl', FLOW_DELAY_MS: '${FLOW_DELAY:-0}' },
          tools: ['*'],
        },
        keyed: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
      },
    },
  });
  const env = { COPILOT_HOME: path.join(project, 'none'), RECORDS: record };
  const refused =
    'mcp-prompts: Server "keyed": VS Code input variables such as ${input:token} are not supported in .mcp.json. Use environment variable references instead.';
  for (const args of [
    ['get', 'flow.counted'],
    ['get', 'flow.counted', '--config', '.mcp.json'],
  ]) {
    const r = await runCli(args, { cwd: project, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /COUNTED get #1/);
    assert.equal(
      r.stderr,
      args.includes('--config') ? `${refused}\n` : `mcp-prompts: servers from .mcp.json\n${refused}\n`,
    );
  }
  // The server got its record file through the environment reference, and each get reached it.
  const got = fs
    .readFileSync(path.join(record, 'flow.jsonl'), 'utf8')
    .split('\n')
    .filter(line => line.includes('prompts/get'));
  assert.equal(got.length, 2);
});

test('--config names a portable file by its name: the user mcp-config.json as the Copilot CLI writes it', async () => {
  const home = folder('copilot-home', {
    'mcp-config.json': { mcpServers: { greet: local('old-protocol', { cwd: dir }) } },
  });
  const r = await runCli(['get', 'greet.legacy_greeting', 'name=Ada', '--json', '--config', 'mcp-config.json'], {
    cwd: home,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(JSON.parse(r.stdout), {
    messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada' } }],
  });
});

test("Restricted Mode: nothing of a workspace's .mcp.json starts; trusted, it asks for consent per definition like .vscode/mcp.json, showing the entry as written", async () => {
  const ws = folder('untrusted', {});
  const home = folder('home', {});
  const marker = `portable-marker-${process.pid}`;
  const rootJson: ConfigSource = {
    kind: 'workspace',
    label: '.mcp.json',
    folder: ws,
    config: parseConfigText(
      JSON.stringify({
        mcpServers: {
          repo: { type: 'local', command: process.execPath, args: [FLOW_SERVER, marker], env: { T: '${SECRET}' } },
        },
      }),
      'workspace',
      '.mcp.json',
      'portable',
    ),
  };
  const user: ConfigSource = {
    kind: 'user',
    label: '~/.copilot/mcp-config.json',
    config: parseConfigText(
      JSON.stringify({ mcpServers: { mine: local('old-protocol') } }),
      'user',
      '~/.copilot/mcp-config.json',
      'portable',
    ),
  };
  const platform = platformOf(process.platform, { SECRET: 's3cret' }, home);
  const restricted = planServers([rootJson, user], { trusted: false, platform });
  assert.deepEqual(
    restricted.held.map(h => [h.def.name, h.reason, h.message]),
    [['repo', 'untrusted', 'repo from .mcp.json does not start until you trust this workspace']],
  );
  const defs = await Promise.all(restricted.run.map(({ def }) => substituteVariables(def, { platform }, [])));
  const catalog = new Catalog({ start: 'eager', connection: () => ({ restart: false, timeoutMs: 5000 }) });
  try {
    catalog.setServers(defs);
    await catalog.ready();
    assert.deepEqual(
      catalog.servers.map(s => [s.def.name, s.connection.state.kind]),
      [['mine', 'running']],
    );
    assert.deepEqual(childPidsMatching(marker), [], 'nothing of the workspace ran');
  } finally {
    await catalog.dispose();
  }
  // Trusted: the workspace's server is one to consent to, keyed by its folder and its definition as written.
  const [repo] = planServers([rootJson], { trusted: true, platform }).run.map(r => r.def);
  assert.equal(repo.source, 'workspace');
  assert.equal(repo.scope, `workspace:${ws}`);
  assert.equal(consentState(repo, undefined), 'ask');
  const record = { fingerprint: definitionFingerprint(repo), decision: 'allowed' as const };
  assert.equal(consentState(repo, record), 'allowed');
  const changed = parseConfigText(
    JSON.stringify({ mcpServers: { repo: { type: 'local', command: process.execPath, args: ['evil.js'] } } }),
    'workspace',
    '.mcp.json',
    'portable',
  );
  const [evil] = planServers([{ ...rootJson, config: changed }], { trusted: true, platform }).run;
  assert.equal(consentState(evil.def, record), 'ask', 'a changed entry asks again');
  assert.equal(describeLaunch(repo), `${process.execPath} ${FLOW_SERVER} ${marker}`);
  // The value of ${SECRET} is filled in only when the server starts, after consent.
  const started = await substituteVariables(repo, { platform }, []);
  assert.deepEqual(started.transport.type === 'stdio' && started.transport.env, { T: 's3cret' });
});
