// The bound on one HTTP message (src/core/protocol/limits/message-limit.ts): a JSON body is one message, an
// event stream's events are each one, so a long stream of small events is never cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageTooLargeError, WireMeter, limitedFetch } from '../../src/core/protocol/limits/message-limit';

/** A fetch that answers `chunks` as the body, with `headers`. */
function serving(chunks: string[], headers: Record<string, string>): typeof fetch {
  return () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
            controller.close();
          },
        }),
        { status: 200, headers },
      ),
    );
}

function metered(): { meter: WireMeter; heard: MessageTooLargeError[] } {
  const meter = new WireMeter();
  const heard: MessageTooLargeError[] = [];
  meter.onOversized = e => heard.push(e);
  return { meter, heard };
}

const isTooLarge = (e: unknown) => e instanceof MessageTooLargeError && e.limit === 100 && !e.closed;

test('a JSON body of a stated length: passed on whole within the bound, refused unread past it', async () => {
  const small = metered();
  const ok = await limitedFetch(
    small.meter,
    100,
    serving(['{"a":1}'], { 'content-type': 'application/json', 'content-length': '7' }),
  )('http://x/');
  assert.deepEqual(await ok.json(), { a: 1 });
  assert.equal(small.meter.received, 7);
  const big = metered();
  await assert.rejects(
    limitedFetch(big.meter, 100, serving(['x'.repeat(200)], { 'content-length': '200' }))('http://x/'),
    isTooLarge,
  );
  assert.equal(big.heard.length, 1);
});

test('a body without a length (chunked, endless) stops at the bound while it is read', async () => {
  const { meter, heard } = metered();
  await assert.rejects(
    limitedFetch(meter, 100, serving(['x'.repeat(60), 'x'.repeat(60), 'x'.repeat(60)], {}))('http://x/'),
    isTooLarge,
  );
  assert.equal(heard.length, 1);
  assert.equal(meter.received, 120, 'the read stopped at the chunk past the bound');
  // Within the bound it is the same body, read once.
  const ok = await limitedFetch(
    meter,
    100,
    serving(['{"a":', '1}'], { 'content-type': 'application/json' }),
  )('http://x/');
  assert.deepEqual(await ok.json(), { a: 1 });
});

test('an event stream of a stated length within the bound is passed on as it is', async () => {
  const { meter } = metered();
  const body = 'data: {"a":1}\n\n';
  const original = serving([body], { 'content-type': 'text/event-stream', 'content-length': String(body.length) });
  const response = await limitedFetch(meter, 100, original)('http://x/');
  assert.equal(await response.text(), body);
  assert.equal(meter.received, body.length);
  // Longer than the bound in all, its events each within it: still read event by event, not refused.
  const many = Array.from({ length: 50 }, () => `data: ${'y'.repeat(30)}\n\n`).join('');
  const long = await limitedFetch(
    meter,
    100,
    serving([many], { 'content-type': 'text/event-stream', 'content-length': String(many.length) }),
  )('http://x/');
  assert.equal((await long.text()).length, many.length);
});

test('an event stream: each event is bounded, not the stream (LF and CRLF, events split across chunks)', async () => {
  const event = (n: number, crlf = false) => `data: ${'y'.repeat(n)}${crlf ? '\r\n\r\n' : '\n\n'}`;
  const { meter, heard } = metered();
  const many = Array.from({ length: 50 }, (_, i) => event(30, i % 2 === 1));
  // One event split over three chunks, below the bound.
  const split = event(60);
  const stream = await limitedFetch(
    meter,
    100,
    serving([...many, split.slice(0, 10), split.slice(10, 40), split.slice(40)], {
      'content-type': 'text/event-stream',
    }),
  )('http://x/');
  const text = await stream.text();
  assert.equal(text.length, many.join('').length + split.length, 'every event passed, 2 KB in all');
  assert.equal(heard.length, 0);
  const tooBig = await limitedFetch(
    meter,
    100,
    serving([event(30), `data: ${'z'.repeat(60)}`, 'z'.repeat(60)], { 'content-type': 'text/event-stream' }),
  )('http://x/');
  await assert.rejects(tooBig.text(), isTooLarge);
  assert.equal(heard.length, 1);
});

test('an event stream piped into a decoder, as the SDK reads it: every event passes, one past the bound fails it', async () => {
  const event = (n: number) => `data: ${'y'.repeat(n)}\n\n`;
  const read = async (chunks: string[], meter: WireMeter) => {
    const response = await limitedFetch(
      meter,
      100,
      serving(chunks, { 'content-type': 'text/event-stream' }),
    )('http://x/');
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    return text;
  };
  const { meter, heard } = metered();
  const many = Array.from({ length: 50 }, () => event(30));
  assert.equal(await read(many, meter), many.join(''));
  assert.equal(meter.received, many.join('').length);
  await assert.rejects(read([event(30), `data: ${'z'.repeat(60)}`, 'z'.repeat(60), event(10)], meter), isTooLarge);
  assert.equal(heard.length, 1);
});

test("an event stream whose reader gives up: the server's stream is cancelled", async () => {
  let cancelled = false;
  const endless: typeof fetch = () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          pull: c => c.enqueue(new TextEncoder().encode('data: x\n\n')),
          cancel: () => void (cancelled = true),
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
    );
  const response = await limitedFetch(new WireMeter(), 100, endless)('http://x/');
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, 'data: x\n\n');
  await reader.cancel();
  await new Promise(resolve => setImmediate(resolve));
  assert.ok(cancelled);
});
