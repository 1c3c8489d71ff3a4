// A server that closes a connection just as a request goes out on it (an idle kept-alive connection it
// drops, a proxy restarting): the read is sent once more on a fresh connection and answered, over
// Streamable HTTP, for the real v2 server behind a front that drops one request unanswered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EraMemory } from '../../src/core/protocol/transport/eras';
import { httpFront, launch, testCatalog } from './helpers';

test('a read whose connection the server closes before answering is sent once more and answered', async () => {
  const L = await launch();
  const server = await L.startModernHttp();
  const front = await httpFront(server.url, { dropOnce: post => post.body.method === 'prompts/get' });
  const { catalog, entry, log } = testCatalog(
    { modernhttp: { type: 'http', url: front.url } },
    { timeoutMs: 20000, eras: new EraMemory() },
  );
  try {
    await catalog.ready();
    const result = await entry('modernhttp').connection.getPrompt('greet', { name: 'Ada' });
    assert.match(JSON.stringify(result), /Hello, Ada! \(modern-demo\)/, log('modernhttp').text());
    assert.equal(front.posts.filter(p => p.body.method === 'prompts/get').length, 2, 'dropped once, sent again');
    assert.equal(log('modernhttp').sentMethods('prompts/get').length, 1, 'one request of ours');
  } finally {
    await catalog.dispose();
    await front.close();
    await server.close();
  }
});
