// The core on the v2 client against a 2026-07-28-only server (test/fixtures/modern.mjs, v2 server package,
// `legacy: 'reject'`) and the 2025-era fixtures side by side; the version probe and the era memory that
// lets a second connect skip it, counted on the wire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Catalog } from '../../src/core/catalog/catalog';
import { ServerConnection } from '../../src/core/protocol/connection/connection';
import { EraMemory, eraKey } from '../../src/core/protocol/transport/eras';
import { completeArgument } from '../../src/core/run/invocation';
import { serverItem, type TooltipPart } from '../../src/core/view/tree-items';
import {
  RecordingLog,
  childPidsMatching,
  defs,
  launch,
  tempDir,
  waitFor,
  type RunningServer,
  getLine,
} from './helpers';

const firstText = (result: { messages?: unknown[] }) =>
  (result.messages?.[0] as { content: { text: string } }).content.text;

/** A catalog with its own era memory, so no other test's connects decide whether this one probes. */
function makeCatalog(
  servers: Record<string, unknown>,
  eras = new EraMemory(),
): { catalog: Catalog; log(id: string): RecordingLog } {
  const logs = new Map<string, RecordingLog>();
  const catalog = new Catalog({
    start: 'lazy',
    debounceMs: 50,
    connection: def => {
      const log = new RecordingLog();
      logs.set(def.id, log);
      return { log, restart: false, timeoutMs: 20000, eras };
    },
  });
  catalog.setServers(defs(servers));
  return { catalog, log: id => logs.get(id) ?? assert.fail(`no log for ${id}`) };
}

/** Requests the server received, in order, leaving out the stream of list changes (opened on every modern connect). */
const wireLines = (file: string) =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(m => m && m !== 'subscriptions/listen')
    : [];

test('a 2026-07-28-only server (v2 server package) over stdio and Streamable HTTP: list, get and complete; the 2025 fixtures beside it stay on 2025', async () => {
  const { modernCommand, startModernHttp, fixtureCommand, startHttpFixture } = await launch();
  const servers: RunningServer[] = [];
  try {
    servers.push(await startModernHttp(), await startHttpFixture('completions'));
    const { catalog } = makeCatalog({
      mod: modernCommand(),
      modhttp: { type: 'http', url: servers[0].url },
      comp: fixtureCommand('completions'),
      comphttp: { type: 'http', url: servers[1].url },
    });
    try {
      await catalog.ready();
      for (const id of ['mod', 'modhttp']) {
        const entry = catalog.server(id)!;
        assert.equal(entry.listError, undefined, id);
        assert.deepEqual(entry.warnings, [], id);
        const info = entry.connection.info!;
        assert.equal(info.era, 'modern', id);
        assert.equal(info.protocolVersion, '2026-07-28', id);
        assert.deepEqual(info.serverInfo, { name: 'modern-demo', version: '2.0.0' }, id);
        assert.equal(info.transport, id === 'mod' ? 'stdio' : 'http');
        assert.deepEqual(
          entry.prompts.map(p => p.prompt.name),
          ['greet', 'echo'],
          id,
        );
        assert.deepEqual(entry.prompts[0].prompt.arguments, [
          { name: 'name', description: 'Who to greet', required: true },
          { name: 'greeting', description: 'The word to greet with', required: false },
        ]);
        const greet = await getLine(catalog, `${id}.greet Ada greeting=Hi`);
        assert.equal(firstText(greet.result), 'Hi, Ada! (modern-demo)', id);
        const missing = await getLine(catalog, `${id}.echo`).then(
          () => undefined,
          (e: Error) => e,
        );
        assert.equal(missing?.message, `${id}: prompt "echo" needs text`);
        assert.deepEqual(
          await completeArgument(await catalog.findPrompt(`${id}.greet`), 'name', 'a', {}),
          { values: ['Ada', 'Alan'], total: 2, hasMore: false },
          id,
        );
      }
      for (const id of ['comp', 'comphttp']) {
        const info = catalog.server(id)!.connection.info!;
        assert.equal(info.era, 'legacy', id);
        assert.equal(info.protocolVersion, '2025-11-25', id);
        assert.ok(catalog.server(id)!.prompts.length > 0, id);
      }
    } finally {
      await catalog.dispose();
    }
  } finally {
    for (const s of servers) await s.close();
  }
});

