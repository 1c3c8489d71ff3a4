// What one server can make us hold (docs/limits.md), against the hostile `faulty` fixture: one message
// (stdio line, HTTP JSON body, one event of a stream), one prompts/get result, the prompts and the
// bytes of one listing. Past a bound: one message naming the server and the bound, what was read before
// stays, the other servers go on; the CLI exits 1 with one line, even with a 256 MB heap.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { MAX_LISTED_PROMPTS, MAX_LISTING_BYTES } from '../../src/core/catalog/listing';
import { MAX_MESSAGE_BYTES } from '../../src/core/protocol/limits/message-limit';
import { type Launch, launch, rejection, runCli, tempDir, testCatalog, waitFor, getLine } from './helpers';

let L: Launch;
before(async () => {
  L = await launch();
});

const MB = 1024 * 1024;
const faulty = (fault: string, env?: Record<string, string>) => ({ ...L.faultyCommand(fault), ...(env && { env }) });

test('the bounds are what docs/limits.md says', () => {
  assert.equal(MAX_MESSAGE_BYTES, 32 * MB);
  assert.equal(MAX_LISTING_BYTES, 16 * MB);
  assert.equal(MAX_LISTED_PROMPTS, 10000);
  const doc = fs.readFileSync(path.join(process.cwd(), 'docs', 'limits.md'), 'utf8');
  for (const row of [
    '| one message | 32 MB |',
    '| one listing, all pages | 16 MB |',
    '| prompts of one listing | 10,000 |',
  ])
    assert.ok(doc.includes(row), `docs/limits.md has ${row}`);
});

test('more prompts than a listing keeps: the first 10,000 stay, one message names the server and the bound', async () => {
  const { catalog, entry, log } = testCatalog({ s: faulty('many-prompts') });
  try {
    await catalog.ready();
    assert.equal(entry('s').listError?.message, 's listed more than 10000 prompts; the rest was not read');
    assert.equal(entry('s').prompts.length, 10000);
    assert.equal(log('s').sentMethods('prompts/list').length, 10, 'no page after the bound');
  } finally {
    await catalog.dispose();
  }
});

test('more bytes than a listing keeps: no page is asked for after the bound, and a second server keeps working meanwhile', async () => {
  const { catalog, entry, log } = testCatalog({ big: faulty('big-pages'), good: faulty('ok') });
  try {
    await catalog.ready('good');
    const listing = catalog.refresh('big');
    // While the big pages arrive, the other server answers.
    await waitFor(() => log('big').sentMethods('prompts/list').length > 0, 'the listing to start');
    const hello = await getLine(catalog, 'good.hello name=Ada');
    assert.deepEqual(hello?.result.messages, [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
    await listing;
    assert.equal(entry('big').listError?.message, 'big sent more than 16 MB of prompts; the rest was not read');
    assert.deepEqual(
      entry('big').prompts.map(p => p.prompt.name),
      ['big_0', 'big_1'],
      'the pages read before the bound stay',
    );
    assert.equal(log('big').sentMethods('prompts/list').length, 2);
    assert.equal(entry('good').listError, undefined);
    assert.equal(entry('good').connection.state.kind, 'running');
  } finally {
    await catalog.dispose();
  }
});

test('stdio: a message past the bound closes that connection (the SDK cannot skip the rest of a line); a get result too', async () => {
  const { catalog, entry, log } = testCatalog({ s: faulty('endless-list'), g: faulty('huge-get') });
  try {
    await catalog.ready();
    assert.equal(
      entry('s').listError?.message,
      's sent a message larger than 32 MB during listing prompts; the connection was closed',
    );
    assert.equal(
      log('s').lines.filter(l => l.level === 'warn' && l.message.includes('larger than 32 MB')).length,
      1,
      'one line in the server log',
    );
    const get = await rejection(getLine(catalog, 'g.hello name=Ada'));
    assert.equal(get.message, 'g sent a message larger than 32 MB during prompt "hello"; the connection was closed');
  } finally {
    await catalog.dispose();
  }
});

test('HTTP: an endless JSON body, an endless event and a get result past the bound end that request only; the server keeps serving', async () => {
  const servers = await Promise.all([
    L.startFaultyHttp('endless-list'),
    L.startFaultyHttp('endless-list', { env: { FAULTY_SSE: '1' } }),
    L.startFaultyHttp('huge-get'),
  ]);
  const [json, sse, get] = servers;
  const { catalog, entry } = testCatalog({ json: { url: json.url }, sse: { url: sse.url }, get: { url: get.url } });
  try {
    await catalog.ready();
    for (const id of ['json', 'sse']) {
      assert.equal(
        entry(id).listError?.message,
        `${id} sent a message larger than 32 MB during listing prompts; it was not read`,
      );
      // The connection stays: the next request is answered.
      const hello = await entry(id).connection.getPrompt('hello', { name: 'Ada' });
      assert.equal((hello.messages?.[0] as { content: { text: string } }).content.text, 'Hello, Ada!', id);
    }
    const error = await rejection(getLine(catalog, 'get.hello name=Ada'));
    assert.equal(error.message, 'get sent a message larger than 32 MB during prompt "hello"; it was not read');
    assert.equal(entry('get').connection.state.kind, 'running');
  } finally {
    await catalog.dispose();
    await Promise.all(servers.map(s => s.close()));
  }
});

/** The CLI with a 256 MB heap: a V8 out-of-memory would print "heap out of memory" and exit 134. */
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=256' };

test('CLI with a 256 MB heap: 80 pages of 8 MB exit 1 with one line, no V8 crash', async () => {
  const dir = tempDir();
  try {
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { big: faulty('big-pages') } }));
    const r = await runCli(['list', '--config', config], { env: SMALL_HEAP, timeoutMs: 120000 });
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.equal(r.stderr, 'mcp-prompts: big sent more than 16 MB of prompts; the rest was not read\n');
    assert.doesNotMatch(r.stdout.slice(0, 200), /out of memory/i);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('CLI with a 256 MB heap: an HTTP server sending an endless body exits 1 with one line', async () => {
  const server = await L.startFaultyHttp('endless-list');
  const dir = tempDir();
  try {
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { endless: { type: 'http', url: server.url } } }));
    const r = await runCli(['list', '--config', config], { env: SMALL_HEAP, timeoutMs: 120000 });
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.equal(
      r.stderr,
      'mcp-prompts: endless sent a message larger than 32 MB during listing prompts; it was not read\n',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
});
