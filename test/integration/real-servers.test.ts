// Real MCP servers from npm that nobody here wrote, each listed and got through the core (Catalog,
// ServerConnection) and through the CLI (`dist/cli.js list/get --json`), with the MCP Inspector CLI as
// the reference client: our `get --json` must be its output byte for byte on a 2025-era connection, and
// on a 2026-07-28 one the same messages plus what that revision adds (`resultType`, `_meta`).
// Servers: @cyanheads/git-mcp-server (stdio and Streamable HTTP), @jpisnice/shadcn-ui-mcp-server (a
// low-level `Server`, legacy SSE), mcp-server-kubernetes (no cluster), @takescake/1password-mcp (the v2
// server, both eras, dummy token) and @modelcontextprotocol/server-everything (HTTP). Every
// HTTP server starts once for the file; a stdio server starts once for the core and once per CLI or
// Inspector run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog } from '../../src/core/catalog/catalog';
import { EraMemory, eraKey } from '../../src/core/protocol/transport/eras';
import type { RawGetResult } from '../../src/core/protocol/connection/connection';
import { defs, launch, runCli, tempDir, testCatalog, type CliResult } from './helpers';
import {
  GIT_ENV,
  GIT_MCP,
  KUBERNETES_MCP,
  ONEPASSWORD_ENV,
  ONEPASSWORD_MCP,
  SHADCN_MCP,
  runInspector,
  startWebServer,
  type WebServer,
} from './npm-servers';

interface RealServer {
  /** Its name in our config, so the first part of its invocation names. */
  id: string;
  entry: Record<string, unknown>;
  /** What the Inspector is given: the command and its arguments, or the URL. */
  target: string[];
  /** A stdio server's environment (in its entry, and the Inspector's). */
  env?: Record<string, string>;
  transport: 'stdio' | 'http' | 'sse';
  era: 'modern' | 'legacy';
  protocolVersion: string;
  serverName: string;
  prompts: string[];
  get: { prompt: string; args: Record<string, string>; text: RegExp };
}

const LEGACY = { era: 'legacy', protocolVersion: '2025-11-25' } as const;

function stdio(script: string, args: string[] = [], env?: Record<string, string>) {
  return {
    entry: { command: process.execPath, args: [script, ...args], ...(env && { env }) },
    target: [process.execPath, script, ...args],
    env,
    transport: 'stdio' as const,
  };
}

function web(type: 'http' | 'sse', url: string) {
  return { entry: { type, url }, target: [url], transport: type };
}

