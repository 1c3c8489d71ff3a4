// Saved prompt lists and the start policy (src/core/catalog/prompt-cache.ts, the catalog's seeding and
// ensureStarted) against a real stdio server (test/fixtures/cacheable.mjs). Each "window" is a new
// catalog over the same storage folder. Processes are counted by the pids the fixture itself writes.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Catalog, type StartPolicy } from '../../src/core/catalog/catalog';
import { EraMemory } from '../../src/core/protocol/transport/eras';
import { FolderStorage } from '../../src/core/catalog/cache-storage';
import { PromptCache } from '../../src/core/catalog/prompt-cache';
import { requestFromLine } from '../../src/core/run/invocation';
import { memoryRecords, PromptRunner, type RunOptions } from '../../src/core/run/prompt-runner';

/** A typed line through the one run path, as the extension runs a saved prompt. */
async function runLine(catalog: Catalog, line: string, options?: RunOptions) {
  return new PromptRunner(catalog, memoryRecords()).run(await requestFromLine(catalog, line), options);
}
import { planServers, type ConfigSource } from '../../src/core/config/server-merge';
import { parseConfigObject, type ServerDefinition } from '../../src/core/config/config';
import { ROOT, RecordingLog, defs, waitFor } from './helpers';
import { hostPlatform } from '../../src/core/platform';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'cacheable.mjs');
const open: Catalog[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map(c => c.dispose()));
});

interface Setup {
  dir: string;
  pids: string;
  promptsFile: string;
}

function setup(prompts: unknown[] = [{ name: 'a' }, { name: 'b', arguments: [{ name: 'x', required: true }] }]): Setup {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cache-'));
  const promptsFile = path.join(dir, 'prompts.json');
  fs.writeFileSync(promptsFile, JSON.stringify(prompts));
  return { dir, pids: path.join(dir, 'pids'), promptsFile };
}

function pids(s: Setup): number[] {
  return fs.existsSync(s.pids) ? fs.readFileSync(s.pids, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

function server(s: Setup, env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: [FIXTURE],
    env: { CACHEABLE_PIDS: s.pids, CACHEABLE_PROMPTS: s.promptsFile, ...env },
  };
}

interface Window {
  catalog: Catalog;
  cache: PromptCache;
  log: RecordingLog;
  cacheLog: string[];
}

/** One window: a catalog with the saved lists of `s.dir`, eras in the same storage. */
function window(
  s: Setup,
  servers: Record<string, unknown> | ServerDefinition[],
  opts: { startServers?: StartPolicy; identity?: string } = {},
): Window {
  const cacheLog: string[] = [];
  const cache = new PromptCache(new FolderStorage(path.join(s.dir, 'store')), {
    identity: opts.identity,
    log: m => cacheLog.push(m),
  });
  const eras = new EraMemory(cache.eraStore());
  const log = new RecordingLog();
  const catalog = new Catalog({
    start: 'eager',
    startServers: opts.startServers ?? 'onDemand',
    cache,
    debounceMs: 50,
    connection: () => ({ log, restart: false, timeoutMs: 20000, eras }),
  });
  open.push(catalog);
  catalog.setServers(Array.isArray(servers) ? servers : defs(servers));
  return { catalog, cache, log, cacheLog };
}

/** The first window: the server starts once, lists, and its list is saved. */
async function fill(
  s: Setup,
  servers: Record<string, unknown> | ServerDefinition[],
  opts: { identity?: string } = {},
): Promise<void> {
  const w = window(s, servers, opts);
  await waitFor(() => w.catalog.servers.every(e => e.prompts.length && !e.loading && !e.cached), 'the first listing');
  await w.cache.flush();
  await w.catalog.dispose();
}

test('a window after the first shows the saved prompts at once, marked cached and stopped, with no process', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const started = pids(s).length;
  assert.ok(started >= 1, 'the first window started the server to fill the list');

  // The second window also has a server without a saved list: it starts, and once it has listed the
  // cached one has had every chance to start too.
  const other = setup([{ name: 'z' }]);
  const w = window(s, { cacheable: server(s), other: server(other) });
  const entry = w.catalog.server('cacheable')!;
  assert.deepEqual(
    entry.prompts.map(p => p.invocationName),
    ['cacheable.a', 'cacheable.b'],
    'the prompts are there right after the configuration is read',
  );
  assert.deepEqual(entry.prompts[1].prompt.arguments, [{ name: 'x', required: true }], 'with their arguments');
  assert.equal(entry.cached, true);
  assert.equal(entry.connection.state.kind, 'stopped');
  assert.ok('prompt' in w.catalog.resolve('b'), 'a bare name resolves from the saved list');
  await waitFor(() => w.catalog.server('other')!.prompts.length, 'the uncached server fills its list');
  assert.equal(pids(s).length, started, 'no process of the cached server');
  assert.equal(entry.connection.state.kind, 'stopped');
});

