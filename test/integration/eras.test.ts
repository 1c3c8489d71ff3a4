// Protocol era negotiation (docs/protocol.md) against real servers of every revision: over stdio one
// process per start, first and remembered, whatever the server (counted by test/fixtures/counted.mjs);
// over HTTP every way a server may answer the version probe falls back to initialize, and only a
// failing initialize fails the start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../src/core/catalog/catalog';
import { EraMemory, eraKey } from '../../src/core/protocol/transport/eras';
import { RecordingLog, defs, launch, tempDir } from './helpers';

const FIXTURES = path.join(process.cwd(), 'test', 'fixtures');
const COUNTED = path.join(FIXTURES, 'counted.mjs');

function catalogOf(servers: Record<string, unknown>, eras: EraMemory): { catalog: Catalog; log: RecordingLog } {
  const log = new RecordingLog();
  const catalog = new Catalog({ start: 'lazy', connection: () => ({ log, restart: false, timeoutMs: 20000, eras }) });
  catalog.setServers(defs(servers));
  return { catalog, log };
}

test('stdio: one process per start for a server of each revision, on the first start and with the era remembered', async () => {
  const L = await launch();
  const dir = tempDir();
  const cases: Array<[string, string[], Record<string, string>, 'modern' | 'legacy', string]> = [
    ['2024-11-05 (v1 SDK)', [L.RUN_MJS, 'old-protocol'], {}, 'legacy', '2024-11-05'],
    ['2025-11-25 (v1 SDK)', [L.RUN_MJS, 'paginated'], {}, 'legacy', '2025-11-25'],
    [
      '2025, exits on any request before initialize',
      [path.join(FIXTURES, 'strict-old.cjs')],
      {},
      'legacy',
      '2025-06-18',
    ],
    ['2026-07-28 only (v2 SDK)', [path.join(FIXTURES, 'modern.mjs')], {}, 'modern', '2026-07-28'],
    ['dual-era (v2 SDK)', [path.join(FIXTURES, 'modern.mjs')], { MODERN_LEGACY: 'serve' }, 'modern', '2026-07-28'],
  ];
  try {
    for (const [label, args, env, era, version] of cases) {
      const starts = path.join(dir, `${label.replace(/\W+/g, '-')}.starts`);
      const count = () => fs.readFileSync(starts, 'utf8').split('\n').filter(Boolean).length;
      const server = { command: process.execPath, args: [COUNTED, ...args], env: { ...env, COUNT_STARTS: starts } };
      const eras = new EraMemory();
      const { catalog, log } = catalogOf({ s: server }, eras);
      try {
        await catalog.ready();
        const entry = catalog.server('s')!;
        assert.equal(entry.listError, undefined, `${label}: ${log.text()}`);
        assert.ok(entry.prompts.length > 0, label);
        assert.equal(entry.connection.info?.era, era, label);
        assert.equal(entry.connection.info?.protocolVersion, version, label);
        assert.equal(count(), 1, `${label}: the first start is one process`);
        assert.equal(eras.get(eraKey(entry.def))?.kind, era, `${label}: remembered`);
        await entry.connection.restart();
        await catalog.refresh();
        assert.equal(entry.connection.info?.era, era, label);
        assert.equal(count(), 2, `${label}: the remembered start is one process more`);
        // A remembered 2026 era costs no request; a remembered 2025 one goes straight to initialize.
        const discovers = log.sentMethods('server/discover').length;
        assert.equal(discovers, era === 'modern' ? 1 : 0, `${label}: probes`);
      } finally {
        await catalog.dispose();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('stdio: a server that refuses initialize and the version probe fails with what it said to initialize, on its one process', async () => {
  const dir = tempDir();
  const starts = path.join(dir, 'starts');
  const { catalog } = catalogOf(
    {
      s: {
        command: process.execPath,
        args: [COUNTED, path.join(FIXTURES, 'faulty.mjs'), 'refuse-init'],
        env: { COUNT_STARTS: starts },
      },
    },
    new EraMemory(),
  );
  try {
    await catalog.ready();
    assert.equal(catalog.server('s')!.listError?.message, 's rejected startup: unsupported client');
    assert.equal(fs.readFileSync(starts, 'utf8').split('\n').filter(Boolean).length, 1);
  } finally {
    await catalog.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('HTTP: whatever a 2025 server answers the version probe (500, 400, 404, 405, a JSON-RPC error, a dropped connection, HTML), the start falls back to initialize and remembers it', async () => {
  const L = await launch();
  for (const probe of ['500', '500-rpc', '400', '404', '405', 'rpc-error', 'close', 'html']) {
    const server = await L.startFaultyHttp('ok', { env: { FAULTY_PROBE: probe } });
    const eras = new EraMemory();
    const { catalog, log } = catalogOf({ s: { type: 'http', url: server.url } }, eras);
    try {
      await catalog.ready();
      const entry = catalog.server('s')!;
      assert.equal(entry.listError, undefined, `${probe}: ${log.text()}`);
      assert.deepEqual(
        entry.prompts.map(p => p.prompt.name),
        ['hello', 'echo'],
        probe,
      );
      assert.equal(entry.connection.info?.era, 'legacy', probe);
      assert.equal(entry.connection.info?.transport, 'http', `${probe}: no detour through legacy SSE`);
      assert.equal(eras.get(eraKey(entry.def))?.kind, 'legacy', probe);
      // The next start goes straight to initialize.
      await entry.connection.restart();
      assert.equal(log.sentMethods('server/discover').length, 1, probe);
      assert.equal(log.sentMethods('initialize').length, 2, probe);
    } finally {
      await catalog.dispose();
      await server.close();
    }
  }
});

test('HTTP: a probe that fails and an initialize that fails too: the start fails with what initialize met', async () => {
  const L = await launch();
  const server = await L.startFaultyHttp('500');
  const { catalog, log } = catalogOf({ s: { type: 'http', url: server.url } }, new EraMemory());
  try {
    await catalog.ready();
    assert.equal(
      catalog.server('s')!.listError?.message,
      's answered HTTP 500: {"error":"status 500 from the faulty server"}',
    );
    assert.ok(
      log.lines.some(l => /^s refused the protocol version probe \(.*\); using the 2025 handshake$/.test(l.message)),
    );
  } finally {
    await catalog.dispose();
    await server.close();
  }
});