const GIT = {
  serverName: '@cyanheads/git-mcp-server',
  prompts: ['git_wrapup'],
  get: { prompt: 'git_wrapup', args: {}, text: /^You are an expert git workflow manager\. Run a complete wrap-up/ },
};
const EVERYTHING = {
  serverName: 'mcp-servers/everything',
  prompts: ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'],
  get: { prompt: 'args-prompt', args: { city: 'Paris' }, text: /^What's weather in Paris\?$/ },
};

let dir: string;
let cache: string;
const running: WebServer[] = [];
/** Every server but git over HTTP, which has its own tests. */
let servers: RealServer[];
let gitHttp: RealServer;
let config: string;
let gitHttpConfig: string;

before(async () => {
  dir = tempDir('mcp-real-servers-');
  cache = path.join(dir, 'cache');
  const L = await launch();
  const [shadcnSse, gitOverHttp, everythingHttp] = await Promise.all([
    startWebServer(
      SHADCN_MCP,
      ['--mode', 'sse', '--host', '127.0.0.1'],
      port => ({ MCP_PORT: String(port) }),
      port => `http://127.0.0.1:${port}/sse`,
    ),
    startWebServer(
      GIT_MCP,
      [],
      port => ({
        MCP_TRANSPORT_TYPE: 'http',
        MCP_HTTP_HOST: '127.0.0.1',
        MCP_HTTP_PORT: String(port),
        MCP_LOG_LEVEL: 'error',
      }),
      port => `http://127.0.0.1:${port}/mcp`,
    ),
    startWebServer(
      L.EVERYTHING_JS,
      ['streamableHttp'],
      port => ({ PORT: String(port) }),
      port => `http://127.0.0.1:${port}/mcp`,
    ),
  ]);
  running.push(shadcnSse, gitOverHttp, everythingHttp);
  servers = [
    { id: 'git', ...stdio(GIT_MCP, [], GIT_ENV), ...LEGACY, ...GIT },
    {
      id: 'shadcn',
      ...web('sse', shadcnSse.url),
      ...LEGACY,
      serverName: 'shadcn-ui-mcp-server',
      prompts: [
        'build-shadcn-page',
        'create-dashboard',
        'create-auth-flow',
        'optimize-shadcn-component',
        'create-data-table',
      ],
      get: {
        prompt: 'build-shadcn-page',
        args: { pageType: 'dashboard' },
        text: /^Create a complete dashboard page using shadcn\/ui v4 components and blocks for react\./,
      },
    },
    {
      id: 'k8s',
      ...stdio(KUBERNETES_MCP),
      ...LEGACY,
      serverName: 'kubernetes',
      prompts: ['k8s-diagnose'],
      get: {
        prompt: 'k8s-diagnose',
        args: { keyword: 'nginx' },
        text: /^Diagnose Kubernetes resources \(pods, nodes, etc\.\) containing keyword "nginx"/,
      },
    },
    {
      id: 'op',
      ...stdio(ONEPASSWORD_MCP, [], ONEPASSWORD_ENV),
      era: 'modern',
      protocolVersion: '2026-07-28',
      serverName: '1password-mcp',
      prompts: ['generate-secure-password', 'credential-rotation', 'vault-audit', 'secret-reference-helper'],
      get: { prompt: 'generate-secure-password', args: {}, text: /^I need to generate a secure password\./ },
    },
    // Over stdio in everything.test.ts already.
    { id: 'everything', ...web('http', everythingHttp.url), ...LEGACY, ...EVERYTHING },
  ];
  gitHttp = { id: 'githttp', ...web('http', gitOverHttp.url), ...LEGACY, ...GIT };
  config = path.join(dir, 'mcp.json');
  fs.writeFileSync(config, JSON.stringify({ servers: Object.fromEntries(servers.map(s => [s.id, s.entry])) }));
  gitHttpConfig = path.join(dir, 'githttp.json');
  fs.writeFileSync(gitHttpConfig, JSON.stringify({ servers: { githttp: gitHttp.entry } }));
});

after(async () => {
  await Promise.all(running.map(s => s.close()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const server = (id: string) => servers.find(s => s.id === id) ?? assert.fail(`no server ${id}`);

interface Reference {
  prompts: Record<string, unknown>[];
  /** `prompts/get` exactly as the Inspector printed it. */
  get: string;
}

const references = new Map<string, Promise<Reference>>();
/** What the Inspector CLI lists and gets from `s` (run once per server). */
function reference(s: RealServer): Promise<Reference> {
  let ref = references.get(s.id);
  if (!ref) {
    ref = (async () => {
      const list = await runInspector(s.target, ['--method', 'prompts/list'], s.env);
      const get = await runInspector(
        s.target,
        [
          '--method',
          'prompts/get',
          '--prompt-name',
          s.get.prompt,
          ...(Object.keys(s.get.args).length
            ? ['--prompt-args', ...Object.entries(s.get.args).map(([k, v]) => `${k}=${v}`)]
            : []),
        ],
        s.env,
      );
      for (const r of [list, get]) assert.equal(r.code, 0, `inspector on ${s.id}: ${r.stderr}`);
      return { prompts: (JSON.parse(list.stdout) as { prompts: Record<string, unknown>[] }).prompts, get: get.stdout };
    })();
    references.set(s.id, ref);
  }
  return ref;
}

/** Runs `fn` over `items`, two at a time (the machine has two cores and other work). */
async function twoAtATime<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]);
  };
  await Promise.all([worker(), worker()]);
  return results;
}

const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: { XDG_CACHE_HOME: cache }, timeoutMs: 120000 });

const getArgs = (s: RealServer) => [
  `${s.id}.${s.get.prompt}`,
  ...Object.entries(s.get.args).map(([k, v]) => `${k}=${v}`),
];

/** The fields a prompt has in `prompts/list`, as our list row carries them. */
const promptFields = (p: Record<string, unknown>) =>
  JSON.parse(
    JSON.stringify({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments ?? [],
      icons: p.icons,
    }),
  ) as unknown;