test('running a saved prompt starts the server ("starting" first) and returns its real answer', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const before = pids(s).length;
  const w = window(s, { cacheable: server(s) });
  const steps: string[] = [];
  const outcome = await runLine(w.catalog, 'cacheable.b x=42', {
    whileStarting: async (entry, start) => {
      steps.push(`starting ${entry.def.name}`);
      await start();
    },
    whileGetting: (_p, get) => {
      steps.push('getting');
      return get();
    },
  });
  assert.equal(outcome.kind, 'done', outcome.kind === 'failed' ? String(outcome.error) : '');
  const started = pids(s).slice(before);
  assert.ok(started.length >= 1, 'the server was started');
  const text = JSON.stringify(outcome.kind === 'done' && outcome.stored.transcript);
  assert.match(text, new RegExp(`b ran in (${started.join('|')}): x=42`), 'the answer of the process just started');
  assert.deepEqual(steps, ['starting cacheable', 'getting']);
  const entry = w.catalog.server('cacheable')!;
  // The list is confirmed alongside the get, after it was sent: the get never waits behind a page of it.
  await waitFor(() => !entry.cached, 'the server confirmed its list');
  assert.equal(entry.connection.state.kind, 'running');
  assert.equal(pids(s).length - before, 1, 'one process for the get and the list');
  const sent = w.log.sent().map(m => m.method);
  assert.ok(
    sent.indexOf('prompts/get') >= 0 && sent.indexOf('prompts/get') < sent.indexOf('prompts/list'),
    `the get is sent before the list: ${sent.join(', ')}`,
  );
});

test('a saved prompt the server no longer has: the message names the server and the prompt, and the list is refreshed', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  fs.writeFileSync(s.promptsFile, JSON.stringify([{ name: 'a' }, { name: 'c' }]));
  const w = window(s, { cacheable: server(s) });
  assert.ok(
    w.catalog.server('cacheable')!.prompts.some(p => p.prompt.name === 'b'),
    'b is still in the saved list',
  );
  const outcome = await runLine(w.catalog, 'cacheable.b x=1');
  assert.equal(outcome.kind, 'failed');
  assert.match(
    String(outcome.kind === 'failed' && (outcome.error as Error).message),
    /^cacheable no longer offers the prompt "b"/,
  );
  assert.deepEqual(
    w.catalog.server('cacheable')!.prompts.map(p => p.prompt.name),
    ['a', 'c'],
    'the catalog shows the new list',
  );
  await w.cache.flush();
  await w.catalog.dispose();
  const next = window(s, { cacheable: server(s) });
  assert.deepEqual(
    next.catalog.server('cacheable')!.prompts.map(p => p.prompt.name),
    ['a', 'c'],
    'the saved list was refreshed',
  );
});

