// What every 2026-07-28 request carries (docs/protocol.md): over HTTP the `MCP-Protocol-Version` header on
// every POST, `Mcp-Method` on every request and `Mcp-Name` on prompts/get and resources/read (SEP-2243);
// over both transports `_meta` with the protocol version, client capabilities and client info (SEP-2575).
// The SDK adds them on a 2026 connection; this checks that what we send through it (listing, the listen
// stream, get, completion, a resource read) keeps them, as the real v2 server receives them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EraMemory } from '../../src/core/protocol/transport/eras';
import { httpFront, launch, testCatalog } from './helpers';

const META = {
  version: 'io.modelcontextprotocol/protocolVersion',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  info: 'io.modelcontextprotocol/clientInfo',
};

type Sent = { id?: unknown; method?: string; params?: { _meta?: Record<string, unknown> } & Record<string, unknown> };

function checkMeta(label: string, message: Sent): void {
  const meta = message.params?._meta ?? {};
  assert.equal(meta[META.version], '2026-07-28', `${label}: protocol version in _meta`);
  assert.deepEqual(meta[META.capabilities], { elicitation: { form: {}, url: {} } }, `${label}: capabilities`);
  assert.equal((meta[META.info] as { name?: string } | undefined)?.name, 'mcp-prompts', `${label}: client info`);
}

/** Lists, gets, completes and reads a resource on `id`, as the extension does. */
async function useServer(catalog: ReturnType<typeof testCatalog>, id: string): Promise<void> {
  const connection = catalog.entry(id).connection;
  await connection.getPrompt('greet', { name: 'Ada' });
  await connection.complete('greet', 'name', 'A', {});
  await connection.readResource('modern://readme');
}

test('every 2026-07-28 request carries its headers (HTTP) and _meta (HTTP and stdio): list, listen, get, complete, read', async () => {
  const L = await launch();
  const env = { MODERN_RESOURCE: '1' };
  const server = await L.startModernHttp({ env });
  const front = await httpFront(server.url);
  const catalog = testCatalog(
    { modernhttp: { type: 'http', url: front.url }, modern: { ...L.modernCommand(), env } },
    { timeoutMs: 20000, eras: new EraMemory() },
  );
  try {
    await catalog.catalog.ready();
    for (const id of ['modernhttp', 'modern']) {
      assert.equal(catalog.entry(id).connection.info?.era, 'modern', id);
      await useServer(catalog, id);
    }
    const requests = front.posts.filter(p => p.body.id !== undefined);
    assert.deepEqual([...new Set(requests.map(p => p.body.method))].sort(), [
      'completion/complete',
      'prompts/get',
      'prompts/list',
      'resources/read',
      'server/discover',
      'subscriptions/listen',
    ]);
    for (const { headers, body } of front.posts) {
      const label = `HTTP ${body.method}`;
      assert.equal(headers['mcp-protocol-version'], '2026-07-28', `${label}: MCP-Protocol-Version`);
      if (body.id === undefined) continue;
      assert.equal(headers['mcp-method'], body.method, `${label}: Mcp-Method`);
      const name =
        body.method === 'prompts/get' ? 'greet' : body.method === 'resources/read' ? 'modern://readme' : undefined;
      assert.equal(headers['mcp-name'], name, `${label}: Mcp-Name`);
      checkMeta(label, body);
    }
    // stdio has no headers: the same _meta on every request after the refused initialize (which carries it too).
    const sent = catalog
      .log('modern')
      .sent()
      .filter(m => m.id !== undefined) as Sent[];
    assert.ok(sent.some(m => m.method === 'resources/read'));
    for (const message of sent) checkMeta(`stdio ${message.method}`, message);
  } finally {
    await catalog.catalog.dispose();
    await front.close();
    await server.close();
  }
});