/** The `prompts/get` answer in a `--verbose` trace, as it came over the wire. */
function wireResult(stderr: string): unknown {
  const messages = stderr
    .split('\n')
    .filter(l => l.startsWith('-> ') || l.startsWith('<- '))
    .map(l => ({
      out: l.startsWith('->'),
      m: JSON.parse(l.slice(3)) as { id?: number; method?: string; result?: unknown },
    }));
  const request = messages.filter(x => x.out && x.m.method === 'prompts/get').at(-1);
  assert.ok(request, 'prompts/get in the trace');
  const response = messages.find(x => !x.out && x.m.id === request.m.id && x.m.result !== undefined);
  assert.ok(response, 'its answer in the trace');
  return response.m.result;
}

function checkText(s: RealServer, result: { messages?: unknown[] }): void {
  const first = result.messages?.[0] as { role?: string; content?: { type?: string; text?: string } } | undefined;
  assert.equal(first?.role, 'user', s.id);
  assert.equal(first?.content?.type, 'text', s.id);
  assert.match(first?.content?.text ?? '', s.get.text, s.id);
}

async function checkCore(catalog: Catalog, s: RealServer, era = s.era): Promise<RawGetResult> {
  const entry = catalog.server(s.id) ?? assert.fail(`no server ${s.id}`);
  assert.equal(entry.listError, undefined, `${s.id}: ${entry.listError?.message}`);
  const info = entry.connection.info;
  assert.equal(info?.transport, s.transport, s.id);
  assert.equal(info?.era, era, s.id);
  assert.equal(info?.protocolVersion, era === 'modern' ? s.protocolVersion : '2025-11-25', s.id);
  assert.equal(info?.serverInfo?.name, s.serverName, s.id);
  assert.deepEqual(
    entry.prompts.map(p => p.invocationName),
    s.prompts.map(p => `${s.id}.${p}`),
  );
  const result = await entry.connection.getPrompt(s.get.prompt, s.get.args);
  checkText(s, result);
  return result;
}

test('core: every server lists its prompts and gets one (the 1Password server on both eras)', async () => {
  const entries = { ...Object.fromEntries(servers.map(s => [s.id, s.entry])), 'op-legacy': server('op').entry };
  // The era the last connect found is handed to the SDK as `prior`: a remembered 2025 era means initialize.
  const eras = new EraMemory();
  eras.set(eraKey(defs({ 'op-legacy': entries['op-legacy'] })[0]), { kind: 'legacy' });
  // Seven servers booting at once on two cores: the probe gets the time a start gets (60 s here).
  const { catalog, log } = testCatalog(entries, { timeoutMs: 60000, eras });
  // The Inspector's answers, gathered while the catalog starts.
  const gathered = twoAtATime(servers, reference);
  try {
    await Promise.all([catalog.ready(), gathered]);
    for (const s of servers) {
      const result = await checkCore(catalog, s);
      if (s.era === 'legacy') {
        // The same JSON as the Inspector's, key for key and in its order.
        assert.equal(JSON.stringify(result, null, 2), (await reference(s)).get, s.id);
      }
    }
    const op = server('op');
    const legacy = await checkCore(catalog, { ...op, id: 'op-legacy' }, 'legacy');
    assert.equal(log('op-legacy').sentMethods('server/discover').length, 0, 'no probe: initialize');
    // A first start: initialize with the 2026 claim, which a dual-era server refuses, then server/discover on that process.
    assert.equal(log('op').sentMethods('initialize').length, 1, 'one initialize, refused');
    assert.equal(log('op').sentMethods('server/discover').length, 1, 'then the 2026 handshake');
    // The Inspector is a 2025-era client: the 1Password server tells it the same as our legacy connection.
    assert.equal(JSON.stringify(legacy, null, 2), (await reference(op)).get);
  } finally {
    await catalog.dispose();
  }
});