test('a saved prompt gone from a list the server called fresh (ttlMs): the message names server and prompt, and the list is listed again and saved', async () => {
  // Run at once, or after something else (a tree expansion) started the server on the fresh list.
  for (const startedFirst of [false, true]) {
    const s = setup();
    const env = { CACHEABLE_TTL: '600000' };
    await fill(s, { cacheable: server(s, env) });
    fs.writeFileSync(s.promptsFile, JSON.stringify([{ name: 'a' }, { name: 'c' }]));
    const w = window(s, { cacheable: server(s, env) });
    const entry = w.catalog.server('cacheable')!;
    assert.equal(entry.cached, true);
    if (startedFirst) {
      await w.catalog.ensureStarted(entry);
      assert.equal(entry.cached, false, 'confirmed on its ttl');
    }
    const outcome = await runLine(w.catalog, 'cacheable.b x=1');
    assert.equal(outcome.kind, 'failed');
    assert.match(
      String(outcome.kind === 'failed' && (outcome.error as Error).message),
      /^cacheable no longer offers the prompt "b"/,
      `started first: ${startedFirst}`,
    );
    assert.equal(w.log.sentMethods('prompts/list').length, 1, 'listed again once, although the saved list was fresh');
    assert.deepEqual(
      entry.prompts.map(p => p.prompt.name),
      ['a', 'c'],
      'the catalog shows the new list',
    );
    await w.cache.flush();
    await w.catalog.dispose();
    const next = window(s, { cacheable: server(s, env) });
    assert.deepEqual(
      next.catalog.server('cacheable')!.prompts.map(p => p.prompt.name),
      ['a', 'c'],
      'the saved list was replaced',
    );
    await next.catalog.dispose();
  }
});

test('a changed definition drops the saved list; the server starts once to fill a new one', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const before = pids(s).length;
  const w = window(s, { cacheable: server(s, { EXTRA: 'changed' }) });
  const entry = w.catalog.server('cacheable')!;
  assert.equal(entry.cached, false);
  assert.equal(entry.prompts.length, 0, 'nothing from the old definition is shown');
  assert.ok(
    w.log.lines.some(l => /cacheable: its definition changed; the saved prompt list was dropped/.test(l.message)),
    'the server log says why',
  );
  await waitFor(() => entry.prompts.length === 2, 'the new definition lists');
  assert.ok(pids(s).length > before, 'a server without a saved list starts once');
});

test('no definition value is stored in clear', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s, { API_TOKEN: 'sk-very-secret-value-1234' }) });
  const store = path.join(s.dir, 'store');
  for (const f of fs.readdirSync(store)) {
    const text = fs.readFileSync(path.join(store, f), 'utf8');
    assert.doesNotMatch(text, /sk-very-secret|cacheable\.mjs|CACHEABLE_PIDS/, `${f} holds no definition value`);
  }
});

test('a damaged saved list is no cache and a log line, never a crash', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const store = path.join(s.dir, 'store');
  const files = fs.readdirSync(store).filter(f => f.startsWith('prompts-'));
  assert.equal(files.length, 1);
  for (const bad of [
    '{"v":1,"def":',
    JSON.stringify({ v: 1, def: 'x', listedAt: 0, prompts: [{ name: 5 }], shortNames: [] }),
    '[]',
  ]) {
    fs.writeFileSync(path.join(store, files[0]), bad);
    const w = window(s, { cacheable: server(s) });
    const entry = w.catalog.server('cacheable')!;
    assert.equal(entry.cached, false, bad);
    assert.ok(
      w.log.lines.some(l => /cacheable: the saved prompt list is damaged and was dropped/.test(l.message)),
      `a log line names the server (${bad})`,
    );
    await waitFor(() => entry.prompts.length === 2, 'the server lists instead');
    await w.cache.flush();
    await w.catalog.dispose();
  }
});

/** The saved list file of the only server in `s`. */
function savedFile(s: Setup): string {
  const store = path.join(s.dir, 'store');
  return path.join(
    store,
    fs.readdirSync(store).find(f => f.startsWith('prompts-'))!,
  );
}

test('a prompt inside a saved list that the schema refuses drops the whole list', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const file = savedFile(s);
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /"names":\["a","b"\]/);
  fs.writeFileSync(file, text.replace('"names":["a","b"]', '"names":["a","b",{"name":"evil"}]'));
  const w = window(s, { cacheable: server(s) });
  assert.equal(w.catalog.server('cacheable')!.cached, false);
  assert.ok(!w.catalog.prompts.some(p => p.prompt.name === 'evil'));
});

