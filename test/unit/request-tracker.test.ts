// The requests under way on one connection (core/protocol/questions/request-tracker.ts): each request has
// its own signal, which aborts on the caller's cancel, on the timeout (with the SDK's timeout error) and
// when failed from outside, and on nothing once the request ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SdkError } from '@modelcontextprotocol/client';
import { RequestTracker, type TrackedRequest } from '../../src/core/protocol/questions/request-tracker';

const info = { method: 'prompts/get', params: { name: 'review' }, timeoutMs: 60_000 };

/** The signal a request was given, once it ended. */
async function signalOf(tracker: RequestTracker, during: (r: TrackedRequest) => void = () => {}): Promise<AbortSignal> {
  let seen: TrackedRequest | undefined;
  await tracker.run(info, async r => {
    seen = r;
    during(r);
  });
  return seen!.signal;
}

test("the caller's cancel aborts the request's signal, with the caller's reason, and each listener hears it once", async () => {
  const tracker = new RequestTracker();
  const first = await signalOf(tracker);
  const second = await signalOf(tracker);
  assert.notEqual(second, first, 'each request has its own signal');
  assert.equal(first.aborted, false);

  const caller = new AbortController();
  const reason = new Error('cancelled by the person');
  let heard = 0;
  let removedHeard = 0;
  const cancelled = await tracker
    .run({ ...info, signal: caller.signal }, async r => {
      r.signal.addEventListener('abort', () => heard++, { once: true });
      const removed = () => removedHeard++;
      r.signal.addEventListener('abort', removed, { once: true });
      r.signal.removeEventListener('abort', removed);
      caller.abort(reason);
      caller.abort(new Error('again'));
      return r.signal;
    })
    .catch(() => undefined);
  assert.equal(cancelled?.aborted, true);
  assert.equal(cancelled?.reason, reason);
  assert.throws(() => cancelled?.throwIfAborted(), /cancelled by the person/);
  assert.equal(heard, 1);
  assert.equal(removedHeard, 0, 'a removed listener hears nothing');
  assert.equal((await signalOf(tracker)).aborted, false, 'the next request is not aborted');
});

test('a signal the caller cancelled before the request began starts aborted', async () => {
  const tracker = new RequestTracker();
  const caller = new AbortController();
  caller.abort(new Error('gone'));
  const signal = await tracker.run({ ...info, signal: caller.signal }, async r => r.signal);
  assert.equal(signal.aborted, true);
});

test("failing a request that already ended does not abort it, nor the next request's signal", async () => {
  const tracker = new RequestTracker();
  let ended: TrackedRequest | undefined;
  await tracker.run(info, async r => {
    ended = r;
  });
  await tracker.run(info, async r => {
    ended!.fail(new Error('a message past the bound, too late'));
    assert.equal(ended!.signal.aborted, false);
    assert.equal(r.signal.aborted, false);
  });
  const error = await tracker
    .run(info, async r => {
      tracker.failAll(new Error('a message past the bound'));
      assert.equal(r.signal.aborted, true);
      throw new Error('the SDK saw the abort');
    })
    .catch((e: unknown) => e);
  assert.match(String(error), /past the bound/, 'a request failed from outside throws why');
});

test('a request that times out is aborted with the SDK timeout error', async () => {
  const tracker = new RequestTracker();
  // The deadline timer does not keep a process alive on its own (a connection does).
  const alive = setTimeout(() => {}, 5000);
  const error = await tracker
    .run(
      { ...info, timeoutMs: 20 },
      r => new Promise((_, reject) => r.signal.addEventListener('abort', () => reject(r.signal.reason as Error))),
    )
    .catch((e: unknown) => e);
  clearTimeout(alive);
  assert.ok(error instanceof SdkError, String(error));
  assert.equal((await signalOf(tracker)).aborted, false);
});
