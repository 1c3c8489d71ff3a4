import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RESTART, RestartDecision, RestartPolicy, afterCrash } from '../../src/core/protocol/limits/backoff';

/** Feeds crashes at the given clock readings through the policy, keeping the crash list as the connection does. */
function crashAt(policy: RestartPolicy, times: readonly number[]): RestartDecision[] {
  let crashes: number[] = [];
  return times.map(now => {
    const decision = afterCrash(policy, crashes, now);
    crashes = decision.crashes;
    return decision;
  });
}

const delays = (decisions: RestartDecision[]) => decisions.map(d => (d.kind === 'restart' ? d.delayMs : 'give-up'));

test('the restart delay starts at 1 s and doubles with each crash in the window', () => {
  assert.deepEqual(delays(crashAt(DEFAULT_RESTART, [0, 1000, 3000, 7000])), [1000, 2000, 4000, 8000]);
});

test('the delay stops doubling at the cap', () => {
  const policy: RestartPolicy = { initialDelayMs: 1000, maxDelayMs: 30000, maxCrashes: 10, windowMs: 180000 };
  assert.deepEqual(
    delays(crashAt(policy, [0, 1, 2, 3, 4, 5, 6, 7])),
    [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
  );
});

test('crashes older than the window are forgotten, so the delay falls back to the start', () => {
  const window = DEFAULT_RESTART.windowMs;
  const decisions = crashAt(DEFAULT_RESTART, [0, 10000, 20000, window + 15000]);
  // At window + 15 s the crashes at 0 and 10 s have left the window; the one at 20 s has not.
  assert.deepEqual(delays(decisions), [1000, 2000, 4000, 2000]);
  assert.deepEqual(decisions[3].crashes, [20000, window + 15000], 'only the crashes inside the window are kept');
  // A crash exactly one window after another no longer counts it.
  assert.deepEqual(afterCrash(DEFAULT_RESTART, [0], window).crashes, [window]);
});

test('the fifth crash within three minutes gives up; spread wider, crashes never do', () => {
  const minute = 60000;
  const close = crashAt(DEFAULT_RESTART, [0, minute, 2 * minute, 2.5 * minute, 2.9 * minute]);
  assert.deepEqual(delays(close), [1000, 2000, 4000, 8000, 'give-up']);
  assert.equal(close[4].crashes.length, 5, 'the give-up carries the five crashes it counted');
  const spread = crashAt(
    DEFAULT_RESTART,
    Array.from({ length: 20 }, (_, i) => i * 50 * 1000),
  );
  assert.ok(
    spread.every(d => d.kind === 'restart'),
    `crashes 50 s apart must never give up: ${JSON.stringify(delays(spread))}`,
  );
});

test("the caller's crash list is not changed", () => {
  const earlier = [0, 1000];
  afterCrash(DEFAULT_RESTART, earlier, 2000);
  assert.deepEqual(earlier, [0, 1000]);
});
