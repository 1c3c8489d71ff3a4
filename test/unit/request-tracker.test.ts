// The requests under way on one connection (core/protocol/questions/request-tracker.ts): a request that ended
// cleanly hands its controller to the next one, and only then: one that was aborted, timed out or is
// still listened to is never reused, and ending a request from outside after it ended touches nothing.
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

test('a request that ended cleanly hands its signal on; an aborted one, or one still listened to, does not', async () => {
  const tracker = new RequestTracker();
  const first = await signalOf(tracker);
  assert.equal(await signalOf(tracker), first, 'the next request takes the same controller');

  const caller = new AbortController();
  const cancelled = await tracker
    .run({ ...info, signal: caller.signal }, async r => {
      caller.abort(new Error('cancelled by the person'));
      return r.signal;
    })
    .catch(() => undefined);
  assert.equal(cancelled, first, 'the cancelled request had that controller');
  assert.equal(first.aborted, true);
  const fresh = await signalOf(tracker);
  assert.notEqual(fresh, first, 'an aborted controller is not taken again');
  assert.equal(fresh.aborted, false);

  const listening = await signalOf(tracker, r => r.signal.addEventListener('abort', () => {}));
  assert.equal(listening, fresh);
  assert.notEqual(await signalOf(tracker), listening, 'a signal someone still listens to is not taken again');
});

test("failing a request that already ended does not abort the next request's signal", async () => {
  const tracker = new RequestTracker();
  let ended: TrackedRequest | undefined;
  await tracker.run(info, async r => {
    ended = r;
  });
  await tracker.run(info, async r => {
    assert.equal(r.signal, ended!.signal, 'the controller was handed on');
    ended!.fail(new Error('a message past the bound, too late'));
    assert.equal(r.signal.aborted, false);
  });
});

test('a request that times out is aborted with the SDK timeout error, and its controller is not taken again', async () => {
  const tracker = new RequestTracker();
  const before = await signalOf(tracker);
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
  assert.equal(before.aborted, true, 'the timed-out request had the spare controller');
  assert.equal((await signalOf(tracker)).aborted, false);
});
