// The in-memory store of results (what mcp-prompts-media: and the transcript editor serve) is bounded by
// size, not only by count, and evicts the oldest: 1,000 runs with 5 MB images must not pile up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTranscript } from '../../src/core/render/content';
import type { InvokeResult } from '../../src/core/run/invocation';
import { BoundedMap, heldChars } from '../../src/core/bounded';
import { RESULTS_CHARS_LIMIT, ResultStore } from '../../src/core/run/records/result-store';

const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

/** A prompt result with one PNG image of `bytes` bytes, as a server sends it. */
function imageResult(bytes: number) {
  const png = Buffer.concat([PNG_HEAD, Buffer.alloc(bytes - PNG_HEAD.length, 7)]);
  const raw = {
    messages: [{ role: 'user', content: { type: 'image', data: png.toString('base64'), mimeType: 'image/png' } }],
  };
  const invoke = { prompt: { invocationName: 's.p' }, args: {}, result: raw } as unknown as InvokeResult;
  return { invoke, transcript: toTranscript(raw) };
}

test('results with 5 MB images are bounded by size and the oldest go first', () => {
  const store = new ResultStore();
  const { invoke, transcript } = imageResult(5 * 1024 * 1024);
  assert.equal(transcript.messages[0].parts[0].kind, 'image');
  const ids = Array.from({ length: 20 }, () => store.store(invoke, transcript).id);
  const kept = ids.filter(id => store.get(id));
  // Counted from what the kept results hold, not from the store's own bookkeeping.
  const held = kept.reduce(
    (n, id) => n + heldChars(store.get(id)!.result.result) + heldChars(store.get(id)!.transcript),
    0,
  );
  assert.ok(held <= RESULTS_CHARS_LIMIT, `${kept.length} results hold ${held} characters`);
  assert.ok(kept.length >= 1 && kept.length < 20);
  assert.deepEqual(kept, ids.slice(-kept.length), 'the newest are kept, the oldest evicted');
  assert.equal(store.latest?.id, ids.at(-1));
});

test('a result larger than the whole budget is still kept while it is the newest', () => {
  const map = new BoundedMap<string>(50, 10);
  map.set('a', 'x'.repeat(4));
  map.set('b', 'x'.repeat(25));
  assert.deepEqual(map.values(), ['x'.repeat(25)]);
  map.set('c', 'yy');
  assert.deepEqual(map.values(), ['yy']);
  assert.equal(map.chars, 2);
});

test('the count bound still applies to small results', () => {
  const map = new BoundedMap<string>(3, 1000);
  for (const k of ['a', 'b', 'c', 'd']) map.set(k, k);
  assert.deepEqual(map.values(), ['b', 'c', 'd']);
  assert.equal(map.get('a'), undefined);
});

test('each result the bounds evict is reported once, oldest first; a delete or a replaced key is not', () => {
  const evicted: string[] = [];
  const map = new BoundedMap<string>(2, 1000, undefined, key => evicted.push(key));
  for (const k of ['a', 'b', 'c', 'd']) map.set(k, k);
  map.set('d', 'dd');
  map.delete('c');
  assert.deepEqual(evicted, ['a', 'b']);
});

test('the result store tells its listeners which results the size bound evicted', () => {
  const store = new ResultStore();
  const evicted: string[] = [];
  const sub = store.onEvict(r => evicted.push(r.id));
  const { invoke, transcript } = imageResult(5 * 1024 * 1024);
  const ids = Array.from({ length: 6 }, () => store.store(invoke, transcript).id);
  const kept = ids.filter(id => store.get(id));
  assert.deepEqual(evicted, ids.slice(0, ids.length - kept.length), 'every evicted id, oldest first');
  sub.dispose();
  store.store(invoke, transcript);
  assert.equal(evicted.length, ids.length - kept.length, 'a disposed listener hears nothing more');
});

test('kept results with 5 MB images and the transcript documents VS Code keeps of them stay within +50 MB', () => {
  // Per kept result, measured in the real host (bench/heap-retainers.mjs on a heap snapshot): its base64
  // once in the store (the answer and its transcript share the string) and 3 bytes per base64 character
  // in the transcript document VS Code keeps (its lines, and the text the preview read, 2 bytes a character
  // for the emoji labels). The rest of the +50 MB is the markdown preview's own code and VS Code's buffers.
  const store = new ResultStore();
  const { invoke, transcript } = imageResult(5 * 1024 * 1024);
  const ids = Array.from({ length: 20 }, () => store.store(invoke, transcript).id);
  const base64 =
    ids.filter(id => store.get(id)).length * (transcript.messages[0].parts[0] as { data: string }).data.length;
  const MB = 1024 * 1024;
  assert.ok(base64 * (1 + 3) <= 40 * MB, `${(base64 * 4) / MB} MB kept`);
});

test('the size of a value counts its strings, past any depth and around a cycle', () => {
  assert.equal(heldChars({ messages: [{ role: 'user', content: { type: 'text', text: 'abcd' } }] }), 4 + 4 + 4);
  let deep: unknown = 'xyz';
  for (let i = 0; i < 5000; i++) deep = i % 2 ? [deep] : { v: deep };
  assert.equal(heldChars(deep), 3);
  const cyclic: { text: string; self?: unknown } = { text: 'ab' };
  cyclic.self = [cyclic, 'c'];
  assert.equal(heldChars(cyclic), 3);
});