test('a saved list edited by hand (still well-formed) is dropped: its content no longer matches its MAC', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const file = savedFile(s);
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /"names":\["a"/);
  fs.writeFileSync(file, text.replace('"names":["a"', '"names":["handmade"'));
  const w = window(s, { cacheable: server(s) });
  const entry = w.catalog.server('cacheable')!;
  assert.equal(entry.cached, false);
  assert.ok(!w.catalog.prompts.some(p => p.prompt.name === 'handmade'));
  assert.ok(
    w.log.lines.some(l =>
      /cacheable: the saved prompt list is damaged and was dropped \(changed outside the extension\)/.test(l.message),
    ),
  );
  await waitFor(() => entry.prompts.some(p => p.prompt.name === 'a'), 'the server lists instead');
});

test('a malformed prompt is not shown even from a list whose MAC verifies (a writer holding the key)', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const file = savedFile(s);
  const key = Buffer.from(fs.readFileSync(path.join(s.dir, 'store', 'key.json'), 'utf8').trim(), 'hex');
  const text = fs.readFileSync(file, 'utf8');
  const nl = text.indexOf('\n');
  assert.ok(nl > 0, 'the file starts with its MAC line');
  const slot = path.basename(file, '.json');
  const sign = (body: string) => `${createHmac('sha256', key).update(`${slot}\n${body}`).digest('hex')}\n${body}`;
  // Control: a file re-signed unchanged is read (so the cases below fail on their content, not the MAC).
  fs.writeFileSync(file, sign(text.slice(nl + 1)));
  const control = window(s, { cacheable: server(s) });
  assert.equal(control.catalog.server('cacheable')!.cached, true);
  await control.catalog.dispose();
  // The stored form (src/core/catalog/saved-prompts.ts): one array per field, argument lists once in `args`.
  type Stored = Record<string, unknown[]>;
  const cases: [string, (f: Stored) => void][] = [
    ['a name that is no string', f => (f.names[1] = 5)],
    ['a title that is no string', f => (f.titles = ['t', 7])],
    ['a column shorter than the names', f => (f.titles = ['t'])],
    ['arguments that are no list', f => (f.argRefs = [null, 'not a list'])],
    ['an argument list that is not there', f => (f.argRefs = [null, 99])],
    ['an icon without a string src', f => (f.icons = [null, [{ src: 7 }]])],
    ['required that is no boolean', f => (f.args = [[['x', null, 'yes']]])],
    ['a prompt object instead of the names', f => (f.names = [{ name: 'evil' }])],
  ];
  for (const [evil, change] of cases) {
    const stored = JSON.parse(text.slice(nl + 1)) as Stored;
    change(stored);
    const body = JSON.stringify(stored);
    fs.writeFileSync(file, sign(body));
    const w = window(s, { cacheable: server(s) });
    assert.equal(w.catalog.server('cacheable')!.cached, false, evil);
    assert.ok(!w.catalog.prompts.some(p => p.prompt.name === 'evil'), evil);
    // Its listing may save a new file: done before the next case writes its own.
    await w.catalog.dispose();
    await w.cache.flush();
  }
});

test('a private list is read back only by the same user on the same machine', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s, { CACHEABLE_SCOPE: 'private' }) }, { identity: 'ada@box' });
  const same = window(s, { cacheable: server(s, { CACHEABLE_SCOPE: 'private' }) }, { identity: 'ada@box' });
  assert.equal(same.catalog.server('cacheable')!.cached, true);
  await same.catalog.dispose();
  const other = window(s, { cacheable: server(s, { CACHEABLE_SCOPE: 'private' }) }, { identity: 'bob@box' });
  assert.equal(other.catalog.server('cacheable')!.cached, false, 'another identity gets no private list');
});

