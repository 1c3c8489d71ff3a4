// The revision is decided by what the server answers, not by a timer (docs/protocol.md): a server whose
// first answer comes late (a cold server, a loaded machine) is waited for up to the start's timeout and
// used in the era it answers in, over stdio and HTTP, 2025 and 2026 alike; a 2025 handshake refused with
// "unsupported protocol version" naming 2026 is followed. Real servers: the v1 SDK fixtures and the v2
// 2026-only one, made late by test/fixtures/late.mjs (stdio) and a front that holds the first request (HTTP).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { EraMemory, eraKey } from '../../src/core/protocol/transport/eras';
import { defs, httpFront, launch, testCatalog } from './helpers';

const LATE = path.join(process.cwd(), 'test', 'fixtures', 'late.mjs');
/** Later than the version probe's old 5 s bound, well inside the start's 20 s. */
const LATE_MS = 6000;

test('a late first answer is still the answer: stdio and HTTP, 2025 and 2026 servers that answer after 6 s are used in their own era', async () => {
  const L = await launch();
  const legacyHttp = await L.startHttpFixture('paginated');
  const modernHttp = await L.startModernHttp();
  const fronts = [
    await httpFront(legacyHttp.url, { holdFirstMs: LATE_MS }),
    await httpFront(modernHttp.url, { holdFirstMs: LATE_MS }),
  ];
  const env = { LATE_MS: String(LATE_MS) };
  const { catalog, log, entry } = testCatalog(
    {
      legacy: { command: process.execPath, args: [LATE, L.RUN_MJS, 'paginated'], env },
      modern: { command: process.execPath, args: [LATE, L.modernCommand().args[0]], env },
      legacyhttp: { type: 'http', url: fronts[0].url },
      modernhttp: { type: 'http', url: fronts[1].url },
    },
    { timeoutMs: 20000, eras: new EraMemory() },
  );
  try {
    await catalog.ready();
    for (const [id, era] of [
      ['legacy', 'legacy'],
      ['modern', 'modern'],
      ['legacyhttp', 'legacy'],
      ['modernhttp', 'modern'],
    ] as const) {
      assert.equal(entry(id).listError, undefined, `${id}: ${log(id).text()}`);
      assert.equal(entry(id).connection.info?.era, era, id);
      assert.ok(entry(id).prompts.length > 0, id);
      // While it waited, the log said so.
      assert.ok(
        log(id).lines.some(l => l.message === `${id} has not answered for 5 s; waiting up to 20 s for its answer`),
        `${id}: ${log(id).text()}`,
      );
    }
    // HTTP: the probe's late answer decided; nothing was sent meanwhile.
    assert.equal(log('modernhttp').sentMethods('server/discover').length, 1);
    assert.equal(log('modernhttp').sentMethods('initialize').length, 0, 'no 2025 handshake for a 2026 server');
    assert.equal(log('legacyhttp').sentMethods('server/discover').length, 1);
    assert.equal(log('legacyhttp').sentMethods('initialize').length, 1);
    // stdio: initialize first on the one process; the 2026 server refused it and was asked server/discover.
    assert.equal(log('legacy').sentMethods('server/discover').length, 0);
    assert.equal(log('modern').sentMethods('server/discover').length, 1);
  } finally {
    await catalog.dispose();
    for (const f of fronts) await f.close();
    await legacyHttp.close();
    await modernHttp.close();
  }
});

test('a 2025 handshake refused with "unsupported protocol version" naming 2026 is followed: a remembered 2025 era of a server that now speaks 2026 only (HTTP and stdio)', async () => {
  const L = await launch();
  const server = await L.startModernHttp();
  const servers = { modernhttp: { type: 'http', url: server.url }, modern: L.modernCommand() };
  const eras = new EraMemory();
  for (const def of defs(servers)) eras.set(eraKey(def), { kind: 'legacy' });
  const { catalog, log, entry } = testCatalog(servers, { timeoutMs: 20000, eras });
  try {
    await catalog.ready();
    for (const id of ['modernhttp', 'modern']) {
      assert.equal(entry(id).listError, undefined, `${id}: ${log(id).text()}`);
      assert.equal(entry(id).connection.info?.era, 'modern', id);
      assert.equal(eras.get(eraKey(entry(id).def))?.kind, 'modern', `${id}: remembered anew`);
    }
    assert.deepEqual(
      log('modernhttp')
        .sent()
        .filter(m => m.method === 'initialize' || m.method === 'server/discover')
        .map(m => m.method),
      ['initialize', 'server/discover'],
    );
    assert.equal(entry('modernhttp').connection.info?.transport, 'http', 'no detour through legacy SSE');
    assert.ok(
      log('modernhttp').lines.some(
        l => l.message === 'modernhttp speaks only the 2026 revision; asking it with server/discover',
      ),
    );
  } finally {
    await catalog.dispose();
    await server.close();
  }
});