test('CLI: list --json lists every server, prompt for prompt as the Inspector lists them', async () => {
  const r = await cli(['list', '--json', '--config', config]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const rows = JSON.parse(r.stdout) as Array<Record<string, unknown> & { server: string; invocation: string }>;
  await twoAtATime(servers, async s => {
    const mine = rows.filter(row => row.server === s.id);
    assert.deepEqual(
      mine.map(row => row.invocation),
      s.prompts.map(p => `${s.id}.${p}`),
    );
    assert.deepEqual(mine.map(promptFields), (await reference(s)).prompts.map(promptFields), s.id);
  });
});

test('CLI: get --json prints every field the server sent: the Inspector byte for byte, plus resultType and _meta on 2026-07-28', async () => {
  // The 2026 server first and alone, with nothing remembered: a first run, whose version probe (bounded
  // by 5 s) must not compete with seven other servers booting.
  const [op, ...rest] = [server('op'), ...servers.filter(s => s.id !== 'op')];
  await checkGet(
    op,
    await runCli(['get', ...getArgs(op), '--json', '--verbose', '--config', config], { timeoutMs: 120000 }),
  );
  await twoAtATime(rest, async s =>
    checkGet(s, await cli(['get', ...getArgs(s), '--json', '--verbose', '--config', config])),
  );
});

async function checkGet(s: RealServer, r: CliResult): Promise<void> {
  assert.equal(r.code, 0, `${s.id}: ${r.stderr}`);
  const printed = JSON.parse(r.stdout) as RawGetResult & { resultType?: string; _meta?: Record<string, unknown> };
  checkText(s, printed);
  // Every field of the wire answer, with its value.
  assert.deepEqual(printed, wireResult(r.stderr), s.id);
  const inspector = (await reference(s)).get;
  if (s.era === 'legacy') {
    assert.equal(r.stdout, `${inspector}\n`, s.id);
  } else {
    assert.equal(printed.resultType, 'complete');
    assert.deepEqual(printed._meta?.['io.modelcontextprotocol/serverInfo'], {
      name: '1password-mcp',
      version: '4.0.2',
    });
    assert.deepEqual(printed.messages, (JSON.parse(inspector) as RawGetResult).messages);
  }
}

// git-mcp-server over Streamable HTTP answers the `server/discover` probe with HTTP 500 (a JSON-RPC
// -32603 body), where the Inspector and a default SDK client just send initialize. These pass once a
// refused probe falls back to initialize.
test('git-mcp-server over Streamable HTTP: the core lists and gets its prompt', async () => {
  const { catalog } = testCatalog({ githttp: gitHttp.entry }, { timeoutMs: 60000, eras: new EraMemory() });
  try {
    await catalog.ready();
    const result = await checkCore(catalog, gitHttp);
    assert.equal(JSON.stringify(result, null, 2), (await reference(gitHttp)).get);
  } finally {
    await catalog.dispose();
  }
});

test('git-mcp-server over Streamable HTTP: CLI list and get --json as the Inspector', async () => {
  const [list, get] = await Promise.all([
    cli(['list', '--json', '--config', gitHttpConfig]),
    cli(['get', ...getArgs(gitHttp), '--json', '--config', gitHttpConfig]),
  ]);
  const ref = await reference(gitHttp);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(
    (JSON.parse(list.stdout) as Record<string, unknown>[]).map(promptFields),
    ref.prompts.map(promptFields),
  );
  assert.equal(get.code, 0, get.stderr);
  assert.equal(get.stdout, `${ref.get}\n`);
});

test('CLI: complete on a server without the completions capability says so on stderr and sends nothing', async () => {
  const shadcn = server('shadcn');
  const args = ['complete', 'shadcn.build-shadcn-page', 'pageType', 'da', '--config', config];
  const [plain, json, traced] = await Promise.all([
    cli(args),
    cli([...args, '--json']),
    cli([...args, '--json', '--verbose']),
  ]);
  for (const r of [plain, json]) {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'mcp-prompts: shadcn offers no completion\n');
  }
  assert.equal(plain.stdout, '');
  assert.deepEqual(JSON.parse(json.stdout), { values: [] });
  assert.ok(traced.stderr.includes('"method":"prompts/list"'), 'the trace is on');
  assert.ok(!traced.stderr.includes('completion/complete'), 'no completion request');
  assert.equal(shadcn.transport, 'sse');
  // A server that completes: its values, and no such line.
  const everything = await cli(['complete', 'everything.completable-prompt', 'department', 'Eng', '--config', config]);
  assert.equal(everything.code, 0, everything.stderr);
  assert.equal(everything.stdout, 'Engineering\n');
  assert.equal(everything.stderr, '');
});