test('ttlMs: a fresh list is not listed again when the server starts; ttl 0 (or none) is', async () => {
  for (const [ttl, relists] of [
    ['600000', false],
    ['0', true],
    [undefined, true],
  ] as const) {
    const s = setup();
    const env: Record<string, string> = ttl === undefined ? {} : { CACHEABLE_TTL: ttl };
    await fill(s, { cacheable: server(s, env) });
    const w = window(s, { cacheable: server(s, env) });
    const entry = w.catalog.server('cacheable')!;
    assert.equal(entry.cached, true);
    await w.catalog.ensureStarted(entry);
    assert.equal(entry.connection.state.kind, 'running', `ttl ${ttl}`);
    assert.equal(entry.cached, false, `ttl ${ttl}: confirmed`);
    assert.equal(w.log.sentMethods('prompts/list').length > 0, relists, `ttl ${ttl}: listed again = ${relists}`);
    await w.catalog.dispose();
  }
});

test('onStartup starts every server and confirms the saved lists', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const before = pids(s).length;
  const w = window(s, { cacheable: server(s) }, { startServers: 'onStartup' });
  const entry = w.catalog.server('cacheable')!;
  assert.equal(entry.prompts.length, 2, 'the saved prompts are shown while it starts');
  await waitFor(() => !entry.cached, 'the server confirms its list');
  assert.ok(pids(s).length > before);
});

test('the protocol era is remembered between windows: the next start skips the version probe', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const first = pids(s).length;
  const w = window(s, { cacheable: server(s) });
  await w.catalog.ensureStarted(w.catalog.server('cacheable')!);
  assert.equal(w.catalog.server('cacheable')!.connection.state.kind, 'running');
  assert.equal(w.log.sentMethods('server/discover').length, 0, 'no probe was sent');
  assert.ok(first >= 1);
  assert.equal(pids(s).length - first, 1, 'one process for the start (no throw-away probe process)');
});

test('switching to onStartup starts the servers that waited for use', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const w = window(s, { cacheable: server(s) });
  const entry = w.catalog.server('cacheable')!;
  assert.equal(entry.connection.state.kind, 'stopped');
  w.catalog.setStartPolicy('onStartup');
  await waitFor(() => !entry.cached && entry.connection.state.kind === 'running', 'the server starts and confirms');
});

test('a saved list larger than the cap is not read', async () => {
  const s = setup();
  await fill(s, { cacheable: server(s) });
  const store = path.join(s.dir, 'store');
  const file = path.join(
    store,
    fs.readdirSync(store).find(f => f.startsWith('prompts-'))!,
  );
  fs.writeFileSync(file, ' '.repeat(17 * 1024 * 1024));
  const w = window(s, { cacheable: server(s) });
  assert.equal(w.catalog.server('cacheable')!.cached, false);
  assert.ok(w.log.lines.some(l => /cacheable: the saved prompt list could not be read/.test(l.message)));
});

test('a workspace server held back (untrusted) shows none of its saved prompts and does not start', async () => {
  const s = setup();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cache-ws-'));
  const sources: ConfigSource[] = [
    {
      kind: 'workspace',
      label: '.vscode/mcp.json',
      folder,
      config: parseConfigObject({ servers: { cacheable: server(s) } }, 'workspace'),
    },
  ];
  const plan = (trusted: boolean) => planServers(sources, { trusted, platform: hostPlatform() }).run.map(r => r.def);
  await fill(s, plan(true));
  const before = pids(s).length;
  assert.equal(plan(false).length, 0, 'untrusted: the server is held back');
  const other = setup([{ name: 'z' }]);
  const untrusted = window(s, [...plan(false), ...defs({ other: server(other) })]);
  assert.equal(untrusted.catalog.server('cacheable'), undefined);
  assert.equal(untrusted.catalog.prompts.filter(p => p.server.id === 'cacheable').length, 0);
  await waitFor(() => untrusted.catalog.server('other')!.prompts.length, 'the other server lists');
  assert.equal(pids(s).length, before, 'no process of the held-back server');
  await untrusted.catalog.dispose();
  const trusted = window(s, plan(true));
  assert.equal(trusted.catalog.server('cacheable')!.cached, true, 'trusted again: its saved list is back');
});