test('era memory: the second connect passes the remembered era back as prior and sends no probe (counted on the wire: stdio and HTTP, modern and 2025 servers)', async () => {
  const { modernCommand, startModernHttp, startHttpFixture } = await launch();
  const dir = tempDir();
  const stdioWire = path.join(dir, 'stdio.log');
  const httpWire = path.join(dir, 'http.log');
  const servers: RunningServer[] = [];
  try {
    servers.push(await startModernHttp({ env: { MODERN_WIRE_LOG: httpWire } }), await startHttpFixture('rich'));
    const eras = new EraMemory();
    const { catalog, log } = makeCatalog(
      {
        mod: { ...modernCommand(), env: { MODERN_WIRE_LOG: stdioWire } },
        modhttp: { type: 'http', url: servers[0].url },
        richhttp: { type: 'http', url: servers[1].url },
      },
      eras,
    );
    try {
      await catalog.ready();
      // First connect: stdio asks initialize first, refused by a 2026-only server, then server/discover on
      // the same process; HTTP probes.
      assert.deepEqual(wireLines(stdioWire), ['initialize', 'server/discover', 'prompts/list']);
      assert.deepEqual(wireLines(httpWire), ['server/discover', 'prompts/list']);
      assert.equal(log('richhttp').sentMethods('server/discover').length, 1);
      assert.equal(log('richhttp').sentMethods('initialize').length, 1);

      for (const id of ['mod', 'modhttp', 'richhttp']) await catalog.server(id)!.connection.restart();
      await catalog.ready();
      for (const id of ['mod', 'modhttp']) assert.equal(catalog.server(id)!.connection.info?.era, 'modern', id);
      assert.equal(catalog.server('richhttp')!.connection.info?.era, 'legacy');
      // Second connect: the modern server is adopted from the remembered discover result (no round trip
      // at all), the old one gets initialize at once.
      assert.equal(wireLines(stdioWire).filter(m => m === 'server/discover').length, 1);
      assert.equal(wireLines(httpWire).filter(m => m === 'server/discover').length, 1);
      assert.equal(log('richhttp').sentMethods('server/discover').length, 1);
      assert.equal(log('richhttp').sentMethods('initialize').length, 2);
      const greet = await getLine(catalog, 'mod.greet Grace');
      assert.equal(firstText(greet.result), 'Hello, Grace! (modern-demo)');
    } finally {
      await catalog.dispose();
    }
    // Another connection to the same definition, sharing the memory: no probe either.
    const [def] = defs({ mod: { ...modernCommand(), env: { MODERN_WIRE_LOG: stdioWire } } });
    const again = new ServerConnection(def, { restart: false, eras });
    try {
      await again.connect();
      assert.equal(again.info?.era, 'modern');
    } finally {
      await again.dispose();
    }
    assert.equal(wireLines(stdioWire).filter(m => m === 'server/discover').length, 1);
  } finally {
    for (const s of servers) await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** test/fixtures/strict-old.cjs: a 2025 server that exits on any request before initialize (or ignores it). */
const STRICT_OLD = path.join(process.cwd(), 'test', 'fixtures', 'strict-old.cjs');

test('a 2025 server that exits on any request before initialize starts on its one process, and the trace shows its traffic', async () => {
  const dir = tempDir();
  const wire = path.join(dir, 'wire.log');
  const { catalog, log } = makeCatalog({
    strict: { command: process.execPath, args: [STRICT_OLD], env: { STRICT_WIRE_LOG: wire } },
  });
  try {
    await catalog.ready();
    const entry = catalog.server('strict')!;
    assert.equal(entry.listError, undefined, log('strict').text());
    assert.equal(entry.connection.info?.era, 'legacy');
    assert.equal(entry.connection.info?.protocolVersion, '2025-06-18');
    assert.deepEqual(
      entry.prompts.map(p => p.prompt.name),
      ['hi'],
    );
    // Initialize first: nothing before it, on the one process there is.
    assert.deepEqual(wireLines(wire), ['initialize', 'prompts/list']);
    assert.deepEqual(
      log('strict')
        .sent()
        .filter(m => m.id !== undefined)
        .map(m => m.method),
      ['initialize', 'prompts/list'],
    );
  } finally {
    await catalog.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a probe nobody answers ends the start at its timeout, as any unanswered request does (HTTP); stdio waits for none (initialize comes first)', async () => {
  // HTTP: a 2025 server that ignores server/discover (holds the POST open) but answers everything else.
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', d => {
        body += d;
      })
      .on('end', () => {
        const msg = JSON.parse(body || '{}') as { id?: number; method?: string };
        if (msg.method === 'server/discover') return;
        if (msg.id === undefined) return void res.writeHead(202).end();
        const result =
          msg.method === 'initialize'
            ? {
                protocolVersion: '2025-03-26',
                capabilities: { prompts: {} },
                serverInfo: { name: 'silent-probe', version: '1.0.0' },
              }
            : msg.method === 'prompts/list'
              ? { prompts: [{ name: 'late' }] }
              : {};
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      });
  });
  server.on('connection', s => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const logs = new Map<string, RecordingLog>();
  const catalog = new Catalog({
    start: 'lazy',
    connection: def => {
      const log = new RecordingLog();
      logs.set(def.id, log);
      return { log, restart: false, timeoutMs: 20000, minStartupMs: 1500, eras: new EraMemory() };
    },
  });
  catalog.setServers(
    defs({
      silent: { command: process.execPath, args: [STRICT_OLD], env: { STRICT_SILENT: '1' } },
      // Its own short timeout: the start's bound is the longer of it and minStartupMs.
      silenthttp: { type: 'http', url, timeout: 1500 },
    }),
  );
  try {
    await catalog.ready();
    const silent = catalog.server('silent')!;
    assert.equal(silent.listError, undefined, logs.get('silent')!.text());
    assert.equal(silent.connection.info?.era, 'legacy');
    assert.deepEqual(
      silent.prompts.map(p => p.prompt.name),
      ['hi'],
    );
    // No answer is nothing to fall back on: the start waited its whole time and says so.
    const silentHttp = catalog.server('silenthttp')!;
    assert.equal(
      silentHttp.listError?.message,
      'silenthttp did not answer startup within 1.5 s',
      logs.get('silenthttp')!.text(),
    );
    assert.equal(logs.get('silenthttp')!.sentMethods('initialize').length, 0, 'no 2025 handshake after silence');
  } finally {
    await catalog.dispose();
    for (const s of sockets) s.destroy();
    server.close();
  }
});

test('on a 2026-07-28 connection list changes come over subscriptions/listen (stdio and HTTP); a stream the server drops is opened again', async () => {
  const { modernCommand, startModernHttp } = await launch();
  const server = await startModernHttp();
  const { catalog, log } = makeCatalog({ mod: modernCommand(), modhttp: { type: 'http', url: server.url } });
  const acks = (id: string) =>
    log(id).lines.filter(
      l => l.message.startsWith('<- ') && l.message.includes('notifications/subscriptions/acknowledged'),
    ).length;
  const names = (id: string) => catalog.server(id)!.prompts.map(p => p.prompt.name);
  try {
    await catalog.ready();
    for (const id of ['mod', 'modhttp']) await waitFor(() => acks(id) === 1, `${id}: the listen stream acknowledged`);
    assert.deepEqual(
      log('mod')
        .sentMethods('subscriptions/listen')
        .map(m => m.params?.notifications),
      [{ promptsListChanged: true }],
    );

    const [pid] = childPidsMatching('modern.mjs').filter(p => p !== server.pid);
    assert.ok(pid, 'the stdio server process');
    process.kill(pid, 'SIGUSR2');
    await waitFor(() => names('mod').includes('added1'), 'stdio: the new prompt after list_changed');
    server.signal('SIGUSR2');
    await waitFor(() => names('modhttp').includes('added1'), 'HTTP: the new prompt after list_changed');

    // The server drops the stream: we listen again and still see the next change.
    server.signal('SIGUSR1');
    await waitFor(
      () => log('modhttp').lines.some(l => l.message === 'modhttp dropped the stream of list changes; listening again'),
      'the drop noticed',
    );
    await waitFor(() => acks('modhttp') === 2, 'a second listen stream acknowledged');
    server.signal('SIGUSR2');
    await waitFor(() => names('modhttp').includes('added2'), 'HTTP: the change after the re-listen');
    assert.equal(log('modhttp').sentMethods('subscriptions/listen').length, 2);
    // No polling: lists only on a change (first list, list_changed, the re-listen's catch-up, list_changed).
    assert.ok(
      log('modhttp').sentMethods('prompts/list').length <= 4,
      `${log('modhttp').sentMethods('prompts/list').length} lists`,
    );
  } finally {
    await catalog.dispose();
    await server.close();
  }
});

test('a remembered 2026 era that went stale (the server is a 2025 one now) fails once, is forgotten, and the next start probes and works', async () => {
  const { modernCommand } = await launch();
  const eras = new EraMemory();
  const [modern] = defs({ strict: modernCommand() });
  const probe = new ServerConnection(modern, { restart: false, eras });
  try {
    await probe.connect();
  } finally {
    await probe.dispose();
  }
  const remembered = eras.get(eraKey(modern));
  assert.equal(remembered?.kind, 'modern');
  // Same name, now a 2025 server that exits on any request before initialize.
  const { catalog, log } = makeCatalog({ strict: { command: process.execPath, args: [STRICT_OLD] } }, eras);
  const [old] = defs({ strict: { command: process.execPath, args: [STRICT_OLD] } });
  eras.set(eraKey(old), remembered);
  try {
    await catalog.ready();
    assert.match(
      catalog.server('strict')!.listError?.message ?? '',
      /^strict closed the connection during listing prompts/,
    );
    assert.equal(eras.get(eraKey(old)), undefined, 'forgotten');
    await catalog.refresh();
    const entry = catalog.server('strict')!;
    assert.equal(entry.listError, undefined, log('strict').text());
    assert.equal(entry.connection.info?.era, 'legacy');
    assert.deepEqual(
      entry.prompts.map(p => p.prompt.name),
      ['hi'],
    );
    assert.equal(eras.get(eraKey(old))?.kind, 'legacy');
  } finally {
    await catalog.dispose();
  }
});

test('serverInfo on 2026-07-28 connections: the latest a result names is kept, logged and shown in the tooltip; hostile text is one short line', async () => {
  const { modernCommand, startModernHttp } = await launch();
  const dir = tempDir();
  const infoFile = path.join(dir, 'info.json');
  const hostileFile = path.join(dir, 'hostile.json');
  const hostileTitle = `**Bold** [click](command:workbench.action.quit)\n\u202eevil ${'x'.repeat(400)}`;
  fs.writeFileSync(hostileFile, JSON.stringify({ name: 'bad\nname', version: '6.6.6\u001b[31m', title: hostileTitle }));
  const server = await startModernHttp({ env: { MODERN_INFO_FILE: infoFile } });
  const { catalog, log } = makeCatalog({
    modhttp: { type: 'http', url: server.url },
    hostile: { ...modernCommand(), env: { MODERN_INFO_FILE: hostileFile } },
  });
  try {
    await catalog.ready();
    const entry = catalog.server('modhttp')!;
    assert.deepEqual(entry.connection.info!.serverInfo, { name: 'modern-demo', version: '2.0.0' });

    // The server is upgraded behind the same address: the next result names the new version.
    fs.writeFileSync(infoFile, JSON.stringify({ name: 'modern-demo', version: '2.1.0', title: 'Modern Demo' }));
    let changes = 0;
    catalog.onDidChange(e => {
      if (e === entry) changes++;
    });
    await getLine(catalog, 'modhttp.greet Ada');
    assert.deepEqual(entry.connection.info!.serverInfo, {
      name: 'modern-demo',
      version: '2.1.0',
      title: 'Modern Demo',
    });
    assert.ok(changes >= 1, 'the tree hears of the new identity');
    assert.ok(
      log('modhttp').lines.some(
        l => l.message === 'modhttp now reports itself as Modern Demo (modern-demo) 2.1.0 (was modern-demo 2.0.0)',
      ),
    );
    const tooltip = serverItem(catalog.server('modhttp')!).tooltip as TooltipPart[];
    assert.ok(tooltip.some(p => 'text' in p && p.text === 'Server: Modern Demo (modern-demo) 2.1.0\n\n'));
    // The same identity again changes nothing and logs nothing.
    const logged = log('modhttp').lines.length;
    await getLine(catalog, 'modhttp.greet Ada');
    assert.equal(log('modhttp').lines.filter((l, i) => i >= logged && /reports itself/.test(l.message)).length, 0);

    // Hostile serverInfo (from server/discover and from every result): one short line, no controls, shown as text.
    const bad = catalog.server('hostile')!.connection.info!.serverInfo!;
    assert.equal(bad.name, 'bad name');
    assert.equal(bad.version, '6.6.6 [31m');
    assert.ok(bad.title!.length <= 101, `title of ${bad.title!.length} chars`);
    assert.doesNotMatch(bad.title!, /[\n\u202e]/);
    // The label rule: `](` gets a zero-width space, so no link forms wherever the title is shown.
    assert.ok(bad.title!.startsWith('**Bold** [click]\u200b(command:workbench.action.quit) evil xxx'), bad.title);
    const running = log('hostile').lines.find(l => l.message.startsWith('hostile is running: '))!.message;
    assert.ok(![...running].some(c => c === '\n' || c === '\u001b' || c === '\u202e'), running);
    const parts = serverItem(catalog.server('hostile')!).tooltip as TooltipPart[];
    const serverPart = parts.find(p => JSON.stringify(p).includes('Bold'))!;
    assert.ok('text' in serverPart, 'server text goes into the tooltip as text (escaped), never as markdown');
  } finally {
    await catalog.dispose();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
