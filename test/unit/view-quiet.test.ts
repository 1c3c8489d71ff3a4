// A box that opens on its own waits until the sidebar is still (src/ui/view-quiet.ts): not while the view
// changes, at once when it is hidden or the box is cancelled, never longer than the bound while the view
// keeps changing. On a clock of the test's own: the verdicts hold however busy the machine is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ViewQuiet, type Clock } from '../../src/ui/view-quiet';

/** A view's change event, as vscode.EventEmitter gives it. */
function changes() {
  const listeners = new Set<(e: unknown) => void>();
  const event = (listener: (e: unknown) => void) => {
    listeners.add(listener);
    return { dispose: () => listeners.delete(listener) };
  };
  return { event, fire: () => listeners.forEach(l => l(undefined)) };
}

/** Time that moves only when the test says; `advance` wakes the sleeps that are due. */
function testClock() {
  let t = 1000;
  let sleeps: Array<{ until: number; wake: () => void }> = [];
  const clock: Clock = {
    now: () => t,
    sleep: ms => new Promise<void>(wake => sleeps.push({ until: t + ms, wake })),
  };
  const advance = async (ms: number) => {
    t += ms;
    const due = sleeps.filter(s => s.until <= t);
    sleeps = sleeps.filter(s => s.until > t);
    due.forEach(s => s.wake());
    await flush();
  };
  return { clock, advance };
}

/** Lets the waits that woke (or never slept) run to their next sleep or their end. */
async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** A visible view watched on a test clock, with the wait of a box that opens now. */
function boxWaitingOnAVisibleView() {
  const view = changes();
  const { clock, advance } = testClock();
  const quiet = new ViewQuiet(clock);
  quiet.watch(view.event, () => true);
  const box = { settled: false };
  view.fire();
  void quiet.settled().then(() => (box.settled = true));
  return { view, advance, quiet, box };
}

test('a box waits until the visible view has stopped changing for 400 ms', async () => {
  const { view, advance, quiet, box } = boxWaitingOnAVisibleView();
  for (let i = 0; i < 3; i++) {
    await advance(300);
    assert.equal(box.settled, false, `settled ${300 * i + 300} ms after a change, the view still changing`);
    view.fire();
  }
  await advance(399);
  assert.equal(box.settled, false, 'settled 399 ms after the last change');
  await advance(1);
  assert.equal(box.settled, true, 'not settled 400 ms after the last change');
  quiet.dispose();
});

test('a hidden view does not hold a box back, nor does a cancelled box wait', async () => {
  const view = changes();
  const { clock } = testClock();
  const quiet = new ViewQuiet(clock);
  let visible = false;
  quiet.watch(view.event, () => visible);
  /** Whether settled() resolves with no time passing on this clock. */
  const atOnce = async (token?: Parameters<ViewQuiet['settled']>[0]) => {
    let done = false;
    void quiet.settled(token).then(() => (done = true));
    await flush();
    return done;
  };
  view.fire();
  assert.equal(await atOnce(), true, 'a change of a hidden view held the box back');
  visible = true;
  view.fire();
  assert.equal(await atOnce(), false, 'a change of the visible view did not hold the box back');
  const cancelled = { isCancellationRequested: true, onCancellationRequested: () => ({ dispose() {} }) };
  assert.equal(await atOnce(cancelled), true, 'a cancelled box waited');
  quiet.dispose();
});

test('a view that keeps changing holds a box back 3 s at most', async () => {
  const { view, advance, quiet, box } = boxWaitingOnAVisibleView();
  for (let ms = 100; ms < 3000; ms += 100) {
    await advance(100);
    view.fire();
    assert.equal(box.settled, false, `settled after ${ms} ms of changes`);
  }
  await advance(100);
  assert.equal(box.settled, true, 'still waiting after 3 s of changes');
  quiet.dispose();
});
